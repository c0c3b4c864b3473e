/**
 * What kube-proxy derives from Services and EndpointSlices before writing rules: one record per
 * service port, and for each its endpoints, categorised into cluster and local sets.
 *
 * Emulates kubernetes pkg/proxy/serviceport.go (newBaseServiceInfo), pkg/proxy/servicechangetracker.go
 * (headless / ExternalName skipped), pkg/api/v1/service/util.go (ExternallyAccessible,
 * ExternalPolicyLocal, InternalPolicyLocal), pkg/proxy/endpointslicecache.go (slice → endpoints,
 * dedup by ip:port, sort by the string ip:port) and pkg/proxy/topology.go (CategorizeEndpoints,
 * without topology hints). IPv4 only.
 */
import type { EndpointSlice, Service } from '../../api/types.js';
import { canonicalCidr, canonicalIPv4 } from '../ipv4.js';
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
  const clusterIP = spec.clusterIP === undefined || spec.clusterIP === 'None' ? undefined : canonicalIPv4(spec.clusterIP);
  if (clusterIP === undefined) return [];
  const namespace = svc.metadata.namespace ?? 'default';
  const name = svc.metadata.name;
  const externalIPs = (spec.externalIPs ?? []).map((ip) => canonicalIPv4(ip)).filter((x): x is string => x !== undefined);
  const lbVIPs = (svc.status?.loadBalancer?.ingress ?? [])
    .filter((ing) => ing.ip !== undefined && ing.ipMode !== 'Proxy')
    .map((ing) => canonicalIPv4(ing.ip ?? ''))
    .filter((x): x is string => x !== undefined);
  const ranges = (spec.loadBalancerSourceRanges ?? []).map((c) => canonicalCidr(c)).filter((x): x is string => x !== undefined);
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
  const byKey = new Map<string, Map<string, EndpointInfo>>();
  for (const slice of slices) {
    if (slice.addressType !== 'IPv4') continue;
    const svcName = slice.metadata.labels?.['kubernetes.io/service-name'];
    if (svcName === undefined || svcName === '') continue;
    const ns = slice.metadata.namespace ?? 'default';
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
        const ip = first === undefined ? undefined : canonicalIPv4(first);
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
        const prev = m.get(info.endpoint);
        // a non-terminating duplicate wins
        if (!prev || (prev.terminating && !info.terminating)) m.set(info.endpoint, info);
      }
    }
  }
  const out = new Map<string, EndpointInfo[]>();
  for (const [key, m] of byKey) {
    out.set(
      key,
      [...m.values()].sort((a, b) => (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0)),
    );
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
