/**
 * `kubelet --version` on a node (component-base/version: "Kubernetes v1.35.9"): the binary the
 * kubelet package installed, which may be newer than the running kubelet until it restarts.
 */
import type { CommandFn } from '../../types.js';
import { nodeEnv, notInstalled } from './host.js';
import { installedVersion, kubeVersionOf } from '../../../sim/node/packages.js';

export const kubelet: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const deb = installedVersion(env.host, env.cluster.meta.kubernetesVersion, 'kubelet');
  if (!deb) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  if (args[0] === '--version' || args[0] === '--version=true') return { stdout: `Kubernetes ${kubeVersionOf(deb)}\n`, stderr: '', exitCode: 0 };
  // Only the version query is simulated; the kubelet itself runs as a systemd unit.
  return { stdout: '', stderr: 'kubelet: this lab runs the kubelet as a systemd unit; use systemctl and journalctl -u kubelet\n', exitCode: 1 };
};
