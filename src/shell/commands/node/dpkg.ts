/**
 * `dpkg -l [PATTERN…]` (dpkg 1.22) for the node's Kubernetes packages: the three-line legend, the
 * column header, then `ii` (installed) or `hi` (installed, held) rows. Columns are as wide as
 * their longest entry, as dpkg lays them out when its output is not a terminal.
 */
import type { CommandFn } from '../../types.js';
import { nodeEnv, notInstalled } from './host.js';
import { pkgState } from './apt-lib.js';
import { PACKAGE_DESCRIPTION, type KubePackage } from '../../../sim/node/packages.js';

export const dpkg: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  if (args[0] !== '-l' && args[0] !== '--list')
    return { stdout: '', stderr: "dpkg: error: need an action option\n\nType dpkg --help for help about installing and deinstalling packages [*];\nUse 'apt' or 'aptitude' for user-friendly package management;\nType dpkg -Dhelp for a list of dpkg debug flag values;\nType dpkg --force-help for a list of forcing options;\nType dpkg-deb --help for help about manipulating *.deb files;\n\nOptions marked [*] produce a lot of output - pipe it through 'less' or 'more' !\n", exitCode: 2 };
  const st = pkgState(env.cluster, env.host);
  const patterns = args.slice(1);
  const rx = (p: string): RegExp => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  const rows = Object.keys(st.installed)
    .sort()
    .filter((n) => patterns.length === 0 || patterns.some((p) => rx(p).test(n)))
    .map((n) => ({ flag: st.held.includes(n) ? 'hi' : 'ii', name: n, version: st.installed[n]!, arch: 'amd64', desc: PACKAGE_DESCRIPTION[n as KubePackage] ?? '' }));
  if (rows.length === 0 && patterns.length > 0) return { stdout: '', stderr: `dpkg-query: no packages found matching ${patterns[0]}\n`, exitCode: 1 };
  const w = (k: 'name' | 'version' | 'arch' | 'desc', head: string): number => Math.max(head.length, ...rows.map((r) => r[k].length));
  const [wn, wv, wa, wd] = [w('name', 'Name'), w('version', 'Version'), w('arch', 'Architecture'), w('desc', 'Description')];
  let out = 'Desired=Unknown/Install/Remove/Purge/Hold\n| Status=Not/Inst/Conf-files/Unpacked/halF-conf/Half-inst/trig-aWait/Trig-pend\n|/ Err?=(none)/Reinst-required (Status,Err: uppercase=bad)\n';
  out += `||/ ${'Name'.padEnd(wn)} ${'Version'.padEnd(wv)} ${'Architecture'.padEnd(wa)} Description\n`;
  out += `+++-${'='.repeat(wn)}-${'='.repeat(wv)}-${'='.repeat(wa)}-${'='.repeat(wd)}\n`;
  for (const r of rows) out += `${r.flag}  ${r.name.padEnd(wn)} ${r.version.padEnd(wv)} ${r.arch.padEnd(wa)} ${r.desc}\n`;
  return { stdout: out, stderr: '', exitCode: 0 };
};
