/**
 * Reaching the API server the way a client's kubeconfig says (client-go rest.Config: `server`,
 * `certificate-authority[-data]`, `insecure-skip-tls-verify`, `tls-server-name`), from the host the
 * client runs on: the name resolved through that host's /etc/hosts (else its resolver answers "no
 * such host"), the address and port dialled (the control plane's API server listens on its
 * --secure-port on every address of its node, the `kubernetes` Service's ClusterIP leads there
 * from the nodes; another node's address refuses, an address nothing has is a dial timeout), then
 * the API server's serving certificate (its --tls-cert-file on the control-plane node) verified as
 * Go's crypto/x509 Certificate.Verify does: validity first, then the host name against the SANs,
 * then the chain to the kubeconfig's CA. The texts are Go's (net.OpError, net.DNSError,
 * x509.CertificateInvalidError, x509.HostnameError, x509.UnknownAuthorityError).
 */
import type { Cluster } from './cluster.js';
import type { Host } from './node/host.js';
import type { KObject } from './api/types.js';
import { runningFlags, serviceCIDR } from './controlplane.js';
import { parsedCertificatePem, verifyServerCertificate } from './pki/verify.js';
import { intToIp, isIPv4, parseCidr } from '../util/ip.js';
import { remember } from '../util/bounded-map.js';

/** Where a client connects and how it checks the server (its kubeconfig cluster entry and flags). */
export interface ClientEndpoint {
  /** The server URL as written (`https://192.168.122.11:6443`; a URL without a scheme is https). */
  server: string;
  /** The CA bundle it trusts (PEM); absent: the system roots, which do not know a cluster's CA. */
  caPem?: string;
  insecure: boolean;
  /** `tls-server-name`: the name verified instead of the URL's host. */
  tlsServerName?: string;
}

/**
 * Why a connection failed: `refused` is kubectl's "The connection to the server … was refused"
 * case (client-go's IsConnectionRefused); anything else is "Unable to connect to the server: ".
 */
export interface DialFailure {
  kind: 'refused' | 'unreachable';
  /** `host[:port]` as the URL has it (what kubectl's refused message names). */
  hostPort: string;
  /** The URL of the discovery request kubectl makes first (`https://…/api?timeout=32s`). */
  apiUrl: string;
  /** Go's error text after `Get "URL": ` (`dial tcp 10.0.0.1:6443: connect: connection refused`). */
  detail: string;
}

/** A server URL's parts (parseServer). */
export type ServerUrl = Readonly<{ scheme: string; host: string; port: number; hostPort: string; base: string }>;

/**
 * The URL's parts, as net/url parses kubectl's `server` (a bare host:port gets https:// first).
 * A pure function of the text, memoised by it (every kubectl command parses its kubeconfig's
 * server two or three times with WHATWG URL, ~8 % of a `kubectl get ns`): the parts are frozen,
 * so every caller reads the same answer. Bounded: a session names few servers.
 */
export function parseServer(server: string): ServerUrl | undefined {
  if (SERVERS.has(server)) return SERVERS.get(server);
  return remember(SERVERS, server, parseServerText(server), 64);
}

const SERVERS = new Map<string, ServerUrl | undefined>();

function parseServerText(server: string): ServerUrl | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(server) ? server : `https://${server}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    return undefined;
  }
  const scheme = u.protocol.replace(/:$/, '');
  const port = u.port ? Number(u.port) : scheme === 'http' ? 80 : 443;
  const base = withScheme.replace(/\/+$/, '');
  return Object.freeze({ scheme, host: u.hostname, port, hostPort: u.host, base });
}

/** The host's resolver for a name: /etc/hosts, else the first nameserver of /etc/resolv.conf. */
function resolve(from: Host, name: string): { ip: string } | { error: string } {
  if (isIPv4(name)) return { ip: name };
  for (const line of (from.fs.tryRead('/etc/hosts') ?? '').split('\n')) {
    const fields = line.replace(/#.*/, '').trim().split(/\s+/);
    if (fields.length >= 2 && isIPv4(fields[0]!) && fields.slice(1).includes(name)) return { ip: fields[0]! };
  }
  const ns = /^\s*nameserver\s+(\S+)/m.exec(from.fs.tryRead('/etc/resolv.conf') ?? '')?.[1] ?? '127.0.0.53';
  return { error: `dial tcp: lookup ${name} on ${ns}:53: no such host` };
}

/** The API server's port: --secure-port of the manifest it runs with (6443 by kubeadm). */
function securePort(c: Cluster): number {
  const p = Number(runningFlags(c, 'kube-apiserver').get('secure-port') ?? 6443);
  return Number.isInteger(p) && p > 0 ? p : 6443;
}

/** The `kubernetes` Service's ClusterIP: the first address of --service-cluster-ip-range. */
function kubernetesServiceIP(c: Cluster): string | undefined {
  const cidr = parseCidr(serviceCIDR(c).split(',')[0] ?? '');
  return cidr ? intToIp(cidr.base + 1) : undefined;
}

/**
 * What answers at ip:port from `from`: the API server, a host that refuses, or nothing (the dial
 * times out). Only the API server is modelled as a listener here: what a client reaches through
 * a kubeconfig.
 */
function reach(c: Cluster, from: Host, ip: string, port: number): 'apiserver' | 'refused' | 'timeout' {
  const cp = c.host(c.meta.controlPlane);
  if (throughControlPlaneEndpoint(c, from, ip, port)) return 'apiserver';
  const loopback = ip.startsWith('127.');
  const target = loopback ? from : [...c.nodeHosts(), ...(c.host(c.meta.workstation) ? [c.host(c.meta.workstation)!] : [])].find((h) => h.ip === ip);
  if (!target && ip === kubernetesServiceIP(c) && from.data.role !== 'workstation') return port === 443 ? 'apiserver' : 'timeout';
  if (!target) return 'timeout';
  return target === cp && port === securePort(c) ? 'apiserver' : 'refused';
}

/**
 * Whether ip:port is the cluster's control-plane endpoint (kubeadm's controlPlaneEndpoint in the
 * kube-system/kubeadm-config ClusterConfiguration, resolved on the client's host): the load
 * balancer an HA cluster puts in front of its API servers, which forwards TLS to them unchanged.
 */
function throughControlPlaneEndpoint(c: Cluster, from: Host, ip: string, port: number): boolean {
  const cm = c.store.get<KObject & { data?: Record<string, string> }>('ConfigMap', 'kube-system', 'kubeadm-config');
  const ep = /^controlPlaneEndpoint:\s*"?([^"\s]+?)"?\s*$/m.exec(cm?.data?.['ClusterConfiguration'] ?? '')?.[1];
  const m = ep ? /^(.*?)(?::(\d+))?$/.exec(ep) : null;
  if (!m || Number(m[2] ?? 6443) !== port) return false;
  const r = resolve(from, m[1]!);
  return 'ip' in r && r.ip === ip;
}

/** The TLS handshake's verdict on the served certificate, or undefined when it verifies. */
function verifyServer(c: Cluster, ep: ClientEndpoint, host: string): string | undefined {
  if (ep.insecure) return undefined;
  const file = runningFlags(c, 'kube-apiserver').get('tls-cert-file') ?? '/etc/kubernetes/pki/apiserver.crt';
  const served = parsedCertificatePem(c.host(c.meta.controlPlane)?.fs.tryRead(file) ?? '');
  // a server without a certificate it can read does not start (runtime/components.ts)
  if (!served) return undefined;
  return verifyServerCertificate(served, ep.caPem ?? '', ep.tlsServerName || host, c.now());
}

/** `ip:port` a server URL dials from a host (its name resolved there), for Go's `dial tcp` texts. */
export function resolvedAddress(c: Cluster, from: string, server: NonNullable<ReturnType<typeof parseServer>>): string {
  const h = c.host(from);
  const r = h ? resolve(h, server.host) : undefined;
  return `${r && 'ip' in r ? r.ip : server.host}:${server.port}`;
}

/**
 * Connect to the API server as `ep` says from `from`; undefined when the connection (and its
 * TLS handshake) succeeds. Whether the API server process is up is the caller's check.
 */
export function dial(c: Cluster, from: Host | undefined, ep: ClientEndpoint): DialFailure | undefined {
  const u = parseServer(ep.server);
  if (!u || !from || u.scheme !== 'https') return undefined;
  const apiUrl = `${u.base}/api?timeout=32s`;
  const fail = (kind: DialFailure['kind'], detail: string): DialFailure => ({ kind, hostPort: u.hostPort, apiUrl, detail });
  const r = resolve(from, u.host);
  if ('error' in r) return fail('unreachable', r.error);
  const where = reach(c, from, r.ip, u.port);
  if (where === 'timeout') return fail('unreachable', `dial tcp ${r.ip}:${u.port}: i/o timeout`);
  if (where === 'refused') return fail('refused', `dial tcp ${r.ip}:${u.port}: connect: connection refused`);
  const tls = verifyServer(c, ep, u.host);
  return tls ? fail('unreachable', `tls: failed to verify certificate: ${tls}`) : undefined;
}
