/** env — GNU coreutils src/env.c: print the environment, or run a command with NAME=VALUE added (-i starts empty, -u NAME unsets). */
import type { CommandFn } from '../types.js';
import { busyboxOpts, isBusybox } from './busybox.js';
import { shellExtras } from './types.js';

/**
 * busybox coreutils/env.c: options +i0u: (stops at the first operand), `-` like -i, and
 * BB_EXECVP_or_die's "can't execute 'PROG': ERRNO" with exit 127.
 */
async function busyboxEnv(ctx: Parameters<CommandFn>[0]): Promise<ReturnType<CommandFn>> {
  const args = ctx.argv.slice(1);
  const p = busyboxOpts('env', args, { short: 'i0u:', long: { 'ignore-environment': { key: 'i', arg: false }, null: { key: '0', arg: false }, unset: { key: 'u', arg: true } }, stopAtOperand: true });
  if (!p.ok) return p.result;
  let vars: Record<string, string> = { ...ctx.env };
  let rest = p.opts.operands;
  if (rest[0] === '-') {
    vars = {};
    rest = rest.slice(1);
  }
  for (const [k, v] of p.opts.list) {
    if (k === 'i') vars = {};
    else if (k === 'u') delete vars[v];
  }
  let i = 0;
  for (; i < rest.length; i++) {
    const m = /^([^=]+)=(.*)$/s.exec(rest[i]!);
    if (!m) break;
    vars[m[1]!] = m[2]!;
  }
  const cmd = rest.slice(i);
  const nul = p.opts.list.some(([k]) => k === '0');
  if (cmd.length === 0) return { stdout: Object.entries(vars).map(([k, v]) => `${k}=${v}${nul ? '\0' : '\n'}`).join(''), stderr: '', exitCode: 0 };
  const exec = shellExtras(ctx).exec;
  const r = exec ? await exec(cmd, ctx.stdin, vars) : undefined;
  if (!r || r.notFound) return { stdout: '', stderr: `env: can't execute '${cmd[0]}': No such file or directory\n`, exitCode: 127 };
  return r;
}

export const env: CommandFn = async (ctx) => {
  if (isBusybox(ctx)) return busyboxEnv(ctx);
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
