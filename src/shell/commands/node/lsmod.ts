/**
 * `lsmod` (kmod 31, tools/lsmod.c): the loaded kernel modules, newest first, as
 * `%-19s %8lu  %d` plus the holders (the modules using it) joined by commas.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { KERNEL_MODULES, loadedModules, moduleHolders } from '../../../sim/node/runtime.js';
import { nodeEnv, notInstalled } from './host.js';

export const lsmod: CommandFn = (ctx): CommandResult => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  if (ctx.argv.length > 1) return { stdout: '', stderr: 'Usage: lsmod\n', exitCode: 1 };
  let out = 'Module                  Size  Used by\n';
  for (const m of [...loadedModules(env.host)].reverse()) {
    const holders = moduleHolders(env.host, m);
    out += `${m.padEnd(19)} ${String(KERNEL_MODULES[m]?.size ?? 16384).padStart(8)}  ${holders.length}${holders.length ? ` ${holders.join(',')}` : ''}\n`;
  }
  return { stdout: out, stderr: '', exitCode: 0 };
};
