/**
 * `reboot` and `shutdown -r now` (systemd 255's systemctl in its reboot/shutdown personalities,
 * src/systemctl/systemctl-compat-halt.c and systemctl-compat-shutdown.c): the node boots again
 * from its files (sim/node/runtime.ts rebootNode: modules-load.d, sysctl.d, fstab swap, enabled
 * units), its pods' containers died with it and start again (restart count +1, last state
 * `Unknown`/255: sim/runtime/processes.ts containersLostOnReboot), and the learner's ssh login on
 * it ends as the connection drops (shell/session.ts sees the reboot count move). Boot takes the simulated time of a small VM's reboot.
 * Without root, logind's polkit check refuses over ssh with the texts below. Powering a node off
 * and scheduled shutdowns are not simulated: there would be no way to power it on again.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { rebootNode } from '../../../sim/node/runtime.js';
import { containersLostOnReboot } from '../../../sim/runtime/processes.js';
import { isRoot, nodeEnv, notInstalled } from './host.js';
import type { ShellResult } from '../types.js';

/** Seconds a kubeadm VM takes from `reboot` to a running kubelet. */
export const REBOOT_MS = 40_000;

const DENIED = 'Failed to set wall message, ignoring: Interactive authentication required.\nCall to Reboot failed: Interactive authentication required.\n';

function doReboot(ctx: Parameters<CommandFn>[0]): ShellResult {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  if (!isRoot(ctx)) return { stdout: '', stderr: DENIED, exitCode: 1 };
  rebootNode(env.cluster, env.host);
  containersLostOnReboot(env.cluster, env.host.name, env.cluster.now() + REBOOT_MS);
  env.cluster.touchHosts();
  return { stdout: '', stderr: '', exitCode: 0, advanceMs: REBOOT_MS };
}

export const reboot: CommandFn = (ctx): CommandResult => {
  const args = ctx.argv.slice(1).filter((a) => a !== '-f' && a !== '--force' && a !== '--no-wall');
  if (args.some((a) => a === '-p' || a === '--poweroff' || a === '--halt'))
    return { stdout: '', stderr: 'cka-lab: powering off a node is not simulated (nothing could power it on again)\n', exitCode: 1 };
  return doReboot(ctx);
};

export const shutdown: CommandFn = (ctx): CommandResult => {
  const args = ctx.argv.slice(1);
  const restart = args.includes('-r') || args.includes('--reboot');
  const when = args.find((a) => !a.startsWith('-')) ?? '+1';
  if (!restart) return { stdout: '', stderr: 'cka-lab: powering off a node is not simulated (nothing could power it on again); use shutdown -r now\n', exitCode: 1 };
  if (when !== 'now' && when !== '+0') return { stdout: '', stderr: 'cka-lab: scheduled shutdowns are not simulated; use shutdown -r now\n', exitCode: 1 };
  return doReboot(ctx);
};
