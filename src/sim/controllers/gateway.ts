/**
 * NGINX Gateway Fabric's control plane (nginx/nginx-gateway-fabric 1.6, static mode): while its
 * pod runs and is ready it writes the statuses the Gateway API defines (apis/v1
 * gatewayclass_types.go, gateway_types.go, httproute_types.go / shared_types.go
 * RouteParentStatus) for the objects it owns, with NGF's reasons and messages
 * (internal/mode/static/state/conditions/conditions.go):
 *  - its GatewayClass: Accepted and SupportedVersion;
 *  - the Gateway it serves: Accepted, Programmed, the address of its --service Service (the
 *    ClusterIP; a LoadBalancer's ingress IP when one is assigned), and per listener Accepted,
 *    Programmed, ResolvedRefs, Conflicted and attachedRoutes; the class's other Gateways:
 *    GatewayConflict;
 *  - every HTTPRoute with a parentRef to that Gateway: one parents[] entry per such parentRef with
 *    Accepted (NoMatchingParent, NotAllowedByListeners, NoMatchingListenerHostname) and
 *    ResolvedRefs (BackendNotFound, RefNotPermitted, InvalidKind). Entries of other controllers
 *    are kept.
 * With the control plane down nothing is written: statuses go stale, as they do.
 * Which Gateway and routes are served is decided in sim/traffic/gateway.ts, which the data plane
 * shares.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KObject, Pod, Service } from '../api/types.js';
import { clone } from '../api/store.js';
import type { Condition, Gateway, GatewayClass, HTTPRoute, ListenerStatus, RouteParentStatus } from '../traffic/gateway-api.js';
import { GATEWAY_GROUP } from '../traffic/gateway-api.js';
import {
  attachments,
  classGateways,
  listenerProblem,
  NGF_NAME,
  ngfFlagsOf,
  ownedClass,
  routeRefProblem,
  type NgfFlags,
} from '../traffic/gateway.js';
import { podIsReady } from './util.js';

/** A condition, keeping the previous lastTransitionTime while its status is unchanged. */
function cond(c: Cluster, prev: readonly Condition[] | undefined, obj: KObject, type: string, status: Condition['status'], reason: string, message: string): Condition {
  const old = prev?.find((p) => p.type === type);
  const lastTransitionTime = old && old.status === status ? old.lastTransitionTime : c.timestamp();
  return { lastTransitionTime, message, observedGeneration: obj.metadata.generation ?? 1, reason, status, type };
}

/** Store `status` on `obj` when it differs (a controller that writes only changes settles). */
function writeStatus<T extends KObject>(c: Cluster, obj: T, status: unknown): void {
  if (JSON.stringify(obj.status) === JSON.stringify(status)) return;
  const next = clone(obj);
  next.status = status;
  c.write(next);
}

function reconcileClass(c: Cluster, gc: GatewayClass): void {
  const prev = gc.status?.conditions;
  writeStatus(c, gc, {
    conditions: [
      cond(c, prev, gc, 'Accepted', 'True', 'Accepted', 'GatewayClass is accepted'),
      cond(c, prev, gc, 'SupportedVersion', 'True', 'SupportedVersion', 'Gateway API CRD versions are supported'),
    ],
  });
}

/** The address NGF reports: its Service's LoadBalancer ingress, else the ClusterIP. */
function addresses(c: Cluster, ns: string): { type: string; value: string }[] {
  const svc = c.store.get<Service>('Service', ns, NGF_NAME);
  if (!svc) return [];
  const lb = (svc.status as { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } } | undefined)?.loadBalancer?.ingress ?? [];
  const out = lb.map((i) => (i.ip ? { type: 'IPAddress', value: i.ip } : { type: 'Hostname', value: i.hostname ?? '' }));
  if (out.length > 0) return out;
  return svc.spec.clusterIP && svc.spec.clusterIP !== 'None' ? [{ type: 'IPAddress', value: svc.spec.clusterIP }] : [];
}

function reconcileGateway(c: Cluster, gw: Gateway, ngfNs: string, routes: readonly HTTPRoute[]): void {
  const prev = gw.status?.conditions;
  const attached = new Map<string, number>();
  for (const r of routes) for (const a of attachments(c, gw, r)) if (a.accepted) for (const l of a.listeners.keys()) attached.set(l, (attached.get(l) ?? 0) + 1);
  const listeners: ListenerStatus[] = gw.spec.listeners.map((l) => {
    const lp = gw.status?.listeners?.find((s) => s.name === l.name)?.conditions;
    const problem = listenerProblem(l);
    const conditions = problem
      ? [
          cond(c, lp, gw, 'Accepted', 'False', problem.reason, problem.message),
          cond(c, lp, gw, 'Programmed', 'False', 'Invalid', problem.message),
        ]
      : [
          cond(c, lp, gw, 'Accepted', 'True', 'Accepted', 'Listener is accepted'),
          cond(c, lp, gw, 'Programmed', 'True', 'Programmed', 'Listener is programmed'),
          cond(c, lp, gw, 'ResolvedRefs', 'True', 'ResolvedRefs', 'All references are resolved'),
          cond(c, lp, gw, 'Conflicted', 'False', 'NoConflicts', 'No conflicts'),
        ];
    return {
      name: l.name,
      supportedKinds: problem ? [] : [{ group: GATEWAY_GROUP, kind: 'HTTPRoute' }, { group: GATEWAY_GROUP, kind: 'GRPCRoute' }],
      attachedRoutes: problem ? 0 : (attached.get(l.name) ?? 0),
      conditions,
    };
  });
  const anyValid = gw.spec.listeners.some((l) => !listenerProblem(l));
  writeStatus(c, gw, {
    addresses: addresses(c, ngfNs),
    conditions: anyValid
      ? [cond(c, prev, gw, 'Accepted', 'True', 'Accepted', 'Gateway is accepted'), cond(c, prev, gw, 'Programmed', 'True', 'Programmed', 'Gateway is programmed')]
      : [
          cond(c, prev, gw, 'Accepted', 'False', 'ListenersNotValid', 'Gateway has no valid listeners'),
          cond(c, prev, gw, 'Programmed', 'False', 'Invalid', 'Gateway has no valid listeners'),
        ],
    listeners,
  });
}

function reconcileConflicting(c: Cluster, gw: Gateway): void {
  const prev = gw.status?.conditions;
  const msg = 'The resource is ignored due to a conflicting Gateway resource';
  writeStatus(c, gw, {
    conditions: [cond(c, prev, gw, 'Accepted', 'False', 'GatewayConflict', msg), cond(c, prev, gw, 'Programmed', 'False', 'GatewayConflict', msg)],
  });
}

function reconcileRoute(c: Cluster, route: HTTPRoute, gw: Gateway | undefined, f: NgfFlags): void {
  const others = (route.status?.parents ?? []).filter((p) => p.controllerName !== f.controllerName);
  const mine: RouteParentStatus[] = [];
  if (gw) {
    const refProblem = routeRefProblem(c, route);
    for (const a of attachments(c, gw, route)) {
      const prev = route.status?.parents.find((p) => p.controllerName === f.controllerName && JSON.stringify(p.parentRef) === JSON.stringify(a.ref))?.conditions;
      mine.push({
        parentRef: a.ref,
        controllerName: f.controllerName,
        conditions: [
          cond(c, prev, route, 'Accepted', a.accepted ? 'True' : 'False', a.reason, a.message),
          refProblem
            ? cond(c, prev, route, 'ResolvedRefs', 'False', refProblem.reason, refProblem.message)
            : cond(c, prev, route, 'ResolvedRefs', 'True', 'ResolvedRefs', 'All references are resolved'),
        ],
      });
    }
  }
  const parents = [...others, ...mine];
  if (parents.length === 0 && route.status === undefined) return;
  writeStatus(c, route, { parents });
}

export const gatewayController: Controller = {
  name: 'nginx-gateway-fabric',
  watches: ['GatewayClass', 'Gateway', 'HTTPRoute', 'ReferenceGrant', 'Service', 'Pod', 'Namespace'],
  reconcile(c: Cluster): void {
    const seen = new Set<string>();
    for (const pod of c.store.list<Pod>('Pod')) {
      const f = ngfFlagsOf(pod);
      if (!f || pod.status?.phase !== 'Running' || !podIsReady(pod) || pod.metadata.deletionTimestamp) continue;
      const key = `${f.controllerName}|${f.gatewayClass}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const gc = ownedClass(c, f);
      if (gc) reconcileClass(c, gc);
      const gws = classGateways(c, f);
      const served = gws[0];
      const routes = c.store.list<HTTPRoute>('HTTPRoute');
      if (served) reconcileGateway(c, served, pod.metadata.namespace ?? 'default', routes);
      for (const g of gws.slice(1)) reconcileConflicting(c, g);
      for (const r of routes) reconcileRoute(c, r, served, f);
    }
  },
};
