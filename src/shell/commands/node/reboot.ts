/**
 * `reboot` and `shutdown -r now` (systemd 255's systemctl in its reboot/shutdown personalities,
 * src/systemctl/systemctl-compat-halt.c and systemctl-compat-shutdown.c): the node boots again
 * from its files (sim/node/runtime.ts rebootNode: modules-load.d, sysctl.d, fstab swap, enabled
 * units), its pods' containers died with it and start again (restart count +1, last state
 * `Unknown`/255: sim/runtime/processes.ts containersLostOnReboot; static pods too, their mirror pods
 * showing it: sim/node/runtime.ts staticPodsLostOnReboot), and the learner's ssh login on
 * it ends as the connection drops (shell/session.ts sees the reboot count move). The node is down
 * for the simulated time of a small VM's reboot: its kubelet posts nothing and renews no Lease
 * until its units start (REBOOT_MS, shorter than the 50 s node-monitor-grace-period, so the node
 * stays Ready), then it posts the new boot ID and starts the containers again.
 * Without root, logind's polkit check refuses over ssh with the texts below. Powering a node off
 * and scheduled shutdowns are not simulated: there would be no way to power it on again.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { podSandboxes, rebootNode, staticPodsLostOnReboot } from '../../../sim/node/runtime.js';
import type { Pod } from '../../../sim/api/types.js';
import { containersLostOnReboot } from '../../../sim/runtime/processes.js';
import { isRoot, nodeEnv, notInstalled } from './host.js';
import type { ShellResult } from '../types.js';
import { keepStartHistory } from './journal.js';

/** Seconds a kubeadm VM takes from `reboot` to a running kubelet. */
export const REBOOT_MS = 40_000;

const DENIED = 'Failed to set wall message, ignoring: Interactive authentication required.\nCall to Reboot failed: Interactive authentication required.\n';

function doReboot(ctx: Parameters<CommandFn>[0]): ShellResult {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  if (!isRoot(ctx)) return { stdout: '', stderr: DENIED, exitCode: 1 };
  const upAt = env.cluster.now() + REBOOT_MS;
  containersLostOnReboot(env.cluster, env.host.name, upAt);
  // the kubelet makes each pod a new sandbox when it is back (kuberuntime_manager.go computePodActions)
  const sandboxes = podSandboxes(env.cluster);
  for (const p of env.cluster.store.list<Pod>('Pod')) if (p.spec.nodeName === env.host.name && sandboxes[p.metadata.uid ?? ''] !== undefined) sandboxes[p.metadata.uid ?? ''] = upAt;
  staticPodsLostOnReboot(env.cluster, env.host.name, upAt);
  // the journal keeps what the stopped processes logged at their start
  keepStartHistory(env.cluster, env.host);
  rebootNode(env.cluster, env.host, REBOOT_MS);
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
