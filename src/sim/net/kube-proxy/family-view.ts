/**
 * What one family's proxier of kube-proxy's dual-stack proxier sees of the Services and
 * EndpointSlices: each Service with its ClusterIP of that family (a Service without one is not
 * there), its externalIPs, load-balancer IPs and source ranges of that family, and the
 * EndpointSlices of that address type.
 *
 * Emulates kubernetes pkg/proxy/servicechangetracker.go (serviceToServiceMap: GetClusterIPByFamily,
 * nothing for a Service without a ClusterIP of the tracker's family), pkg/proxy/serviceport.go
 * (newBaseServiceInfo filters externalIPs, LB ingress IPs and source ranges by family) and
 * pkg/proxy/endpointschangetracker.go (a tracker takes only slices of its address type).
 *
 * A cluster with nothing of IPv6 is seen by the IPv4 proxier as it is (the same arrays and
 * objects, which the syncs' memos key on) and by the IPv6 proxier as empty.
 */
import type { EndpointSlice, Service } from '../../api/types.js';

export type ProxyFamily = 'IPv4' | 'IPv6';

const isV6 = (s: string): boolean => s.includes(':');

/** proxyutil.GetClusterIPByFamily: the ClusterIP of `family`, or undefined. */
export function clusterIPByFamily(svc: Service, family: ProxyFamily): string | undefined {
  const spec = svc.spec;
  if ((spec.ipFamilies ?? []).length === 0) {
    if (!spec.clusterIP || spec.clusterIP === 'None') return undefined;
    return isV6(spec.clusterIP) === (family === 'IPv6') ? spec.clusterIP : undefined;
  }
  const i = spec.ipFamilies!.indexOf(family);
  return i >= 0 ? spec.clusterIPs?.[i] : undefined;
}

/** Whether anything in the cluster is of IPv6: a Service's ClusterIP or an EndpointSlice. */
function anyIPv6(services: readonly Service[], slices: readonly EndpointSlice[]): boolean {
  return services.some((s) => (s.spec.clusterIPs ?? []).some(isV6) || (s.spec.clusterIP !== undefined && isV6(s.spec.clusterIP))) || slices.some((s) => s.addressType === 'IPv6');
}

const VIEWS: Record<ProxyFamily, WeakMap<Service, Service | null>> = { IPv4: new WeakMap(), IPv6: new WeakMap() };

/**
 * The Service as `family`'s proxier sees it, or null when it has no ClusterIP of that family
 * (headless and ExternalName Services pass as they are: the proxier skips them itself). The view
 * of a stored (frozen) Service is kept and frozen too, so it is the same object at every sync.
 */
export function serviceForFamily(svc: Service, family: ProxyFamily): Service | null {
  const frozen = Object.isFrozen(svc);
  const had = frozen ? VIEWS[family].get(svc) : undefined;
  if (had !== undefined) return had;
  const view = project(svc, family);
  if (frozen) {
    if (view && view !== svc) Object.freeze(view);
    VIEWS[family].set(svc, view);
  }
  return view;
}

function project(svc: Service, family: ProxyFamily): Service | null {
  const spec = svc.spec;
  if (spec.type === 'ExternalName' || spec.clusterIP === 'None' || !spec.clusterIP) return family === 'IPv4' ? svc : null;
  const ip = clusterIPByFamily(svc, family);
  if (ip === undefined) return null;
  const mine = (x: string): boolean => isV6(x.split('/')[0] ?? '') === (family === 'IPv6');
  const ingress = svc.status?.loadBalancer?.ingress;
  const same =
    ip === spec.clusterIP && (spec.clusterIPs ?? [ip]).every(mine) && (spec.externalIPs ?? []).every(mine) && (spec.loadBalancerSourceRanges ?? []).every(mine) && (ingress ?? []).every((g) => g.ip === undefined || mine(g.ip));
  if (same) return svc;
  return {
    ...svc,
    spec: {
      ...spec,
      clusterIP: ip,
      clusterIPs: [ip],
      ...(spec.externalIPs ? { externalIPs: spec.externalIPs.filter(mine) } : {}),
      ...(spec.loadBalancerSourceRanges ? { loadBalancerSourceRanges: spec.loadBalancerSourceRanges.filter(mine) } : {}),
    },
    ...(svc.status && ingress ? { status: { ...svc.status, loadBalancer: { ...svc.status.loadBalancer, ingress: ingress.filter((g) => g.ip === undefined || mine(g.ip)) } } } : {}),
  } as Service;
}

/** The Services and EndpointSlices one family's proxier syncs. */
export function familyView(services: readonly Service[], slices: readonly EndpointSlice[], family: ProxyFamily): { services: readonly Service[]; endpointSlices: readonly EndpointSlice[] } {
  if (!anyIPv6(services, slices)) return family === 'IPv4' ? { services, endpointSlices: slices } : { services: [], endpointSlices: [] };
  return {
    services: services.map((s) => serviceForFamily(s, family)).filter((s): s is Service => s !== null),
    endpointSlices: slices.filter((s) => s.addressType === family),
  };
}

/** Both families' views (familyView), with one look at whether anything is of IPv6. */
export function familyViews(services: readonly Service[], slices: readonly EndpointSlice[]): Record<ProxyFamily, ReturnType<typeof familyView>> {
  if (!anyIPv6(services, slices)) return { IPv4: { services, endpointSlices: slices }, IPv6: { services: [], endpointSlices: [] } };
  return { IPv4: familyView(services, slices, 'IPv4'), IPv6: familyView(services, slices, 'IPv6') };
}
