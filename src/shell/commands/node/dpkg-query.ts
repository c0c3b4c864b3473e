/**
 * `dpkg-query` (dpkg 1.22) for the node's Kubernetes packages: `-l` lists as `dpkg -l` does (dpkg
 * runs dpkg-query for it), `-W`/`--show [PATTERN…]` prints `${binary:Package}\t${Version}` per
 * installed package in name order, or the `-f`/`--showformat` format with ${Package},
 * ${binary:Package}, ${Version}, ${Architecture} and ${Status} (`hold ok installed` for a held one)
 * and the \n and \t escapes. Words recorded from Debian's dpkg-query 1.21.
 */
import type { CommandFn } from '../../types.js';
import { nodeEnv, notInstalled } from './host.js';
import { pkgState } from './apt-lib.js';
import { dpkg } from './dpkg.js';

const USAGE_HINT = '\nUse --help for help about querying packages.\n';

export const dpkgQuery: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  let action: 'list' | 'show' | undefined;
  let format = '${binary:Package}\\t${Version}\\n';
  const patterns: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-l' || a === '--list') action = 'list';
    else if (a === '-W' || a === '--show') action = 'show';
    else if (a === '-f' || a === '--showformat') format = args[++i] ?? '';
    else if (a.startsWith('--showformat=')) format = a.slice('--showformat='.length);
    // dpkg's own option parser takes `-fFORMAT` and `-f=FORMAT` alike
    else if (a.startsWith('-f') && a.length > 2) format = a.slice(2).replace(/^=/, '');
    else if (a.startsWith('-') && a.length > 1) return { stdout: '', stderr: `dpkg-query: error: unknown option ${a}\n${USAGE_HINT}`, exitCode: 2 };
    else patterns.push(a);
  }
  if (action === undefined) return { stdout: '', stderr: `dpkg-query: error: need an action option\n${USAGE_HINT}`, exitCode: 2 };
  if (action === 'list') return dpkg({ ...ctx, argv: ['dpkg', '-l', ...patterns] });
  const st = pkgState(env.cluster, env.host);
  const rx = (p: string): RegExp => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  const names = Object.keys(st.installed).sort();
  let stdout = '';
  let stderr = '';
  const shown = new Set<string>();
  for (const p of patterns.length ? patterns : ['*']) {
    const hit = names.filter((n) => rx(p).test(n));
    if (hit.length === 0) stderr += `dpkg-query: no packages found matching ${p}\n`;
    for (const n of hit) shown.add(n);
  }
  for (const n of names.filter((x) => shown.has(x))) {
    const fields: Record<string, string> = {
      Package: n,
      'binary:Package': n,
      Version: st.installed[n]!,
      Architecture: 'amd64',
      Status: `${st.held.includes(n) ? 'hold' : 'install'} ok installed`,
    };
    stdout += format.replace(/\$\{([^}]+)\}/g, (_, k: string) => fields[k] ?? '').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
};
