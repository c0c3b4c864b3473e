/**
 * NGINX Gateway Fabric's control plane (nginx/nginx-gateway-fabric 1.6, static mode): while its
 * pod runs and is ready it writes the statuses the Gateway API defines (apis/v1
 * gatewayclass_types.go, gateway_types.go, httproute_types.go / shared_types.go
 * RouteParentStatus) for the objects it owns, with NGF's reasons and messages
 * (internal/mode/static/state/conditions/conditions.go):
 *  - its GatewayClass: Accepted and SupportedVersion;
 *  - the Gateway it serves: Accepted, Programmed, the address of its --service Service (the
 *    ClusterIP; a LoadBalancer's ingress IP when one is assigned), and per listener Accepted,
 *    Programmed, ResolvedRefs, Conflicted and attachedRoutes, or an invalid listener's own
 *    conditions (UnsupportedProtocol, UnsupportedValue, InvalidCertificateRef for an HTTPS
 *    listener whose Secret is missing, not kubernetes.io/tls or not a key pair, RefNotPermitted),
 *    as sim/traffic/gateway.ts listenerState decides; the class's other Gateways: GatewayConflict;
 *  - every HTTPRoute and GRPCRoute with a parentRef to that Gateway: one parents[] entry per such
 *    parentRef with Accepted (NoMatchingParent, InvalidListener, NotAllowedByListeners,
 *    NoMatchingListenerHostname, UnsupportedValue) and ResolvedRefs (BackendNotFound,
 *    RefNotPermitted, InvalidKind), merged as DeduplicateConditions merges them. Entries of other
 *    controllers are kept.
 * With the control plane down nothing is written: statuses go stale, as they do.
 * Which Gateway and routes are served is decided in sim/traffic/gateway.ts, which the data plane
 * shares.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KObject, Pod, Service } from '../api/types.js';
import { clone } from '../api/store.js';
import type { Condition, Gateway, GatewayClass, GRPCRoute, HTTPRoute, ListenerStatus, ParentReference, Route, RouteParentStatus } from '../traffic/gateway-api.js';
import {
  attachments,
  classGateways,
  listenerStates,
  type ListenerState,
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

/**
 * conditions.DeduplicateConditions (NGF internal/framework/conditions): one condition per type, the
 * last one given wins, at the place of that last one.
 */
export function dedupe<T extends { type: string }>(conds: readonly T[]): T[] {
  const lastAt = new Map<string, number>();
  conds.forEach((x, i) => lastAt.set(x.type, i));
  return conds.filter((x, i) => lastAt.get(x.type) === i);
}

type Plain = Pick<Condition, 'type' | 'status' | 'reason' | 'message'>;

/**
 * The served Gateway's status (status/prepare_requests.go prepareGatewayRequest): a valid listener
 * gets NGF's four defaults, an invalid one its own conditions; attachedRoutes counts the routes
 * attached there, valid or not. The Gateway is Accepted/Programmed; with some listeners invalid,
 * Accepted says ListenersNotValid ("Gateway has at least one valid listener"); with none valid it
 * is neither.
 */
function reconcileGateway(c: Cluster, gw: Gateway, ngfNs: string, routes: readonly Route[]): void {
  const prev = gw.status?.conditions;
  const states = listenerStates(c, gw);
  const attached = new Map<string, number>();
  for (const r of routes) for (const a of attachments(c, gw, r, states)) if (a.attached) for (const l of a.listeners.keys()) attached.set(l, (attached.get(l) ?? 0) + 1);
  const listeners: ListenerStatus[] = states.map((st) => {
    const l = st.listener;
    const lp = gw.status?.listeners?.find((s) => s.name === l.name)?.conditions;
    const plain: Plain[] = st.valid
      ? [
          { type: 'Accepted', status: 'True', reason: 'Accepted', message: 'Listener is accepted' },
          { type: 'Programmed', status: 'True', reason: 'Programmed', message: 'Listener is programmed' },
          { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', message: 'All references are resolved' },
          { type: 'Conflicted', status: 'False', reason: 'NoConflicts', message: 'No conflicts' },
        ]
      : dedupe(st.conditions);
    return {
      name: l.name,
      supportedKinds: st.supportedKinds,
      attachedRoutes: attached.get(l.name) ?? 0,
      conditions: plain.map((x) => cond(c, lp, gw, x.type, x.status, x.reason, x.message)),
    };
  });
  const valid = states.filter((st) => st.valid).length;
  const gwConds: Plain[] = [
    { type: 'Accepted', status: 'True', reason: 'Accepted', message: 'Gateway is accepted' },
    { type: 'Programmed', status: 'True', reason: 'Programmed', message: 'Gateway is programmed' },
  ];
  if (valid === 0)
    gwConds.push(
      { type: 'Accepted', status: 'False', reason: 'ListenersNotValid', message: 'Gateway has no valid listeners' },
      { type: 'Programmed', status: 'False', reason: 'Invalid', message: 'Gateway has no valid listeners' },
    );
  else if (valid < states.length) gwConds.push({ type: 'Accepted', status: 'True', reason: 'ListenersNotValid', message: 'Gateway has at least one valid listener' });
  writeStatus(c, gw, {
    addresses: addresses(c, ngfNs),
    conditions: dedupe(gwConds).map((x) => cond(c, prev, gw, x.type, x.status, x.reason, x.message)),
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

/**
 * A route's parents as status/prepare_requests.go prepareRouteStatus writes them: per parentRef to
 * the served Gateway, the defaults (Accepted, ResolvedRefs) then the route's own conditions then
 * the failed attachment, deduplicated (so a failed attachment puts ResolvedRefs first); the
 * parentRef as NGF echoes it: namespace, name and sectionName.
 */
function reconcileRoute(c: Cluster, route: Route, gw: Gateway | undefined, f: NgfFlags, states: readonly ListenerState[]): void {
  const others = (route.status?.parents ?? []).filter((p) => p.controllerName !== f.controllerName);
  const mine: RouteParentStatus[] = [];
  if (gw) {
    const refProblem = routeRefProblem(c, route);
    for (const a of attachments(c, gw, route, states)) {
      const parentRef: ParentReference = { name: gw.metadata.name, namespace: gw.metadata.namespace ?? 'default', ...(a.ref.sectionName !== undefined ? { sectionName: a.ref.sectionName } : {}) };
      const prev = route.status?.parents.find((p) => p.controllerName === f.controllerName && JSON.stringify(p.parentRef) === JSON.stringify(parentRef))?.conditions;
      const all: Plain[] = [
        { type: 'Accepted', status: 'True', reason: 'Accepted', message: 'The route is accepted' },
        { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', message: 'All references are resolved' },
      ];
      if (refProblem) all.push({ type: 'ResolvedRefs', status: 'False', ...refProblem });
      // attached to invalid listeners only: a route condition; not attached: the failed attachment
      if (!a.accepted) all.push({ type: 'Accepted', status: 'False', reason: a.reason, message: a.message });
      mine.push({ parentRef, controllerName: f.controllerName, conditions: dedupe(all).map((x) => cond(c, prev, route, x.type, x.status, x.reason, x.message)) });
    }
  }
  const parents = [...others, ...mine];
  if (parents.length === 0 && route.status === undefined) return;
  writeStatus(c, route, { parents });
}

export const gatewayController: Controller = {
  name: 'nginx-gateway-fabric',
  watches: ['GatewayClass', 'Gateway', 'HTTPRoute', 'GRPCRoute', 'ReferenceGrant', 'Secret', 'Service', 'Pod', 'Namespace'],
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
      const routes: Route[] = [...c.store.list<HTTPRoute>('HTTPRoute'), ...c.store.list<GRPCRoute>('GRPCRoute')];
      if (served) reconcileGateway(c, served, pod.metadata.namespace ?? 'default', routes);
      for (const g of gws.slice(1)) reconcileConflicting(c, g);
      const states = served ? listenerStates(c, served) : [];
      for (const r of routes) reconcileRoute(c, r, served, f, states);
    }
  },
};
