/**
 * The sockets a node listens on, derived from what runs there: sshd and systemd-resolved always;
 * containerd's CRI streaming port and the kubelet (10248 healthz on localhost, 10250 on all
 * addresses) while their units are active; the control-plane static pods that are running, at the
 * addresses their manifest flags name (etcd --listen-client-urls / --listen-peer-urls /
 * --listen-metrics-urls, kube-apiserver --secure-port, kube-controller-manager 10257 and
 * kube-scheduler 10259 on --bind-address); host-network pods that are running (kube-proxy
 * 10249/10256, calico-node felix health 9099); and the kernel VXLAN socket of the CNI.
 * Used by `ss` and `netstat`.
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { Pod } from '../../../sim/api/types.js';
import { staticPods } from '../../../sim/node/runtime.js';
import { userSockets } from '../../../sim/node/user-sockets.js';
import { commandFlags, parseManifest } from '../../../sim/controlplane.js';
import { fnv, pidOf as unitPid } from './host.js';

export interface Sock {
  proto: 'tcp' | 'udp';
  family: 4 | 6;
  /** '0.0.0.0', '127.0.0.1', '*' (dual-stack any), '::' (v6only any) */
  addr: string;
  /** interface the socket is bound to (systemd-resolved's 127.0.0.53%lo) */
  ifname?: string;
  port: number;
  /** process name as /proc/PID/comm has it (15 characters at most) */
  comm?: string;
  /** what netstat shows after PID/: the basename of argv[0] or the whole cmdline */
  cmd?: string;
  pid?: number;
  fd?: number;
}

function pidOf(host: Host, proc: string): number {
  return host.data.units[proc] ? unitPid(host, proc) : 300 + (fnv(`${host.name}/${proc}`) % 3700);
}

function proc(host: Host, comm: string, cmd: string, fd: number): Pick<Sock, 'comm' | 'cmd' | 'pid' | 'fd'> {
  return { comm: comm.slice(0, 15), cmd, pid: pidOf(host, comm), fd };
}

function listen(host: Host, addr: string, port: number, comm: string, cmd: string, fd: number, family: 4 | 6 = 4): Sock {
  return { proto: 'tcp', family, addr, port, ...proc(host, comm, cmd, fd) };
}

/** host:port pairs from etcd's URL list flags. */
function urls(v: string | undefined): { addr: string; port: number }[] {
  return (v ?? '')
    .split(',')
    .map((u) => /^\w+:\/\/([^:/]+):(\d+)/.exec(u.trim()))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ addr: m[1]!, port: Number(m[2]) }));
}

function hostPodRunning(c: Cluster, host: Host, prefix: string): boolean {
  return c.store
    .list<Pod>('Pod', 'kube-system')
    .some((p) => p.spec.nodeName === host.name && p.metadata.name.startsWith(prefix) && p.status?.containerStatuses?.some((s) => !!s.state.running));
}

export function nodeSockets(c: Cluster, host: Host): Sock[] {
  const out: Sock[] = [];
  out.push(listen(host, '0.0.0.0', 22, 'sshd', 'sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups', 3));
  out.push(listen(host, '::', 22, 'sshd', 'sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups', 4, 6));
  const resolved = (fd: number): Pick<Sock, 'comm' | 'cmd' | 'pid' | 'fd'> => proc(host, 'systemd-resolved', 'systemd-resolved', fd);
  out.push({ proto: 'tcp', family: 4, addr: '127.0.0.53', ifname: 'lo', port: 53, ...resolved(15) });
  out.push({ proto: 'tcp', family: 4, addr: '127.0.0.54', port: 53, ...resolved(17) });
  out.push({ proto: 'udp', family: 4, addr: '127.0.0.53', ifname: 'lo', port: 53, ...resolved(14) });
  out.push({ proto: 'udp', family: 4, addr: '127.0.0.54', port: 53, ...resolved(16) });
  if (host.unitActive('containerd')) out.push(listen(host, '127.0.0.1', 33000 + (fnv(`${host.name}/cri`) % 27000), 'containerd', 'containerd', 11));
  if (host.unitActive('kubelet')) {
    out.push(listen(host, '127.0.0.1', 10248, 'kubelet', 'kubelet', 21));
    out.push(listen(host, '*', 10250, 'kubelet', 'kubelet', 17, 6));
  }
  const table = staticPods(c)[host.name] ?? {};
  for (const r of Object.values(table)) {
    if (!r.running || !r.name) continue;
    const text = host.fs.tryRead(r.file);
    const parsed = text === undefined ? undefined : parseManifest(r.file, text);
    const flags = parsed?.ok ? commandFlags(parsed.pod) : new Map<string, string>();
    if (r.name === 'etcd') {
      let fd = 7;
      for (const u of [...urls(flags.get('listen-peer-urls')), ...urls(flags.get('listen-client-urls')), ...urls(flags.get('listen-metrics-urls'))])
        out.push(listen(host, u.addr, u.port, 'etcd', 'etcd', fd++));
    } else if (r.name === 'kube-apiserver') {
      const bind = flags.get('bind-address');
      const port = Number(flags.get('secure-port') ?? 6443);
      out.push(listen(host, bind && bind !== '0.0.0.0' ? bind : '*', port, 'kube-apiserver', 'kube-apiserver', 3, bind && bind !== '0.0.0.0' ? 4 : 6));
    } else if (r.name === 'kube-controller-manager') {
      out.push(listen(host, flags.get('bind-address') ?? '127.0.0.1', 10257, 'kube-controller-manager', 'kube-controller', 3));
    } else if (r.name === 'kube-scheduler') {
      out.push(listen(host, flags.get('bind-address') ?? '127.0.0.1', 10259, 'kube-scheduler', 'kube-scheduler', 3));
    }
  }
  if (hostPodRunning(c, host, 'kube-proxy-')) {
    out.push(listen(host, '127.0.0.1', 10249, 'kube-proxy', 'kube-proxy', 10));
    out.push(listen(host, '*', 10256, 'kube-proxy', 'kube-proxy', 11, 6));
  }
  if (c.meta.cni.plugin === 'calico' && hostPodRunning(c, host, 'calico-node-')) {
    out.push(listen(host, '127.0.0.1', 9099, 'calico-node', 'calico-node', 9));
    out.push({ proto: 'udp', family: 4, addr: '0.0.0.0', port: 4789 });
  }
  if (c.meta.cni.plugin === 'flannel' && hostPodRunning(c, host, 'kube-flannel-')) out.push({ proto: 'udp', family: 4, addr: '0.0.0.0', port: 8472 });
  // the learner's background processes (kubectl port-forward, proxy)
  userSockets(host).forEach((s, i) => out.push({ proto: 'tcp', family: s.address.includes(':') ? 6 : 4, addr: s.address, port: s.port, comm: s.comm, cmd: s.comm, pid: s.pid, fd: 7 + i }));
  return out.sort((a, b) => a.family - b.family || a.port - b.port || a.addr.localeCompare(b.addr));
}
