/**
 * `kubeadm` on a node: `version [-o short|json]` and, on the control plane,
 * `token create [--print-join-command]` (cmd/kubeadm/app/cmd/token.go: the join command ends with
 * a space, as kubeadm's template prints it). The token comes from the cluster's seeded random
 * source; the CA hash is stable per cluster.
 */
import type { CommandFn } from '../../types.js';
import { hexFrom, isRoot, nodeEnv, notInstalled } from './host.js';

const TOKEN_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export const kubeadm: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const { cluster: c, host } = env;
  const args = ctx.argv.slice(1);
  const v = c.meta.kubernetesVersion;
  if (args[0] === 'version') {
    const o = args.find((a) => a.startsWith('-o=') || a.startsWith('--output='))?.split('=')[1] ?? (args.includes('-o') ? args[args.indexOf('-o') + 1] : undefined);
    if (o === 'short') return { stdout: `${v}\n`, stderr: '', exitCode: 0 };
    const [maj, min] = v.replace(/^v/, '').split('.');
    return {
      stdout: `kubeadm version: &version.Info{Major:"${maj}", Minor:"${min}", GitVersion:"${v}", GitTreeState:"clean", Compiler:"gc", Platform:"linux/amd64"}\n`,
      stderr: '',
      exitCode: 0,
    };
  }
  if (args[0] === 'token' && args[1] === 'create') {
    if (host.data.role !== 'control-plane')
      return { stdout: '', stderr: 'failed to load admin kubeconfig: open /etc/kubernetes/admin.conf: no such file or directory\nTo see the stack trace of this error execute with --v=5 or higher\n', exitCode: 1 };
    if (!isRoot(ctx))
      return { stdout: '', stderr: 'failed to load admin kubeconfig: open /etc/kubernetes/admin.conf: permission denied\nTo see the stack trace of this error execute with --v=5 or higher\n', exitCode: 1 };
    const pick = (n: number): string => Array.from({ length: n }, () => TOKEN_ALPHABET[c.random.int(TOKEN_ALPHABET.length)]).join('');
    const token = `${pick(6)}.${pick(16)}`;
    const cp = c.host(c.meta.controlPlane)?.ip ?? host.ip;
    if (args.includes('--print-join-command'))
      return { stdout: `kubeadm join ${cp}:6443 --token ${token} --discovery-token-ca-cert-hash sha256:${hexFrom(`ca/${c.meta.name}`, 64)} \n`, stderr: '', exitCode: 0 };
    return { stdout: `${token}\n`, stderr: '', exitCode: 0 };
  }
  return { stdout: '', stderr: `unknown command "${args[0] ?? ''}" for "kubeadm"\nTo see the stack trace of this error execute with --v=5 or higher\n`, exitCode: 1 };
};
