/**
 * What kube-proxy's nftables proxier writes, piece by piece, before any decision about what to
 * skip: the table's fixed part (setupNFTables, written by full syncs only) and, per service port,
 * its chains, their rules and its map elements (the body of syncProxyRules' loop over svcPortMap).
 * Emulates kubernetes pkg/proxy/nftables/proxier.go (v1.35) for IPv4; the layout is described in
 * nftables.ts and checked against upstream's TestOverallNFTablesRules (nftables-overall.test.ts).
 */
import { cidrContains, parseCidr, parseIPv4 } from '../ipv4.js';
import { hash16, joinHostPort } from './chain-names.js';
import type { NftChain, NftElement, NftFamily, NftRule } from './nftables.js';
import { ruleText } from './nftables.js';
import type { NftOp } from './nftables-tx.js';
import type { Categorised, EndpointInfo, ServicePortInfo } from './service-model.js';
import { categorizeEndpoints, portExternallyAccessible } from './service-model.js';
import { familyClusterCIDR, type KubeProxyConfig } from './sync.js';

/** The maps and sets, in setupNFTables' order; the first is the cluster-ips set. */
export const CONTAINERS = [
  { name: 'cluster-ips', kind: 'set', type: 'ipv4_addr', comment: 'Active ClusterIPs' },
  { name: 'nodeport-ips', kind: 'set', type: 'ipv4_addr', comment: 'IPs that accept NodePort traffic' },
  { name: 'no-endpoint-services', kind: 'map', type: 'ipv4_addr . inet_proto . inet_service : verdict', comment: 'vmap to drop or reject packets to services with no endpoints' },
  { name: 'no-endpoint-nodeports', kind: 'map', type: 'inet_proto . inet_service : verdict', comment: 'vmap to drop or reject packets to service nodeports with no endpoints' },
  { name: 'firewall-ips', kind: 'map', type: 'ipv4_addr . inet_proto . inet_service : verdict', comment: 'destinations that are subject to LoadBalancerSourceRanges' },
  { name: 'service-ips', kind: 'map', type: 'ipv4_addr . inet_proto . inet_service : verdict', comment: 'ClusterIP, ExternalIP and LoadBalancer IP traffic' },
  { name: 'service-nodeports', kind: 'map', type: 'inet_proto . inet_service : verdict', comment: 'NodePort traffic' },
] as const satisfies readonly { name: string; kind: 'set' | 'map'; type: string; comment: string }[];

export type ContainerName = (typeof CONTAINERS)[number]['name'];

/**
 * The containers the proxier keeps an nftElementStorage for (NewProxier), in the order
 * syncProxyRules cleans up their leftover keys. nodeport-ips is not among them: every full sync
 * flushes and refills it.
 */
export const STORED: readonly ContainerName[] = ['cluster-ips', 'service-ips', 'firewall-ips', 'no-endpoint-services', 'no-endpoint-nodeports', 'service-nodeports'];

/** setupNFTables' ipvX_addr: the address type of the family's sets and map keys. */
export function addrType(family: NftFamily): string {
  return family === 'ip6' ? 'ipv6_addr' : 'ipv4_addr';
}

export function containerKind(name: ContainerName): 'set' | 'map' {
  return CONTAINERS.find((c) => c.name === name)?.kind ?? 'map';
}

/**
 * nftablesBaseChains since PR #132456 (v1.34): the firewall check runs before DNAT (dstnat-10), the
 * endpoint and ClusterIP checks at the filter priority, after it.
 */
const BASE_CHAINS: readonly [string, 'filter' | 'nat', NonNullable<NftChain['base']>['hook'], string][] = [
  ['filter-prerouting-pre-dnat', 'filter', 'prerouting', 'dstnat - 10'],
  ['filter-output-pre-dnat', 'filter', 'output', 'dstnat - 10'],
  ['filter-input', 'filter', 'input', 'filter'],
  ['filter-forward', 'filter', 'forward', 'filter'],
  ['filter-output', 'filter', 'output', 'filter'],
  ['nat-prerouting', 'nat', 'prerouting', 'dstnat'],
  ['nat-output', 'nat', 'output', 'dstnat'],
  ['nat-postrouting', 'nat', 'postrouting', 'srcnat'],
];

/** nftablesJumpChains: [dst, src, ct state new]. */
const JUMP_CHAINS: readonly [string, string, boolean][] = [
  ['nodeport-endpoints-check', 'filter-input', true],
  ['service-endpoints-check', 'filter-input', true],
  ['service-endpoints-check', 'filter-forward', true],
  ['service-endpoints-check', 'filter-output', true],
  ['firewall-check', 'filter-prerouting-pre-dnat', true],
  ['firewall-check', 'filter-output-pre-dnat', true],
  ['services', 'nat-output', false],
  ['services', 'nat-prerouting', false],
  ['masquerading', 'nat-postrouting', false],
  ['cluster-ips-check', 'filter-forward', true],
  ['cluster-ips-check', 'filter-output', true],
];

/** `fmt.Sprintf("%#08x", 1<<bit)`: width 8 including the 0x prefix. */
export function masqueradeMark(cfg: KubeProxyConfig): string {
  return `0x${(1 << (cfg.masqueradeBit ?? 14)).toString(16).padStart(6, '0')}`;
}

/** NodePortAddresses.MatchAll: a zero CIDR of the family among them (no nodeport-ips set then; proxyutil/nodeport_addresses.go). */
export function nodePortsMatchAll(cfg: KubeProxyConfig): boolean {
  return (cfg.nodePortAddresses ?? []).some((c) => c === '0.0.0.0/0');
}

/** IPs for the nodeport-ips set: `primary` (the default in this mode) or the node IPs in the given CIDRs, never loopback. */
export function nodePortIPs(cfg: KubeProxyConfig, nodeIPs: readonly string[]): string[] {
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

/** An `add rule` operation. */
export function ruleOp(chain: string, rule: NftRule, mark: string, comment?: string, family: NftFamily = 'ip'): NftOp {
  return { verb: 'add', obj: 'rule', chain, rule, text: ruleText(rule, mark, family), ...(comment !== undefined ? { comment } : {}) };
}

/** ensureChain: `add chain` + `flush chain`, once per chain per transaction. */
export function ensureChainOps(name: string, created: Set<string>, comment?: string): NftOp[] {
  if (created.has(name)) return [];
  created.add(name);
  return [{ verb: 'add', obj: 'chain', name, ...(comment !== undefined ? { comment } : {}) }, { verb: 'flush', obj: 'chain', name }];
}

/**
 * setupNFTables: the table, its base chains (deleted and re-created once per process, the
 * `flushed` flag, so their properties can change), the top-level chains flushed and rewritten,
 * the containers declared and nodeport-ips refilled. The containers' elements are not touched
 * here (readOrReset reads them; nftables-sync.ts).
 */
export function setupOps(cfg: KubeProxyConfig, nodeIPs: readonly string[], serviceCIDRs: readonly string[], firstOfProcess: boolean, family: NftFamily = 'ip'): NftOp[] {
  const mark = masqueradeMark(cfg);
  const rule = (chain: string, r: NftRule, m: string, comment?: string): NftOp => ruleOp(chain, r, m, comment, family);
  const ops: NftOp[] = [{ verb: 'add', obj: 'table', comment: 'rules for kube-proxy' }];
  if (firstOfProcess) for (const [name] of BASE_CHAINS) ops.push({ verb: 'add', obj: 'chain', name }, { verb: 'delete', obj: 'chain', name });
  for (const [name, type, hook, priority] of BASE_CHAINS) ops.push({ verb: 'add', obj: 'chain', name, base: { type, hook, priority } }, { verb: 'flush', obj: 'chain', name });
  const created = new Set<string>();
  for (const [dst, src, ctNew] of JUMP_CHAINS) ops.push(...ensureChainOps(dst, created), rule(src, { op: 'jump', ctNew, chain: dst }, mark));
  for (const name of ['services', 'cluster-ips-check', 'masquerading', 'mark-for-masquerade']) ops.push(...ensureChainOps(name, created));
  ops.push(rule('mark-for-masquerade', { op: 'mark-or' }, mark));
  ops.push(rule('masquerading', { op: 'mark-zero-return' }, mark), rule('masquerading', { op: 'mark-xor' }, mark), rule('masquerading', { op: 'masquerade' }, mark));
  const container = (name: ContainerName): NftOp => {
    const c = CONTAINERS.find((x) => x.name === name)!;
    return { verb: 'add', obj: 'set', name: c.name, kind: c.kind, type: c.type.replace('ipv4_addr', addrType(family)), comment: c.comment };
  };
  ops.push(container('cluster-ips'));
  ops.push(rule('cluster-ips-check', { op: 'daddr-set-reject', set: 'cluster-ips' }, mark, 'Reject traffic to invalid ports of ClusterIPs'));
  if (serviceCIDRs.length > 0) ops.push(rule('cluster-ips-check', { op: 'daddr-cidrs-drop', cidrs: [...serviceCIDRs] }, mark, 'Drop traffic to unallocated ClusterIPs'));
  // add+delete, not delete alone: deleting a set that is not there would fail the batch
  const all = nodePortsMatchAll(cfg);
  if (all) ops.push(container('nodeport-ips'), { verb: 'delete', obj: 'set', name: 'nodeport-ips', kind: 'set' });
  else {
    ops.push(container('nodeport-ips'), { verb: 'flush', obj: 'set', name: 'nodeport-ips', kind: 'set' });
    for (const ip of nodePortIPs(cfg, nodeIPs)) ops.push({ verb: 'add', obj: 'element', set: 'nodeport-ips', kind: 'set', elem: { key: [ip] } });
  }
  ops.push(container('no-endpoint-services'), container('no-endpoint-nodeports'));
  ops.push({ verb: 'add', obj: 'chain', name: 'reject-chain', comment: 'helper for @no-endpoint-services / @no-endpoint-nodeports' }, { verb: 'flush', obj: 'chain', name: 'reject-chain' });
  ops.push(rule('reject-chain', { op: 'reject' }, mark));
  ops.push(rule('service-endpoints-check', { op: 'vmap', key: 'daddr.proto.port', map: 'no-endpoint-services' }, mark));
  ops.push(rule('nodeport-endpoints-check', all ? { op: 'vmap', key: 'proto.port', map: 'no-endpoint-nodeports' } : { op: 'vmap', key: 'proto.port', daddrSet: 'nodeport-ips', map: 'no-endpoint-nodeports' }, mark));
  ops.push(container('firewall-ips'), ...ensureChainOps('firewall-check', created));
  ops.push(rule('firewall-check', { op: 'vmap', key: 'daddr.proto.port', map: 'firewall-ips' }, mark));
  ops.push(container('service-ips'), container('service-nodeports'));
  ops.push(rule('services', { op: 'vmap', key: 'daddr.proto.port', map: 'service-ips' }, mark));
  ops.push(rule('services', all ? { op: 'vmap', key: 'proto.port', fib: true, map: 'service-nodeports' } : { op: 'vmap', key: 'proto.port', daddrSet: 'nodeport-ips', map: 'service-nodeports' }, mark));
  return ops;
}

/**
 * proxier.go hashAndTruncate: 8 base32 characters of sha256(name), '-', name (names here never
 * exceed 240). The hash comes from chain-names.ts's memo, as the proxier keeps its names with
 * each servicePortInfo and endpointInfo instead of hashing at every sync.
 */
function hashName(name: string): string {
  return `${hash16(name).slice(0, 8)}-${name}`;
}

/** The node's endpoints of a port that has none (one object, so the plan memo can key on it). */
export const NO_ENDPOINTS: readonly EndpointInfo[] = Object.freeze([]);

/**
 * Plans by the node's endpoint array (a new one whenever the port's endpoints change, per node:
 * service-model.ts endpointsByPortCached) and the port's info (one per stored Service): a partial
 * sync asks for every port's elements, as ensureElem does, without planning unchanged ports again.
 */
const PLANS = new WeakMap<readonly EndpointInfo[], WeakMap<ServicePortInfo, { sig: string; plan: PortPlan }>>();

export function portPlanCached(svc: ServicePortInfo, eps: readonly EndpointInfo[], cfg: KubeProxyConfig, nodeIP: string | undefined): PortPlan {
  const sig = `${cfg.masqueradeAll === true}|${cfg.clusterCIDR ?? ''}|${nodeIP ?? ''}`;
  let byPort = PLANS.get(eps);
  if (!byPort) PLANS.set(eps, (byPort = new WeakMap()));
  const hit = byPort.get(svc);
  if (hit && hit.sig === sig) return hit.plan;
  const plan = portPlan(svc, categorizeEndpoints(eps, svc), cfg, nodeIP);
  byPort.set(svc, { sig, plan });
  return plan;
}

function chainBase(s: ServicePortInfo): string {
  return hashName(`${s.namespace}/${s.name}/${s.protocol}/${s.portName}`);
}

export function endpointChain(s: ServicePortInfo, ep: EndpointInfo): string {
  return `endpoint-${hashName(`${s.namespace}/${s.name}/${s.protocol}/${s.portName}__${ep.ip}/${ep.port}`)}`;
}

/** What one service port contributes to a sync. */
export interface PortPlan {
  /** Its endpoint chains (allLocallyReachableEndpoints), then its policy and external chains, in ensureChain order. */
  endpointChains: string[];
  policyChains: string[];
  /** Map and set elements, in the order ensureElem is called. */
  elements: { set: ContainerName; elem: NftElement }[];
  /**
   * The rules of its chains and its affinity sets, in the order they are added (skipped on a
   * partial sync of an unchanged Service).
   */
  rules: PlanStep[];
  /** Its affinity sets (activeAffinitySets: kept even when the Service is unchanged). */
  affinitySets: string[];
}

export type PlanStep = { chain: string; rule: NftRule; comment?: string } | { affinitySet: string; timeout: number };

export function affinitySetName(s: ServicePortInfo, ep: EndpointInfo): string {
  return `affinity-${hashName(`${s.namespace}/${s.name}/${s.protocol}/${s.portName}__${ep.ip}/${ep.port}`)}`;
}

/** The body of syncProxyRules' loop for one service port; `nodeIP` is the node's primary address (the firewall's allowFromNode). */
export function portPlan(svc: ServicePortInfo, cat: Categorised, cfg: KubeProxyConfig, nodeIP?: string): PortPlan {
  // the ip6 table's proxier detects local traffic with the IPv6 cluster CIDR
  const clusterCIDR = familyClusterCIDR(cfg.clusterCIDR, svc.clusterIP.includes(':') ? 'IPv6' : 'IPv4');
  const base = chainBase(svc);
  const clusterChain = `service-${base}`;
  const localChain = `local-${base}`;
  const extChain = `external-${base}`;
  const fwChain = `firewall-${base}`;
  const hasEndpoints = cat.hasAnyEndpoints;
  const port = String(svc.port);
  const affinity = svc.sessionAffinityClientIP;
  const plan: PortPlan = {
    endpointChains: cat.allReachable.map((ep) => endpointChain(svc, ep)),
    policyChains: [],
    elements: [],
    rules: [],
    affinitySets: affinity ? cat.allReachable.map((ep) => affinitySetName(svc, ep)) : [],
  };
  const usesCluster = cat.clusterEndpoints.length > 0 && (!svc.internalPolicyLocal || portExternallyAccessible(svc));
  const usesLocal = cat.localEndpoints.length > 0 && (svc.internalPolicyLocal || (svc.externalPolicyLocal && portExternallyAccessible(svc)));
  const usesExt = hasEndpoints && portExternallyAccessible(svc);
  if (usesCluster) plan.policyChains.push(clusterChain);
  if (usesLocal) plan.policyChains.push(localChain);
  if (usesExt) plan.policyChains.push(extChain);
  const usesFW = svc.loadBalancerVIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0;
  if (usesFW) plan.policyChains.push(fwChain);
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
  const verdict = !hasEndpoints ? 'goto reject-chain' : 'drop';
  const el = (set: ContainerName, key: string[], value?: string, comment?: string): void => {
    const elem: NftElement = { key };
    if (value !== undefined) elem.value = value;
    if (comment !== undefined) elem.comment = comment;
    plan.elements.push({ set, elem });
  };
  el('cluster-ips', [svc.clusterIP]);
  if (hasInternal) el('service-ips', [svc.clusterIP, svc.protocol, port], `goto ${internalChain}`);
  else el('no-endpoint-services', [svc.clusterIP, svc.protocol, port], verdict, svc.spn);
  for (const eip of svc.externalIPs) {
    if (hasEndpoints) el('service-ips', [eip, svc.protocol, port], `goto ${extChain}`);
    if (!hasExternal) el('no-endpoint-services', [eip, svc.protocol, port], verdict, svc.spn);
  }
  for (const lb of svc.loadBalancerVIPs) {
    if (hasEndpoints) el('service-ips', [lb, svc.protocol, port], `goto ${extChain}`);
    if (usesFW) el('firewall-ips', [lb, svc.protocol, port], `goto ${fwChain}`);
  }
  if (!hasExternal) for (const lb of svc.loadBalancerVIPs) el('no-endpoint-services', [lb, svc.protocol, port], verdict, svc.spn);
  if (svc.nodePort !== 0) {
    if (hasEndpoints) el('service-nodeports', [svc.protocol, String(svc.nodePort)], `goto ${extChain}`);
    if (!hasExternal) el('no-endpoint-nodeports', [svc.protocol, String(svc.nodePort)], verdict, svc.spn);
  }
  const add = (chain: string, rule: NftRule, comment?: string): void => {
    plan.rules.push({ chain, rule, ...(comment !== undefined ? { comment } : {}) });
  };
  // PR #131492 (v1.34) dropped the protocol and port from this rule: the service-ips map matched them
  if (hasInternal) {
    if (cfg.masqueradeAll) add(internalChain, { op: 'masq-if', daddr: svc.clusterIP });
    else if (clusterCIDR !== undefined) add(internalChain, { op: 'masq-if', daddr: svc.clusterIP, saddrNot: clusterCIDR });
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
  if (usesFW) {
    // allowFromNode: a VIP the node holds locally loops back with the VIP as its source
    const fromNode = nodeIP !== undefined && svc.loadBalancerSourceRanges.some((c) => {
      const pc = parseCidr(c);
      const v = parseIPv4(nodeIP);
      return pc !== undefined && v !== undefined && cidrContains(pc, v);
    });
    add(fwChain, { op: 'saddr-not-drop', cidrs: [...svc.loadBalancerSourceRanges, ...(fromNode ? svc.loadBalancerVIPs : [])] });
  }
  for (const set of plan.affinitySets) plan.rules.push({ affinitySet: set, timeout: svc.stickyMaxAgeSeconds });
  // writeServiceToEndpointRules: the affinity checks, then the load-balancing rule
  const toEndpoints = (chain: string, eps: readonly EndpointInfo[]): void => {
    if (affinity) for (const e of eps) add(chain, { op: 'affinity-goto', set: affinitySetName(svc, e), chain: endpointChain(svc, e) });
    add(chain, { op: 'numgen', chains: eps.map((e) => endpointChain(svc, e)) });
  };
  if (usesCluster) toEndpoints(clusterChain, cat.clusterEndpoints);
  if (usesLocal) toEndpoints(localChain, cat.localEndpoints);
  for (const ep of cat.allReachable) {
    const name = endpointChain(svc, ep);
    add(name, { op: 'masq-if', saddr: ep.ip });
    if (affinity) add(name, { op: 'affinity-update', set: affinitySetName(svc, ep) });
    add(name, { op: 'dnat', proto: svc.protocol, to: joinHostPort(ep.ip, ep.port) });
  }
  return plan;
}
