/**
 * `apt-cache madison PKG…` and `apt-cache policy PKG…` (apt 2.7) over the indexes the last
 * `apt-get update` downloaded: madison prints `%10s | %10s | %s` lines, newest first
 * (cmdline/apt-cache.cc Madison); policy shows Installed, Candidate and the version table with
 * the dpkg status entry for the installed version.
 */
import type { CommandFn } from '../../types.js';
import { nodeEnv, notInstalled } from './host.js';
import { archiveLabel, candidate, pkgState } from './apt-lib.js';
import { availableVersions } from '../../../sim/node/packages.js';

export const aptCache: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const st = pkgState(env.cluster, env.host);
  const [verb, ...pkgs] = ctx.argv.slice(1).filter((a) => !a.startsWith('-'));
  if (verb === 'madison') {
    let out = '';
    let err = '';
    for (const p of pkgs) {
      const avail = availableVersions(st, p);
      if (avail.length === 0 && !(p in st.installed)) err += `N: Unable to locate package ${p}\n`;
      for (const a of avail) out += `${p.padStart(10)} | ${a.version.padStart(10)} | ${archiveLabel(a.uri)}\n`;
    }
    return { stdout: out, stderr: err, exitCode: 0 };
  }
  if (verb === 'policy') {
    let out = '';
    let err = '';
    for (const p of pkgs) {
      const avail = availableVersions(st, p);
      const inst = st.installed[p];
      if (avail.length === 0 && !inst) {
        err += `N: Unable to locate package ${p}\n`;
        continue;
      }
      out += `${p}:\n  Installed: ${inst ?? '(none)'}\n  Candidate: ${candidate(st, p)?.version ?? inst ?? '(none)'}\n  Version table:\n`;
      const versions = [...new Set([...avail.map((a) => a.version), ...(inst ? [inst] : [])])];
      for (const v of versions) {
        out += ` ${v === inst ? '***' : '   '} ${v} ${avail.some((a) => a.version === v) ? 500 : 100}\n`;
        for (const a of avail.filter((x) => x.version === v)) out += `        500 ${archiveLabel(a.uri)}\n`;
        if (v === inst) out += '        100 /var/lib/dpkg/status\n';
      }
    }
    return { stdout: out, stderr: err, exitCode: 0 };
  }
  if (!verb) return { stdout: 'apt 2.7.14 (amd64)\nUsage: apt-cache [options] command\n', stderr: '', exitCode: 1 };
  return { stdout: '', stderr: `E: Invalid operation ${verb}\n`, exitCode: 100 };
};
