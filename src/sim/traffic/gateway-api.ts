/**
 * The Gateway API v1 objects as the simulation reads them, and the rules both the gateway
 * controller (status) and the data plane (routing) apply — pure functions over plain objects.
 *
 * Field meanings and defaults follow kubernetes-sigs/gateway-api apis/v1 (gateway_types.go,
 * httproute_types.go, shared_types.go, gatewayclass_types.go) and apis/v1beta1
 * referencegrant_types.go:
 *  - a ParentReference defaults to group gateway.networking.k8s.io, kind Gateway and the route's
 *    namespace; sectionName and port narrow it to listeners;
 *  - a listener's allowedRoutes.namespaces.from defaults to Same;
 *  - hostnames intersect: a listener without hostname accepts every route hostname, `*.x` covers
 *    exactly the names below x (one or more labels, per the spec's wildcard rule);
 *  - HTTPRoute match precedence (httproute_types.go HTTPRouteRule doc): Exact path, then the
 *    longest PathPrefix, then method, then the most header matches, then the most query matches;
 *    ties go to the oldest route, then to namespace/name order;
 *  - a backendRef in another namespace needs a ReferenceGrant in the target namespace naming
 *    HTTPRoute in the route's namespace as `from` and Service as `to`.
 */
import type { KObject } from '../api/types.js';
import { LinearRegExp } from '../../util/regex/index.js';

export const GATEWAY_GROUP = 'gateway.networking.k8s.io';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

export interface GatewayClass extends KObject {
  spec: { controllerName: string; description?: string; parametersRef?: unknown };
  status?: { conditions?: Condition[] };
}

export interface Listener {
  name: string;
  hostname?: string;
  port: number;
  protocol: string;
  allowedRoutes?: {
    namespaces?: { from?: 'All' | 'Same' | 'Selector'; selector?: { matchLabels?: Record<string, string> } };
    kinds?: { group?: string; kind: string }[];
  };
  /** gateway_types.go GatewayTLSConfig: mode defaults to Terminate (the CRD's default). */
  tls?: {
    mode?: string;
    certificateRefs?: { group?: string; kind?: string; name: string; namespace?: string }[];
    options?: Record<string, string>;
  };
}

export interface ListenerStatus {
  name: string;
  supportedKinds: { group: string; kind: string }[];
  attachedRoutes: number;
  conditions: Condition[];
}

export interface Gateway extends KObject {
  spec: { gatewayClassName: string; listeners: Listener[]; addresses?: unknown[] };
  status?: { addresses?: { type: string; value: string }[]; conditions?: Condition[]; listeners?: ListenerStatus[] };
}

export interface ParentReference {
  group?: string;
  kind?: string;
  namespace?: string;
  name: string;
  sectionName?: string;
  port?: number;
}

export interface HTTPPathMatch {
  type?: 'Exact' | 'PathPrefix' | 'RegularExpression';
  value?: string;
}

export interface HTTPRouteMatch {
  path?: HTTPPathMatch;
  headers?: { type?: 'Exact' | 'RegularExpression'; name: string; value: string }[];
  queryParams?: { type?: 'Exact' | 'RegularExpression'; name: string; value: string }[];
  method?: string;
}

export interface BackendRef {
  group?: string;
  kind?: string;
  name: string;
  namespace?: string;
  port?: number;
  weight?: number;
}

export interface HTTPRouteFilter {
  type: string;
  requestRedirect?: { scheme?: string; hostname?: string; path?: HTTPPathModifier; port?: number; statusCode?: number };
  urlRewrite?: { hostname?: string; path?: HTTPPathModifier };
  requestHeaderModifier?: unknown;
}

export interface HTTPPathModifier {
  type: 'ReplaceFullPath' | 'ReplacePrefixMatch';
  replaceFullPath?: string;
  replacePrefixMatch?: string;
}

export interface HTTPRouteRule {
  matches?: HTTPRouteMatch[];
  filters?: HTTPRouteFilter[];
  backendRefs?: BackendRef[];
}

export interface RouteParentStatus {
  parentRef: ParentReference;
  controllerName: string;
  conditions: Condition[];
}

export interface HTTPRoute extends KObject {
  spec: { parentRefs?: ParentReference[]; hostnames?: string[]; rules?: HTTPRouteRule[] };
  status?: { parents: RouteParentStatus[] };
}

/** grpcroute_types.go GRPCMethodMatch: type Exact (default) or RegularExpression. */
export interface GRPCRouteMatch {
  method?: { type?: 'Exact' | 'RegularExpression'; service?: string; method?: string };
  headers?: { type?: 'Exact' | 'RegularExpression'; name: string; value: string }[];
}

export interface GRPCRouteRule {
  name?: string;
  matches?: GRPCRouteMatch[];
  filters?: { type: string }[];
  backendRefs?: BackendRef[];
}

/** gateway.networking.k8s.io/v1 GRPCRoute (grpcroute_types.go, standard channel since v1.1). */
export interface GRPCRoute extends KObject {
  spec: { parentRefs?: ParentReference[]; hostnames?: string[]; rules?: GRPCRouteRule[] };
  status?: { parents: RouteParentStatus[] };
}

/** The route kinds a Gateway's HTTP and HTTPS listeners take. */
export type Route = HTTPRoute | GRPCRoute;

export interface ReferenceGrant extends KObject {
  spec: { from: { group: string; kind: string; namespace: string }[]; to: { group: string; kind: string; name?: string }[] };
}

/** The namespace a parentRef points into (the route's own when unset). */
export function parentNamespace(route: KObject, ref: ParentReference): string {
  return ref.namespace ?? route.metadata.namespace ?? 'default';
}

/** True when `ref` names a Gateway (group and kind default to the Gateway API's). */
export function refersToGateway(ref: ParentReference): boolean {
  return (ref.group ?? GATEWAY_GROUP) === GATEWAY_GROUP && (ref.kind ?? 'Gateway') === 'Gateway';
}

/**
 * Does a request or route hostname match a listener hostname? A listener hostname `*.example.com`
 * matches any name with that suffix and at least one more label; no listener hostname matches all.
 */
export function hostnameMatches(pattern: string | undefined, name: string): boolean {
  if (pattern === undefined || pattern === '') return true;
  const p = pattern.toLowerCase();
  const n = name.toLowerCase();
  if (!p.startsWith('*.')) return p === n;
  return n.endsWith(p.slice(1)) && n.length > p.length - 1;
}

/**
 * The hostnames a route gets on a listener (the intersection the spec defines): undefined for
 * "every host", [] for "no intersection" (the route cannot attach: NoMatchingListenerHostname).
 */
export function intersectHostnames(listenerHost: string | undefined, routeHosts: readonly string[] | undefined): string[] | undefined {
  if (!routeHosts || routeHosts.length === 0) return listenerHost ? [listenerHost] : undefined;
  if (!listenerHost) return [...routeHosts];
  const out: string[] = [];
  for (const h of routeHosts) {
    if (hostnameMatches(listenerHost, h)) out.push(h);
    else if (hostnameMatches(h, listenerHost)) out.push(listenerHost);
  }
  return out;
}

/** Whether a listener's allowedRoutes admits a route from `routeNs` (labels: that namespace's). */
export function namespaceAllowed(listener: Listener, gatewayNs: string, routeNs: string, nsLabels: Record<string, string>): boolean {
  const from = listener.allowedRoutes?.namespaces?.from ?? 'Same';
  if (from === 'All') return true;
  if (from === 'Same') return gatewayNs === routeNs;
  const ml = listener.allowedRoutes?.namespaces?.selector?.matchLabels ?? {};
  return Object.entries(ml).every(([k, v]) => nsLabels[k] === v);
}

/**
 * Is a reference from `fromKind` objects in `fromNs` to `toKind` `name` in `targetNs` allowed?
 * Same namespace always; otherwise a ReferenceGrant in the target namespace must list the pair
 * (referencegrant_types.go: `from` group/kind/namespace, `to` group/kind and an optional name).
 */
export function grantAllows(grants: readonly ReferenceGrant[], fromKind: string, fromNs: string, toKind: string, name: string, targetNs: string): boolean {
  if (targetNs === fromNs) return true;
  return grants.some(
    (g) =>
      g.metadata.namespace === targetNs &&
      (g.spec.from ?? []).some((f) => f.group === GATEWAY_GROUP && f.kind === fromKind && f.namespace === fromNs) &&
      (g.spec.to ?? []).some((t) => (t.group ?? '') === '' && t.kind === toKind && (t.name === undefined || t.name === name)),
  );
}

/** Is a cross-namespace Service backendRef of an HTTPRoute allowed by a ReferenceGrant in the Service's namespace? */
export function referenceGranted(grants: readonly ReferenceGrant[], routeNs: string, ref: BackendRef, targetNs: string, routeKind = 'HTTPRoute'): boolean {
  return grantAllows(grants, routeKind, routeNs, 'Service', ref.name, targetNs);
}

/** An HTTP request as the data plane sees it. */
export interface GatewayRequest {
  host: string;
  path: string;
  method: string;
  headers: Readonly<Record<string, string>>;
}

/** Split `/a/b?x=1&y=2` into path and query parameters. */
export function splitQuery(uri: string): { path: string; query: Record<string, string> } {
  const q = uri.indexOf('?');
  const path = (q < 0 ? uri : uri.slice(0, q)) || '/';
  const query: Record<string, string> = {};
  if (q >= 0)
    for (const kv of uri.slice(q + 1).split('&')) {
      if (!kv) continue;
      const eq = kv.indexOf('=');
      const k = eq < 0 ? kv : kv.slice(0, eq);
      if (!(k in query)) query[k] = eq < 0 ? '' : kv.slice(eq + 1);
    }
  return { path, query };
}

function regexOf(source: string): RegExp | undefined {
  try {
    return new LinearRegExp(`^(?:${source})$`);
  } catch {
    return undefined;
  }
}

/** PathPrefix matching is by path elements: `/foo` matches `/foo`, `/foo/` and `/foo/bar`, not `/foobar`. */
export function pathMatches(m: HTTPPathMatch | undefined, path: string): boolean {
  const type = m?.type ?? 'PathPrefix';
  const value = m?.value ?? '/';
  if (type === 'Exact') return path === value;
  if (type === 'RegularExpression') return regexOf(value)?.test(path) ?? false;
  const p = value.replace(/\/+$/, '');
  return p === '' || path === p || path.startsWith(`${p}/`);
}

/** Does one HTTPRouteMatch take the request? Header names are case-insensitive, values exact. */
export function matchTakes(m: HTTPRouteMatch, req: GatewayRequest): boolean {
  const { path, query } = splitQuery(req.path);
  if (!pathMatches(m.path, path)) return false;
  if (m.method && m.method !== req.method) return false;
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (const h of m.headers ?? []) {
    const v = headers[h.name.toLowerCase()];
    if (v === undefined) return false;
    if ((h.type ?? 'Exact') === 'Exact' ? v !== h.value : !(regexOf(h.value)?.test(v) ?? false)) return false;
  }
  for (const q of m.queryParams ?? []) {
    const v = query[q.name];
    if (v === undefined) return false;
    if ((q.type ?? 'Exact') === 'Exact' ? v !== q.value : !(regexOf(q.value)?.test(v) ?? false)) return false;
  }
  return true;
}

/** A sort key for match precedence; larger wins (see the module comment). */
export function matchPrecedence(m: HTTPRouteMatch): number[] {
  const type = m.path?.type ?? 'PathPrefix';
  const len = (m.path?.value ?? '/').length;
  return [type === 'Exact' ? 1 : 0, type === 'PathPrefix' ? len : 0, m.method ? 1 : 0, m.headers?.length ?? 0, m.queryParams?.length ?? 0];
}

/** One candidate: a route's rule and the match that took the request. */
export interface RouteCandidate {
  route: HTTPRoute;
  ruleIndex: number;
  match: HTTPRouteMatch;
}

/**
 * The rule that serves `req` among routes attached to the listener (each with the hostnames it
 * has there), by the precedence above; undefined when nothing matches (the data plane's 404).
 */
export function selectRule(routes: readonly { route: HTTPRoute; hostnames: string[] | undefined }[], req: GatewayRequest): RouteCandidate | undefined {
  const host = req.host.replace(/:\d+$/, '').toLowerCase();
  // the most specific route hostname wins before path precedence (exact over wildcard)
  const hostScore = (hs: string[] | undefined): number => {
    if (!hs) return 0;
    let best = -1;
    for (const h of hs) if (hostnameMatches(h, host)) best = Math.max(best, h.startsWith('*.') ? h.length : 1000 + h.length);
    return best;
  };
  const cands: { c: RouteCandidate; key: number[] }[] = [];
  for (const { route, hostnames } of routes) {
    const hs = hostScore(hostnames);
    if (hs < 0) continue;
    (route.spec.rules ?? []).forEach((rule, ruleIndex) => {
      const matches = rule.matches && rule.matches.length > 0 ? rule.matches : [{ path: { type: 'PathPrefix' as const, value: '/' } }];
      for (const m of matches) if (matchTakes(m, req)) cands.push({ c: { route, ruleIndex, match: m }, key: [hs, ...matchPrecedence(m)] });
    });
  }
  const created = (r: HTTPRoute): string => r.metadata.creationTimestamp ?? '';
  const idOf = (r: HTTPRoute): string => `${r.metadata.namespace ?? ''}/${r.metadata.name}`;
  cands.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return b.key[i]! - a.key[i]!;
    if (created(a.c.route) !== created(b.c.route)) return created(a.c.route) < created(b.c.route) ? -1 : 1;
    if (idOf(a.c.route) !== idOf(b.c.route)) return idOf(a.c.route) < idOf(b.c.route) ? -1 : 1;
    return a.c.ruleIndex - b.c.ruleIndex;
  });
  return cands[0]?.c;
}

/**
 * How NGINX Gateway Fabric splits a rule's traffic between its backendRefs: a rule with more than
 * one backendRef becomes an nginx `split_clients $request_id` block whose lines are each ref's
 * share of the total weight, floored to hundredths of a percent, the last ref taking what is left
 * so the lines add up to 100 (nginx-gateway-fabric v1.6.2
 * internal/mode/static/nginx/config/split_clients.go createSplitClientDistributions, percentOf);
 * a `0.00%` line is written as a comment (split_clients_template.go), so a ref of weight 0 gets
 * nothing. Returned as hundredths (8000 for `80.00%`), the value ngx_atofp reads back.
 */
export function splitPercents(weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (total <= 0) return weights.map(() => 0);
  const out: number[] = [];
  let available = 100;
  for (let i = 0; i < weights.length - 1; i++) {
    // Go: p := float64(weight)*100/float64(total); math.Floor(p*100)/100, printed with %.2f
    const pct = Math.floor(((weights[i]! * 100) / total) * 100) / 100;
    available -= pct;
    out.push(Math.round(Number(pct.toFixed(2)) * 100));
  }
  out.push(Math.round(Number(available.toFixed(2)) * 100));
  return out;
}

/** nginx's ngx_murmur_hash2 (src/core/ngx_murmurhash.c) over the bytes of `text` (ASCII). */
export function murmurHash2(text: string): number {
  // the bytes Buffer.from(text, 'latin1') gives: the low byte of each UTF-16 unit (no Buffer per request)
  const data = (j: number): number => text.charCodeAt(j) & 0xff;
  const m = 0x5bd1e995;
  let len = text.length;
  let h = len >>> 0;
  let i = 0;
  while (len >= 4) {
    let k = (data(i) | (data(i + 1) << 8) | (data(i + 2) << 16) | (data(i + 3) << 24)) >>> 0;
    k = Math.imul(k, m) >>> 0;
    k = (k ^ (k >>> 24)) >>> 0;
    k = Math.imul(k, m) >>> 0;
    h = Math.imul(h, m) >>> 0;
    h = (h ^ k) >>> 0;
    i += 4;
    len -= 4;
  }
  if (len === 3) h = (h ^ (data(i + 2) << 16)) >>> 0;
  if (len >= 2) h = (h ^ (data(i + 1) << 8)) >>> 0;
  if (len >= 1) {
    h = (h ^ data(i)) >>> 0;
    h = Math.imul(h, m) >>> 0;
  }
  h = (h ^ (h >>> 13)) >>> 0;
  h = Math.imul(h, m) >>> 0;
  h = (h ^ (h >>> 15)) >>> 0;
  return h;
}

/**
 * Which line of a `split_clients` block takes `key` (nginx src/http/modules/
 * ngx_http_split_clients_module.c): each line's percentage becomes a cumulative bound
 * `last += percent * 0xffffffff / 10000`, and the first line whose bound exceeds the key's
 * MurmurHash2 wins; undefined when the hash lies past the last bound (the variable is empty).
 * `percents` are hundredths; lines of 0 are absent from NGF's block and never win.
 */
export function splitClientsPick(percents: readonly number[], key: string): number | undefined {
  const hash = murmurHash2(key);
  let last = 0;
  for (let i = 0; i < percents.length; i++) {
    const p = percents[i]!;
    if (p <= 0) continue;
    last += Math.floor((p * 0xffffffff) / 10000);
    if (hash < last) return i;
  }
  return undefined;
}

/**
 * The backendRef that serves one request to a rule, as NGF's data plane chooses it: one ref is
 * used alone (weight 0 makes it invalid: the 500 of backendGroupName's invalidBackendRef); two
 * or more are split by `split_clients` on the request's `$request_id` (`requestId`), so over many
 * requests each gets its share of the weight, and any ten requests vary about it as the real
 * data plane's do. Weight defaults to 1 (httproute_types.go BackendRef).
 */
export function pickBackend(refs: readonly BackendRef[], requestId: string): BackendRef | undefined {
  if (refs.length === 0) return undefined;
  if (refs.length === 1) return (refs[0]!.weight ?? 1) > 0 ? refs[0] : undefined;
  const i = splitClientsPick(splitPercents(refs.map((r) => r.weight ?? 1)), requestId);
  return i === undefined ? undefined : refs[i];
}

/**
 * nginx's `$request_id` (ngx_http_variables.c ngx_http_variable_request_id): 16 random bytes as
 * 32 lowercase hex digits; `next` is the simulation's random source.
 */
export function requestIdFrom(next: () => number): string {
  let out = '';
  for (let i = 0; i < 4; i++) out += (next() >>> 0).toString(16).padStart(8, '0');
  return out;
}

/** The upstream path after a URLRewrite path modifier (ReplacePrefixMatch keeps the rest). */
export function rewritePath(mod: HTTPPathModifier, match: HTTPRouteMatch, path: string): string {
  if (mod.type === 'ReplaceFullPath') return mod.replaceFullPath ?? '/';
  const prefix = (match.path?.value ?? '/').replace(/\/+$/, '');
  const rest = path.slice(prefix.length);
  const repl = (mod.replacePrefixMatch ?? '/').replace(/\/+$/, '');
  const out = `${repl}${rest}`;
  return out === '' ? '/' : out.startsWith('/') ? out : `/${out}`;
}
