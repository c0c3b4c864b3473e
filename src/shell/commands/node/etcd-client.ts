/**
 * What etcdctl and etcdutl share: the files they read (a node's, or a container's with its
 * hostPath volumes seen through to the node, as in `kubectl exec etcd-cka-cp1 -- etcdctl`), the
 * zap log lines they print, and the client's TLS connection to etcd, decided from the real
 * certificates on disk (go.etcd.io/etcd/client/v3, crypto/tls): the server certificate must chain
 * to --cacert and name the endpoint's host, the client certificate must chain to etcd's
 * --trusted-ca-file because etcd runs with --client-cert-auth=true.
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { Pod } from '../../../sim/api/types.js';
import type { Vfs } from '../../../sim/node/vfs.js';
import { resolvePath } from '../../../sim/node/vfs.js';
import { etcdMember, etcdUp } from '../../../sim/etcd/member.js';
import { runningFlags } from '../../../sim/controlplane.js';
import { issuedBy, keyMatches, readCertificatePem, type ParsedCert } from '../../../sim/pki/x509.js';
import type { CommandContext } from '../../types.js';

/** The etcdctl/etcdutl installed on the nodes (an etcd v3.6.5 release). */
export const ETCD_VERSION = '3.6.5';

/** An etcd image's etcd version (registry.k8s.io/etcd:3.6.6-0 → 3.6.6). */
function imageEtcdVersion(image: string | undefined): string | undefined {
  const m = /:(\d+\.\d+\.\d+)(?:-\d+)?$/.exec(image ?? '');
  return m?.[1];
}

/**
 * The version the etcd server reports (endpoint status, a snapshot's "Server version"): the
 * running member's, its static pod's image (kubeadm's pin for the cluster's minor).
 */
export function etcdServerVersion(c: Cluster): string {
  const pod = c.store.list<Pod>('Pod', 'kube-system').find((p) => p.metadata.labels?.['component'] === 'etcd' && p.status?.containerStatuses?.[0]?.state.running);
  return imageEtcdVersion(pod?.spec.containers[0]?.image) ?? ETCD_VERSION;
}

/** The client's own version: the etcd image's inside its container, the node's install elsewhere. */
export function etcdClientVersion(ctx: CommandContext, c: Cluster): string {
  if (ctx.location.kind !== 'pod') return ETCD_VERSION;
  const loc = ctx.location;
  const pod = c.store.get<Pod>('Pod', loc.namespace, loc.pod);
  const ct = pod?.spec.containers.find((x) => x.name === loc.container) ?? pod?.spec.containers[0];
  return (ct?.image.includes('/etcd:') ? imageEtcdVersion(ct.image) : undefined) ?? ETCD_VERSION;
}

/** A filesystem view: the node's own, or a container's with hostPath mounts resolved to the node. */
export interface Files {
  read(p: string): string | undefined;
  write(p: string, content: string, mode: number): void;
  isDir(p: string): boolean;
  exists(p: string): boolean;
  remove(p: string): void;
  mkdir(p: string): void;
  list(p: string): string[];
  /** The node the command runs on (a pod's node for a container). */
  node: string;
}

export function filesOf(ctx: CommandContext, c: Cluster): Files | undefined {
  const abs = (p: string): string => resolvePath(ctx.cwd, p);
  if (ctx.location.kind === 'node' || ctx.location.kind === 'workstation') {
    const fs = ctx.fs;
    return { read: (p) => fs.tryRead(abs(p)), write: (p, t, m) => fs.write(abs(p), t, m), isDir: (p) => fs.isDir(abs(p)), exists: (p) => fs.exists(abs(p)), remove: (p) => fs.remove(abs(p)), mkdir: (p) => fs.mkdir(abs(p)), list: (p) => fs.list(abs(p)), node: ctx.location.host };
  }
  const loc = ctx.location;
  const pod = c.store.get<Pod>('Pod', loc.namespace, loc.pod);
  const host = pod?.spec.nodeName ? c.host(pod.spec.nodeName) : undefined;
  if (!pod || !host) return undefined;
  const ct = pod.spec.containers.find((x) => x.name === loc.container) ?? pod.spec.containers[0];
  const mounts = [...(ct?.volumeMounts ?? [])].sort((a, b) => b.mountPath.length - a.mountPath.length);
  const route = (p: string): { fs: Vfs; path: string } => {
    const a = abs(p);
    for (const m of mounts) {
      const mp = m.mountPath.replace(/\/+$/, '');
      if (a !== mp && !a.startsWith(`${mp}/`)) continue;
      const vol = (pod.spec.volumes ?? []).find((v) => v.name === m.name) as { hostPath?: { path: string } } | undefined;
      if (vol?.hostPath) return { fs: host.fs, path: `${vol.hostPath.path.replace(/\/+$/, '')}${a.slice(mp.length)}` };
    }
    return { fs: ctx.fs, path: a };
  };
  return {
    read: (p) => route(p).fs.tryRead(route(p).path),
    write: (p, t, m) => route(p).fs.write(route(p).path, t, m),
    isDir: (p) => route(p).fs.isDir(route(p).path),
    exists: (p) => route(p).fs.exists(route(p).path),
    remove: (p) => route(p).fs.remove(route(p).path),
    mkdir: (p) => route(p).fs.mkdir(route(p).path),
    list: (p) => route(p).fs.list(route(p).path),
    node: host.name,
  };
}

/** zap's JSON time (client/pkg/logutil DefaultZapLoggerConfig): 2006-01-02T15:04:05.000000Z0700. */
export function zapTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function zapJson(ms: number, level: string, caller: string, msg: string, fields: Record<string, unknown>, logger?: string): string {
  return `${JSON.stringify({ level, ts: zapTime(ms), ...(logger ? { logger } : {}), caller, msg, ...fields })}\n`;
}

export interface TlsOptions {
  cacert?: string;
  cert?: string;
  key?: string;
  insecureSkipVerify: boolean;
  /** --insecure-transport (default true): plain text when no TLS flag is given. */
  insecureTransport: boolean;
}

/** An error etcdctl reports before dialing (reading the TLS files): printed as `Error: …`, exit 128. */
export class ConfigError extends Error {}

export interface Endpoint {
  raw: string;
  scheme: 'http' | 'https' | '';
  host: string;
  port: number;
}

export function parseEndpoint(raw: string): Endpoint {
  const m = /^(?:(https?|unix|unixs):\/\/)?([^:/]+|\[[^\]]+\])(?::(\d+))?/.exec(raw.trim());
  return { raw, scheme: (m?.[1] === 'http' || m?.[1] === 'https' ? m[1] : '') as Endpoint['scheme'], host: (m?.[2] ?? raw).replace(/^\[|\]$/g, ''), port: Number(m?.[3] ?? (m?.[1] === 'https' ? 443 : 80)) };
}

interface LoadedTls {
  roots?: ParsedCert[];
  client?: ParsedCert;
}

/** Read the TLS files as etcdctl does when it builds its client config (pkg/transport/listener.go). */
export function loadTls(files: Files, user: string, o: TlsOptions): LoadedTls {
  const readOrThrow = (p: string): string => {
    const t = files.read(p);
    if (t === undefined) throw new ConfigError(`open ${p}: no such file or directory`);
    if (user !== 'root' && /^\/etc\/kubernetes\/pki\/.*\.key$/.test(resolvePath('/', p))) throw new ConfigError(`open ${p}: permission denied`);
    return t;
  };
  const out: LoadedTls = {};
  if (o.cert || o.key) {
    if (!o.cert || !o.key) throw new ConfigError(o.cert ? 'KeyFile must be specified' : 'CertFile must be specified');
    const certText = readOrThrow(o.cert);
    const keyText = readOrThrow(o.key);
    const cert = readCertificatePem(certText);
    if (!cert) throw new ConfigError('tls: failed to find any PEM data in certificate input');
    if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(keyText)) throw new ConfigError('tls: failed to find any PEM data in key input');
    if (!keyMatches(cert, keyText)) throw new ConfigError('tls: private key does not match public key');
    out.client = cert;
  }
  if (o.cacert) {
    const text = readOrThrow(o.cacert);
    const roots = text.split(/(?=-----BEGIN CERTIFICATE-----)/).map(readCertificatePem).filter((x): x is ParsedCert => !!x);
    if (roots.length === 0) throw new ConfigError(`failed to append certificates from PEM file: "${o.cacert}"`);
    out.roots = roots;
  }
  return out;
}

/** Why a connection to etcd fails, in grpc's words, or undefined when it succeeds. */
export function dialError(c: Cluster, files: Files, ep: Endpoint, tls: LoadedTls, o: TlsOptions): string | undefined {
  const member = etcdMember(c);
  const host = member ? c.host(member.node) : undefined;
  const addr = `${ep.host}:${ep.port}`;
  const refused = `transport: Error while dialing: dial tcp ${addr}: connect: connection refused`;
  if (!member || !host || !etcdUp(c)) return refused;
  const flags = runningFlags(c, 'etcd');
  const listen = (flags.get('listen-client-urls') ?? 'http://localhost:2379').split(',').map(parseEndpoint);
  const local = files.node === host.name;
  const hostIP = ep.host === 'localhost' ? '127.0.0.1' : ep.host === host.name ? host.ip : ep.host;
  const match = listen.find((l) => l.port === ep.port && ((l.host === hostIP && (local || hostIP !== '127.0.0.1')) || (l.host === 'localhost' && hostIP === '127.0.0.1' && local) || l.host === '0.0.0.0'));
  if (!match) return refused;
  const serverTls = match.scheme === 'https';
  const useTls = ep.scheme === 'https' || (ep.scheme === '' && (!!tls.roots || !!tls.client || !o.insecureTransport));
  if (!serverTls && useTls) return 'transport: authentication handshake failed: tls: first record does not look like a TLS handshake';
  if (serverTls && !useTls) return 'error reading server preface: http2: frame too large';
  if (!serverTls) return undefined;
  const serverCert = readCertificatePem(host.fs.tryRead(flags.get('cert-file') ?? '') ?? '');
  if (!o.insecureSkipVerify) {
    if (!serverCert || !(tls.roots ?? []).some((r) => issuedBy(serverCert, r)))
      return 'transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate signed by unknown authority';
    const name = ep.host;
    const isIp = /^[\d.]+$/.test(name) || name.includes(':');
    if (isIp ? !serverCert.ips.includes(name) && !(name === '::1' && serverCert.ips.includes('0:0:0:0:0:0:0:1')) : !serverCert.dnsNames.includes(name)) {
      const valid = isIp ? serverCert.ips.map((i) => (i === '0:0:0:0:0:0:0:1' ? '::1' : i)).join(', ') : serverCert.dnsNames.join(', ');
      return `transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate is valid for ${valid}, not ${name}`;
    }
    if (c.now() > serverCert.notAfter)
      return `transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time ${new Date(c.now()).toISOString().replace(/\.\d{3}Z$/, 'Z')} is after ${new Date(serverCert.notAfter).toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
  }
  if (flags.get('client-cert-auth') === 'true') {
    if (!tls.client) return 'error reading server preface: remote error: tls: certificate required';
    const trusted = readCertificatePem(host.fs.tryRead(flags.get('trusted-ca-file') ?? '') ?? '');
    if (!trusted || !issuedBy(tls.client, trusted)) return 'error reading server preface: remote error: tls: unknown certificate authority';
    if (!tls.client.extKeyUsage.includes('1.3.6.1.5.5.7.3.2') && tls.client.extKeyUsage.length > 0) return 'error reading server preface: remote error: tls: bad certificate';
  }
  return undefined;
}
