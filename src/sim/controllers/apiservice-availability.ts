/**
 * The aggregator's availability check (k8s.io/kube-aggregator pkg/controllers/status/remote
 * remote_available_controller.go): an APIService backed by a Service is Available when that
 * Service exists and has a ready endpoint; otherwise Available=False with the controller's
 * reason (ServiceNotFound, MissingEndpoints). `kubectl top` and the HPA controller read the
 * condition (sim/metrics.ts).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KObject, Pod, Service } from '../api/types.js';
import { clone } from '../api/store.js';
import { matchMap } from '../api/selectors.js';

interface APIService extends KObject {
  spec: { service?: { name: string; namespace: string; port?: number }; group?: string; version?: string };
  status?: { conditions?: { type: string; status: string; lastTransitionTime: string; reason: string; message: string }[] };
}

function podReady(p: Pod): boolean {
  return p.status?.phase === 'Running' && !p.metadata.deletionTimestamp && (p.status?.conditions ?? []).some((x) => x.type === 'Ready' && x.status === 'True');
}

function check(c: Cluster, api: APIService): { status: string; reason: string; message: string } {
  const ref = api.spec.service;
  if (!ref) return { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
  const svc = c.store.get<Service>('Service', ref.namespace, ref.name);
  if (!svc) return { status: 'False', reason: 'ServiceNotFound', message: `service/${ref.name} in "${ref.namespace}" is not present` };
  const port = svc.spec.ports?.[0]?.name ?? '';
  const ready = c.store.list<Pod>('Pod', ref.namespace).some((p) => svc.spec.selector && matchMap(svc.spec.selector, p.metadata.labels) && podReady(p));
  if (!ready) return { status: 'False', reason: 'MissingEndpoints', message: `endpoints for service/${ref.name} in "${ref.namespace}" have no addresses with port name "${port}"` };
  return { status: 'True', reason: 'Passed', message: 'all checks passed' };
}

export const apiServiceAvailabilityController: Controller = {
  name: 'apiservice-availability',
  watches: ['APIService', 'Pod', 'Service'],
  reconcile(c: Cluster): void {
    for (const api of c.store.list<APIService>('APIService')) {
      const want = check(c, api);
      const cur = api.status?.conditions?.find((x) => x.type === 'Available');
      if (cur && cur.status === want.status && cur.reason === want.reason && cur.message === want.message) continue;
      const upd = clone(api);
      const ts = cur && cur.status === want.status ? cur.lastTransitionTime : c.timestamp();
      upd.status = { conditions: [{ type: 'Available', status: want.status, lastTransitionTime: ts, reason: want.reason, message: want.message }] };
      c.write(upd);
    }
  },
};
