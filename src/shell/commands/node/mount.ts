/**
 * mount (util-linux 2.39) without arguments or with -t TYPE: the node's mount table (mounts.ts)
 * as `SOURCE on TARGET type TYPE (OPTIONS)`. Mounting and unmounting are not simulated and say so.
 */
import type { CommandFn } from '../../types.js';
import { hostEnv, notInstalled } from './host.js';
import { nodeMounts } from './mounts.js';

export const mount: CommandFn = (ctx) => {
  const env = hostEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  let types: string[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-t' || a === '--types') types = (args[++i] ?? '').split(',');
    else if (a.startsWith('-t') && a.length > 2) types = a.slice(2).split(',');
    else if (a === '-l' || a === '--show-labels') continue;
    else return { stdout: '', stderr: 'mount: cka-lab does not simulate mounting file systems\n', exitCode: 32 };
  }
  const rows = nodeMounts(env.cluster, env.host).filter((m) => !types || types.includes(m.type));
  return { stdout: rows.map((m) => `${m.source} on ${m.target} type ${m.type} (${m.options})\n`).join(''), stderr: '', exitCode: 0 };
};
