/**
 * Control-plane components as processes: which flags each binary accepts and how it fails on a
 * bad one. Used by the static-pods controller to decide whether an edited manifest starts.
 * Flag sets are the kubeadm v1.35 defaults plus the flags CKA tasks edit; an unknown flag fails
 * the way cobra/pflag fails (`Error: unknown flag: --foo`).
 */
import { isIPv4, parseRange } from '../../util/ip.js';
import { klogLine } from '../../util/klog.js';
import { readCertificatePem } from '../pki/x509.js';
import { verifyServerCertificate } from '../pki/verify.js';

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

/** When the process starts and from which image: the clock and version its log lines show. */
export interface StartInfo {
  /** Simulated ms when the container started. */
  startedAt: number;
  /** The container image, e.g. registry.k8s.io/etcd:3.6.5-0. */
  image: string;
}

/** klog's header (k8s.io/klog/v2 formatHeader): `Lmmdd hh:mm:ss.uuuuuu threadid file:line]`, pid 1 in a container. */
function klog(level: 'I' | 'W' | 'E', at: number, where: string, msg: string): string {
  return klogLine(level, at, 1, where, msg);
}

/** The image tag: the version a Kubernetes component binary reports (v1.35.9). */
function imageTag(image: string): string {
  const i = image.lastIndexOf(':');
  return i > image.lastIndexOf('/') ? image.slice(i + 1) : 'latest';
}

/**
 * etcd's zap JSON lines (etcd client/pkg/logutil/zap.go DefaultZapLoggerConfig: keys level, ts,
 * caller, msg; ts as 2006-01-02T15:04:05.000000Z0700). At start etcd prints its argv
 * (server/etcdmain/etcd.go "Running: ") and its configuration (server/embed/etcd.go print,
 * "starting an etcd server" with etcd-version first). The version is etcd's own, from the image
 * tag (registry.k8s.io/etcd:3.6.5-0 → 3.6.5), never Kubernetes'. Only fields the flags determine
 * are shown; caller line numbers are approximate.
 */
function etcdStartLogs(argv: readonly string[], flags: Map<string, string>, at: number, image: string): string[] {
  const ts = new Date(at).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  const version = imageTag(image).replace(/-\d+$/, '');
  const line = (caller: string, msg: string, fields: Record<string, unknown>): string => JSON.stringify({ level: 'info', ts, caller, msg, ...fields });
  const urls = (flag: string, dflt: string): string[] => (flags.get(flag) ?? dflt).split(',').filter((u) => u !== '');
  const dataDir = flags.get('data-dir') ?? `${flags.get('name') ?? 'default'}.etcd`;
  return [
    line('etcdmain/etcd.go:64', 'Running: ', { args: argv }),
    line('embed/etcd.go:310', 'starting an etcd server', {
      'etcd-version': version,
      'go-os': 'linux',
      'go-arch': 'amd64',
      name: flags.get('name') ?? 'default',
      'data-dir': dataDir,
      'wal-dir': '',
      'wal-dir-dedicated': '',
      'member-dir': `${dataDir}/member`,
      'force-new-cluster': false,
      'heartbeat-interval': '100ms',
      'election-timeout': '1s',
      'initial-election-tick-advance': true,
      'snapshot-count': Number(flags.get('snapshot-count') ?? 10000),
      'initial-advertise-peer-urls': urls('initial-advertise-peer-urls', 'http://localhost:2380'),
      'listen-peer-urls': urls('listen-peer-urls', 'http://localhost:2380'),
      'advertise-client-urls': urls('advertise-client-urls', 'http://localhost:2379'),
      'listen-client-urls': urls('listen-client-urls', 'http://localhost:2379'),
      'listen-metrics-urls': urls('listen-metrics-urls', ''),
    }),
  ];
}

/**
 * Start a component with these argv flags. Returns the log lines it prints and whether it keeps
 * running. `files` tells whether a path exists on the node (certificate and config flags). Log
 * times are the process's start (`start.startedAt`), later lines offset from it.
 */
export function startComponent(
  name: ComponentName,
  argv: readonly string[],
  fileExists: (p: string) => boolean,
  start: StartInfo,
  peers: Peers = {},
): { ok: true; logs: string[] } | { ok: false; logs: string[] } {
  const at = start.startedAt;
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
    if (v && !fileExists(v)) return fail([klog('E', at, 'run.go:72', `"command failed" err="open ${v}: no such file or directory"`)]);
  }
  if (name === 'kube-apiserver') {
    const rangeErr = serviceRangeError(flags.get('service-cluster-ip-range'));
    if (rangeErr) return fail([klog('E', at, 'run.go:72', `"command failed" err="${rangeErr}"`)]);
    const np = flags.get('service-node-port-range');
    if (np !== undefined && !/^\d+-\d+$/.test(np))
      return fail([`Error: invalid argument "${np}" for "--service-node-port-range" flag: couldn't parse port range "${np}": Invalid argument`]);
    const etcd = flags.get('etcd-servers') ?? '';
    const m = /^https:\/\/([\d.]+):(\d+)$/.exec(etcd.split(',')[0] ?? '');
    if (!m || m[2] !== '2379' || !isIPv4(m[1]!))
      return fail([
        klog('W', at, 'logging.go:55', `[core] [Channel #1 SubChannel #2]grpc: addrConn.createTransport failed to connect to {Addr: "${m ? `${m[1]}:${m[2]}` : etcd}", ServerName: "${m?.[1] ?? etcd}:${m?.[2] ?? ''}", }. Err: connection error: desc = "transport: Error while dialing: dial tcp ${m ? `${m[1]}:${m[2]}` : etcd}: connect: connection refused"`),
        // the storage backend gives up after its 20 s dial timeout
        klog('E', at + 20_000, 'run.go:72', '"command failed" err="context deadline exceeded"'),
      ]);
    const tls = etcdHandshake(flags.get('etcd-cafile'), m[1]!, peers, at);
    if (tls)
      return fail([
        klog('W', at, 'logging.go:55', `[core] [Channel #1 SubChannel #2]grpc: addrConn.createTransport failed to connect to {Addr: "${m[1]}:${m[2]}", ServerName: "${m[1]}:${m[2]}", }. Err: connection error: desc = "transport: authentication handshake failed: tls: failed to verify certificate: ${tls}"`),
        klog('E', at + 20_000, 'run.go:72', '"command failed" err="context deadline exceeded"'),
      ]);
  }
  if (name === 'kube-controller-manager') {
    const cc = flags.get('cluster-cidr');
    // ParseCIDRs of each comma-separated entry (nodeipam's processCIDRs)
    const bad = cc?.split(',').find((x) => !parseRange(x));
    if (bad !== undefined) return fail([klog('E', at, 'run.go:72', `"command failed" err="invalid CIDR address: ${bad}"`)]);
  }
  if (name === 'etcd') return { ok: true, logs: etcdStartLogs(argv, flags, at, start.image) };
  return { ok: true, logs: [klog('I', at, 'server.go:150', `"Starting ${name}" version="${imageTag(start.image)}"`)] };
}

/** What a component's TLS clients meet on the node: files by path, and etcd's serving certificate (its manifest's --cert-file). */
export interface Peers {
  read?: (path: string) => string | undefined;
  etcdServingCert?: string;
}

/**
 * The API server's etcd client verifying etcd's serving certificate against --etcd-cafile for the
 * address in --etcd-servers (sim/pki/verify.ts): the x509 error, or undefined when it verifies or
 * there is nothing to check.
 */
function etcdHandshake(caFile: string | undefined, host: string, peers: Peers, now: number): string | undefined {
  const served = peers.etcdServingCert ? readCertificatePem(peers.etcdServingCert) : undefined;
  const caPem = caFile ? peers.read?.(caFile) : undefined;
  if (!served || caPem === undefined) return undefined;
  return verifyServerCertificate(served, caPem, host, now);
}

function fail(logs: string[]): { ok: false; logs: string[] } {
  return { ok: false, logs };
}

/**
 * kube-apiserver's checks of --service-cluster-ip-range: one CIDR, or two of different families
 * (cmd/kube-apiserver/app/options completion.go getServiceIPAndRanges, validation.go
 * validateClusterIPFlags; the MultiCIDRServiceAllocator lifts the old /12 and /108 size limits).
 */
export function serviceRangeError(flag: string | undefined): string | undefined {
  if (flag === undefined) return undefined;
  const parts = flag.split(',');
  const first = parseRange(parts[0]!);
  if (!first) return 'service-cluster-ip-range[0] is not a valid cidr';
  if (parts.length > 1) {
    const second = parseRange(parts[1]!);
    if (!second) return 'service-cluster-ip-range[1] is not an ip net';
    if (parts.length > 2) return '--service-cluster-ip-range must not contain more than two entries';
    if (second.family === first.family) return '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family';
  }
  return undefined;
}
