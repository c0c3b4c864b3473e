/**
 * Control-plane components as processes: which flags each binary accepts and how it fails on a
 * bad one. Used by the static-pods controller to decide whether an edited manifest starts.
 * Flag sets are the kubeadm v1.35 defaults plus the flags CKA tasks edit; an unknown flag fails
 * the way cobra/pflag fails (`Error: unknown flag: --foo`).
 */
import { isIPv4, parseCidr } from '../../util/ip.js';

const KNOWN: Record<string, readonly string[]> = {
  'kube-apiserver': [
    'advertise-address', 'allow-privileged', 'anonymous-auth', 'audit-log-maxage', 'audit-log-maxbackup', 'audit-log-maxsize', 'audit-log-path', 'audit-policy-file',
    'authorization-mode', 'bind-address', 'client-ca-file', 'disable-admission-plugins', 'enable-admission-plugins', 'enable-aggregator-routing', 'enable-bootstrap-token-auth',
    'encryption-provider-config', 'etcd-cafile', 'etcd-certfile', 'etcd-keyfile', 'etcd-servers', 'event-ttl', 'feature-gates', 'kubelet-client-certificate', 'kubelet-client-key',
    'kubelet-preferred-address-types', 'max-requests-inflight', 'profiling', 'proxy-client-cert-file', 'proxy-client-key-file', 'requestheader-allowed-names',
    'requestheader-client-ca-file', 'requestheader-extra-headers-prefix', 'requestheader-group-headers', 'requestheader-username-headers', 'runtime-config', 'secure-port',
    'service-account-issuer', 'service-account-key-file', 'service-account-signing-key-file', 'service-cluster-ip-range', 'service-node-port-range', 'tls-cert-file',
    'tls-private-key-file', 'token-auth-file', 'v',
  ],
  'kube-controller-manager': [
    'allocate-node-cidrs', 'authentication-kubeconfig', 'authorization-kubeconfig', 'bind-address', 'client-ca-file', 'cluster-cidr', 'cluster-name', 'cluster-signing-cert-file',
    'cluster-signing-key-file', 'controllers', 'feature-gates', 'kubeconfig', 'leader-elect', 'node-cidr-mask-size', 'node-monitor-grace-period', 'requestheader-client-ca-file',
    'root-ca-file', 'service-account-private-key-file', 'service-cluster-ip-range', 'terminated-pod-gc-threshold', 'use-service-account-credentials', 'v',
  ],
  'kube-scheduler': ['authentication-kubeconfig', 'authorization-kubeconfig', 'bind-address', 'config', 'feature-gates', 'kubeconfig', 'leader-elect', 'v'],
  etcd: [
    'advertise-client-urls', 'cert-file', 'client-cert-auth', 'data-dir', 'experimental-initial-corrupt-check', 'experimental-watch-progress-notify-interval', 'feature-gates',
    'initial-advertise-peer-urls', 'initial-cluster', 'initial-cluster-state', 'key-file', 'listen-client-urls', 'listen-metrics-urls', 'listen-peer-urls', 'name', 'peer-cert-file',
    'peer-client-cert-auth', 'peer-key-file', 'peer-trusted-ca-file', 'snapshot-count', 'trusted-ca-file', 'watch-progress-notify-interval',
  ],
};

export type ComponentName = 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'etcd';

export function isComponent(name: string): name is ComponentName {
  return name in KNOWN;
}

/**
 * Start a component with these argv flags. Returns the log lines it prints and whether it keeps
 * running. `files` tells whether a path exists on the node (certificate and config flags).
 */
export function startComponent(
  name: ComponentName,
  argv: readonly string[],
  fileExists: (p: string) => boolean,
): { ok: true; logs: string[] } | { ok: false; logs: string[] } {
  const flags = new Map<string, string>();
  for (const a of argv.slice(1)) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(a);
    if (!m) continue;
    if (!KNOWN[name]!.includes(m[1]!)) return fail([`Error: unknown flag: --${m[1]}`]);
    flags.set(m[1]!, m[2] ?? 'true');
  }
  const fileFlags = ['client-ca-file', 'tls-cert-file', 'tls-private-key-file', 'etcd-cafile', 'etcd-certfile', 'etcd-keyfile', 'service-account-key-file', 'kubeconfig', 'cert-file', 'key-file', 'trusted-ca-file'];
  for (const f of fileFlags) {
    const v = flags.get(f);
    if (v && !fileExists(v)) return fail([`E1202 10:00:00.000000       1 run.go:72] "command failed" err="open ${v}: no such file or directory"`]);
  }
  if (name === 'kube-apiserver') {
    const range = flags.get('service-cluster-ip-range');
    if (range !== undefined && !parseCidr(range))
      return fail([`E1202 10:00:00.000000       1 run.go:72] "command failed" err="service-cluster-ip-range[0] is not a valid cidr"`]);
    const np = flags.get('service-node-port-range');
    if (np !== undefined && !/^\d+-\d+$/.test(np))
      return fail([`Error: invalid argument "${np}" for "--service-node-port-range" flag: couldn't parse port range "${np}": Invalid argument`]);
    const etcd = flags.get('etcd-servers') ?? '';
    const m = /^https:\/\/([\d.]+):(\d+)$/.exec(etcd.split(',')[0] ?? '');
    if (!m || m[2] !== '2379' || !isIPv4(m[1]!))
      return fail([
        `W1202 10:00:00.000000       1 logging.go:55] [core] [Channel #1 SubChannel #2]grpc: addrConn.createTransport failed to connect to {Addr: "${m ? `${m[1]}:${m[2]}` : etcd}", ServerName: "${m?.[1] ?? etcd}:${m?.[2] ?? ''}", }. Err: connection error: desc = "transport: Error while dialing: dial tcp ${m ? `${m[1]}:${m[2]}` : etcd}: connect: connection refused"`,
        'E1202 10:00:20.000000       1 run.go:72] "command failed" err="context deadline exceeded"',
      ]);
  }
  if (name === 'kube-controller-manager') {
    const cc = flags.get('cluster-cidr');
    if (cc !== undefined && !parseCidr(cc)) return fail([`E1202 10:00:00.000000       1 run.go:72] "command failed" err="invalid CIDR address: ${cc}"`]);
  }
  return { ok: true, logs: [`I1202 10:00:00.000000       1 server.go:150] "Starting ${name}" version="v1.35.9"`] };
}

function fail(logs: string[]): { ok: false; logs: string[] } {
  return { ok: false, logs };
}
