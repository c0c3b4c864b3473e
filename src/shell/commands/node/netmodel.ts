/**
 * A node's network devices, addresses, routes and neighbours, derived from cluster state the way
 * the CNI plugin lays them out on a real node:
 * - calico (VXLAN): `vxlan.calico` carries the node's tunnel address (first address of its first
 *   IPAM block), one `cali` + 11 hex of sha1("<ns>.<pod>") veth per local pod (MAC ee:ee:ee:ee:ee:ee,
 *   libcalico-go VethNameForWorkload), `/32` routes to each pod, a `blackhole … proto 80` route
 *   for each own block and `via <tunnel> dev vxlan.calico onlink` routes to other nodes' blocks;
 * - flannel (vxlan backend): `flannel.1` with the podCIDR network address /32, the `cni0` bridge
 *   with the podCIDR's .1, a `veth…` per pod enslaved to cni0, routes to other nodes' podCIDRs;
 * - weave: the `weave` bridge (mtu 1376) holding the podCIDR's .1 on the cluster CIDR, a
 *   `vethwepl…` per pod.
 * Used by `ip`, `route` and `netstat -r`.
 */
import { sandboxCreatedAt } from '../../../sim/node/runtime.js';
import { createHash } from 'node:crypto';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { Node, Pod } from '../../../sim/api/types.js';
import { calicoBlocks } from '../../../sim/cni/ipam.js';
import { podIPOf } from '../../../sim/api/pod-ips.js';
import { clusterCIDR } from '../../../sim/controlplane.js';
import { cidrContains, intToIp, ipToInt, parseCidr, parseRange } from '../../../util/ip.js';
import { hexFrom } from './host.js';

export interface Addr {
  family: 'inet' | 'inet6';
  /** address/prefix */
  cidr: string;
  brd?: string;
  scope: 'host' | 'global' | 'link';
  /** extra flags printed after the scope (e.g. noprefixroute) */
  flags?: string;
}

export interface Iface {
  index: number;
  name: string;
  /** `@ifN` suffix for veths (the peer's index in the pod's namespace). */
  peerIndex?: number;
  flags: string;
  mtu: number;
  qdisc: string;
  master?: string;
  state: 'UP' | 'UNKNOWN' | 'DOWN';
  qlen?: number;
  link: 'loopback' | 'ether';
  mac: string;
  linkNetns?: string;
  /**
   * The peer's namespace by id when it has no name: a pod's eth0 points at the node's root
   * namespace, which /run/netns does not name, so iproute2 prints `link-netnsid 0`.
   */
  linkNetnsId?: number;
  addrs: Addr[];
}

export interface Route {
  type?: 'blackhole';
  dst: string; // 'default' or a.b.c.d/n or a.b.c.d (host)
  via?: string;
  dev?: string;
  proto?: string;
  scope?: 'link' | 'host';
  src?: string;
  onlink?: boolean;
  metric?: number;
  /** IPv6 routes' router preference (`pref medium`). */
  pref?: string;
}

export interface Neighbour {
  ip: string;
  dev: string;
  lladdr: string;
  state: 'REACHABLE' | 'STALE' | 'PERMANENT' | 'DELAY';
}

export interface NetNs {
  name: string;
  id: number;
  pod: Pod;
  ifaces: Iface[];
  routes: Route[];
  routes6: Route[];
}

export interface NodeNet {
  ifaces: Iface[];
  routes: Route[];
  /** The IPv6 main table (`ip -6 route`). */
  routes6: Route[];
  neighbours: Neighbour[];
  namespaces: NetNs[];
}

const LO: Iface = {
  index: 1,
  name: 'lo',
  flags: 'LOOPBACK,UP,LOWER_UP',
  mtu: 65536,
  qdisc: 'noqueue',
  state: 'UNKNOWN',
  qlen: 1000,
  link: 'loopback',
  mac: '00:00:00:00:00:00',
  addrs: [
    { family: 'inet', cidr: '127.0.0.1/8', scope: 'host' },
    { family: 'inet6', cidr: '::1/128', scope: 'host', flags: 'noprefixroute' },
  ],
};

/** A locally administered unicast MAC from a seed. */
export function macFrom(seed: string): string {
  const h = hexFrom(seed, 12);
  const bytes = h.match(/../g)!.map((b) => parseInt(b, 16));
  bytes[0] = (bytes[0]! & 0xfe) | 0x02;
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/** The EUI-64 IPv6 link-local address the kernel derives from a MAC. */
export function linkLocal(mac: string): string {
  const b = mac.split(':').map((x) => parseInt(x, 16));
  const groups = [((b[0]! ^ 2) << 8) | b[1]!, (b[2]! << 8) | 0xff, 0xfe00 | b[3]!, (b[4]! << 8) | b[5]!];
  return `fe80::${groups.map((g) => g.toString(16)).join(':')}/64`;
}

function broadcast(ip: string, prefix: number): string | undefined {
  if (prefix >= 31) return undefined;
  const c = parseCidr(`${ip}/${prefix}`)!;
  return intToIp(c.base + c.size - 1);
}

function networkOf(ip: string, prefix: number): string {
  return `${intToIp(parseCidr(`${ip}/${prefix}`)!.base)}/${prefix}`;
}

/** Pods with their own network namespace on this node, in sandbox creation order. */
export function localPods(c: Cluster, host: Host): Pod[] {
  return c.store
    .list<Pod>('Pod')
    .filter((p) => p.spec.nodeName === host.name && !p.spec.hostNetwork && p.status?.podIP && !p.metadata.deletionTimestamp)
    .sort((a, b) => {
      const ta = sandboxCreatedAt(c, a.metadata.uid ?? '') ?? 0;
      const tb = sandboxCreatedAt(c, b.metadata.uid ?? '') ?? 0;
      return ta - tb || (a.metadata.uid ?? '').localeCompare(b.metadata.uid ?? '');
    });
}

/** containerd's netns name for a pod sandbox: cni-<uuid>. */
export function netnsName(pod: Pod): string {
  const h = hexFrom(`netns/${pod.metadata.uid ?? pod.metadata.name}`, 32);
  return `cni-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function vethName(plugin: string, pod: Pod): string {
  if (plugin === 'calico') {
    const sum = createHash('sha1').update(`${pod.metadata.namespace ?? 'default'}.${pod.metadata.name}`).digest('hex');
    return `cali${sum.slice(0, 11)}`;
  }
  if (plugin === 'weave') return `vethwepl${hexFrom(`veth/${pod.metadata.uid ?? ''}`, 7)}`;
  return `veth${hexFrom(`veth/${pod.metadata.uid ?? ''}`, 8)}`;
}

function ether(index: number, name: string, mtu: number, mac: string, addrs: Addr[], extra: Partial<Iface> = {}): Iface {
  return { index, name, flags: 'BROADCAST,MULTICAST,UP,LOWER_UP', mtu, qdisc: 'noqueue', state: 'UNKNOWN', link: 'ether', mac, addrs, ...extra };
}

function sortRoutes(routes: Route[]): Route[] {
  const key = (r: Route): [number, number] => {
    if (r.dst === 'default') return [-1, 0];
    const [ip, len] = r.dst.split('/');
    return [ipToInt(ip!), Number(len ?? 32)];
  };
  return routes.sort((a, b) => {
    const [ia, la] = key(a);
    const [ib, lb] = key(b);
    return ia - ib || lb - la;
  });
}

/** Everything `ip` shows on a node. */
export function nodeNet(c: Cluster, host: Host): NodeNet {
  const plugin = c.meta.cni.plugin;
  const ifaces: Iface[] = [{ ...LO, addrs: [...LO.addrs] }];
  const nic = ether(2, host.data.iface, 1500, host.data.mac, [], { qdisc: 'fq_codel', state: 'UP', qlen: 1000 });
  nic.addrs.push({ family: 'inet', cidr: `${host.ip}/${host.data.prefixLength}`, ...optBrd(broadcast(host.ip, host.data.prefixLength)), scope: 'global' });
  if (host.data.ip6) nic.addrs.push({ family: 'inet6', cidr: `${host.data.ip6}/${host.data.prefixLength6 ?? 64}`, scope: 'global' });
  nic.addrs.push({ family: 'inet6', cidr: linkLocal(host.data.mac), scope: 'link' });
  ifaces.push(nic);
  const routes: Route[] = [
    { dst: 'default', via: host.data.gateway, dev: nic.name, proto: 'static' },
    { dst: networkOf(host.ip, host.data.prefixLength), dev: nic.name, proto: 'kernel', scope: 'link', src: host.ip },
  ];
  const neighbours: Neighbour[] = [{ ip: host.data.gateway, dev: nic.name, lladdr: macFor(host.data.gateway), state: 'REACHABLE' }];
  for (const other of c.hosts.values()) {
    if (other.name === host.name) continue;
    neighbours.push({ ip: other.ip, dev: nic.name, lladdr: other.data.mac, state: 'STALE' });
  }
  const nodes = c.store.list<Node>('Node');
  const pods = localPods(c, host);
  const namespaces: NetNs[] = [];
  let next = 3;
  let podDev: { name: string; mtu: number; master?: string; gw?: string; podNet?: string } | undefined;

  if (plugin === 'calico') {
    const mine = calicoBlocks(c, host.name);
    const tunnel = mine[0]?.split('/')[0];
    if (tunnel) {
      const mac = macFrom(`vxlan.calico/${host.name}`);
      ifaces.push(ether(next++, 'vxlan.calico', 1450, mac, [{ family: 'inet', cidr: `${tunnel}/32`, scope: 'global' }, { family: 'inet6', cidr: linkLocal(mac), scope: 'link' }]));
    }
    // a dual-stack pool: calico-node's IPv6 VXLAN device holds the first address of the node's first /122
    const tunnel6 = calicoBlocks(c, host.name, 'IPv6')[0]?.split('/')[0];
    if (tunnel6) {
      const mac = macFrom(`vxlan-v6.calico/${host.name}`);
      ifaces.push(ether(next++, 'vxlan-v6.calico', 1430, mac, [{ family: 'inet6', cidr: `${tunnel6}/128`, scope: 'global' }, { family: 'inet6', cidr: linkLocal(mac), scope: 'link' }]));
    }
    for (const b of mine) routes.push({ type: 'blackhole', dst: b, proto: '80' });
    for (const n of nodes) {
      if (n.metadata.name === host.name) continue;
      for (const b of calicoBlocks(c, n.metadata.name)) {
        const gw = b.split('/')[0]!;
        routes.push({ dst: b, via: gw, dev: 'vxlan.calico', onlink: true });
        neighbours.push({ ip: gw, dev: 'vxlan.calico', lladdr: macFrom(`vxlan.calico/${n.metadata.name}`), state: 'PERMANENT' });
      }
    }
    podDev = { name: '', mtu: 1450, gw: '169.254.1.1' };
  } else if (plugin === 'flannel') {
    const me = nodes.find((n) => n.metadata.name === host.name);
    const cidr = me?.spec.podCIDR ? parseCidr(me.spec.podCIDR) : undefined;
    if (cidr) {
      const netIp = intToIp(cidr.base);
      const mac = macFrom(`flannel.1/${host.name}`);
      ifaces.push(ether(next++, 'flannel.1', 1450, mac, [{ family: 'inet', cidr: `${netIp}/32`, scope: 'global' }, { family: 'inet6', cidr: linkLocal(mac), scope: 'link' }]));
      const gw = intToIp(cidr.base + 1);
      const bmac = macFrom(`cni0/${host.name}`);
      ifaces.push(
        ether(next++, 'cni0', 1450, bmac, [{ family: 'inet', cidr: `${gw}/${cidr.bits}`, ...optBrd(broadcast(gw, cidr.bits)), scope: 'global' }, { family: 'inet6', cidr: linkLocal(bmac), scope: 'link' }], {
          state: 'UP',
          qlen: 1000,
        }),
      );
      routes.push({ dst: me!.spec.podCIDR!, dev: 'cni0', proto: 'kernel', scope: 'link', src: gw });
      podDev = { name: '', mtu: 1450, master: 'cni0', gw, podNet: me!.spec.podCIDR! };
    }
    for (const n of nodes) {
      if (n.metadata.name === host.name || !n.spec.podCIDR) continue;
      const gw = n.spec.podCIDR.split('/')[0]!;
      routes.push({ dst: n.spec.podCIDR, via: gw, dev: 'flannel.1', onlink: true });
      neighbours.push({ ip: gw, dev: 'flannel.1', lladdr: macFrom(`flannel.1/${n.metadata.name}`), state: 'PERMANENT' });
    }
  } else {
    const me = nodes.find((n) => n.metadata.name === host.name);
    const cidr = me?.spec.podCIDR ? parseCidr(me.spec.podCIDR) : undefined;
    const cluster = parseCidr(clusterCIDR(c) ?? '10.244.0.0/16');
    if (cidr && cluster) {
      const gw = intToIp(cidr.base + 1);
      const mac = macFrom(`weave/${host.name}`);
      ifaces.push(ether(next++, 'datapath', 1376, macFrom(`datapath/${host.name}`), [{ family: 'inet6', cidr: linkLocal(macFrom(`datapath/${host.name}`)), scope: 'link' }]));
      ifaces.push(
        ether(next++, 'weave', 1376, mac, [{ family: 'inet', cidr: `${gw}/${cluster.bits}`, ...optBrd(broadcast(gw, cluster.bits)), scope: 'global' }, { family: 'inet6', cidr: linkLocal(mac), scope: 'link' }], {
          state: 'UP',
          qlen: 1000,
        }),
      );
      routes.push({ dst: `${intToIp(cluster.base)}/${cluster.bits}`, dev: 'weave', proto: 'kernel', scope: 'link', src: gw });
      podDev = { name: '', mtu: 1376, master: 'weave', gw, podNet: `${intToIp(cluster.base)}/${cluster.bits}` };
    }
  }

  if (podDev) {
    pods.forEach((pod, i) => {
      const ns = netnsName(pod);
      const name = vethName(plugin, pod);
      const mac = plugin === 'calico' ? 'ee:ee:ee:ee:ee:ee' : macFrom(`veth-host/${pod.metadata.uid ?? ''}`);
      ifaces.push(
        ether(next++, name, podDev.mtu, mac, [{ family: 'inet6', cidr: linkLocal(mac), scope: 'link' }], {
          peerIndex: 2,
          state: 'UP',
          qlen: 1000,
          linkNetns: ns,
          ...(podDev.master ? { master: podDev.master } : {}),
        }),
      );
      const podIP = pod.status!.podIP!;
      if (plugin === 'calico') routes.push({ dst: podIP, dev: name, scope: 'link' });
      namespaces.push(podNamespace(pod, ns, i, ifaces[ifaces.length - 1]!.index, podDev, podIP));
    });
  }
  // IPv6: Calico's routes for the IPv6 blocks (blackhole for its own, onlink over vxlan-v6.calico
  // to the others'), a /128 to each local pod's IPv6 address, the default route of a dual-stack node
  const extra6: Route[] = [];
  if (plugin === 'calico') {
    for (const b of calicoBlocks(c, host.name, 'IPv6')) extra6.push({ type: 'blackhole', dst: b, dev: 'lo', proto: '80', metric: 1024 });
    for (const n of nodes) {
      if (n.metadata.name === host.name) continue;
      for (const b of calicoBlocks(c, n.metadata.name, 'IPv6')) extra6.push({ dst: b, via: b.split('/')[0]!, dev: 'vxlan-v6.calico', proto: '80', metric: 1024, onlink: true });
    }
    for (const pod of pods) {
      const ip6 = podIPOf(pod, 'IPv6');
      if (ip6) extra6.push({ dst: ip6, dev: vethName(plugin, pod), metric: 1024 });
    }
  }
  if (host.data.ip6 && host.data.gateway6) extra6.push({ dst: 'default', via: host.data.gateway6, dev: nic.name, proto: 'static', metric: 1024 });
  return { ifaces, routes: sortRoutes(routes), routes6: ipv6Routes(ifaces, extra6), neighbours, namespaces: namespaces.reverse() };
}

/**
 * The IPv6 main table as the kernel keeps it: a `proto kernel metric 256` route for each global
 * address's prefix (its /128 alone for a /128) and an `fe80::/64` for every device with a
 * link-local address, plus `extra`; listed in fib6's walk order, a more specific route before the
 * prefix covering it, otherwise by address (recorded from iproute2 6.1: `ip -6 route`).
 */
function ipv6Routes(ifaces: readonly Iface[], extra: readonly Route[]): Route[] {
  const kernel: Route[] = [];
  const linkLocal: Route[] = [];
  for (const i of ifaces) {
    if (i.name === 'lo') continue;
    for (const a of i.addrs) {
      if (a.family !== 'inet6') continue;
      if (a.scope === 'link') linkLocal.push({ dst: 'fe80::/64', dev: i.name, proto: 'kernel', metric: 256 });
      else {
        const r = parseRange(a.cidr.includes('/') ? a.cidr : `${a.cidr}/128`);
        if (r) kernel.push({ dst: r.bits === 128 ? a.cidr.split('/')[0]! : r.text, dev: i.name, proto: 'kernel', metric: 256 });
      }
    }
  }
  const all = [...kernel, ...extra, ...linkLocal].map((r) => ({ ...r, pref: 'medium' }));
  const key = (r: Route): { v: bigint; bits: number } => {
    if (r.dst === 'default') return { v: 0n, bits: 0 };
    const p = parseRange(r.dst.includes('/') ? r.dst : `${r.dst}/128`);
    return { v: p?.base ?? 0n, bits: p?.bits ?? 128 };
  };
  return all
    .map((r, i) => ({ r, i, k: key(r) }))
    .sort((a, b) => {
      const bits = Math.min(a.k.bits, b.k.bits);
      const shift = BigInt(128 - bits);
      const ma = bits === 0 ? 0n : a.k.v >> shift;
      const mb = bits === 0 ? 0n : b.k.v >> shift;
      if (ma !== mb) return ma < mb ? -1 : 1;
      return b.k.bits - a.k.bits || a.i - b.i;
    })
    .map((x) => x.r);
}

function podNamespace(pod: Pod, name: string, id: number, hostIndex: number, dev: { mtu: number; gw?: string; podNet?: string }, podIP: string): NetNs {
  const mac = macFrom(`eth0/${pod.metadata.uid ?? ''}`);
  const calico = dev.gw === '169.254.1.1';
  const prefix = calico ? 32 : Number(dev.podNet?.split('/')[1] ?? 24);
  // a dual-stack pod's IPv6 address: Calico gives it as a /128 (its routes point at the veth)
  const ip6 = podIPOf(pod, 'IPv6');
  const eth0 = ether(2, 'eth0', dev.mtu, mac, [
    { family: 'inet', cidr: `${podIP}/${prefix}`, ...optBrd(broadcast(podIP, prefix)), scope: 'global' },
    ...(ip6 ? [{ family: 'inet6' as const, cidr: `${ip6}/${calico ? 128 : 64}`, scope: 'global' as const }] : []),
    { family: 'inet6', cidr: linkLocal(mac), scope: 'link' },
  ], { peerIndex: hostIndex, state: 'UP', qlen: 1000, linkNetnsId: 0 });
  const routes: Route[] = calico
    ? [
        { dst: 'default', via: '169.254.1.1', dev: 'eth0' },
        { dst: '169.254.1.1', dev: 'eth0', scope: 'link' },
      ]
    : [
        { dst: 'default', via: dev.gw!, dev: 'eth0' },
        { dst: networkOf(podIP, prefix), dev: 'eth0', proto: 'kernel', scope: 'link', src: podIP },
      ];
  // Calico routes a dual-stack pod's IPv6 traffic to the host side of its veth (fe80::ecee:eeff:feee:eeee)
  const extra6: Route[] = ip6 && calico ? [{ dst: 'default', via: linkLocal('ee:ee:ee:ee:ee:ee').split('/')[0]!, dev: 'eth0', metric: 1024 }] : [];
  const ifaces = [{ ...LO, addrs: [...LO.addrs] }, eth0];
  return { name, id, pod, ifaces, routes: sortRoutes(routes), routes6: ipv6Routes(ifaces, extra6) };
}

function optBrd(b: string | undefined): { brd?: string } {
  return b ? { brd: b } : {};
}

/** libvirt's gateway MAC derives from the network like the VMs' (52:54:00:…). */
function macFor(ip: string): string {
  const p = ip.split('.').map((x) => Number(x).toString(16).padStart(2, '0'));
  return `52:54:00:${p[1]}:${p[2]}:${p[3]}`;
}

/** Longest-prefix match of a destination in a route list (for `ip route get`). */
export function lookupRoute(routes: readonly Route[], ip: string): Route | undefined {
  let best: Route | undefined;
  let bestLen = -1;
  for (const r of routes) {
    const len = r.dst === 'default' ? 0 : Number(r.dst.split('/')[1] ?? 32);
    const net = r.dst === 'default' ? '0.0.0.0/0' : r.dst.includes('/') ? r.dst : `${r.dst}/32`;
    if (len > bestLen && cidrContains(net, ip)) {
      best = r;
      bestLen = len;
    }
  }
  return best;
}

/**
 * What a pod sees of the network from inside: its own namespace (lo and eth0, the CNI's routes),
 * or the node's for a hostNetwork pod. Undefined before the pod has a sandbox on a node.
 */
export function podNet(c: Cluster, pod: Pod): { ifaces: Iface[]; routes: Route[]; routes6: Route[] } | undefined {
  const host = pod.spec.nodeName ? c.host(pod.spec.nodeName) : undefined;
  if (!host) return undefined;
  const net = nodeNet(c, host);
  if (pod.spec.hostNetwork) return net;
  return net.namespaces.find((n) => n.pod.metadata.uid === pod.metadata.uid);
}
