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
import type { Namespace, Pod, Secret, Service } from '../api/types.js';
import { nginxReason, nginxStatusPage } from '../runtime/nginx/pages.js';
import { lookupImage } from '../images.js';
import { connect } from './path.js';
import { StoreMemo } from './store-memo.js';
import { plainHttpToHttpsAnswer, secretText, x509KeyPair } from './tls-secret.js';
import { errorAnswer, pick, siteAnswer, upstreams, type HttpAnswer } from './ingress.js';
import {
  type BackendRef,
  type Gateway,
  type GatewayClass,
  type GatewayRequest,
  type HTTPRoute,
  type HTTPRouteFilter,
  type HTTPRouteMatch,
  type Listener,
  type Route,
  type ParentReference,
  type ReferenceGrant,
  GATEWAY_GROUP,
  intersectHostnames,
  hostnameMatches,
  grantAllows,
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

/** A condition as NGF builds it, before the status writer adds times and the generation. */
export interface ListenerCondition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** How NGF sees one listener of the Gateway it serves (state/graph/gateway_listener.go Listener). */
export interface ListenerState {
  listener: Listener;
  /** Routes may attach (false only for an unsupported protocol). */
  attachable: boolean;
  /** Programmed into nginx: no validator, conflict or reference problem. */
  valid: boolean;
  /** The conditions of an invalid listener (a valid one gets NGF's four defaults). */
  conditions: ListenerCondition[];
  supportedKinds: { group: string; kind: string }[];
  /** HTTPS: the certificate and key of the resolved Secret. */
  tls?: { certPem: string; keyPem: string; secret: string };
}

const notProgrammed = (message: string): ListenerCondition => ({ type: 'Programmed', status: 'False', reason: 'Invalid', message });
/** conditions.go NewListenerUnsupportedValue, NewListenerUnsupportedProtocol: Accepted False and Programmed False. */
const notAccepted = (reason: string, message: string): ListenerCondition[] => [{ type: 'Accepted', status: 'False', reason, message }, notProgrammed(message)];
/** conditions.go NewListenerInvalidCertificateRef, NewListenerRefNotPermitted: Accepted, ResolvedRefs and Programmed False. */
const unresolved = (reason: string, message: string): ListenerCondition[] => [
  { type: 'Accepted', status: 'False', reason, message },
  { type: 'ResolvedRefs', status: 'False', reason, message },
  notProgrammed(message),
];

/** field.NotSupported's text (apimachinery validation/field/errors.go). */
const notSupported = (path: string, value: string, supported: readonly string[]): string =>
  `${path}: Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((x) => JSON.stringify(x)).join(', ')}`;

/** The route kinds a listener of `protocol` can take (gateway_listener.go getAndValidateListenerSupportedKinds). */
function validKinds(protocol: string): string[] {
  if (protocol === 'HTTP' || protocol === 'HTTPS') return ['HTTPRoute', 'GRPCRoute'];
  if (protocol === 'TLS') return ['TLSRoute'];
  return [];
}

/**
 * NGF's listener configurators (gateway_listener.go, v1.6.2) for one listener: the validators
 * (allowed route kinds, hostname, port, the HTTP/HTTPS/TLS protocol rules) run first and all of
 * them; only a listener they leave valid has its external references resolved, which for HTTPS is
 * the certificateRefs[0] Secret: a ReferenceGrant from the Gateway's namespace when it lies in
 * another one (RefNotPermitted), then secret.go's secretResolver (`secret does not exist`,
 * `secret type must be "kubernetes.io/tls" not "Opaque"`, `TLS secret is invalid: …`), reported
 * as InvalidCertificateRef with field.Invalid's `tls.certificateRefs[0]: Invalid value: ns/name: …`.
 */
export function listenerState(c: Cluster, gw: Gateway, l: Listener): ListenerState {
  const gwNs = gw.metadata.namespace ?? 'default';
  const conds: ListenerCondition[] = [];
  const known = ['HTTP', 'HTTPS', 'TLS'];
  if (!known.includes(l.protocol))
    return { listener: l, attachable: false, valid: false, supportedKinds: [], conditions: notAccepted('UnsupportedProtocol', notSupported('protocol', l.protocol, known)) };
  const kinds = validKinds(l.protocol);
  let supportedKinds = kinds.map((kind) => ({ group: GATEWAY_GROUP, kind }));
  const asked = l.allowedRoutes?.kinds;
  if (asked) {
    supportedKinds = [];
    for (const k of asked) {
      const group = k.group ?? GATEWAY_GROUP;
      if (group === GATEWAY_GROUP && kinds.includes(k.kind)) supportedKinds.push({ group, kind: k.kind });
      else {
        const msg = `Unsupported route kind for protocol ${l.protocol} "${group}/${k.kind}"`;
        conds.push({ type: 'ResolvedRefs', status: 'False', reason: 'InvalidRouteKinds', message: msg }, notProgrammed(msg));
      }
    }
  }
  const portBad = l.port < 1 || l.port > 65535;
  if (l.protocol !== 'TLS' && portBad) conds.push(...notAccepted('UnsupportedValue', `port: Invalid value: ${l.port}: port must be between 1-65535`));
  if (l.protocol === 'HTTP' && l.tls) conds.push(...notAccepted('UnsupportedValue', 'tls: Forbidden: tls is not supported for HTTP listener'));
  if (l.protocol === 'TLS') {
    if (!l.tls) conds.push(...notAccepted('UnsupportedValue', 'TLS: Required value: tls must be defined for TLS listener'));
    else if ((l.tls.mode ?? 'Terminate') !== 'Passthrough') conds.push(...notAccepted('UnsupportedValue', 'TLS.Mode: Required value: Mode must be passthrough for TLS listener'));
  }
  let certRef: NonNullable<NonNullable<Listener['tls']>['certificateRefs']>[number] | undefined;
  if (l.protocol === 'HTTPS') {
    if (!l.tls) conds.push(...notAccepted('UnsupportedValue', 'TLS: Required value: tls must be defined for HTTPS listener'));
    else {
      const mode = l.tls.mode ?? 'Terminate';
      if (mode !== 'Terminate') conds.push(...notAccepted('UnsupportedValue', notSupported('tls.mode', mode, ['Terminate'])));
      if (l.tls.options && Object.keys(l.tls.options).length > 0) conds.push(...notAccepted('UnsupportedValue', 'tls.options: Forbidden: options are not supported'));
      const refs = l.tls.certificateRefs ?? [];
      if (refs.length === 0) conds.push(...unresolved('InvalidCertificateRef', 'tls.certificateRefs: Required value: certificateRefs must be defined for TLS mode terminate'));
      else {
        certRef = refs[0]!;
        if (certRef.kind !== undefined && certRef.kind !== 'Secret') conds.push(...unresolved('InvalidCertificateRef', notSupported('tls.certificateRefs[0].kind', certRef.kind, ['Secret'])));
        if (certRef.group !== undefined && certRef.group !== '') conds.push(...unresolved('InvalidCertificateRef', notSupported('tls.certificateRefs[0].group', certRef.group, [''])));
        if (refs.length > 1) conds.push(...notAccepted('UnsupportedValue', `tls.certificateRefs: Too many: ${refs.length}: must have at most 1 items`));
      }
    }
  }
  const state: ListenerState = { listener: l, attachable: true, valid: conds.length === 0, conditions: conds, supportedKinds };
  if (!state.valid || !certRef) return state;
  const ns = certRef.namespace ?? gwNs;
  const nsName = `${ns}/${certRef.name}`;
  if (!grantAllows(c.store.list<ReferenceGrant>('ReferenceGrant'), 'Gateway', gwNs, 'Secret', certRef.name, ns))
    return { ...state, valid: false, conditions: unresolved('RefNotPermitted', `Certificate ref to secret ${nsName} not permitted by any ReferenceGrant`) };
  const sec = c.store.get<Secret>('Secret', ns, certRef.name);
  let problem: string | undefined;
  let pair: ReturnType<typeof x509KeyPair> | undefined;
  if (!sec) problem = 'secret does not exist';
  else if ((sec.type ?? 'Opaque') !== 'kubernetes.io/tls') problem = `secret type must be "kubernetes.io/tls" not ${JSON.stringify(sec.type ?? 'Opaque')}`;
  else {
    pair = x509KeyPair(secretText(sec, 'tls.crt'), secretText(sec, 'tls.key'));
    if ('error' in pair) problem = `TLS secret is invalid: ${pair.error}`;
  }
  if (problem || !sec) return { ...state, valid: false, conditions: unresolved('InvalidCertificateRef', `tls.certificateRefs[0]: Invalid value: ${nsName}: ${problem ?? ''}`) };
  return { ...state, tls: { certPem: secretText(sec, 'tls.crt'), keyPem: secretText(sec, 'tls.key'), secret: nsName } };
}

/** Every listener of `gw` as NGF sees it, in spec order. */
export function listenerStates(c: Cluster, gw: Gateway): ListenerState[] {
  return gw.spec.listeners.map((l) => listenerState(c, gw, l));
}

/** How one parentRef of a route fares on the served Gateway. */
export interface Attachment {
  ref: ParentReference;
  /** The route attached to at least one listener (it counts in their attachedRoutes). */
  attached: boolean;
  /** Accepted=True: attached to at least one valid listener. */
  accepted: boolean;
  reason: string;
  message: string;
  /** Listener name → the route's hostnames there (undefined: every host). */
  listeners: Map<string, string[] | undefined>;
}

/**
 * The attachment of `route`'s parentRefs that point at `gw` (others are not this controller's),
 * as route_common.go validateParentRef and tryToAttachL7RouteToListeners decide it: a sectionName
 * that names no listener is NoMatchingParent; a parentRef port is UnsupportedValue (NGF 1.6 does
 * not support it); no attachable listener is InvalidListener; then each attachable listener takes
 * the route when its allowedRoutes admit the namespace and kind and the hostnames intersect
 * (none allowed: NotAllowedByListeners; allowed but no hostname: NoMatchingListenerHostname). A
 * route attached only to invalid listeners counts there but is not accepted (InvalidListener).
 */
export function attachments(c: Cluster, gw: Gateway, route: Route, states: readonly ListenerState[] = listenerStates(c, gw)): Attachment[] {
  const routeNs = route.metadata.namespace ?? 'default';
  const gwNs = gw.metadata.namespace ?? 'default';
  const nsLabels = c.store.get<Namespace>('Namespace', undefined, routeNs)?.metadata.labels ?? {};
  const out: Attachment[] = [];
  (route.spec.parentRefs ?? []).forEach((ref, idx) => {
    if (!refersToGateway(ref) || ref.name !== gw.metadata.name || parentNamespace(route, ref) !== gwNs) return;
    const att: Attachment = { ref, attached: false, accepted: false, reason: 'NoMatchingParent', message: 'Listener is not found for this parent ref', listeners: new Map() };
    out.push(att);
    const named = ref.sectionName === undefined ? states : states.filter((s) => s.listener.name === ref.sectionName);
    if (named.length === 0) return;
    if (ref.port !== undefined) {
      Object.assign(att, { reason: 'UnsupportedValue', message: `spec.parentRefs[${idx}].port: Forbidden: cannot be set` });
      return;
    }
    const attachable = named.filter((s) => s.attachable);
    if (attachable.length === 0) {
      Object.assign(att, { reason: 'InvalidListener', message: 'Listener is invalid for this parent ref' });
      return;
    }
    let allowed = false;
    let onValid = false;
    for (const s of attachable) {
      if (!namespaceAllowed(s.listener, gwNs, routeNs, nsLabels)) continue;
      if (!s.supportedKinds.some((k) => k.kind === route.kind)) continue;
      allowed = true;
      const hs = intersectHostnames(s.listener.hostname, route.spec.hostnames);
      if (hs !== undefined && hs.length === 0) continue;
      att.listeners.set(s.listener.name, hs);
      onValid ||= s.valid;
    }
    if (att.listeners.size === 0) {
      Object.assign(att, allowed ? { reason: 'NoMatchingListenerHostname', message: 'Listener hostname does not match the Route hostnames' } : { reason: 'NotAllowedByListeners', message: 'Route is not allowed by any listener' });
      return;
    }
    att.attached = true;
    if (!onValid) Object.assign(att, { reason: 'InvalidListener', message: 'Listener is invalid for this parent ref' });
    else Object.assign(att, { accepted: true, reason: 'Accepted', message: 'The route is accepted' });
  });
  return out;
}

/** A backendRef's problem, as ResolvedRefs=False states it, or undefined when it resolves. */
export function backendProblem(c: Cluster, route: Route, ref: BackendRef, path: string): { reason: string; message: string } | undefined {
  const routeNs = route.metadata.namespace ?? 'default';
  const ns = ref.namespace ?? routeNs;
  if ((ref.group ?? '') !== '' || (ref.kind ?? 'Service') !== 'Service')
    return { reason: 'InvalidKind', message: `${path}.kind: Unsupported value: "${ref.kind ?? ''}": supported values: "Service"` };
  const grants = c.store.list<ReferenceGrant>('ReferenceGrant');
  if (!referenceGranted(grants, routeNs, ref, ns, route.kind))
    return { reason: 'RefNotPermitted', message: `${path}: Forbidden: Backend ref to Service ${ns}/${ref.name} not permitted by any ReferenceGrant` };
  const svc = c.store.get<Service>('Service', ns, ref.name);
  if (!svc) return { reason: 'BackendNotFound', message: `${path}.name: Not found: "${ref.name}"` };
  if (ref.port === undefined) return { reason: 'UnsupportedValue', message: `${path}.port: Required value: port cannot be empty` };
  if (!(svc.spec.ports ?? []).some((p) => p.port === ref.port))
    return { reason: 'BackendNotFound', message: `${path}.port: Not found: "${ref.port}"` };
  return undefined;
}

/** The first backendRef problem of a route (ResolvedRefs), or undefined when all resolve. */
export function routeRefProblem(c: Cluster, route: Route): { reason: string; message: string } | undefined {
  const rules: { backendRefs?: BackendRef[] }[] = route.spec.rules ?? [];
  for (let i = 0; i < rules.length; i++) {
    const refs = rules[i]!.backendRefs ?? [];
    for (let j = 0; j < refs.length; j++) {
      const p = backendProblem(c, route, refs[j]!, `spec.rules[${i}].backendRefs[${j}]`);
      if (p) return p;
    }
  }
  return undefined;
}

/**
 * nginx's choice of server among `listeners` (one port, one protocol) for a name: the exact
 * server_name, then the longest wildcard, then the catch-all `~^` of a listener without hostname
 * (dataplane/configuration.go wildcardHostname). Used for the Host header of HTTP and for the
 * TLS SNI (ngx_http_ssl_servername) alike.
 */
export function selectListener(listeners: readonly Listener[], host: string): Listener | undefined {
  const h = host.replace(/:\d+$/, '').toLowerCase();
  const exact = listeners.find((l) => l.hostname && !l.hostname.startsWith('*.') && l.hostname.toLowerCase() === h);
  if (exact) return exact;
  const wild = listeners.filter((l) => l.hostname?.startsWith('*.') && hostnameMatches(l.hostname, h)).sort((a, b) => b.hostname!.length - a.hostname!.length)[0];
  return wild ?? listeners.find((l) => !l.hostname);
}

type Served = { gw: Gateway; states: ListenerState[]; onPort: ListenerState[] };

/**
 * servedOnPort's answers and the routes attached to each served listener, by what they are built
 * from besides the store (the pod's NGF flags and the port; the Gateway and listener name): a pure
 * function of the stored objects, kept while the store's generation stands (store-memo.ts).
 */
const SERVED = new StoreMemo<Served | undefined>();
const ATTACHED = new StoreMemo<{ route: HTTPRoute; hostnames: string[] | undefined }[]>();

/** How many times the served listeners or a listener's attached routes were built (tests). */
export function gatewayConfigBuilds(): number {
  return SERVED.buildCount() + ATTACHED.buildCount();
}

/** The served Gateway of a data plane pod and its valid listeners on `port` (what nginx listens with). */
function servedOnPort(c: Cluster, pod: Pod, port: number): Served | undefined {
  const f = ngfFlagsOf(pod);
  if (!f) return undefined;
  return SERVED.get(c.store, `${f.gatewayClass}\n${f.controllerName}\n${port}`, () => buildServed(c, f, port));
}

function buildServed(c: Cluster, f: NgfFlags, port: number): Served | undefined {
  const gw = classGateways(c, f)[0];
  if (!gw) return undefined;
  const states = listenerStates(c, gw);
  const onPort = states.filter((s) => s.valid && s.listener.port === port && (s.listener.protocol === 'HTTP' || s.listener.protocol === 'HTTPS'));
  return onPort.length === 0 ? undefined : { gw, states, onPort };
}

/** What a TLS client meets on a data plane port. */
export type GatewayHandshake =
  /** nothing listens with TLS there: a plain HTTP server answers the ClientHello as text */
  | { kind: 'plain' }
  /** the `ssl_reject_handshake on` default server: no SNI, or one no HTTPS listener takes */
  | { kind: 'reject' }
  | { kind: 'certificate'; certPem: string; listener: string; secret: string }
  | undefined;

/**
 * The TLS handshake with NGF's nginx on `port` for a ClientHello with `sni` (undefined when the
 * client sends none, as curl does for an IP address): servers_template.go gives every HTTPS port
 * a default server with `ssl_reject_handshake on`, and each HTTPS listener a server with its
 * Secret's certificate, chosen by SNI as server names are.
 */
export function gatewayHandshake(c: Cluster, pod: Pod, port: number, sni: string | undefined): GatewayHandshake {
  const served = servedOnPort(c, pod, port);
  if (!served) return undefined;
  if (served.onPort[0]!.listener.protocol !== 'HTTPS') return { kind: 'plain' };
  if (sni === undefined) return { kind: 'reject' };
  const l = selectListener(served.onPort.map((s) => s.listener), sni);
  const st = served.onPort.find((s) => s.listener === l);
  if (!st?.tls) return { kind: 'reject' };
  return { kind: 'certificate', certPem: st.tls.certPem, listener: st.listener.name, secret: st.tls.secret };
}

function redirectAnswer(status: number, location: string): HttpAnswer {
  return { status, reason: nginxReason(status), body: nginxStatusPage(status, 'nginx'), server: 'nginx', location };
}

/**
 * The Location of a RequestRedirect filter as NGF writes the `return` (nginx/config/servers.go
 * createReturnAndRewriteConfigForRedirectFilter): hostname defaults to $host, port to the
 * listener's; a scheme given drops the port when it is that scheme's own or when no port is given;
 * without a scheme the request's own is used and the port is always written. The rest is
 * $request_uri (query included), or the rewritten path with the query when a path modifier is set.
 */
export function redirectLocation(r: NonNullable<HTTPRouteFilter['requestRedirect']>, req: { scheme: 'http' | 'https'; host: string; path: string; query: string }, listenerPort: number, match: HTTPRouteMatch): string {
  const hostname = r.hostname ?? req.host;
  const port = r.port ?? listenerPort;
  let hostPort = `${hostname}:${port}`;
  const scheme = r.scheme ?? req.scheme;
  if (r.scheme !== undefined) {
    if ((port === 80 && scheme === 'http') || (port === 443 && scheme === 'https')) hostPort = hostname;
    if (r.port === undefined && (scheme === 'http' || scheme === 'https')) hostPort = hostname;
  }
  const rest = r.path ? `${rewritePath(r.path, match, req.path)}${req.query}` : `${req.path}${req.query}`;
  return `${scheme}://${hostPort}${rest}`;
}

/**
 * Answer one HTTP request that reached the data plane pod `pod` on `port`; `tls` when it came
 * over TLS (after gatewayHandshake agreed on a certificate), with the SNI the client sent. Appends
 * what happened to `trace`. Undefined when no listener of the served Gateway is on that port.
 */
export function serveGateway(c: Cluster, pod: Pod, port: number, req: GatewayRequest, trace: string[], tls?: { sni: string }): HttpAnswer | undefined {
  const served = servedOnPort(c, pod, port);
  if (!served) return undefined;
  const { gw, states, onPort } = served;
  const gwId = `${gw.metadata.namespace ?? 'default'}/${gw.metadata.name}`;
  const secure = onPort[0]!.listener.protocol === 'HTTPS';
  if (secure && !tls) {
    trace.push(`nginx-gateway: port ${port} is an HTTPS listener's (listen ${port} ssl): a plain HTTP request gets nginx's 400`);
    return plainHttpToHttpsAnswer();
  }
  const host = req.host.replace(/:\d+$/, '').toLowerCase();
  if (tls && tls.sni.toLowerCase() !== host) {
    // servers_template.go: if ($ssl_server_name != $host) { return 421; }
    trace.push(`nginx-gateway: Gateway ${gwId}: the TLS server name "${tls.sni}" is not the Host "${host}": 421`);
    return errorAnswer(421, 'Misdirected Request');
  }
  const listener = selectListener(onPort.map((st) => st.listener), req.host);
  if (!listener) {
    // every port gets a default server that answers 404 (nginx/config/servers.go default server)
    trace.push(`nginx-gateway: Gateway ${gwId}: no listener on port ${port} takes host "${req.host}": the default server answers 404`);
    return errorAnswer(404, 'Not Found');
  }
  const routes = ATTACHED.get(c.store, `${gwId}\n${listener.name}`, () => {
    const out: { route: HTTPRoute; hostnames: string[] | undefined }[] = [];
    for (const route of c.store.list<HTTPRoute>('HTTPRoute')) {
      for (const att of attachments(c, gw, route, states)) if (att.accepted && att.listeners.has(listener.name)) out.push({ route, hostnames: att.listeners.get(listener.name) });
    }
    return out;
  });
  const cand = selectRule(routes, req);
  if (!cand) {
    trace.push(`nginx-gateway: Gateway ${gwId} listener ${listener.name}: no HTTPRoute rule matches host "${host}" path ${req.path}: 404`);
    return errorAnswer(404, 'Not Found');
  }
  const routeNs = cand.route.metadata.namespace ?? 'default';
  const where = `HTTPRoute ${routeNs}/${cand.route.metadata.name} rule ${cand.ruleIndex}`;
  const rule = (cand.route.spec.rules ?? [])[cand.ruleIndex]!;
  const { path } = splitQuery(req.path);
  const query = req.path.slice(path.length);
  for (const fl of rule.filters ?? []) {
    if (fl.type !== 'RequestRedirect' || !fl.requestRedirect) continue;
    const location = redirectLocation(fl.requestRedirect, { scheme: tls ? 'https' : 'http', host, path, query }, listener.port, cand.match);
    const status = fl.requestRedirect.statusCode ?? 302;
    trace.push(`nginx-gateway: ${where} redirects with ${status} to ${location}`);
    return redirectAnswer(status, location);
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
