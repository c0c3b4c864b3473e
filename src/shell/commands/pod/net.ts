/**
 * What the network tools share: where a command's packets start (the pod, node or workstation it
 * runs in), which resolver flavour its image has, name resolution through /etc/hosts then the
 * container's /etc/resolv.conf over the simulated network, and the record `why` prints afterwards.
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { Pod } from '../../../sim/api/types.js';
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { lookupImage, type DnsFlavour } from '../../../sim/images.js';
import type { Source } from '../../../sim/traffic/path.js';
import { dnsTransport, type DnsHop } from '../../../sim/traffic/dns.js';
import { queryFnFromTransport, type QueryFn } from '../../../sim/dns/stub/query.js';
import { parseResolvConf, resolverOptions } from '../../../sim/dns/resolv-conf.js';
import { glibcResolve } from '../../../sim/dns/stub/glibc.js';
import { muslResolve } from '../../../sim/dns/stub/musl.js';
import { isIP } from '../../../sim/dns/message.js';

export function sourceOf(ctx: CommandContext): Source {
  const l = ctx.location;
  if (l.kind === 'pod') return { kind: 'pod', ns: l.namespace, name: l.pod };
  if (l.kind === 'node') return { kind: 'node', host: l.host };
  return { kind: 'workstation' };
}

/** The image of the container the command runs in (undefined on hosts). */
export function imageOf(ctx: CommandContext): string | undefined {
  const l = ctx.location;
  const c = ctx.cluster;
  if (l.kind !== 'pod' || !c) return undefined;
  const pod = c.store.get<Pod>('Pod', l.namespace, l.pod);
  const ct = pod?.spec.containers.find((x) => x.name === l.container) ?? pod?.spec.containers[0];
  return ct?.image;
}

/** The resolver flavour of where the command runs: the image's, or glibc on hosts. */
export function flavourOf(ctx: CommandContext): DnsFlavour {
  const image = imageOf(ctx);
  return (image !== undefined ? lookupImage(image)?.dns : undefined) ?? 'glibc';
}

/** The last lookup/connection, for `why` (plain data in cluster.state). */
export interface WhyRecord {
  command: string;
  lines: string[];
}

export function recordWhy(c: Cluster, command: string, lines: string[]): void {
  c.state['traffic.why'] = { command, lines } satisfies WhyRecord;
}

export function lastWhy(c: Cluster): WhyRecord | undefined {
  return c.state['traffic.why'];
}

export interface DnsSession {
  query: QueryFn;
  hops: DnsHop[];
  resolvConf: string;
}

export function dnsSession(ctx: CommandContext, c: Cluster): DnsSession {
  const hops: DnsHop[] = [];
  return { query: queryFnFromTransport(dnsTransport(c, sourceOf(ctx), hops), c.random), hops, resolvConf: ctx.fs.tryRead('/etc/resolv.conf') ?? '' };
}

/** Lines describing the DNS hops of a lookup, for `why`. */
export function dnsWhy(s: DnsSession): string[] {
  const out = [`resolv.conf: ${s.resolvConf.trim().split('\n').filter((l) => !l.startsWith('#') && l.trim() !== '').join(' | ')}`];
  for (const h of s.hops) {
    out.push(`query ${h.question} → ${h.server}:${h.port}: ${h.outcome}`);
    for (const t of h.trace) out.push(`    ${t}`);
  }
  return out;
}

export type Resolved = { ok: true; ip: string; elapsedMs: number } | { ok: false; reason: 'NXDOMAIN' | 'TIMEOUT' | 'OTHER'; elapsedMs: number };

/** getaddrinfo: /etc/hosts first, then DNS with the image's stub-resolver semantics. */
export function resolveHost(ctx: CommandContext, s: DnsSession, name: string): Resolved {
  if (isIP(name)) return { ok: true, ip: name, elapsedMs: 0 };
  const hosts = ctx.fs.tryRead('/etc/hosts') ?? '';
  for (const raw of hosts.split('\n')) {
    const f = raw.replace(/#.*/, '').trim().split(/\s+/);
    if (f.length >= 2 && f.slice(1).includes(name) && /^\d+\.\d+\.\d+\.\d+$/.test(f[0] ?? '')) return { ok: true, ip: f[0]!, elapsedMs: 0 };
  }
  const rc = parseResolvConf(s.resolvConf);
  const opts = resolverOptions(rc);
  const r = flavourOf(ctx) === 'musl' ? muslResolve(name, rc, s.query) : glibcResolve(name, 'A', rc, s.query);
  const timeoutMs = opts.timeoutS * 1000 * opts.attempts * Math.max(1, rc.nameservers.length);
  if (r.status === 'found') {
    const a = r.records.find((x) => x.type === 'A');
    if (a && a.type === 'A') return { ok: true, ip: a.address, elapsedMs: 0 };
    return { ok: false, reason: 'OTHER', elapsedMs: 0 };
  }
  if (r.status === 'TIMEOUT') return { ok: false, reason: 'TIMEOUT', elapsedMs: timeoutMs };
  return { ok: false, reason: r.status === 'NXDOMAIN' ? 'NXDOMAIN' : 'OTHER', elapsedMs: 0 };
}

export function result(stdout: string, stderr: string, exitCode: number, advanceMs = 0): ShellResult {
  return advanceMs > 0 ? { stdout, stderr, exitCode, advanceMs } : { stdout, stderr, exitCode };
}

/** Linux's TCP connect timeout with the default tcp_syn_retries=6 (~127 s). */
export const TCP_CONNECT_TIMEOUT_MS = 127_000;
