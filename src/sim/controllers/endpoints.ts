/**
 * The legacy Endpoints controller (pkg/controller/endpoint/endpoints_controller.go), still
 * running in v1.35: one Endpoints object per selector Service, ready pods in `addresses`,
 * unready ones in `notReadyAddresses`, one subset for the common port set.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Endpoints, EndpointsSubset, KObject, Pod, Service } from '../api/types.js';
import { SyncMemo } from './sync-memo.js';
import { podsSelected } from './label-index.js';
import { cloneTop } from '../api/store.js';
import { desiredEndpoints } from './endpointslice.js';
import { sameJSONText } from './util.js';
import { ipFamilyOf, type IPFamily } from '../../util/ip.js';

export const endpointsController: Controller = {
  name: 'endpoints',
  runsIn: 'controllerManager',
  watches: ['Service', 'Pod', 'Endpoints'],
  reconcile(c: Cluster): void {
    for (const svc of c.store.list<Service>('Service')) {
      const ns = svc.metadata.namespace!;
      if (!svc.spec.selector || Object.keys(svc.spec.selector).length === 0 || svc.spec.type === 'ExternalName') {
        const ep = c.store.get<Endpoints>('Endpoints', ns, svc.metadata.name);
        if (ep?.metadata.labels?.['endpoints.kubernetes.io/managed-by'] === 'endpoint-controller') c.store.remove('Endpoints', ns, svc.metadata.name);
        continue;
      }
      // the pods its selector matches (podsSelected: what filtering the namespace's pods gave)
      const pods = podsSelected(c.store, ns, svc.spec.selector);
      endpointsMemo.sync(c, endpointsInputs(c, svc, pods), () => syncEndpoints(c, svc, pods));
    }
  },
};

/** The Services' Endpoints syncs that found nothing to do (sync-memo.ts): a pod's change the Service does not select does not sync it again. */
export const endpointsMemo = new SyncMemo();

/**
 * Everything a selector Service's Endpoints sync reads, as stored: the Service, its Endpoints
 * object and the pods of its namespace its selector matches (desiredEndpoints looks at no others).
 * Time plays no part: it only stamps what a sync writes.
 */
function endpointsInputs(c: Cluster, svc: Service, selected: readonly Pod[]): [KObject, ...KObject[]] {
  const read: [KObject, ...KObject[]] = [svc];
  const ep = c.store.get<Endpoints>('Endpoints', svc.metadata.namespace, svc.metadata.name);
  if (ep) read.push(ep);
  read.push(...selected);
  return read;
}

/** endpoints_controller.go syncService for a Service with a selector, over its namespace's pods. */
function syncEndpoints(c: Cluster, svc: Service, pods: Pod[]): void {
  const ns = svc.metadata.namespace!;
  // endpoints_controller.go podToEndpointAddressForService: the address of the Service's
  // ClusterIP family (its first ipFamily when headless)
  const ip = svc.spec.clusterIP && svc.spec.clusterIP !== 'None' ? svc.spec.clusterIP : undefined;
  const family = (ip ? ipFamilyOf(ip) : (svc.spec.ipFamilies?.[0] as IPFamily | undefined)) ?? 'IPv4';
  const { endpoints, ports } = desiredEndpoints(svc, pods, family);
  const toAddr = (e: (typeof endpoints)[number]): NonNullable<EndpointsSubset['addresses']>[number] => {
    const a: NonNullable<EndpointsSubset['addresses']>[number] = { ip: e.addresses[0]! };
    if (e.hostname) a.hostname = e.hostname;
    if (e.nodeName) a.nodeName = e.nodeName;
    if (e.targetRef) a.targetRef = e.targetRef;
    return a;
  };
  const live = endpoints.filter((e) => !e.conditions?.terminating);
  const ready = live.filter((e) => e.conditions?.ready).map(toAddr);
  const notReady = live.filter((e) => !e.conditions?.ready).map(toAddr);
  const subset: EndpointsSubset = {};
  if (ready.length) subset.addresses = ready;
  if (notReady.length) subset.notReadyAddresses = notReady;
  subset.ports = ports.map((p) => ({ ...(p.name ? { name: p.name } : {}), port: p.port ?? 0, protocol: p.protocol ?? 'TCP' }));
  const subsets = ready.length || notReady.length ? [subset] : undefined;
  const existing = c.store.get<Endpoints>('Endpoints', ns, svc.metadata.name);
  const labels = { ...(svc.metadata.labels ?? {}), 'endpoints.kubernetes.io/managed-by': 'endpoint-controller' };
  if (existing && sameJSONText(existing.subsets, subsets) && sameJSONText(existing.metadata.labels, labels)) return;
  const obj: Endpoints = existing ? cloneTop(existing) : { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: svc.metadata.name, namespace: ns } };
  obj.metadata = { ...obj.metadata, labels, annotations: { ...(obj.metadata.annotations ?? {}), 'endpoints.kubernetes.io/last-change-trigger-time': c.timestamp() } };
  if (subsets) obj.subsets = subsets;
  else delete obj.subsets;
  if (existing) c.write(obj);
  else c.insert(obj);
}
