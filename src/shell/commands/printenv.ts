/** printenv — GNU coreutils src/printenv.c: all variables, or the values of the named ones (exit 1 if any is unset). */
import type { CommandFn } from '../types.js';

export const printenv: CommandFn = (ctx) => {
  const names = ctx.argv.slice(1);
  if (names.length === 0) return { stdout: Object.entries(ctx.env).map(([k, v]) => `${k}=${v}\n`).join(''), stderr: '', exitCode: 0 };
  let out = '';
  let status = 0;
  for (const n of names) {
    const v = Object.prototype.hasOwnProperty.call(ctx.env, n) ? ctx.env[n] : undefined;
    if (v === undefined) status = 1;
    else out += `${v}\n`;
  }
  return { stdout: out, stderr: '', exitCode: status };
};
