/**
 * The packet path of one new connection (or UDP datagram), interpreted hop by hop from the state
 * nodes really have — never short-cut through Service objects:
 *  1. source: a pod (its node's nat PREROUTING, as the packet enters the host from the pod's veth),
 *     a node (nat OUTPUT) or the workstation (which only reaches node IPs: the pod and Service
 *     networks are not routed outside the cluster);
 *  2. kube-proxy's rules on the node the packet is on: KUBE-SERVICES → KUBE-SVC → KUBE-SEP DNAT
 *     (walkNat with the cluster's seeded Random), then filter INPUT/FORWARD/OUTPUT (REJECT → refused,
 *     DROP → timeout);
 *  3. routing through the CNI: a node that forwards the packet (pod traffic, traffic arriving from
 *     the wire and leaving again) needs net.ipv4.ip_forward=1, else the packet is dropped (timeout);
 *  4. NetworkPolicy egress of the source pod and ingress of the destination pod, where the CNI
 *     enforces it (Calico, Weave — not flannel);
 *  5. a process listening on the port (image catalogue or a runtime override); nothing → refused.
 * Every step appends a line to `trace`, which `why` prints.
 */
import { externalDnsServers } from './external-dns.js';
import type { Cluster } from '../cluster.js';
import type { Container, Pod } from '../api/types.js';
import type { Host } from '../node/host.js';
import { socketFor, type UserSocket } from '../node/user-sockets.js';
import { walkFilter, walkNat, type Packet, type WalkContext } from '../net/packet.js';
import { nodeIp6tables, nodeIptables, nodeNftAffinity, nodeNftables, nodeRecent } from '../node/runtime.js';
import type { IptablesState } from '../net/iptables.js';
import { podIPOf } from '../api/pod-ips.js';
import { kubeProxyTable, nftAffinity, walkNftFilter, walkNftNat, type NftTable, type NftWalkContext } from '../net/kube-proxy/nftables.js';
import { lookupImage, type ImageInfo, type Listener } from '../images.js';
import { enforcesNetworkPolicy, policyVerdict } from './networkpolicy.js';

/**
 * Source port of simulated connections. Fixed: nothing in the rules looks at it, and drawing it from
 * the cluster's Random would shift every later random choice.
 */
const EPHEMERAL_PORT = 40000;

export type Source = { kind: 'pod'; ns: string; name: string } | { kind: 'node'; host: string } | { kind: 'workstation' };
export type Proto = 'tcp' | 'udp' | 'icmp';
export type ConnectError = 'refused' | 'timeout' | 'no-route' | 'unreachable';

export interface Reached {
  ip: string;
  port: number;
  pod?: { ns: string; name: string };
  host?: string;
  /** The upstream resolver outside the cluster (the node network's gateway). */
  external?: boolean;
  /** What listens there (HTTP site etc.), when the image catalogue knows it. */
  listener?: Listener;
  /** A learner's process took the connection on its own host (node/user-sockets.ts). */
  socket?: UserSocket;
}

export interface ConnectResult {
  ok: boolean;
  to?: Reached;
  error?: ConnectError;
  /** Source address the destination sees (after masquerading). */
  srcSeen?: string;
  trace: string[];
}

/** Pod owning `ip`, of either family (not host-network pods, which share their node's IP). */
export function podByIP(c: Cluster, ip: string): Pod | undefined {
  let found: Pod | undefined;
  const v6 = ip.includes(':');
  for (const p of c.store.list<Pod>('Pod')) {
    if (p.spec.hostNetwork) continue;
    if (p.status?.podIP !== ip && !(v6 && p.status?.podIPs?.some((x) => x.ip === ip))) continue;
    if (p.status.phase === 'Succeeded' || p.status.phase === 'Failed') continue;
    if (!found || p.status.phase === 'Running') found = p;
  }
  return found;
}

/** Addresses outside the cluster that answer DNS: the node network's gateway and the fixture's DNS servers. */
function gateways(c: Cluster): Set<string> {
  return new Set([...c.hosts.values()].map((h) => h.data.gateway).concat(externalDnsServers(c).map((s) => s.ip)));
}

/** Whether the host forwards packets of the family (net.ipv4.ip_forward, net.ipv6.conf.all.forwarding). */
function forwards(host: Host, fam: Family = 'IPv4'): boolean {
  return (host.sysctl(fam === 'IPv6' ? 'net.ipv6.conf.all.forwarding' : 'net.ipv4.ip_forward') ?? '1') !== '0';
}

/** The sysctl a family's forwarding is named by in the trace. */
function forwardSysctl(fam: Family): string {
  return fam === 'IPv6' ? 'net.ipv6.conf.all.forwarding' : 'net.ipv4.ip_forward';
}

type Family = 'IPv4' | 'IPv6';

/** A host's address of a family: its IPv6 one only on a dual-stack node network. */
function addrOf(host: Host, fam: Family): string | undefined {
  return fam === 'IPv6' ? host.data.ip6 : host.ip;
}

/** The netfilter ruleset packets of a family walk on a host: iptables' or ip6tables'. */
function netfilter(host: Host, fam: Family): IptablesState {
  return fam === 'IPv6' ? nodeIp6tables(host) : nodeIptables(host);
}

function walkCtx(c: Cluster, host: Host, fam: Family = 'IPv4'): WalkContext {
  // the trace prints only each walk's summary (trace: false: the walks keep no lines)
  return { localAddrs: [addrOf(host, fam) ?? host.ip], rng: c.random, recent: nodeRecent(host), nowSeconds: Math.floor(c.now() / 1000), trace: false };
}

function podIface(c: Cluster, pod: Pod): string {
  const plugin = c.meta.cni.plugin;
  if (plugin === 'flannel') return 'cni0';
  if (plugin === 'weave') return 'weave';
  let h = 0;
  // each code point's first UTF-16 unit, as `for (const ch of id) … ch.charCodeAt(0)` reads them
  const id = pod.metadata.uid ?? pod.metadata.name;
  for (let i = 0; i < id.length; i++) {
    const u = id.charCodeAt(i);
    h = (Math.imul(h, 31) + u) >>> 0;
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < id.length) {
      const lo = id.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) i++;
    }
  }
  return `cali${h.toString(16).padStart(11, '0').slice(0, 11)}`;
}

/**
 * podIPOf by pod: a stored pod is frozen whole (the store keeps each version frozen), so its
 * addresses are read once per version; a pod that is not frozen down to its addresses is asked
 * every time. The packet path asks for the source's and the destination's at every connection.
 */
const POD_ADDRS = new WeakMap<Pod, { IPv4: string | undefined; IPv6: string | undefined }>();

let podAddrReads = 0;

/** How many times a pod's addresses were read rather than remembered (for tests). */
export function podAddressReads(): number {
  return podAddrReads;
}

function frozenAddrs(pod: Pod): boolean {
  const st = pod.status;
  if (!Object.isFrozen(pod) || (st !== undefined && !Object.isFrozen(st))) return false;
  const ips = st?.podIPs;
  return ips === undefined || (Object.isFrozen(ips) && ips.every((x) => Object.isFrozen(x)));
}

function podAddr(pod: Pod, fam: Family): string | undefined {
  let a = POD_ADDRS.get(pod);
  if (a === undefined) {
    podAddrReads++;
    if (!frozenAddrs(pod)) return podIPOf(pod, fam);
    a = { IPv4: podIPOf(pod, 'IPv4'), IPv6: podIPOf(pod, 'IPv6') };
    POD_ADDRS.set(pod, a);
  }
  return a[fam];
}

function running(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && !pod.metadata.deletionTimestamp;
}

/** What listens on `port` in `pod` (running containers only). */
export function podListener(c: Cluster, pod: Pod, port: number, proto: 'tcp' | 'udp'): { listens: boolean; listener?: Listener } {
  for (const ct of pod.spec.containers) {
    const cs = pod.status?.containerStatuses?.find((s) => s.name === ct.name);
    if (!cs?.state.running) continue;
    const l = containerListener(c, pod, ct, port, proto);
    if (l) return l === true ? { listens: true } : { listens: true, listener: l };
  }
  return { listens: false };
}

/**
 * What a running container's process listens with on `port`: its program override's answer
 * (nginx's loaded configuration, CoreDNS's plugins) or the image catalogue's; `true` for a
 * listener the simulation knows nothing more of, undefined when nothing listens. The packet path
 * and the kubelet's probes both ask this.
 */
export function containerListener(c: Cluster, pod: Pod, ct: Container, port: number, proto: 'tcp' | 'udp'): Listener | true | undefined {
  const image = lookupImage(ct.image);
  if (!image) return undefined;
  const ov = c.programOverride(image.repository);
  const o = ov?.listens?.(c, pod, ct, port, proto);
  if (o === false) return undefined;
  const found = imageListeners(c, pod, ct, image).find((x) => x.port === port && x.protocol.toLowerCase() === proto);
  if (o === undefined && !found) return undefined;
  const site = ov?.http?.(c, pod, ct, port);
  if (found) return site ? { ...found, http: site } : found;
  return site ? { port, protocol: proto === 'tcp' ? 'TCP' : 'UDP', http: site } : true;
}

/**
 * What the image's process serves: its catalogue listeners, or for an image whose server depends
 * on its args and uptime (ImageInfo.serve: agnhost) what this container's run serves now.
 */
function imageListeners(c: Cluster, pod: Pod, ct: Container, image: ImageInfo): Listener[] {
  if (!image.serve) return image.listeners;
  const startedAt = pod.status?.containerStatuses?.find((s) => s.name === ct.name)?.state.running?.startedAt;
  const uptime = startedAt ? Math.max(0, c.now() - Date.parse(startedAt)) : 0;
  return image.serve(ct.command ? [] : ct.args ?? [], uptime);
}

/**
 * Listeners of a node itself: its host-network pods (static pods, kube-proxy, CNI agents), sshd,
 * and the kubelet (10250 on every address; its healthz port 10248 only on 127.0.0.1, so only a
 * connection from the node itself, `local`, reaches it).
 */
function hostListener(c: Cluster, host: Host, port: number, proto: 'tcp' | 'udp', local = false): { listens: boolean; listener?: Listener; pod?: Pod } {
  for (const p of c.store.list<Pod>('Pod')) {
    if (!p.spec.hostNetwork || p.spec.nodeName !== host.name || !running(p)) continue;
    const l = podListener(c, p, port, proto);
    if (l.listens) return { ...l, pod: p };
  }
  if (proto === 'tcp' && (port === 22 || ((port === 10250 || (port === 10248 && local)) && host.unitActive('kubelet')))) return { listens: true };
  return { listens: false };
}

/** kube-proxy's nftables table of a family on `host` (`ip` or `ip6 kube-proxy`), when its kube-proxy runs in nftables mode. */
function nftTable(host: Host, fam: Family = 'IPv4'): NftTable | undefined {
  return host.data.state.nftables === undefined ? undefined : kubeProxyTable(nodeNftables(host), fam === 'IPv6' ? 'ip6' : 'ip');
}

/** The walk's view of the node: its addresses, the random source, the affinity sets' contents. */
function nftCtx(x: Ctx, host: Host): NftWalkContext {
  return { localAddrs: [addrOf(host, x.fam) ?? host.ip], rng: x.c.random, affinity: nftAffinity(nodeNftAffinity(host), x.c.now()) };
}

/**
 * kube-proxy's nftables chains for one hook (pkg/proxy/nftables/proxier.go): its pre-DNAT filter
 * chain (priority dstnat-10) sees the original destination, then nat-prerouting / nat-output DNATs.
 * Returns a failure, or the DNAT and masquerade decision (none when the table is absent).
 */
function nftHook(x: Ctx, host: Host, pkt: Packet, hook: 'prerouting' | 'output'): ConnectResult | { dnat?: { ip: string; port: number }; masquerade: boolean } {
  const t = nftTable(host, x.fam);
  if (!t) return { masquerade: false };
  const ctx = nftCtx(x, host);
  const np = { src: pkt.src, dst: pkt.dst, proto: pkt.proto, ...(pkt.dport !== undefined ? { dport: pkt.dport } : {}) };
  const chain = hook === 'prerouting' ? 'filter-prerouting-pre-dnat' : 'filter-output-pre-dnat';
  const f = walkNftFilter(t, np, chain, ctx);
  if (f.trace.length > 0) x.trace.push(`${host.name}: nft ${chain}: ${f.trace.join(' → ')} → ${f.verdict}`);
  if (f.verdict === 'REJECT') return fail(x, 'refused', `${host.name}: reject in nft ${chain}`);
  if (f.verdict === 'DROP') return fail(x, 'timeout', `${host.name}: drop in nft ${chain}`);
  const n = walkNftNat(t, np, hook, ctx);
  x.trace.push(`${host.name}: nft nat-${hook}: ${n.trace.length > 0 ? n.trace.join(' → ') : '(no rule matched)'}`);
  return n.dnat ? { dnat: n.dnat, masquerade: n.masquerade } : { masquerade: n.masquerade };
}

/** kube-proxy's nftables filter chain at the filter priority (input, forward, output), on the translated packet. */
function nftFilter(x: Ctx, host: Host, pkt: Packet, hook: 'input' | 'forward' | 'output'): ConnectResult | undefined {
  const t = nftTable(host, x.fam);
  if (!t) return undefined;
  const np = { src: pkt.src, dst: pkt.dst, proto: pkt.proto, ...(pkt.dport !== undefined ? { dport: pkt.dport } : {}) };
  const f = walkNftFilter(t, np, `filter-${hook}`, nftCtx(x, host));
  if (f.trace.length > 0) x.trace.push(`${host.name}: nft filter-${hook}: ${f.trace.join(' → ')} → ${f.verdict}`);
  if (f.verdict === 'REJECT') return fail(x, 'refused', `${host.name}: reject in nft filter-${hook}`);
  if (f.verdict === 'DROP') return fail(x, 'timeout', `${host.name}: drop in nft filter-${hook}`);
  return undefined;
}

function isFailure(r: ConnectResult | { dnat?: unknown; masquerade: boolean }): r is ConnectResult {
  return 'trace' in r;
}

interface Ctx {
  c: Cluster;
  trace: string[];
  proto: Proto;
  /** The destination's family: which addresses and which netfilter tables the packet uses. */
  fam: Family;
}

/** The nodes by their address of a family. */
function nodesByAddr(c: Cluster, fam: Family): Map<string, Host> {
  const m = new Map<string, Host>();
  for (const h of c.nodeHosts()) {
    const a = addrOf(h, fam);
    if (a) m.set(a, h);
  }
  return m;
}

function fail(x: Ctx, error: ConnectError, why: string): ConnectResult {
  x.trace.push(`✗ ${why}`);
  return { ok: false, error, trace: x.trace };
}

/**
 * Connect from `from` to `dst`:`port`. ICMP (`ping`) uses port 0 and only needs the host to exist.
 */
export function connect(c: Cluster, from: Source, dst: string, port: number, proto: Proto): ConnectResult {
  const fam: Family = dst.includes(':') ? 'IPv6' : 'IPv4';
  const x: Ctx = { c, trace: [], proto, fam };
  const nodes = nodesByAddr(c, fam);
  const pkt: Packet = proto === 'icmp' ? { src: '', dst, proto } : { src: '', dst, proto, dport: port, sport: EPHEMERAL_PORT };

  if (from.kind === 'workstation') {
    const ws = c.host(c.meta.workstation);
    if (fam === 'IPv6' && !isLoopback(dst)) return fail(x, 'no-route', `the workstation ${c.meta.workstation} has no IPv6 address: the network is unreachable`);
    pkt.src = ws?.ip ?? '0.0.0.0';
    x.trace.push(`source: workstation ${c.meta.workstation} (${pkt.src})`);
    const node = nodes.get(dst);
    if (ws && proto === 'tcp' && (isLoopback(dst) || dst === ws.ip)) return toLocalSocket(x, ws, dst, port);
    if (gateways(c).has(dst)) return external(x, dst, port, pkt.src);
    if (!node) return fail(x, 'timeout', `${dst} is not routed from the workstation (only node IPs are reachable; pod and Service networks live inside the cluster)`);
    return arrive(x, node, packetWith(pkt, { inIface: node.data.iface }), undefined, true);
  }

  if (from.kind === 'node') {
    const host = c.host(from.host);
    if (!host) return fail(x, 'unreachable', `no host ${from.host}`);
    // the kernel picks the loopback address for 127/8 and ::1
    const own = addrOf(host, fam);
    if (!own && !isLoopback(dst)) return fail(x, 'no-route', `${host.name} has no ${fam} address: the network is unreachable`);
    pkt.src = dst.startsWith('127.') ? '127.0.0.1' : dst === '::1' ? '::1' : own!;
    x.trace.push(`source: node ${host.name} (${pkt.src})`);
    if (proto === 'tcp' && (isLoopback(dst) || dst === own) && socketFor(host, dst, port)) return toLocalSocket(x, host, dst, port);
    return leaveHost(x, host, pkt, 'OUTPUT', undefined);
  }

  const pod = c.store.get<Pod>('Pod', from.ns, from.name);
  const host = pod?.spec.nodeName ? c.host(pod.spec.nodeName) : undefined;
  if (!pod || !host || !pod.status?.podIP) return fail(x, 'unreachable', `pod ${from.ns}/${from.name} has no network`);
  const own = pod.spec.hostNetwork ? addrOf(host, fam) : podAddr(pod, fam);
  if (!own && !isLoopback(dst)) return fail(x, 'no-route', `pod ${from.ns}/${from.name} has no ${fam} address: the network is unreachable`);
  pkt.src = own ?? (fam === 'IPv6' ? '::1' : '127.0.0.1');
  x.trace.push(`source: pod ${from.ns}/${from.name} (${pkt.src}) on ${host.name}`);
  if (pod.spec.hostNetwork) return leaveHost(x, host, pkt, 'OUTPUT', undefined);
  if (dst === pkt.src || isLoopback(dst)) return deliverToPod(x, pod, port, pkt.src, undefined);
  return leaveHost(x, host, packetWith(pkt, { inIface: podIface(c, pod) }), 'PREROUTING', pod);
}

/** The fields packetWith copies: every field of a Packet (a field added to Packet fails to compile here until it is copied). */
const PACKET_FIELDS = { src: true, dst: true, proto: true, sport: true, dport: true, inIface: true, outIface: true, mark: true, ctstates: true } as const satisfies Record<keyof Packet, true>;
void PACKET_FIELDS;

/**
 * `{ ...p, ...extra }` (for the fields `extra` gives), built field by field: V8 takes a slow path
 * for a spread followed by properties in one literal, several times a connection. A field absent
 * from both stays absent, as the spread leaves it.
 */
export function packetWith(p: Packet, extra: Partial<Pick<Packet, 'src' | 'inIface' | 'ctstates'>>): Packet {
  const q: Packet = { src: extra.src ?? p.src, dst: p.dst, proto: p.proto };
  if (p.sport !== undefined) q.sport = p.sport;
  if (p.dport !== undefined) q.dport = p.dport;
  const inIface = extra.inIface ?? p.inIface;
  if (inIface !== undefined) q.inIface = inIface;
  if (p.outIface !== undefined) q.outIface = p.outIface;
  if (p.mark !== undefined) q.mark = p.mark;
  const ctstates = extra.ctstates ?? p.ctstates;
  if (ctstates !== undefined) q.ctstates = ctstates;
  return q;
}

function isLoopback(ip: string): boolean {
  return ip.startsWith('127.') || ip === '::1';
}

/**
 * A TCP connection to an address of the source's own host: a learner's process listening there
 * takes it (node/user-sockets.ts), else the kernel refuses it. `kubectl port-forward` hands it
 * through the API server and the kubelet to localhost:PORT inside the pod's network namespace
 * (the CRI's PortForward, containerd internal/cri/server/sandbox_portforward_linux.go), so no
 * Service, iptables rule or NetworkPolicy is on the way. When nothing listens there the connection
 * is closed without a reply and the socket records it; `kubectl proxy` serves the API over HTTP.
 */
function toLocalSocket(x: Ctx, host: Host, dst: string, port: number): ConnectResult {
  const s = socketFor(host, dst, port);
  if (!s) return fail(x, 'refused', `nothing listens on ${dst}:${port} on ${host.name}`);
  s.accepted = (s.accepted ?? 0) + 1;
  x.trace.push(`${host.name}: ${s.comm} (pid ${s.pid}) accepts ${dst}:${port}`);
  const here: Reached = { ip: dst, port, host: host.name, socket: s };
  if (!s.forward) return { ok: true, to: here, srcSeen: dst, trace: x.trace };
  const f = s.forward;
  const pod = x.c.store.get<Pod>('Pod', f.namespace, f.pod);
  const name = `${f.namespace}/${f.pod}`;
  if (!pod || pod.metadata.uid !== f.uid || !running(pod)) {
    x.trace.push(`✗ pod ${name} is gone: the forwarded connection is closed without a reply`);
    return { ok: true, to: here, srcSeen: dst, trace: x.trace };
  }
  x.trace.push(`port-forward → kubelet on ${pod.spec.nodeName ?? '?'} → localhost:${f.port} in pod ${name}'s network namespace`);
  const l = podListener(x.c, pod, f.port, 'tcp');
  if (!l.listens) {
    s.refusedInPod = true;
    x.trace.push(`✗ nothing listens on ${f.port}/tcp in pod ${name}: the connection is closed without a reply and kubectl logs the error`);
    return { ok: true, to: here, srcSeen: dst, trace: x.trace };
  }
  x.trace.push(`✓ pod ${name} listens on ${f.port}/tcp`);
  const to: Reached = { ip: pod.status?.podIP ?? '', port: f.port, pod: { ns: f.namespace, name: f.pod }, ...(l.listener ? { listener: l.listener } : {}) };
  return { ok: true, to, srcSeen: '127.0.0.1', trace: x.trace };
}

/** The gateway of the node network: the upstream DNS resolver (port 53) and nothing else. */
function external(x: Ctx, dst: string, port: number, src: string): ConnectResult {
  if (x.proto !== 'icmp' && port !== 53) return fail(x, 'timeout', `${dst}:${port} does not answer outside the cluster (only the upstream resolver on port 53 does)`);
  x.trace.push(`→ ${dst}: upstream resolver of the node network`);
  return { ok: true, to: { ip: dst, port, external: true }, srcSeen: src, trace: x.trace };
}

/** nat then filter on `host` for a packet from a local pod/process, then route it. */
function leaveHost(x: Ctx, host: Host, pkt: Packet, hook: 'PREROUTING' | 'OUTPUT', srcPod: Pod | undefined): ConnectResult {
  const c = x.c;
  const ipt = netfilter(host, x.fam);
  const ctx = walkCtx(c, host, x.fam);
  const self = addrOf(host, x.fam) ?? host.ip;
  const nft = nftHook(x, host, pkt, hook === 'OUTPUT' ? 'output' : 'prerouting');
  if (isFailure(nft)) return nft;
  const nat = nft.dnat ? { verdict: 'ACCEPT' as const, dnat: nft.dnat, masquerade: nft.masquerade, summary: '' } : walkNat(ipt, pkt, hook, ctx);
  if (!nft.dnat) x.trace.push(`${host.name}: nat ${hook}: ${nat.summary}`);
  if (nat.verdict === 'DROP') return fail(x, 'timeout', `${host.name}: dropped in nat ${hook}`);
  const out: Packet = { ...pkt };
  if (nat.dnat) {
    out.dst = nat.dnat.ip;
    if (nat.dnat.port !== undefined) out.dport = nat.dnat.port;
    x.trace.push(`${host.name}: DNAT ${pkt.dst}:${pkt.dport ?? ''} → ${out.dst}:${out.dport ?? ''}`);
  }
  const local = out.dst === self || isLoopback(out.dst);
  const fhook = hook === 'OUTPUT' ? 'OUTPUT' : local ? 'INPUT' : 'FORWARD';
  const post = nftFilter(x, host, out, fhook === 'OUTPUT' ? 'output' : fhook === 'INPUT' ? 'input' : 'forward');
  if (post) return post;
  const filt = walkFilter(ipt, packetWith(out, { ctstates: nat.dnat ? ['NEW', 'DNAT'] : ['NEW'] }), fhook, ctx);
  x.trace.push(`${host.name}: filter ${fhook}: ${filt.summary} → ${filt.verdict}`);
  if (filt.verdict === 'REJECT') return fail(x, 'refused', `${host.name}: REJECT (${filt.rejectWith ?? 'icmp-port-unreachable'}) in filter ${fhook}`);
  if (filt.verdict === 'DROP') return fail(x, 'timeout', `${host.name}: DROP in filter ${fhook}`);
  const src = nat.masquerade || (nft.masquerade && !nft.dnat) ? self : pkt.src;
  if (nat.masquerade) x.trace.push(`${host.name}: MASQUERADE ${pkt.src} → ${self}`);
  const fromPod = hook === 'PREROUTING';
  return route(x, host, out, src, srcPod, fromPod);
}

/** A packet arriving at `node` from the wire (workstation, another node): PREROUTING, then route. */
function arrive(x: Ctx, node: Host, pkt: Packet, srcPod: Pod | undefined, fromWire: boolean): ConnectResult {
  const self = addrOf(node, x.fam) ?? node.ip;
  x.trace.push(`→ arrives at ${node.name} (${self}) on ${node.data.iface}`);
  const c = x.c;
  const ipt = netfilter(node, x.fam);
  const ctx = walkCtx(c, node, x.fam);
  const nft = nftHook(x, node, pkt, 'prerouting');
  if (isFailure(nft)) return nft;
  const nat = nft.dnat ? { verdict: 'ACCEPT' as const, dnat: nft.dnat, masquerade: nft.masquerade, summary: '' } : walkNat(ipt, pkt, 'PREROUTING', ctx);
  if (!nft.dnat) x.trace.push(`${node.name}: nat PREROUTING: ${nat.summary}`);
  const out: Packet = { ...pkt };
  if (nat.dnat) {
    out.dst = nat.dnat.ip;
    if (nat.dnat.port !== undefined) out.dport = nat.dnat.port;
    x.trace.push(`${node.name}: DNAT ${pkt.dst}:${pkt.dport ?? ''} → ${out.dst}:${out.dport ?? ''}`);
  }
  const local = out.dst === self;
  const fhook = local ? 'INPUT' : 'FORWARD';
  const post = nftFilter(x, node, out, local ? 'input' : 'forward');
  if (post) return post;
  const filt = walkFilter(ipt, packetWith(out, { ctstates: nat.dnat ? ['NEW', 'DNAT'] : ['NEW'] }), fhook, ctx);
  x.trace.push(`${node.name}: filter ${fhook}: ${filt.summary} → ${filt.verdict}`);
  if (filt.verdict === 'REJECT') return fail(x, 'refused', `${node.name}: REJECT in filter ${fhook}`);
  if (filt.verdict === 'DROP') return fail(x, 'timeout', `${node.name}: DROP in filter ${fhook}`);
  const src = nat.masquerade ? self : pkt.src;
  if (nat.masquerade) x.trace.push(`${node.name}: MASQUERADE ${pkt.src} → ${self}`);
  return route(x, node, out, src, srcPod, fromWire);
}

/**
 * Route the (translated) packet from `host`. `forwarded` says the packet did not originate on this
 * host's own stack, so sending it on is IP forwarding.
 */
function route(x: Ctx, host: Host, pkt: Packet, src: string, srcPod: Pod | undefined, forwarded: boolean): ConnectResult {
  const c = x.c;
  const port = pkt.dport ?? 0;
  if (pkt.dst === addrOf(host, x.fam) || isLoopback(pkt.dst)) {
    if (srcPod && forwarded) x.trace.push(`${host.name}: delivered to the node itself`);
    return deliverToHost(x, host, port, src, srcPod);
  }
  const nodes = nodesByAddr(c, x.fam);
  const dstPod = podByIP(c, pkt.dst);
  const dstNode = nodes.get(pkt.dst);
  if (!dstPod && !dstNode) {
    if (gateways(c).has(pkt.dst)) {
      if (forwarded && !forwards(host, x.fam)) return fail(x, 'timeout', `${host.name}: ${forwardSysctl(x.fam)} = 0, packet to ${pkt.dst} not forwarded`);
      if (srcPod) {
        const eg = egress(x, srcPod, { ip: pkt.dst }, port);
        if (eg) return eg;
      }
      return external(x, pkt.dst, port, addrOf(host, x.fam) ?? host.ip);
    }
    return fail(x, 'timeout', `${host.name}: no route to ${pkt.dst} inside the cluster (packet leaves by the default route and is lost)`);
  }
  if (forwarded && (dstNode !== host) && !forwards(host, x.fam)) return fail(x, 'timeout', `${host.name}: ${forwardSysctl(x.fam)} = 0, packet not forwarded`);
  if (srcPod) {
    const eg = egress(x, srcPod, dstPod ? { ip: pkt.dst, pod: dstPod } : { ip: pkt.dst }, port);
    if (eg) return eg;
  }
  if (dstNode) {
    if (dstNode === host) return deliverToHost(x, host, port, src, srcPod);
    x.trace.push(`${host.name}: route ${pkt.dst} via ${host.data.iface}`);
    // the other node runs its own nat PREROUTING (NodePorts, kube-proxy DNAT) on arrival
    return arrive(x, dstNode, packetWith(pkt, { src, inIface: dstNode.data.iface }), undefined, true);
  }
  const pod = dstPod!;
  const target = pod.spec.nodeName ? c.host(pod.spec.nodeName) : undefined;
  if (!target) return fail(x, 'timeout', `pod ${pod.metadata.namespace}/${pod.metadata.name} is not on a node`);
  if (target !== host) {
    const via = c.meta.cni.plugin === 'calico' ? 'vxlan.calico' : c.meta.cni.plugin === 'flannel' ? 'flannel.1' : 'weave';
    x.trace.push(`${host.name}: route ${pkt.dst} via ${via} to ${target.name}`);
    if (!forwards(target, x.fam)) return fail(x, 'timeout', `${target.name}: ${forwardSysctl(x.fam)} = 0, packet to pod ${pkt.dst} not forwarded`);
  }
  return deliverToPod(x, pod, port, src, srcPod, target === host ? host : undefined);
}

function egress(x: Ctx, srcPod: Pod, peer: { ip: string; pod?: Pod }, port: number): ConnectResult | undefined {
  if (x.proto === 'icmp' || !enforcesNetworkPolicy(x.c)) return undefined;
  const v = policyVerdict(x.c, 'egress', srcPod, peer, port, x.proto);
  if (v.policies.length === 0) return undefined;
  x.trace.push(`NetworkPolicy egress of ${srcPod.metadata.namespace}/${srcPod.metadata.name} (${v.policies.join(', ')}): ${v.allowed ? 'allowed' : 'denied'}`);
  return v.allowed ? undefined : fail(x, 'timeout', `egress to ${peer.ip}:${port}/${x.proto} denied by NetworkPolicy (${x.c.meta.cni.plugin} drops the packet)`);
}

function deliverToHost(x: Ctx, host: Host, port: number, src: string, srcPod: Pod | undefined): ConnectResult {
  void srcPod;
  if (x.proto === 'icmp') {
    x.trace.push(`✓ ${host.name} answers ICMP echo`);
    return { ok: true, to: { ip: addrOf(host, x.fam) ?? host.ip, port: 0, host: host.name }, srcSeen: src, trace: x.trace };
  }
  const self = addrOf(host, x.fam) ?? host.ip;
  const l = hostListener(x.c, host, port, x.proto, src === '127.0.0.1' || src === '::1');
  if (!l.listens) return fail(x, 'refused', `nothing listens on ${host.name} ${self}:${port}/${x.proto}`);
  x.trace.push(`✓ ${host.name} listens on ${port}/${x.proto}`);
  const to: Reached = { ip: self, port, host: host.name };
  if (l.listener) to.listener = l.listener;
  if (l.pod) to.pod = { ns: l.pod.metadata.namespace ?? 'default', name: l.pod.metadata.name };
  return { ok: true, to, srcSeen: src, trace: x.trace };
}

function deliverToPod(x: Ctx, pod: Pod, port: number, src: string, srcPod: Pod | undefined, sameNode?: Host): ConnectResult {
  const c = x.c;
  const name = `${pod.metadata.namespace}/${pod.metadata.name}`;
  if (!running(pod)) return fail(x, x.proto === 'icmp' ? 'timeout' : 'refused', `pod ${name} is ${pod.status?.phase ?? 'Pending'}: no process in its network namespace answers`);
  if (x.proto !== 'icmp' && enforcesNetworkPolicy(c) && !(sameNode && !srcPod && src === addrOf(sameNode, x.fam))) {
    const peerPod = srcPod && src === podAddr(srcPod, x.fam) ? srcPod : podByIP(c, src);
    const peer = peerPod ? { ip: src, pod: peerPod } : { ip: src };
    const v = policyVerdict(c, 'ingress', pod, peer, port, x.proto);
    if (v.policies.length > 0) {
      x.trace.push(`NetworkPolicy ingress of ${name} (${v.policies.join(', ')}): ${v.allowed ? 'allowed' : 'denied'}`);
      if (!v.allowed) return fail(x, 'timeout', `ingress from ${src} to ${name}:${port}/${x.proto} denied by NetworkPolicy (${c.meta.cni.plugin} drops the packet)`);
    }
  } else if (x.proto !== 'icmp' && !enforcesNetworkPolicy(c) && c.store.list('NetworkPolicy', pod.metadata.namespace).length > 0) {
    x.trace.push(`NetworkPolicy in ${pod.metadata.namespace} not enforced: ${c.meta.cni.plugin} has no policy engine`);
  }
  const to: Reached = { ip: podAddr(pod, x.fam) ?? '', port, pod: { ns: pod.metadata.namespace ?? 'default', name: pod.metadata.name } };
  if (x.proto === 'icmp') {
    x.trace.push(`✓ pod ${name} answers ICMP echo`);
    return { ok: true, to, srcSeen: src, trace: x.trace };
  }
  const l = podListener(c, pod, port, x.proto);
  if (!l.listens) return fail(x, 'refused', `nothing listens on ${port}/${x.proto} in pod ${name}`);
  if (l.listener) to.listener = l.listener;
  x.trace.push(`✓ pod ${name} listens on ${port}/${x.proto}`);
  return { ok: true, to, srcSeen: src, trace: x.trace };
}
