/** env — GNU coreutils src/env.c: print the environment, or run a command with NAME=VALUE added (-i starts empty, -u NAME unsets). */
import type { CommandFn } from '../types.js';
import { shellExtras } from './types.js';

export const env: CommandFn = async (ctx) => {
  const args = ctx.argv.slice(1);
  let vars: Record<string, string> = { ...ctx.env };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-i' || a === '-' || a === '--ignore-environment') vars = {};
    else if (a === '-u' || a === '--unset') delete vars[args[++i] ?? ''];
    else if (a === '--') {
      i++;
      break;
    } else if (a.startsWith('-') && a.length > 1) return { stdout: '', stderr: `env: invalid option -- '${a.slice(1, 2)}'\nTry 'env --help' for more information.\n`, exitCode: 125 };
    else break;
  }
  for (; i < args.length; i++) {
    const m = /^([^=]+)=(.*)$/s.exec(args[i]!);
    if (!m) break;
    vars[m[1]!] = m[2]!;
  }
  const cmd = args.slice(i);
  if (cmd.length === 0) return { stdout: Object.entries(vars).map(([k, v]) => `${k}=${v}\n`).join(''), stderr: '', exitCode: 0 };
  const exec = shellExtras(ctx).exec;
  if (!exec) return { stdout: '', stderr: `env: ‘${cmd[0]}’: No such file or directory\n`, exitCode: 127 };
  const r = await exec(cmd, ctx.stdin, vars);
  if (r.notFound) return { stdout: '', stderr: `env: ‘${cmd[0]}’: No such file or directory\n`, exitCode: 127 };
  return r;
};
