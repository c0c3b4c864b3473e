/**
 * The kubelet's command line as systemd builds it from the kubeadm drop-in
 * (/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf: its Environment= lines and the
 * EnvironmentFile=s /var/lib/kubelet/kubeadm-flags.env and /etc/default/kubelet, expanded into
 * ExecStart), and the flags on it, as the kubelet's pflag set parses them (`--name=value` or
 * `--name value`, the last one wins).
 */
import type { Host } from './host.js';

export function kubeletCmdline(host: Host): string {
  const dropIn = host.fs.tryRead('/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf') ?? '';
  const env: Record<string, string> = {};
  for (const m of dropIn.matchAll(/^Environment="([A-Z_]+)=(.*)"$/gm)) env[m[1]!] = m[2]!;
  for (const f of ['/var/lib/kubelet/kubeadm-flags.env', '/etc/default/kubelet'])
    for (const m of (host.fs.tryRead(f) ?? '').matchAll(/^([A-Z_]+)="?(.*?)"?$/gm)) env[m[1]!] = m[2]!;
  const args = ['KUBELET_KUBECONFIG_ARGS', 'KUBELET_CONFIG_ARGS', 'KUBELET_KUBEADM_ARGS', 'KUBELET_EXTRA_ARGS'].map((k) => env[k] ?? '').filter(Boolean);
  return ['/usr/bin/kubelet', ...args].join(' ');
}

/** The value of `--name` on the kubelet's command line, if given. */
export function kubeletFlag(host: Host, name: string, cmdline = kubeletCmdline(host)): string | undefined {
  const words = cmdline.split(/\s+/).slice(1);
  let value: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === `--${name}`) value = words[++i] ?? '';
    else if (w.startsWith(`--${name}=`)) value = w.slice(name.length + 3);
  }
  return value;
}
