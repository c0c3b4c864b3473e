/**
 * kube-proxy in nftables mode: the `ip kube-proxy` table one full sync leaves on a node, and the
 * walk of a packet through it.
 *
 * Emulates kubernetes pkg/proxy/nftables/proxier.go (v1.33–v1.35: setupNFTables + syncProxyRules)
 * for IPv4: base chains filter-prerouting/-input/-forward/-output (priority dstnat-10),
 * filter-output-post-dnat (dstnat+10), nat-prerouting/-output (dstnat), nat-postrouting (srcnat);
 * dispatch through the `service-ips` verdict map (`ip daddr . meta l4proto . th dport`) and, for
 * addresses in the `nodeport-ips` set, the `service-nodeports` map (`meta l4proto . th dport`);
 * per service port `service-HASH-ns/name/proto/port` (numgen random over endpoints),
 * `external-…` (mark-for-masquerade, then the policy chain) and `endpoint-HASH-…__ip/port` (DNAT);
 * no-endpoint verdicts in `no-endpoint-services` / `no-endpoint-nodeports` → reject-chain.
 * nodePortAddresses defaults to `primary` in this mode (cmd/kube-proxy/app/server_linux.go
 * platformApplyDefaults): NodePorts answer on the node's primary IP only, never on localhost.
 *
 * Rules are kept as structured records (the forms the proxier writes) with their nft text; the
 * set of rule forms is exactly what the walk interprets. Not modelled: session affinity sets,
 * loadBalancerSourceRanges (firewall-ips stays empty), stale-chain delayed deletion, IPv6.
 */
import type { EndpointSlice, Service } from '../../api/types.js';
import { cidrContains, parseCidr, parseIPv4 } from '../ipv4.js';
import { joinHostPort, sha256Base32 } from './chain-names.js';
import type { EndpointInfo, ServicePortInfo } from './service-model.js';
import { categorizeEndpoints, endpointsByPort, portExternallyAccessible, portKey, servicePorts } from './service-model.js';
import type { KubeProxyConfig } from './sync.js';

export type NftVerdict = { goto: string } | { jump: string } | 'drop' | 'reject' | 'return';

export type NftRule =
  | { op: 'jump'; ctNew: boolean; chain: string }
  | { op: 'vmap'; key: 'daddr.proto.port' | 'proto.port'; daddrSet?: string; map: string }
  | { op: 'daddr-set-reject'; set: string }
  | { op: 'daddr-cidrs-drop'; cidrs: string[] }
  | { op: 'reject' }
  | { op: 'mark-or' }
  | { op: 'mark-zero-return' }
  | { op: 'mark-xor' }
  | { op: 'masquerade' }
  | { op: 'masq-if'; daddr?: string; proto?: string; dport?: number; saddrNot?: string; saddr?: string }
  | { op: 'saddr-goto'; cidr: string; chain: string }
  | { op: 'fib-saddr-local'; then: NftVerdict }
  | { op: 'goto'; chain: string }
  | { op: 'numgen'; chains: string[] }
  | { op: 'dnat'; proto: string; to: string };

export interface NftChain {
  name: string;
  base?: { type: 'filter' | 'nat'; hook: 'prerouting' | 'input' | 'forward' | 'output' | 'postrouting'; priority: string };
  comment?: string;
  rules: { rule: NftRule; text: string; comment?: string }[];
}

export interface NftElement {
  key: string[];
  value?: string;
  comment?: string;
}

export interface NftSetOrMap {
  name: string;
  kind: 'set' | 'map';
  type: string;
  comment: string;
  elements: NftElement[];
}

/** The `ip kube-proxy` table (JSON, kept in host.data.state['nftables']). */
export interface NftTable {
  family: 'ip';
  name: 'kube-proxy';
  comment: string;
  chains: NftChain[];
  sets: NftSetOrMap[];
}

export interface NftState {
  tables: NftTable[];
}

export function newNftState(): NftState {
  return { tables: [] };
}

export function kubeProxyTable(st: NftState): NftTable | undefined {
  return st.tables.find((t) => t.family === 'ip' && t.name === 'kube-proxy');
}

/** proxier.go hashAndTruncate: 8 base32 characters of sha256(name), '-', name (names here never exceed 240). */
function hashName(name: string): string {
  return `${sha256Base32(name).slice(0, 8)}-${name}`;
}

function chainBase(s: ServicePortInfo): string {
  return hashName(`${s.namespace}/${s.name}/${s.protocol}/${s.portName}`);
}

function endpointChain(s: ServicePortInfo, ep: EndpointInfo): string {
  return `endpoint-${hashName(`${s.namespace}/${s.name}/${s.protocol}/${s.portName}__${ep.ip}/${ep.port}`)}`;
}

function verdictText(v: NftVerdict): string {
  return typeof v === 'string' ? v : 'goto' in v ? `goto ${v.goto}` : `jump ${v.jump}`;
}

export function ruleText(r: NftRule, mark: string): string {
  switch (r.op) {
    case 'jump':
      return `${r.ctNew ? 'ct state new ' : ''}jump ${r.chain}`;
    case 'vmap':
      return r.key === 'daddr.proto.port'
        ? `ip daddr . meta l4proto . th dport vmap @${r.map}`
        : `${r.daddrSet ? `ip daddr @${r.daddrSet} ` : 'fib daddr type local ip daddr != 127.0.0.0/8 '}meta l4proto . th dport vmap @${r.map}`;
    case 'daddr-set-reject':
      return `ip daddr @${r.set} reject`;
    case 'daddr-cidrs-drop':
      return `ip daddr { ${r.cidrs.join(', ')} } drop`;
    case 'reject':
      return 'reject';
    case 'mark-or':
      return `mark set mark or ${mark}`;
    case 'mark-zero-return':
      return `mark and ${mark} == 0 return`;
    case 'mark-xor':
      return `mark set mark xor ${mark}`;
    case 'masquerade':
      return 'masquerade fully-random';
    case 'masq-if':
      return [
        r.saddr !== undefined ? `ip saddr ${r.saddr}` : '',
        r.daddr !== undefined ? `ip daddr ${r.daddr}` : '',
        r.proto !== undefined ? `${r.proto} dport ${r.dport ?? 0}` : '',
        r.saddrNot !== undefined ? `ip saddr != ${r.saddrNot}` : '',
        'jump mark-for-masquerade',
      ]
        .filter((x) => x !== '')
        .join(' ');
    case 'saddr-goto':
      return `ip saddr ${r.cidr} goto ${r.chain}`;
    case 'fib-saddr-local':
      return `fib saddr type local ${verdictText(r.then)}`;
    case 'goto':
      return `goto ${r.chain}`;
    case 'numgen':
      return `numgen random mod ${r.chains.length} vmap { ${r.chains.map((c, i) => `${i} : goto ${c}`).join(', ')} }`;
    case 'dnat':
      return `meta l4proto ${r.proto} dnat to ${r.to}`;
  }
}

export interface NftSyncInput {
  services: readonly Service[];
  endpointSlices: readonly EndpointSlice[];
  node: { name: string; ips: readonly string[] };
  config: KubeProxyConfig;
  /** ServiceCIDRs of the cluster (cluster-ips-check drops traffic to unallocated ClusterIPs). */
  serviceCIDRs: readonly string[];
}

/** IPs for the nodeport-ips set: `primary` (the default in this mode) or the node IPs in the given CIDRs, never loopback. */
function nodePortIPs(cfg: KubeProxyConfig, nodeIPs: readonly string[]): string[] {
  const npa = cfg.nodePortAddresses ?? [];
  if (npa.length === 0 || npa.includes('primary')) return nodeIPs.slice(0, 1);
  return nodeIPs.filter((ip) => {
    const v = parseIPv4(ip);
    return v !== undefined && !ip.startsWith('127.') && npa.some((c) => {
      const p = parseCidr(c);
      return p !== undefined && cidrContains(p, v);
    });
  });
}

/** One full sync: the table is rebuilt from scratch (the proxier's full-sync transaction). */
export function syncNftables(st: NftState, input: NftSyncInput): NftTable {
  const cfg = input.config;
  const markBit = cfg.masqueradeBit ?? 14;
  // fmt.Sprintf("%#08x", 1<<bit): width 8 including the 0x prefix
  const mark = `0x${(1 << markBit).toString(16).padStart(6, '0')}`;
  const chains = new Map<string, NftChain>();
  const chain = (name: string, base?: NftChain['base'], comment?: string): NftChain => {
    let c = chains.get(name);
    if (!c) {
      c = { name, rules: [] };
      if (base) c.base = base;
      if (comment !== undefined) c.comment = comment;
      chains.set(name, c);
    }
    return c;
  };
  const add = (name: string, rule: NftRule, comment?: string): void => {
    const r: NftChain['rules'][number] = { rule, text: ruleText(rule, mark) };
    if (comment !== undefined) r.comment = comment;
    chain(name).rules.push(r);
  };
  for (const [name, type, hook, priority] of [
    ['filter-prerouting', 'filter', 'prerouting', 'dstnat - 10'],
    ['filter-input', 'filter', 'input', 'dstnat - 10'],
    ['filter-forward', 'filter', 'forward', 'dstnat - 10'],
    ['filter-output', 'filter', 'output', 'dstnat - 10'],
    ['filter-output-post-dnat', 'filter', 'output', 'dstnat + 10'],
    ['nat-prerouting', 'nat', 'prerouting', 'dstnat'],
    ['nat-output', 'nat', 'output', 'dstnat'],
    ['nat-postrouting', 'nat', 'postrouting', 'srcnat'],
  ] as const)
    chain(name, { type, hook, priority });
  for (const [dst, src, ctNew] of [
    ['nodeport-endpoints-check', 'filter-input', true],
    ['service-endpoints-check', 'filter-input', true],
    ['service-endpoints-check', 'filter-forward', true],
    ['service-endpoints-check', 'filter-output', true],
    ['firewall-check', 'filter-prerouting', true],
    ['firewall-check', 'filter-output', true],
    ['services', 'nat-output', false],
    ['services', 'nat-prerouting', false],
    ['masquerading', 'nat-postrouting', false],
    ['cluster-ips-check', 'filter-forward', true],
    ['cluster-ips-check', 'filter-output-post-dnat', true],
  ] as const) {
    chain(dst);
    add(src, { op: 'jump', ctNew, chain: dst });
  }
  add('mark-for-masquerade', { op: 'mark-or' });
  add('masquerading', { op: 'mark-zero-return' });
  add('masquerading', { op: 'mark-xor' });
  add('masquerading', { op: 'masquerade' });
  add('cluster-ips-check', { op: 'daddr-set-reject', set: 'cluster-ips' }, 'Reject traffic to invalid ports of ClusterIPs');
  if (input.serviceCIDRs.length > 0) add('cluster-ips-check', { op: 'daddr-cidrs-drop', cidrs: [...input.serviceCIDRs] }, 'Drop traffic to unallocated ClusterIPs');
  chain('reject-chain', undefined, 'helper for @no-endpoint-services / @no-endpoint-nodeports');
  add('reject-chain', { op: 'reject' });
  add('service-endpoints-check', { op: 'vmap', key: 'daddr.proto.port', map: 'no-endpoint-services' });
  add('nodeport-endpoints-check', { op: 'vmap', key: 'proto.port', daddrSet: 'nodeport-ips', map: 'no-endpoint-nodeports' });
  add('firewall-check', { op: 'vmap', key: 'daddr.proto.port', map: 'firewall-ips' });
  add('services', { op: 'vmap', key: 'daddr.proto.port', map: 'service-ips' });
  add('services', { op: 'vmap', key: 'proto.port', daddrSet: 'nodeport-ips', map: 'service-nodeports' });

  const set = (name: string, kind: 'set' | 'map', type: string, comment: string): NftSetOrMap => ({ name, kind, type, comment, elements: [] });
  const clusterIPs = set('cluster-ips', 'set', 'ipv4_addr', 'Active ClusterIPs');
  const npIPs = set('nodeport-ips', 'set', 'ipv4_addr', 'IPs that accept NodePort traffic');
  const noEpSvc = set('no-endpoint-services', 'map', 'ipv4_addr . inet_proto . inet_service : verdict', 'vmap to drop or reject packets to services with no endpoints');
  const noEpNp = set('no-endpoint-nodeports', 'map', 'inet_proto . inet_service : verdict', 'vmap to drop or reject packets to service nodeports with no endpoints');
  const fwIPs = set('firewall-ips', 'map', 'ipv4_addr . inet_proto . inet_service : verdict', 'destinations that are subject to LoadBalancerSourceRanges');
  const svcIPs = set('service-ips', 'map', 'ipv4_addr . inet_proto . inet_service : verdict', 'ClusterIP, ExternalIP and LoadBalancer IP traffic');
  const svcNPs = set('service-nodeports', 'map', 'inet_proto . inet_service : verdict', 'NodePort traffic');
  for (const ip of nodePortIPs(cfg, input.node.ips)) npIPs.elements.push({ key: [ip] });

  const clusterCIDR = cfg.clusterCIDR !== undefined && cfg.clusterCIDR !== '' ? cfg.clusterCIDR : undefined;
  const epMap = endpointsByPort(input.endpointSlices, input.node.name);
  const seenClusterIPs = new Set<string>();
  for (const svc of input.services.flatMap((s) => servicePorts(s))) {
    const base = chainBase(svc);
    const clusterChain = `service-${base}`;
    const localChain = `local-${base}`;
    const extChain = `external-${base}`;
    const cat = categorizeEndpoints(epMap.get(portKey(svc.spn, svc.protocol)) ?? [], svc);
    const hasEndpoints = cat.hasAnyEndpoints;
    const port = String(svc.port);
    if (!seenClusterIPs.has(svc.clusterIP)) {
      seenClusterIPs.add(svc.clusterIP);
      clusterIPs.elements.push({ key: [svc.clusterIP] });
    }
    let internalChain = clusterChain;
    let hasInternal = hasEndpoints;
    if (svc.internalPolicyLocal) {
      internalChain = localChain;
      if (cat.localEndpoints.length === 0) hasInternal = false;
    }
    let externalPolicyChain = clusterChain;
    let hasExternal = hasEndpoints;
    if (svc.externalPolicyLocal) {
      externalPolicyChain = localChain;
      if (cat.localEndpoints.length === 0) hasExternal = false;
    }
    const usesExt = hasEndpoints && portExternallyAccessible(svc);
    const intVerdict = !hasEndpoints ? 'goto reject-chain' : 'drop';
    const extVerdict = intVerdict;
    if (hasInternal) svcIPs.elements.push({ key: [svc.clusterIP, svc.protocol, port], value: `goto ${internalChain}` });
    else noEpSvc.elements.push({ key: [svc.clusterIP, svc.protocol, port], value: intVerdict, comment: svc.spn });
    for (const eip of svc.externalIPs) {
      if (hasEndpoints) svcIPs.elements.push({ key: [eip, svc.protocol, port], value: `goto ${extChain}` });
      if (!hasExternal) noEpSvc.elements.push({ key: [eip, svc.protocol, port], value: extVerdict, comment: svc.spn });
    }
    for (const lb of svc.loadBalancerVIPs) {
      if (hasEndpoints) svcIPs.elements.push({ key: [lb, svc.protocol, port], value: `goto ${extChain}` });
      if (!hasExternal) noEpSvc.elements.push({ key: [lb, svc.protocol, port], value: extVerdict, comment: svc.spn });
    }
    if (svc.nodePort !== 0) {
      if (hasEndpoints) svcNPs.elements.push({ key: [svc.protocol, String(svc.nodePort)], value: `goto ${extChain}` });
      if (!hasExternal) noEpNp.elements.push({ key: [svc.protocol, String(svc.nodePort)], value: extVerdict, comment: svc.spn });
    }
    const usesCluster = cat.clusterEndpoints.length > 0 && (!svc.internalPolicyLocal || portExternallyAccessible(svc));
    const usesLocal = cat.localEndpoints.length > 0 && (svc.internalPolicyLocal || (svc.externalPolicyLocal && portExternallyAccessible(svc)));
    for (const ep of cat.allReachable) chain(endpointChain(svc, ep));
    if (usesCluster) chain(clusterChain);
    if (usesLocal) chain(localChain);
    if (usesExt) chain(extChain);
    if (hasInternal) {
      if (cfg.masqueradeAll) add(internalChain, { op: 'masq-if', daddr: svc.clusterIP, proto: svc.protocol, dport: svc.port });
      else if (clusterCIDR !== undefined) add(internalChain, { op: 'masq-if', daddr: svc.clusterIP, proto: svc.protocol, dport: svc.port, saddrNot: clusterCIDR });
    }
    if (usesExt) {
      if (!svc.externalPolicyLocal) add(extChain, { op: 'masq-if' });
      else {
        if (clusterCIDR !== undefined) add(extChain, { op: 'saddr-goto', cidr: clusterCIDR, chain: clusterChain }, 'short-circuit pod traffic');
        add(extChain, { op: 'fib-saddr-local', then: { jump: 'mark-for-masquerade' } }, 'masquerade local traffic');
        add(extChain, { op: 'fib-saddr-local', then: { goto: clusterChain } }, 'short-circuit local traffic');
      }
      if (hasExternal) add(extChain, { op: 'goto', chain: externalPolicyChain });
    }
    if (usesCluster) add(clusterChain, { op: 'numgen', chains: cat.clusterEndpoints.map((e) => endpointChain(svc, e)) });
    if (usesLocal) add(localChain, { op: 'numgen', chains: cat.localEndpoints.map((e) => endpointChain(svc, e)) });
    for (const ep of cat.allReachable) {
      const name = endpointChain(svc, ep);
      add(name, { op: 'masq-if', saddr: ep.ip });
      add(name, { op: 'dnat', proto: svc.protocol, to: joinHostPort(ep.ip, ep.port) });
    }
  }
  const table: NftTable = {
    family: 'ip',
    name: 'kube-proxy',
    comment: 'rules for kube-proxy',
    chains: [...chains.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    sets: [clusterIPs, npIPs, noEpSvc, noEpNp, fwIPs, svcIPs, svcNPs],
  };
  st.tables = [...st.tables.filter((t) => t !== kubeProxyTable(st)), table];
  return table;
}

/** nftables.CleanupLeftovers: `delete table ip kube-proxy` (run when kube-proxy starts in an iptables-based mode). */
export function cleanupNftables(st: NftState): void {
  st.tables = st.tables.filter((t) => !(t.family === 'ip' && t.name === 'kube-proxy'));
}

// ---------------------------------------------------------------------------------------------
// Walking a packet

export interface NftPacket {
  src: string;
  dst: string;
  proto: string;
  dport?: number;
}

export interface NftWalkContext {
  /** The node's own addresses (fib … type local); 127.0.0.0/8 is always local. */
  localAddrs: readonly string[];
  rng: { int(n: number): number };
}

export interface NftNatResult {
  dnat?: { ip: string; port: number };
  masquerade: boolean;
  trace: string[];
}

export interface NftFilterResult {
  verdict: 'ACCEPT' | 'DROP' | 'REJECT';
  trace: string[];
}

function isLocal(ip: string, ctx: NftWalkContext): boolean {
  return ip.startsWith('127.') || ctx.localAddrs.includes(ip);
}

function lookupVmap(t: NftTable, map: string, key: string[]): string | undefined {
  const m = t.sets.find((s) => s.name === map);
  const want = key.join(' . ');
  return m?.elements.find((e) => e.key.join(' . ') === want)?.value;
}

function inSet(t: NftTable, set: string, ip: string): boolean {
  return t.sets.find((s) => s.name === set)?.elements.some((e) => e.key[0] === ip) ?? false;
}

type Outcome = { kind: 'continue' } | { kind: 'verdict'; v: NftVerdict } | { kind: 'dnat'; ip: string; port: number } | { kind: 'accept' };

/** Evaluate one rule; undefined = no match (next rule). */
function evalRule(t: NftTable, r: NftRule, p: NftPacket, ctx: NftWalkContext, state: { mark: boolean }): Outcome {
  const parseVerdict = (s: string | undefined): Outcome => {
    if (s === undefined) return { kind: 'continue' };
    if (s === 'drop' || s === 'reject' || s === 'return') return { kind: 'verdict', v: s };
    const [kw, chain = ''] = s.split(' ');
    return { kind: 'verdict', v: kw === 'jump' ? { jump: chain } : { goto: chain } };
  };
  switch (r.op) {
    case 'jump':
      return { kind: 'verdict', v: { jump: r.chain } };
    case 'vmap':
      if (p.dport === undefined) return { kind: 'continue' };
      if (r.key === 'daddr.proto.port') return parseVerdict(lookupVmap(t, r.map, [p.dst, p.proto, String(p.dport)]));
      if (r.daddrSet !== undefined ? !inSet(t, r.daddrSet, p.dst) : !isLocal(p.dst, ctx) || p.dst.startsWith('127.')) return { kind: 'continue' };
      return parseVerdict(lookupVmap(t, r.map, [p.proto, String(p.dport)]));
    case 'daddr-set-reject':
      return inSet(t, r.set, p.dst) ? { kind: 'verdict', v: 'reject' } : { kind: 'continue' };
    case 'daddr-cidrs-drop': {
      const v = parseIPv4(p.dst);
      return v !== undefined && r.cidrs.some((c) => {
        const pc = parseCidr(c);
        return pc !== undefined && cidrContains(pc, v);
      })
        ? { kind: 'verdict', v: 'drop' }
        : { kind: 'continue' };
    }
    case 'reject':
      return { kind: 'verdict', v: 'reject' };
    case 'mark-or':
      state.mark = true;
      return { kind: 'continue' };
    case 'mark-zero-return':
    case 'mark-xor':
    case 'masquerade':
      return { kind: 'continue' };
    case 'masq-if': {
      if (r.saddr !== undefined && p.src !== r.saddr) return { kind: 'continue' };
      if (r.daddr !== undefined && p.dst !== r.daddr) return { kind: 'continue' };
      if (r.proto !== undefined && (p.proto !== r.proto || p.dport !== r.dport)) return { kind: 'continue' };
      if (r.saddrNot !== undefined) {
        const pc = parseCidr(r.saddrNot);
        const v = parseIPv4(p.src);
        if (pc && v !== undefined && cidrContains(pc, v)) return { kind: 'continue' };
      }
      return { kind: 'verdict', v: { jump: 'mark-for-masquerade' } };
    }
    case 'saddr-goto': {
      const pc = parseCidr(r.cidr);
      const v = parseIPv4(p.src);
      return pc && v !== undefined && cidrContains(pc, v) ? { kind: 'verdict', v: { goto: r.chain } } : { kind: 'continue' };
    }
    case 'fib-saddr-local':
      return isLocal(p.src, ctx) ? { kind: 'verdict', v: r.then } : { kind: 'continue' };
    case 'goto':
      return { kind: 'verdict', v: { goto: r.chain } };
    case 'numgen': {
      const c = r.chains[ctx.rng.int(r.chains.length)];
      return c === undefined ? { kind: 'continue' } : { kind: 'verdict', v: { goto: c } };
    }
    case 'dnat': {
      const i = r.to.lastIndexOf(':');
      return { kind: 'dnat', ip: r.to.slice(0, i), port: Number(r.to.slice(i + 1)) };
    }
  }
}

/** Runs base chain `start` (jump pushes a return point, goto does not; a verdict ends the hook). */
function run(t: NftTable, start: string, p: NftPacket, ctx: NftWalkContext, trace: string[]): { out: Outcome; mark: boolean } {
  const state = { mark: false };
  const stack: { chain: string; next: number }[] = [{ chain: start, next: 0 }];
  let guard = 0;
  while (stack.length > 0 && guard++ < 10_000) {
    const frame = stack[stack.length - 1]!;
    const ch = t.chains.find((c) => c.name === frame.chain);
    const entry = ch?.rules[frame.next];
    if (!ch || !entry) {
      stack.pop();
      continue;
    }
    frame.next++;
    const o = evalRule(t, entry.rule, p, ctx, state);
    if (o.kind === 'continue') continue;
    trace.push(`${ch.name}: ${entry.text}`);
    if (o.kind !== 'verdict') return { out: o, mark: state.mark };
    const v = o.v;
    if (v === 'return') {
      stack.pop();
      continue;
    }
    if (v === 'drop' || v === 'reject') return { out: o, mark: state.mark };
    if ('jump' in v) stack.push({ chain: v.jump, next: 0 });
    else {
      stack.pop();
      stack.push({ chain: v.goto, next: 0 });
    }
  }
  return { out: { kind: 'accept' }, mark: state.mark };
}

/** nat prerouting / output of the kube-proxy table: DNAT to an endpoint and the masquerade mark. */
export function walkNftNat(t: NftTable, p: NftPacket, hook: 'prerouting' | 'output', ctx: NftWalkContext): NftNatResult {
  const trace: string[] = [];
  const { out, mark } = run(t, `nat-${hook}`, p, ctx, trace);
  const r: NftNatResult = { masquerade: mark, trace };
  if (out.kind === 'dnat') r.dnat = { ip: out.ip, port: out.port };
  return r;
}

/** A filter base chain of the kube-proxy table (`output-post-dnat` = filter-output-post-dnat). */
export function walkNftFilter(t: NftTable, p: NftPacket, hook: 'prerouting' | 'input' | 'forward' | 'output' | 'output-post-dnat', ctx: NftWalkContext): NftFilterResult {
  const trace: string[] = [];
  const { out } = run(t, `filter-${hook}`, p, ctx, trace);
  if (out.kind === 'verdict' && out.v === 'drop') return { verdict: 'DROP', trace };
  if (out.kind === 'verdict' && out.v === 'reject') return { verdict: 'REJECT', trace };
  return { verdict: 'ACCEPT', trace };
}
