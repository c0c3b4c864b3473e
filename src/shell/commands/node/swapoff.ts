/**
 * `swapoff` (util-linux 2.39, sys-utils/swapoff.c): `-a` turns off every active swap area (and the
 * fstab ones), `swapoff PATH` one. Only the running kernel changes: the /etc/fstab entry turns the
 * swap back on at the next boot (sim/node/runtime.ts bootHost), which is why the kubeadm guide
 * also comments it out.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { activeSwaps, setSwap } from '../../../sim/node/runtime.js';
import { isRoot, nodeEnv, notInstalled } from './host.js';

export const swapoff: CommandFn = (ctx): CommandResult => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  const all = args.some((a) => a === '-a' || a === '--all' || /^-[av]*a[av]*$/.test(a));
  const paths = args.filter((a) => !a.startsWith('-'));
  if (!all && paths.length === 0) return { stdout: '', stderr: 'swapoff: bad usage\nTry \'swapoff --help\' for more information.\n', exitCode: 2 };
  if (!isRoot(ctx)) return { stdout: '', stderr: 'swapoff: Not superuser.\n', exitCode: 1 };
  let err = '';
  let rc = 0;
  for (const p of all ? [...activeSwaps(env.host)] : paths) {
    if (!activeSwaps(env.host).includes(p)) {
      err += `swapoff: ${p}: swapoff failed: ${env.host.fs.exists(p) ? 'Invalid argument' : 'No such file or directory'}\n`;
      rc = 4;
      continue;
    }
    setSwap(env.host, p, false);
  }
  env.cluster.touchHosts();
  return { stdout: '', stderr: err, exitCode: rc };
};
