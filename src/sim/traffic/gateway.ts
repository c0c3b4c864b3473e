/**
 * NGINX Gateway Fabric 1.6 (nginx/nginx-gateway-fabric, static mode): which Gateway and routes its
 * one data plane serves, and what that nginx answers. Read by the gateway controller (statuses,
 * sim/controllers/gateway.ts) and by HTTP requests that reach the data plane pod.
 *
 * Behaviour followed (internal/mode/static/state/graph/{gateway,gatewayclass,httproute,
 * route_common,backend_refs}.go, state/conditions/conditions.go, nginx/config/servers.go):
 *  - the controller owns the GatewayClass named by --gatewayclass whose spec.controllerName is its
 *    --gateway-ctlr-name; of that class's Gateways it serves ONE, the oldest (then namespace/name);
 *    the others get Accepted=False/Programmed=False reason GatewayConflict;
 *  - its listeners take HTTP and HTTPS; a listener of another protocol is not accepted
 *    (UnsupportedProtocol);
 *  - an HTTPRoute attaches per parentRef: sectionName/port pick listeners (none: NoMatchingParent),
 *    allowedRoutes must admit the route's namespace (NotAllowedByListeners), the hostnames must
 *    intersect (NoMatchingListenerHostname);
 *  - backendRefs: a Service in the route's namespace or one a ReferenceGrant allows
 *    (RefNotPermitted), existing (BackendNotFound) with that port; an invalid ref makes its share
 *    of the traffic answer 500, a valid Service without ready endpoints 502 (nginx's upstream with
 *    no servers);
 *  - a request on a listener port picks the listener by Host (exact, then wildcard, then none),
 *    the rule by Gateway API precedence (gateway-api.ts), the backend by weight through nginx's
 *    split_clients on $request_id (nginx/config/split_clients.go); no rule: 404.
 */
import type { Cluster } from '../cluster.js';
import type { Namespace, Pod, Service } from '../api/types.js';
import { lookupImage } from '../images.js';
import { connect } from './path.js';
import { errorAnswer, pick, siteAnswer, upstreams, type HttpAnswer } from './ingress.js';
import {
  type BackendRef,
  type Gateway,
  type GatewayClass,
  type GatewayRequest,
  type HTTPRoute,
  type Listener,
  type ParentReference,
  type ReferenceGrant,
  intersectHostnames,
  hostnameMatches,
  listenerTakesHTTPRoute,
  namespaceAllowed,
  parentNamespace,
  pickBackend,
  referenceGranted,
  refersToGateway,
  requestIdFrom,
  rewritePath,
  selectRule,
  splitQuery,
} from './gateway-api.js';

export const NGF_CONTROLLER_NAME = 'gateway.nginx.org/nginx-gateway-controller';
export const NGF_NAMESPACE = 'nginx-gateway';
/** The Deployment and the Service (--service) of the fixture's install. */
export const NGF_NAME = 'nginx-gateway';
export const NGF_VERSION = '1.6.2';
export const NGF_CONTROLLER_IMAGE = `ghcr.io/nginx/nginx-gateway-fabric:${NGF_VERSION}`;
export const NGF_NGINX_IMAGE = `ghcr.io/nginx/nginx-gateway-fabric/nginx:${NGF_VERSION}`;
const CONTROLLER_REPOSITORY = 'ghcr.io/nginx/nginx-gateway-fabric';
const NGINX_REPOSITORY = 'ghcr.io/nginx/nginx-gateway-fabric/nginx';

/** The controller's flags that matter here (cmd/gateway/commands.go), from its container args. */
export interface NgfFlags {
  gatewayClass: string;
  controllerName: string;
}

function flagValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === `--${name}`) return args[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

/** The flags of a running NGF control plane: the pod that runs its controller container. */
export function ngfFlagsOf(pod: Pod): NgfFlags | undefined {
  for (const ct of pod.spec.containers) {
    if (lookupImage(ct.image)?.repository !== CONTROLLER_REPOSITORY) continue;
    const args = [...(ct.command ?? []), ...(ct.args ?? [])];
    return { gatewayClass: flagValue(args, 'gatewayclass') ?? 'nginx', controllerName: flagValue(args, 'gateway-ctlr-name') ?? NGF_CONTROLLER_NAME };
  }
  return undefined;
}

/** True when `pod` runs NGF's nginx container, which listens on the served Gateway's ports. */
export function isGatewayDataPlane(pod: Pod): boolean {
  return pod.spec.containers.some((ct) => lookupImage(ct.image)?.repository === NGINX_REPOSITORY) && ngfFlagsOf(pod) !== undefined;
}

/** The GatewayClass NGF owns, when it exists with NGF's controllerName. */
export function ownedClass(c: Cluster, f: NgfFlags): GatewayClass | undefined {
  const gc = c.store.get<GatewayClass>('GatewayClass', undefined, f.gatewayClass);
  return gc && gc.spec.controllerName === f.controllerName && !gc.metadata.deletionTimestamp ? gc : undefined;
}

/** The class's Gateways, the one served first (oldest, then namespace/name). */
export function classGateways(c: Cluster, f: NgfFlags): Gateway[] {
  if (!ownedClass(c, f)) return [];
  return c.store
    .list<Gateway>('Gateway')
    .filter((g) => g.spec.gatewayClassName === f.gatewayClass && !g.metadata.deletionTimestamp)
    .sort((a, b) => {
      const ta = a.metadata.creationTimestamp ?? '';
      const tb = b.metadata.creationTimestamp ?? '';
      if (ta !== tb) return ta < tb ? -1 : 1;
      const ka = `${a.metadata.namespace ?? ''}/${a.metadata.name}`;
      const kb = `${b.metadata.namespace ?? ''}/${b.metadata.name}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
}

/** Why a listener is not valid (UnsupportedProtocol etc.), or undefined when it is. */
export function listenerProblem(l: Listener): { reason: string; message: string } | undefined {
  if (l.protocol !== 'HTTP' && l.protocol !== 'HTTPS')
    return { reason: 'UnsupportedProtocol', message: `protocol: Unsupported value: "${l.protocol}": supported values: "HTTP", "HTTPS"` };
  if (l.port < 1 || l.port > 65535) return { reason: 'UnsupportedValue', message: `port: Invalid value: ${l.port}: port must be between 1-65535` };
  return undefined;
}

/** How one parentRef of a route fares on the served Gateway. */
export interface Attachment {
  ref: ParentReference;
  accepted: boolean;
  reason: string;
  message: string;
  /** Listener name → the route's hostnames there (undefined: every host). */
  listeners: Map<string, string[] | undefined>;
}

/** The attachment of `route`'s parentRefs that point at `gw` (others are not this controller's). */
export function attachments(c: Cluster, gw: Gateway, route: HTTPRoute): Attachment[] {
  const routeNs = route.metadata.namespace ?? 'default';
  const gwNs = gw.metadata.namespace ?? 'default';
  const nsLabels = c.store.get<Namespace>('Namespace', undefined, routeNs)?.metadata.labels ?? {};
  const out: Attachment[] = [];
  for (const ref of route.spec.parentRefs ?? []) {
    if (!refersToGateway(ref) || ref.name !== gw.metadata.name || parentNamespace(route, ref) !== gwNs) continue;
    const att: Attachment = { ref, accepted: false, reason: 'NoMatchingParent', message: 'Listener is not found for this parent ref', listeners: new Map() };
    out.push(att);
    const named = gw.spec.listeners.filter((l) => (ref.sectionName === undefined || l.name === ref.sectionName) && (ref.port === undefined || l.port === ref.port));
    const valid = named.filter((l) => !listenerProblem(l) && listenerTakesHTTPRoute(l));
    if (valid.length === 0) continue;
    const allowed = valid.filter((l) => namespaceAllowed(l, gwNs, routeNs, nsLabels));
    if (allowed.length === 0) {
      Object.assign(att, { reason: 'NotAllowedByListeners', message: 'Route is not allowed by any listener' });
      continue;
    }
    for (const l of allowed) {
      const hs = intersectHostnames(l.hostname, route.spec.hostnames);
      if (hs === undefined || hs.length > 0) att.listeners.set(l.name, hs);
    }
    if (att.listeners.size === 0) {
      Object.assign(att, { reason: 'NoMatchingListenerHostname', message: 'Listener hostname does not match the Route hostnames' });
      continue;
    }
    Object.assign(att, { accepted: true, reason: 'Accepted', message: 'The route is accepted' });
  }
  return out;
}

/** A backendRef's problem, as ResolvedRefs=False states it, or undefined when it resolves. */
export function backendProblem(c: Cluster, route: HTTPRoute, ref: BackendRef, path: string): { reason: string; message: string } | undefined {
  const routeNs = route.metadata.namespace ?? 'default';
  const ns = ref.namespace ?? routeNs;
  if ((ref.group ?? '') !== '' || (ref.kind ?? 'Service') !== 'Service')
    return { reason: 'InvalidKind', message: `${path}.kind: Unsupported value: "${ref.kind ?? ''}": supported values: "Service"` };
  const grants = c.store.list<ReferenceGrant>('ReferenceGrant');
  if (!referenceGranted(grants, routeNs, ref, ns))
    return { reason: 'RefNotPermitted', message: `${path}: Forbidden: Backend ref to Service ${ns}/${ref.name} not permitted by any ReferenceGrant` };
  const svc = c.store.get<Service>('Service', ns, ref.name);
  if (!svc) return { reason: 'BackendNotFound', message: `${path}.name: Not found: "${ref.name}"` };
  if (ref.port === undefined) return { reason: 'UnsupportedValue', message: `${path}.port: Required value: port cannot be empty` };
  if (!(svc.spec.ports ?? []).some((p) => p.port === ref.port))
    return { reason: 'BackendNotFound', message: `${path}.port: Not found: "${ref.port}"` };
  return undefined;
}

/** The first backendRef problem of a route (ResolvedRefs), or undefined when all resolve. */
export function routeRefProblem(c: Cluster, route: HTTPRoute): { reason: string; message: string } | undefined {
  const rules = route.spec.rules ?? [];
  for (let i = 0; i < rules.length; i++) {
    const refs = rules[i]!.backendRefs ?? [];
    for (let j = 0; j < refs.length; j++) {
      const p = backendProblem(c, route, refs[j]!, `spec.rules[${i}].backendRefs[${j}]`);
      if (p) return p;
    }
  }
  return undefined;
}

/** The listener of `gw` on `port` that takes `host`: exact hostname, then longest wildcard, then none. */
export function selectListener(gw: Gateway, port: number, host: string): Listener | undefined {
  const ls = gw.spec.listeners.filter((l) => l.port === port && l.protocol === 'HTTP' && !listenerProblem(l));
  const h = host.replace(/:\d+$/, '').toLowerCase();
  const exact = ls.find((l) => l.hostname && !l.hostname.startsWith('*.') && l.hostname.toLowerCase() === h);
  if (exact) return exact;
  const wild = ls.filter((l) => l.hostname?.startsWith('*.') && hostnameMatches(l.hostname, h)).sort((a, b) => b.hostname!.length - a.hostname!.length)[0];
  return wild ?? ls.find((l) => !l.hostname);
}

function redirectAnswer(status: number, location: string): HttpAnswer {
  const reason = status === 301 ? 'Moved Permanently' : 'Found';
  return { ...errorAnswer(status, reason), location };
}

/**
 * Answer one HTTP request that reached the data plane pod `pod` on `port`. Appends what happened
 * to `trace`.
 */
export function serveGateway(c: Cluster, pod: Pod, port: number, req: GatewayRequest, trace: string[]): HttpAnswer | undefined {
  const f = ngfFlagsOf(pod);
  if (!f) return undefined;
  const gw = classGateways(c, f)[0];
  if (!gw || !gw.spec.listeners.some((l) => l.port === port && l.protocol === 'HTTP' && !listenerProblem(l))) return undefined;
  const gwId = `${gw.metadata.namespace ?? 'default'}/${gw.metadata.name}`;
  const listener = selectListener(gw, port, req.host);
  if (!listener) {
    // every port gets a default server that answers 404 (nginx/config/servers.go default server)
    trace.push(`nginx-gateway: Gateway ${gwId}: no listener on port ${port} takes host "${req.host}": the default server answers 404`);
    return errorAnswer(404, 'Not Found');
  }
  const routes: { route: HTTPRoute; hostnames: string[] | undefined }[] = [];
  for (const route of c.store.list<HTTPRoute>('HTTPRoute')) {
    for (const att of attachments(c, gw, route)) if (att.accepted && att.listeners.has(listener.name)) routes.push({ route, hostnames: att.listeners.get(listener.name) });
  }
  const host = req.host.replace(/:\d+$/, '');
  const cand = selectRule(routes, req);
  if (!cand) {
    trace.push(`nginx-gateway: Gateway ${gwId} listener ${listener.name}: no HTTPRoute rule matches host "${host}" path ${req.path}: 404`);
    return errorAnswer(404, 'Not Found');
  }
  const routeNs = cand.route.metadata.namespace ?? 'default';
  const where = `HTTPRoute ${routeNs}/${cand.route.metadata.name} rule ${cand.ruleIndex}`;
  const rule = (cand.route.spec.rules ?? [])[cand.ruleIndex]!;
  const { path } = splitQuery(req.path);
  for (const fl of rule.filters ?? []) {
    if (fl.type !== 'RequestRedirect' || !fl.requestRedirect) continue;
    const r = fl.requestRedirect;
    const scheme = r.scheme ?? 'http';
    const p = r.path ? rewritePath(r.path, cand.match, path) : path;
    const portPart = r.port !== undefined && !((scheme === 'http' && r.port === 80) || (scheme === 'https' && r.port === 443)) ? `:${r.port}` : '';
    const location = `${scheme}://${r.hostname ?? host}${portPart}${p}`;
    trace.push(`nginx-gateway: ${where} redirects to ${location}`);
    return redirectAnswer(r.statusCode ?? 302, location);
  }
  const refs = rule.backendRefs ?? [];
  // $request_id only matters to a split; a rule of one backend draws nothing from the random source
  const requestId = refs.length > 1 ? requestIdFrom(() => c.random.nextU32()) : '';
  const ref = pickBackend(refs, requestId);
  if (!ref) {
    trace.push(`nginx-gateway: ${where} has no backend with a weight: 500`);
    return errorAnswer(500, 'Internal Server Error');
  }
  if (refs.length > 1) trace.push(`nginx-gateway: ${where}: split_clients on $request_id ${requestId} picks backendRef ${ref.name} (weights ${refs.map((r) => r.weight ?? 1).join('/')})`);
  const idx = refs.indexOf(ref);
  const problem = backendProblem(c, cand.route, ref, `spec.rules[${cand.ruleIndex}].backendRefs[${idx}]`);
  if (problem) {
    trace.push(`nginx-gateway: ${where} → backendRef ${ref.name} is invalid (${problem.reason}): 500`);
    return errorAnswer(500, 'Internal Server Error');
  }
  const ns = ref.namespace ?? routeNs;
  const up = upstreams(c, ns, { name: ref.name, port: { number: ref.port! } });
  if (up.eps.length === 0) {
    trace.push(`nginx-gateway: ${where} → Service ${ns}/${ref.name} port ${ref.port} has no ready endpoints: 502`);
    return errorAnswer(502, 'Bad Gateway');
  }
  const ep = pick(c, `gw:${ns}/${ref.name}:${ref.port}`, up.eps);
  const rw = rule.filters?.find((x) => x.type === 'URLRewrite')?.urlRewrite;
  const upstreamPath = rw?.path ? rewritePath(rw.path, cand.match, path) : path;
  trace.push(`nginx-gateway: Gateway ${gwId} listener ${listener.name} → ${where} → ${ref.name}:${ref.port} → endpoint ${ep.ip}:${ep.port}${upstreamPath !== path ? ` (path rewritten to ${upstreamPath})` : ''}`);
  const conn = connect(c, { kind: 'pod', ns: pod.metadata.namespace ?? 'default', name: pod.metadata.name }, ep.ip, ep.port, 'tcp');
  trace.push(...conn.trace.map((t) => `  ${t}`));
  if (!conn.ok) return conn.error === 'refused' ? errorAnswer(502, 'Bad Gateway') : errorAnswer(504, 'Gateway Time-out');
  const site = conn.to?.listener?.http;
  if (!site) return errorAnswer(502, 'Bad Gateway');
  const a = siteAnswer(site, upstreamPath, { host: req.host, method: req.method });
  if (!a) return errorAnswer(502, 'Bad Gateway');
  return { ...a, server: 'nginx' };
}
