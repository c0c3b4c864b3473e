/**
 * What kube-proxy derives from Services and EndpointSlices before writing rules: one record per
 * service port, and for each its endpoints, categorised into cluster and local sets.
 *
 * Emulates kubernetes pkg/proxy/serviceport.go (newBaseServiceInfo), pkg/proxy/servicechangetracker.go
 * (headless / ExternalName skipped), pkg/api/v1/service/util.go (ExternallyAccessible,
 * ExternalPolicyLocal, InternalPolicyLocal), pkg/proxy/endpointslicecache.go (slice → endpoints,
 * dedup by ip:port, sort by the string ip:port) and pkg/proxy/topology.go (CategorizeEndpoints,
 * without topology hints). One family at a time: the dual-stack proxier gives each family's proxier
 * its own view (family-view.ts), whose addresses are all of that family.
 */
import type { EndpointSlice, Service } from '../../api/types.js';
import { canonicalCidr, canonicalIPv4 } from '../ipv4.js';
import { canonicalIPv6, parseCidr6 } from '../ipv6.js';

/** An address in its family's canonical text (netutils.ParseIPSloppy then String). */
function canonicalIP(s: string): string | undefined {
  return canonicalIPv4(s) ?? canonicalIPv6(s);
}

function canonicalAnyCidr(s: string): string | undefined {
  const v4 = canonicalCidr(s);
  if (v4 !== undefined) return v4;
  const c = parseCidr6(s.trim());
  return c === undefined || c === 'mask' ? undefined : `${c.addr}/${c.prefix}`;
}
import { joinHostPort, servicePortName } from './chain-names.js';

export interface ServicePortInfo {
  namespace: string;
  name: string;
  portName: string;
  /** `ns/name[:port]` */
  spn: string;
  /** lower case: tcp | udp | sctp */
  protocol: string;
  clusterIP: string;
  port: number;
  nodePort: number;
  externalIPs: string[];
  loadBalancerVIPs: string[];
  loadBalancerSourceRanges: string[];
  sessionAffinityClientIP: boolean;
  stickyMaxAgeSeconds: number;
  externalPolicyLocal: boolean;
  internalPolicyLocal: boolean;
  healthCheckNodePort: number;
}

export interface EndpointInfo {
  ip: string;
  port: number;
  /** `ip:port` */
  endpoint: string;
  isLocal: boolean;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
}

/** Service-level ExternallyAccessible (pkg/api/v1/service/util.go). */
function serviceExternallyAccessible(svc: Service): boolean {
  const t = svc.spec.type;
  return t === 'LoadBalancer' || t === 'NodePort' || (t === 'ClusterIP' && (svc.spec.externalIPs?.length ?? 0) > 0);
}

/** The service ports kube-proxy programs for one Service (empty for headless / ExternalName). */
export function servicePorts(svc: Service): ServicePortInfo[] {
  const spec = svc.spec;
  if (spec.type === 'ExternalName') return [];
  const clusterIP = spec.clusterIP === undefined || spec.clusterIP === 'None' ? undefined : canonicalIP(spec.clusterIP);
  if (clusterIP === undefined) return [];
  const namespace = svc.metadata.namespace ?? 'default';
  const name = svc.metadata.name;
  const externalIPs = (spec.externalIPs ?? []).map((ip) => canonicalIP(ip)).filter((x): x is string => x !== undefined);
  const lbVIPs = (svc.status?.loadBalancer?.ingress ?? [])
    .filter((ing) => ing.ip !== undefined && ing.ipMode !== 'Proxy')
    .map((ing) => canonicalIP(ing.ip ?? ''))
    .filter((x): x is string => x !== undefined);
  const ranges = (spec.loadBalancerSourceRanges ?? []).map((c) => canonicalAnyCidr(c)).filter((x): x is string => x !== undefined);
  const externalPolicyLocal = serviceExternallyAccessible(svc) && spec.externalTrafficPolicy === 'Local';
  const clientIP = spec.sessionAffinity === 'ClientIP';
  return (spec.ports ?? []).map((p) => {
    const portName = p.name ?? '';
    const spn = servicePortName(namespace, name, portName);
    return {
      namespace,
      name,
      portName,
      spn,
      protocol: (p.protocol ?? 'TCP').toLowerCase(),
      clusterIP,
      port: p.port,
      nodePort: p.nodePort ?? 0,
      externalIPs,
      loadBalancerVIPs: lbVIPs,
      loadBalancerSourceRanges: ranges,
      sessionAffinityClientIP: clientIP,
      stickyMaxAgeSeconds: clientIP ? (spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? 10800) : 0,
      externalPolicyLocal,
      internalPolicyLocal: spec.internalTrafficPolicy === 'Local',
      healthCheckNodePort: spec.type === 'LoadBalancer' && externalPolicyLocal ? (spec.healthCheckNodePort ?? 0) : 0,
    };
  });
}

/**
 * servicePorts of a stored (frozen, so unchanging) Service, kept with it: the same infos, the same
 * objects, at every sync of every node, which lets the syncs' memos key on them.
 */
const PORTS = new WeakMap<Service, readonly ServicePortInfo[]>();

export function servicePortsOf(svc: Service): readonly ServicePortInfo[] {
  if (!Object.isFrozen(svc)) return servicePorts(svc);
  let p = PORTS.get(svc);
  if (!p) {
    p = servicePorts(svc);
    PORTS.set(svc, p);
  }
  return p;
}

/** Port-level ExternallyAccessible (BaseServicePortInfo.ExternallyAccessible). */
export function portExternallyAccessible(s: ServicePortInfo): boolean {
  return s.nodePort !== 0 || s.loadBalancerVIPs.length > 0 || s.externalIPs.length > 0;
}

export function usesClusterEndpoints(s: ServicePortInfo): boolean {
  return !s.internalPolicyLocal || portExternallyAccessible(s);
}

export function usesLocalEndpoints(s: ServicePortInfo): boolean {
  return s.internalPolicyLocal || (s.externalPolicyLocal && portExternallyAccessible(s));
}

/** Key of a service port as the endpoint cache uses it: `spn` + `/` + lower-case protocol. */
export function portKey(spn: string, protocol: string): string {
  return `${spn}/${protocol.toLowerCase()}`;
}

/**
 * Endpoints per service-port key from IPv4 EndpointSlices (endpointslicecache.go
 * endpointInfoByServicePort). A port without a name (nil, not "") is ignored ("Ignoring port with
 * nil name"), as is one without a port number or with port 0 ("Ignoring invalid endpoint port").
 * The API server defaults a missing name to "" and protocol to TCP (pkg/apis/discovery/v1/defaults.go,
 * see api/defaults.ts), so only a slice that skipped defaulting can lack them; upstream would
 * dereference a nil protocol, here such a port is ignored too.
 */
export function endpointsByPort(slices: readonly EndpointSlice[], nodeName: string): Map<string, EndpointInfo[]> {
  // each slice's endpoints per port key, deduplicated and sorted; a key fed by one slice (the usual
  // case) takes that list as it is, so an unchanged slice gives the same array at every sync
  const byKey = new Map<string, EndpointInfo[][]>();
  for (const slice of slices) {
    for (const part of sliceEndpoints(slice, nodeName)) {
      const had = byKey.get(part.key);
      if (had) had.push(part.eps);
      else byKey.set(part.key, [part.eps]);
    }
  }
  const out = new Map<string, EndpointInfo[]>();
  for (const [key, parts] of byKey) {
    if (parts.length === 1) {
      out.set(key, parts[0] as EndpointInfo[]);
      continue;
    }
    const m = new Map<string, EndpointInfo>();
    for (const eps of parts) for (const info of eps) addDeduplicated(m, info);
    out.set(key, sortByEndpoint([...m.values()]));
  }
  return out;
}

/** One port key's endpoints from the slices (by index into the list) that have that key. */
function mergedEndpoints(slices: readonly EndpointSlice[], idxs: readonly number[], key: string, nodeName: string): EndpointInfo[] {
  const parts: EndpointInfo[][] = [];
  for (const i of idxs) {
    const part = sliceEndpoints(slices[i] as EndpointSlice, nodeName).find((x) => x.key === key);
    if (part) parts.push(part.eps);
  }
  if (parts.length === 1) return parts[0] as EndpointInfo[];
  const m = new Map<string, EndpointInfo>();
  for (const eps of parts) for (const info of eps) addDeduplicated(m, info);
  return sortByEndpoint([...m.values()]);
}

interface EndpointsCache {
  slices: readonly EndpointSlice[];
  /** Port key → indices of the slices that have it, ascending. */
  byKey: Map<string, number[]>;
  out: Map<string, EndpointInfo[]>;
}

/** The last endpoints map per node (the proxier's endpointsMap). */
const ENDPOINTS_CACHE = new Map<string, EndpointsCache>();
const ENDPOINTS_CACHE_LIMIT = 16;

/**
 * endpointsByPort, kept per node and brought up to date from the slices that changed since the
 * last call (endpointschangetracker.go: the proxier applies the changed slices to its
 * endpointsMap instead of rebuilding it). Slices are compared by identity, position by position,
 * so this is only for stored (frozen) slices; a list of another length is rebuilt. The map
 * returned is the cache's own: it is valid until the next call for the same node.
 */
export function endpointsByPortCached(slices: readonly EndpointSlice[], nodeName: string, cacheKey = nodeName): ReadonlyMap<string, readonly EndpointInfo[]> {
  const prev = ENDPOINTS_CACHE.get(cacheKey);
  if (prev && prev.slices.length === slices.length) {
    const changed: number[] = [];
    for (let i = 0; i < slices.length; i++) if (slices[i] !== prev.slices[i]) changed.push(i);
    if (changed.length <= 64 && changed.every((i) => Object.isFrozen(slices[i]))) {
      const dirty = new Set<string>();
      for (const i of changed) {
        for (const part of sliceEndpoints(prev.slices[i] as EndpointSlice, nodeName)) {
          const idxs = prev.byKey.get(part.key);
          const at = idxs ? idxs.indexOf(i) : -1;
          if (at >= 0) idxs!.splice(at, 1);
          dirty.add(part.key);
        }
        for (const part of sliceEndpoints(slices[i] as EndpointSlice, nodeName)) {
          let idxs = prev.byKey.get(part.key);
          if (!idxs) prev.byKey.set(part.key, (idxs = []));
          let at = idxs.length;
          while (at > 0 && (idxs[at - 1] as number) > i) at--;
          idxs.splice(at, 0, i);
          dirty.add(part.key);
        }
      }
      const list = slices.slice();
      for (const key of dirty) {
        const idxs = prev.byKey.get(key);
        if (!idxs || idxs.length === 0) {
          prev.byKey.delete(key);
          prev.out.delete(key);
        } else prev.out.set(key, mergedEndpoints(list, idxs, key, nodeName));
      }
      noteChanges(prev.out, dirty);
      prev.slices = list;
      return prev.out;
    }
  }
  const byKey = new Map<string, number[]>();
  slices.forEach((slice, i) => {
    for (const part of sliceEndpoints(slice, nodeName)) {
      const had = byKey.get(part.key);
      if (had) had.push(i);
      else byKey.set(part.key, [i]);
    }
  });
  const out = new Map<string, EndpointInfo[]>();
  for (const [key, idxs] of byKey) out.set(key, mergedEndpoints(slices, idxs, key, nodeName));
  ENDPOINTS_CACHE.delete(cacheKey);
  if (slices.every((s) => Object.isFrozen(s))) {
    if (ENDPOINTS_CACHE.size >= ENDPOINTS_CACHE_LIMIT) ENDPOINTS_CACHE.clear();
    ENDPOINTS_CACHE.set(cacheKey, { slices: slices.slice(), byKey, out });
    CHANGE_LOGS.set(out, { start: 0, keys: [] });
  }
  return out;
}

/**
 * The port keys whose entries a cached endpoints map (endpointsByPortCached) changed, in order:
 * what the proxier's endpoints change tracker hands its sync (endpointschangetracker.go
 * checkoutChanges), so a sync can look at the service ports that changed instead of all of them.
 * `start` is the position of `keys[0]` since the map was made; old entries are dropped.
 */
interface ChangeLog {
  start: number;
  keys: string[];
}
const CHANGE_LOGS = new WeakMap<ReadonlyMap<string, readonly EndpointInfo[]>, ChangeLog>();
const CHANGE_LOG_LIMIT = 4096;

function noteChanges(out: ReadonlyMap<string, readonly EndpointInfo[]>, keys: Iterable<string>): void {
  const log = CHANGE_LOGS.get(out);
  if (!log) return;
  for (const k of keys) log.keys.push(k);
  if (log.keys.length > CHANGE_LOG_LIMIT) {
    const drop = log.keys.length - CHANGE_LOG_LIMIT / 2;
    log.keys.splice(0, drop);
    log.start += drop;
  }
}

/** Where the change log of `map` (a map endpointsByPortCached returned) ends now; undefined when it keeps none. */
export function endpointChangeCursor(map: ReadonlyMap<string, readonly EndpointInfo[]>): number | undefined {
  const log = CHANGE_LOGS.get(map);
  return log ? log.start + log.keys.length : undefined;
}

/**
 * The port keys whose endpoints changed in `map` since `cursor` (from endpointChangeCursor; keys
 * may repeat), or undefined when that is no longer known: the map keeps no log, or dropped it.
 */
export function endpointChangesSince(map: ReadonlyMap<string, readonly EndpointInfo[]>, cursor: number): readonly string[] | undefined {
  const log = CHANGE_LOGS.get(map);
  if (!log || cursor < log.start || cursor > log.start + log.keys.length) return undefined;
  return log.keys.slice(cursor - log.start);
}

/** A non-terminating duplicate wins, otherwise the first one seen (endpointslicecache.go). */
function addDeduplicated(m: Map<string, EndpointInfo>, info: EndpointInfo): void {
  const prev = m.get(info.endpoint);
  if (!prev || (prev.terminating && !info.terminating)) m.set(info.endpoint, info);
}

function sortByEndpoint(eps: EndpointInfo[]): EndpointInfo[] {
  return eps.sort((a, b) => (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0));
}

interface SliceEndpoints {
  key: string;
  eps: EndpointInfo[];
  /**
   * Per endpoint of `eps`: the nodeName of the slice endpoint it came from (the one deduplication
   * kept), in the parts of a slice seen from a node without any of its endpoints (NO_LOCAL): what
   * the node that has some of them needs to see them as local (localParts).
   */
  nodes?: (string | undefined)[];
}

/**
 * One slice's endpoints per port key as `nodeName` sees them, memoised per stored (frozen, so
 * unchanging) slice and node: a 10,000-Service cluster re-derived 50,000 endpoints at every sync
 * of every node. Deduplicating per slice first and across slices after gives what one pass over
 * all of them gives (the rule keeps the first non-terminating endpoint, else the first).
 */
const SLICE_ENDPOINTS = new WeakMap<EndpointSlice, Map<string, readonly SliceEndpoints[]>>();

function sliceEndpoints(slice: EndpointSlice, nodeName: string): readonly SliceEndpoints[] {
  if (!Object.isFrozen(slice)) return computeSliceEndpoints(slice, nodeName);
  // every node without an endpoint of this slice sees it the same way: they share one entry
  // (and so the rules rendered from it, see sync.ts renderedPort)
  const seenAs = slice.endpoints?.some((ep) => ep.nodeName !== undefined && ep.nodeName === nodeName) ? nodeName : NO_LOCAL;
  let memo = SLICE_ENDPOINTS.get(slice);
  const had = memo?.get(seenAs);
  if (had) return had;
  if (!memo) SLICE_ENDPOINTS.set(slice, (memo = new Map()));
  let parts: readonly SliceEndpoints[];
  if (seenAs === NO_LOCAL) parts = computeSliceEndpoints(slice, NO_LOCAL, true);
  else {
    // the node with endpoints of the slice sees what the others see, some endpoints local: made
    // from their view (parsing, deduplicating and sorting the slice once, and sharing its strings)
    let base = memo.get(NO_LOCAL);
    if (!base) memo.set(NO_LOCAL, (base = computeSliceEndpoints(slice, NO_LOCAL, true)));
    parts = localParts(base, nodeName);
  }
  memo.set(seenAs, parts);
  return parts;
}

/**
 * The parts of a slice as `nodeName` sees them, from the parts a node without any of its
 * endpoints sees (with `nodes`): the same endpoints in the same order, each whose kept slice
 * endpoint is on `nodeName` local (computeSliceEndpoints' isLocal), the others the very objects.
 */
function localParts(base: readonly SliceEndpoints[], nodeName: string): SliceEndpoints[] {
  return base.map((part) => {
    const nodes = part.nodes as (string | undefined)[];
    const eps = new Array<EndpointInfo>(part.eps.length);
    for (let i = 0; i < eps.length; i++) {
      const e = part.eps[i] as EndpointInfo;
      eps[i] = nodes[i] === nodeName ? { ...e, isLocal: true } : e;
    }
    return { key: part.key, eps };
  });
}

/** The memo's key for a node that has no endpoint in the slice (not a valid node name). */
const NO_LOCAL = '\u0000';

function computeSliceEndpoints(slice: EndpointSlice, nodeName: string, withNodes = false): SliceEndpoints[] {
  if (slice.addressType !== 'IPv4' && slice.addressType !== 'IPv6') return [];
  const canonical = slice.addressType === 'IPv4' ? canonicalIPv4 : canonicalIPv6;
  const svcName = slice.metadata.labels?.['kubernetes.io/service-name'];
  if (svcName === undefined || svcName === '') return [];
  const ns = slice.metadata.namespace ?? 'default';
  const out: SliceEndpoints[] = [];
  const byKey = new Map<string, Map<string, EndpointInfo>>();
  /** (withNodes) The nodeName of the slice endpoint each kept endpoint came from. */
  const nodeOf = withNodes ? new Map<EndpointInfo, string | undefined>() : undefined;
  for (const port of slice.ports ?? []) {
    if (port.name === undefined || port.name === null) continue;
    if (port.port === undefined || port.port === null || port.port === 0) continue;
    if (port.protocol === undefined || port.protocol === null) continue;
    const key = portKey(servicePortName(ns, svcName, port.name), port.protocol);
    let m = byKey.get(key);
    if (!m) {
      m = new Map();
      byKey.set(key, m);
    }
    for (const ep of slice.endpoints ?? []) {
      const first = ep.addresses[0];
      const ip = first === undefined ? undefined : canonical(first);
      if (ip === undefined) continue;
      const c = ep.conditions ?? {};
      const info: EndpointInfo = {
        ip,
        port: port.port,
        endpoint: joinHostPort(ip, port.port),
        isLocal: ep.nodeName !== undefined && ep.nodeName === nodeName,
        ready: c.ready === undefined || c.ready,
        serving: c.serving === undefined || c.serving,
        terminating: c.terminating === true,
      };
      addDeduplicated(m, info);
      nodeOf?.set(info, ep.nodeName);
    }
  }
  for (const [key, m] of byKey) {
    const eps = sortByEndpoint([...m.values()]);
    out.push(nodeOf ? { key, eps, nodes: eps.map((e) => nodeOf.get(e)) } : { key, eps });
  }
  return out;
}

export interface Categorised {
  clusterEndpoints: EndpointInfo[];
  localEndpoints: EndpointInfo[];
  allReachable: EndpointInfo[];
  hasAnyEndpoints: boolean;
}

/** CategorizeEndpoints without topology hints. */
export function categorizeEndpoints(eps: readonly EndpointInfo[], svc: ServicePortInfo): Categorised {
  let cluster: EndpointInfo[] = [];
  let local: EndpointInfo[] = [];
  let hasAny = false;
  if (usesClusterEndpoints(svc)) {
    cluster = eps.filter((e) => e.ready);
    if (cluster.length === 0) cluster = eps.filter((e) => e.serving && e.terminating);
    hasAny = cluster.length > 0;
  }
  if (usesLocalEndpoints(svc)) {
    local = eps.filter((e) => e.isLocal && e.ready);
    if (local.length === 0) local = eps.filter((e) => e.isLocal && e.serving && e.terminating);
    if (!hasAny) hasAny = eps.some((e) => e.ready || (e.serving && e.terminating));
  }
  let all: EndpointInfo[];
  if (!usesLocalEndpoints(svc)) all = cluster;
  else if (!usesClusterEndpoints(svc)) all = local;
  else {
    const seen = new Set<string>();
    all = [];
    for (const e of [...cluster, ...local]) {
      if (seen.has(e.endpoint)) continue;
      seen.add(e.endpoint);
      all.push(e);
    }
  }
  return { clusterEndpoints: cluster, localEndpoints: local, allReachable: all, hasAnyEndpoints: hasAny };
}
