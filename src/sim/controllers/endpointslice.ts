/**
 * EndpointSlice controller (k8s.io/kubernetes pkg/controller/endpointslice, staging
 * endpointslice/reconciler.go): one slice per selector Service and address type (generateName `<svc>-`;
 * a dual-stack Service has an IPv4 and an IPv6 slice), with the
 * Service's labels plus `kubernetes.io/service-name` and `endpointslice.kubernetes.io/managed-by`,
 * an endpoint per pod that has an IP — ready/serving/terminating conditions, nodeName, targetRef,
 * hostname for pods whose subdomain names the Service — and ports resolved from targetPort
 * (named ports looked up in the pod's containers).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Endpoint, EndpointPort, EndpointSlice, KObject, Pod, Service } from '../api/types.js';
import { SyncMemo } from './sync-memo.js';
import { podsSelected } from './label-index.js';
import { cloneTop } from '../api/store.js';
import { matchMap } from '../api/selectors.js';
import { ownerRef, podIsReady, sameJSONText } from './util.js';
import { ipFamilyOf, ipToInt, parseRange, type IPFamily } from '../../util/ip.js';
import { podIPOf } from '../api/pod-ips.js';

export const MANAGED_BY = 'endpointslice-controller.k8s.io';
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

export const endpointSliceController: Controller = {
  name: 'endpointslice',
  runsIn: 'controllerManager',
  watches: ['Service', 'Pod', 'EndpointSlice'],
  reconcile(c: Cluster): void {
    // one pass over the slices, indexed by namespace/service (a per-Service scan is quadratic)
    const managed = new Map<string, EndpointSlice[]>();
    for (const s of c.store.list<EndpointSlice>('EndpointSlice')) {
      if (s.metadata.labels?.['endpointslice.kubernetes.io/managed-by'] !== MANAGED_BY) continue;
      const key = `${s.metadata.namespace}/${s.metadata.labels?.[SERVICE_NAME_LABEL] ?? ''}`;
      const list = managed.get(key);
      if (list) list.push(s);
      else managed.set(key, [s]);
    }
    for (const svc of c.store.list<Service>('Service')) {
      const ns = svc.metadata.namespace!;
      const slices = managed.get(`${ns}/${svc.metadata.name}`) ?? [];
      if (!svc.spec.selector || Object.keys(svc.spec.selector).length === 0 || svc.spec.type === 'ExternalName') {
        for (const s of slices) c.store.remove('EndpointSlice', s.metadata.namespace, s.metadata.name);
        continue;
      }
      // the pods its selector matches (podsSelected: what filtering the namespace's pods gave)
      const pods = podsSelected(c.store, ns, svc.spec.selector);
      endpointSliceMemo.sync(c, endpointSliceInputs(svc, slices, pods), () => syncService(c, svc, pods, slices));
    }
  },
};

/** The Services' EndpointSlice syncs that found nothing to do (sync-memo.ts): a pod's change the Service does not select does not sync it again. */
export const endpointSliceMemo = new SyncMemo();

/**
 * Everything a selector Service's slice sync reads, as stored: the Service, the slices managed for
 * it and the pods of its namespace its selector matches (desiredEndpoints looks at no others).
 * Time plays no part: it only stamps what a sync writes.
 */
function endpointSliceInputs(svc: Service, slices: readonly EndpointSlice[], selected: readonly Pod[]): [KObject, ...KObject[]] {
  return [svc, ...slices, ...selected];
}

/** The container port a Service port's targetPort names on this pod (FindPort in pkg/api/v1/pod). */
export function resolveTargetPort(pod: Pod, target: number | string | undefined, fallback: number): number | undefined {
  if (target === undefined) return fallback;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const ct of pod.spec.containers) for (const p of ct.ports ?? []) if (p.name === target) return p.containerPort;
  return undefined;
}

/**
 * The address types a Service's slices carry (reconciler.go getAddressTypesForService): its
 * ipFamilies; without them, its ClusterIP's family; a headless one without families, both.
 * IPv4 first, so slices are made in a stable order.
 */
export function sliceAddressTypes(svc: Service): IPFamily[] {
  const fams = (svc.spec.ipFamilies ?? []).filter((f): f is IPFamily => f === 'IPv4' || f === 'IPv6');
  if (fams.length > 0) return (['IPv4', 'IPv6'] as const).filter((f) => fams.includes(f));
  if (svc.spec.clusterIP && svc.spec.clusterIP !== 'None') return [ipFamilyOf(svc.spec.clusterIP) ?? 'IPv4'];
  return ['IPv4', 'IPv6'];
}

const ipOrder = (family: IPFamily) => (a: string, b: string): number => {
  if (family === 'IPv4') return ipToInt(a) - ipToInt(b);
  const d = parseRange(`${a}/128`)!.base - parseRange(`${b}/128`)!.base;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};

export function desiredEndpoints(svc: Service, pods: Pod[], family: IPFamily = 'IPv4'): { endpoints: Endpoint[]; ports: EndpointPort[] } {
  const selected = pods.filter(
    (p) => matchMap(svc.spec.selector ?? {}, p.metadata.labels) && podIPOf(p, family) && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
  );
  const ports: EndpointPort[] = (svc.spec.ports ?? []).map((sp) => {
    const first = selected[0];
    const port = first ? resolveTargetPort(first, sp.targetPort, sp.port) : typeof sp.targetPort === 'number' ? sp.targetPort : undefined;
    const ep: EndpointPort = { name: sp.name ?? '', port: port ?? sp.port, protocol: sp.protocol ?? 'TCP' };
    if (sp.appProtocol) ep.appProtocol = sp.appProtocol;
    return ep;
  });
  const endpoints = selected
    .map((p): Endpoint => {
      const terminating = !!p.metadata.deletionTimestamp;
      const ready = podIsReady(p);
      const e: Endpoint = {
        addresses: [podIPOf(p, family)!],
        conditions: { ready: ready && !terminating, serving: ready, terminating },
        nodeName: p.spec.nodeName ?? '',
        targetRef: { kind: 'Pod', name: p.metadata.name, namespace: p.metadata.namespace ?? 'default', uid: p.metadata.uid ?? '' },
      };
      if (svc.spec.publishNotReadyAddresses) e.conditions = { ready: !terminating, serving: true, terminating };
      if (p.spec.hostname && p.spec.subdomain === svc.metadata.name) e.hostname = p.spec.hostname;
      if (!e.nodeName) delete e.nodeName;
      return e;
    })
    .sort((a, b) => ipOrder(family)(a.addresses[0]!, b.addresses[0]!));
  return { endpoints, ports };
}

/** One slice per address type the Service carries; slices of a type it no longer carries go. */
function syncService(c: Cluster, svc: Service, pods: Pod[], slices: EndpointSlice[]): void {
  const types = sliceAddressTypes(svc);
  for (const s of slices) if (!types.includes(s.addressType as IPFamily)) c.store.remove('EndpointSlice', s.metadata.namespace, s.metadata.name);
  for (const t of types) syncAddressType(c, svc, pods, t, slices.filter((s) => s.addressType === t));
}

function syncAddressType(c: Cluster, svc: Service, pods: Pod[], family: IPFamily, slices: EndpointSlice[]): void {
  const { endpoints, ports } = desiredEndpoints(svc, pods, family);
  const labels = {
    ...(svc.metadata.labels ?? {}),
    'endpointslice.kubernetes.io/managed-by': MANAGED_BY,
    [SERVICE_NAME_LABEL]: svc.metadata.name,
  };
  const existing = slices[0];
  for (const extra of slices.slice(1)) c.store.remove('EndpointSlice', extra.metadata.namespace, extra.metadata.name);
  const body = { endpoints: endpoints.length > 0 ? endpoints : null, ports: ports.length > 0 ? ports : null };
  if (existing) {
    if (sameJSONText(existing.endpoints, body.endpoints) && sameJSONText(existing.ports, body.ports) && sameJSONText(existing.metadata.labels, labels))
      return;
    const upd = cloneTop(existing);
    upd.endpoints = body.endpoints;
    upd.ports = body.ports;
    upd.metadata = { ...upd.metadata, labels, annotations: { ...(upd.metadata.annotations ?? {}), 'endpoints.kubernetes.io/last-change-trigger-time': c.timestamp() } };
    c.write(upd);
    return;
  }
  const slice: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: '',
      generateName: `${svc.metadata.name}-`,
      namespace: svc.metadata.namespace!,
      labels,
      annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': c.timestamp() },
      ownerReferences: [ownerRef(svc)],
    },
    addressType: family,
    endpoints: body.endpoints,
    ports: body.ports,
  };
  c.insert(slice);
}
