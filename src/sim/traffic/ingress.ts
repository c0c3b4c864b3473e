/**
 * What the ingress-nginx controller answers on its HTTP port (80), interpreted from the Ingress
 * objects it would load — the simulated counterpart of the nginx.conf that ingress-nginx renders
 * (internal/ingress/controller/controller.go getBackendServers, rootfs/etc/nginx/template/nginx.tmpl):
 *  - class: an Ingress is served when spec.ingressClassName names an IngressClass whose
 *    spec.controller is the controller's --controller-class (or equals --ingress-class), when the
 *    legacy annotation kubernetes.io/ingress.class equals --ingress-class, or, without a class, when
 *    that IngressClass carries ingressclass.kubernetes.io/is-default-class=true or the controller
 *    runs with --watch-ingress-without-class=true;
 *  - server: the request's Host (port stripped) picks the server block: an exact host, else a
 *    `*.` wildcard (one label), else the catch-all `_` built from rules without a host;
 *  - location: pathType Exact is `location = /p`, Prefix is path-element matching (`= /p` plus
 *    `/p/`), ImplementationSpecific is a plain nginx prefix; the longest path wins. When an Ingress
 *    of the server uses rewrite-target or use-regex, every location of that server becomes a
 *    case-insensitive regex `^path` (buildLocation in template.go), and rewrite-target replaces the
 *    URI (`rewrite "(?i)path" target break;`);
 *  - upstream: the Service port's ready endpoints from its EndpointSlices (ingress-nginx proxies to
 *    pod IPs, not to the ClusterIP), chosen round-robin, reached from the controller pod through the
 *    packet path (so NetworkPolicy and CNI state apply). No Service or no ready endpoint → 503;
 *    connection refused → 502; timeout → 504; no matching location → the default backend's 404.
 * Error pages are nginx's own with server_tokens off (ingress-nginx's default): `<center>nginx</center>`.
 */
import type { Cluster } from '../cluster.js';
import type { EndpointSlice, Ingress, IngressBackend, KObject, Pod, Service } from '../api/types.js';
import { lookupImage, siteAnswer, type HttpAnswer } from '../images.js';
import { nginxErrorPage } from '../runtime/nginx/pages.js';
import { connect } from './path.js';
import { StoreMemo } from './store-memo.js';
import { LinearRegExp } from '../../util/regex/index.js';
import { certificateFor, defaultCertificate, httpsRedirect, serverCertificates, type ServerCert } from './ingress-tls.js';

export type { HttpAnswer };
export { nginxErrorPage, siteAnswer };

const CONTROLLER_REPOSITORY = 'registry.k8s.io/ingress-nginx/controller';
const DEFAULT_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';
const LEGACY_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const REWRITE = 'nginx.ingress.kubernetes.io/rewrite-target';
const USE_REGEX = 'nginx.ingress.kubernetes.io/use-regex';


export function errorAnswer(status: number, reason: string): HttpAnswer {
  return { status, reason, body: nginxErrorPage(status, reason), server: 'nginx' };
}


/** The ingress-nginx controller container of `pod`, when it runs one. */
function controllerArgs(pod: Pod): string[] | undefined {
  for (const ct of pod.spec.containers) {
    if (lookupImage(ct.image)?.repository === CONTROLLER_REPOSITORY) return [...(ct.command ?? []), ...(ct.args ?? [])];
  }
  return undefined;
}

/** True when a request to `pod`:`port` is handled by the ingress-nginx controller (HTTP on 80, HTTPS on 443). */
export function isIngressController(pod: Pod, port: number): boolean {
  return (port === 80 || port === 443) && controllerArgs(pod) !== undefined;
}

/** The servers with a certificate and the default one, for the controller in `pod` (ingress-tls.ts). */
function tlsServers(c: Cluster, pod: Pod): { servers: Map<string, ServerCert>; fallback: () => ServerCert } {
  const args = controllerArgs(pod) ?? [];
  const fallback = (): ServerCert => defaultCertificate(c, pod, args);
  return { servers: serverCertificates(c, servedIngresses(c, flagsOf(args)), fallback), fallback };
}

/** The certificate the controller presents for `sni` (none sent: the default one, certificate.lua). */
export function ingressCertificate(c: Cluster, pod: Pod, sni: string | undefined): ServerCert {
  const { servers, fallback } = tlsServers(c, pod);
  return (sni === undefined ? undefined : certificateFor(servers, sni)) ?? fallback();
}

interface ControllerFlags {
  ingressClass: string;
  controllerClass: string;
  watchWithoutClass: boolean;
}

/** The flags that select Ingresses (cmd/nginx/flags.go defaults). */
function flagsOf(args: readonly string[]): ControllerFlags {
  const f: ControllerFlags = { ingressClass: 'nginx', controllerClass: 'k8s.io/ingress-nginx', watchWithoutClass: false };
  for (const a of args) {
    const m = /^--?([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) continue;
    if (m[1] === 'ingress-class' && m[2] !== undefined) f.ingressClass = m[2];
    if (m[1] === 'controller-class' && m[2] !== undefined) f.controllerClass = m[2];
    if (m[1] === 'watch-ingress-without-class') f.watchWithoutClass = m[2] === undefined || m[2] === 'true';
  }
  return f;
}

interface IngressClassObj extends KObject {
  spec?: { controller?: string };
}

/** The Ingresses this controller serves (internal/ingress/controller/store/store.go class filter). */
export function servedIngresses(c: Cluster, f: ControllerFlags): Ingress[] {
  const classes = c.store.list<IngressClassObj>('IngressClass').filter((k) => k.spec?.controller === f.controllerClass);
  const ours = new Set(classes.map((k) => k.metadata.name));
  const hasDefault = classes.some((k) => k.metadata.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true');
  return c.store.list<Ingress>('Ingress').filter((ing) => {
    if (ing.metadata.deletionTimestamp) return false;
    const legacy = ing.metadata.annotations?.[LEGACY_CLASS_ANNOTATION];
    if (legacy !== undefined) return legacy === f.ingressClass;
    const name = ing.spec.ingressClassName;
    if (name !== undefined && name !== '') return ours.has(name) || name === f.ingressClass;
    return hasDefault || f.watchWithoutClass;
  });
}

interface Location {
  ing: Ingress;
  path: string;
  pathType: string;
  backend: IngressBackend;
}

interface ServerBlock {
  locations: Location[];
  regex: boolean;
  defaultBackend?: { ing: Ingress; backend: IngressBackend };
}

/** Does a Host name match a server name (exact, or `*.` standing for exactly one label)? */
export function hostMatches(serverName: string, host: string): boolean {
  const h = host.toLowerCase();
  const s = serverName.toLowerCase();
  if (!s.startsWith('*.')) return s === h;
  const rest = s.slice(1);
  return h.endsWith(rest) && h.length > rest.length && !h.slice(0, h.length - rest.length).includes('.');
}

/** The server block for `host`: exact name, then wildcard (longest first), then the catch-all. */
function selectServer(ings: readonly Ingress[], host: string): ServerBlock {
  const names = new Set<string>();
  for (const ing of ings) for (const r of ing.spec.rules ?? []) if (r.host) names.add(r.host.toLowerCase());
  const exact = [...names].find((n) => !n.startsWith('*.') && n === host.toLowerCase());
  const wild = [...names].filter((n) => n.startsWith('*.') && hostMatches(n, host)).sort((a, b) => b.length - a.length)[0];
  const name = exact ?? wild;
  const block: ServerBlock = { locations: [], regex: false };
  for (const ing of ings) {
    let contributes = false;
    for (const r of ing.spec.rules ?? []) {
      if ((r.host?.toLowerCase() ?? undefined) !== name && !(name === undefined && !r.host)) continue;
      contributes = true;
      for (const p of r.http?.paths ?? []) block.locations.push({ ing, path: p.path ?? '/', pathType: p.pathType, backend: p.backend });
    }
    if ((contributes || name === undefined) && ing.spec.defaultBackend && !block.defaultBackend) block.defaultBackend = { ing, backend: ing.spec.defaultBackend };
  }
  const usesRegex = (ing: Ingress): boolean => ing.metadata.annotations?.[REWRITE] !== undefined || ing.metadata.annotations?.[USE_REGEX] === 'true';
  block.regex = block.locations.some((l) => usesRegex(l.ing));
  return block;
}

function regexOf(source: string, flags: string): RegExp | undefined {
  try {
    // nginx's PCRE; the linear engine keeps a learner's path pattern from hanging a request
    return new LinearRegExp(source, flags);
  } catch {
    return undefined;
  }
}

/** Whether `loc` matches `uri`, and how specific the match is (nginx picks the longest; `=` first). */
function locationMatch(loc: Location, uri: string, regex: boolean): number | undefined {
  if (regex) return regexOf(`^${loc.path}`, 'i')?.test(uri) ? loc.path.length : undefined;
  if (loc.pathType === 'Exact') return uri === loc.path ? Number.MAX_SAFE_INTEGER : undefined;
  if (loc.pathType === 'Prefix') {
    const p = loc.path.replace(/\/+$/, '');
    if (p === '' || uri === p || uri.startsWith(`${p}/`)) return p.length + 1;
    return undefined;
  }
  return uri.startsWith(loc.path) ? loc.path.length : undefined;
}

/** The upstream URI after rewrite-target (`rewrite "(?i)<path>" <target> break;`). */
function rewritten(loc: Location, uri: string): string {
  const target = loc.ing.metadata.annotations?.[REWRITE];
  if (target === undefined) return uri;
  const m = regexOf(loc.path, 'i')?.exec(uri);
  if (!m) return uri;
  return target.replace(/\$(\d)/g, (_, n: string) => m[Number(n)] ?? '');
}

type Upstreams = { svc?: Service; eps: { ip: string; port: number }[] };

/** upstreams' answers by namespace, Service and port, while the store's generation stands (store-memo.ts): read only. */
const UPSTREAMS = new StoreMemo<Upstreams>();

/** How many times an upstream list was built (tests). */
export function upstreamBuilds(): number {
  return UPSTREAMS.buildCount();
}

/**
 * Ready endpoint addresses and the target port for a Service port (the controller's upstream
 * list): a pure function of the stored Service and EndpointSlices, built once per store generation.
 */
export function upstreams(c: Cluster, ns: string, backend: NonNullable<IngressBackend['service']>): Upstreams {
  const port = backend.port.number !== undefined ? `#${backend.port.number}` : `=${JSON.stringify(backend.port.name)}`;
  return UPSTREAMS.get(c.store, `${ns}\n${backend.name}\n${port}`, () => buildUpstreams(c, ns, backend));
}

function buildUpstreams(c: Cluster, ns: string, backend: NonNullable<IngressBackend['service']>): Upstreams {
  const svc = c.store.get<Service>('Service', ns, backend.name);
  if (!svc) return { eps: [] };
  const sp = (svc.spec.ports ?? []).find((p) => (backend.port.number !== undefined ? p.port === backend.port.number : p.name === backend.port.name));
  if (!sp) return { svc, eps: [] };
  const eps: { ip: string; port: number }[] = [];
  for (const s of c.store.list<EndpointSlice>('EndpointSlice', ns)) {
    if (s.metadata.labels?.['kubernetes.io/service-name'] !== svc.metadata.name) continue;
    const port = (s.ports ?? []).find((p) => (p.name ?? '') === (sp.name ?? ''))?.port;
    if (port === undefined) continue;
    for (const e of s.endpoints ?? []) if (e.conditions?.ready !== false) for (const ip of e.addresses) eps.push({ ip, port });
  }
  return { svc, eps };
}

/** Round-robin over an upstream's endpoints (the lua balancer's default), kept in cluster state. */
export function pick<T>(c: Cluster, key: string, xs: readonly T[]): T {
  const rr = (c.state.ingressRoundRobin ??= {});
  const i = rr[key] ?? 0;
  rr[key] = (i + 1) % xs.length;
  return xs[i % xs.length]!;
}

/**
 * Answer one request that reached the controller pod `pod`: plain HTTP on port 80, or HTTPS on 443
 * once the handshake is done (`scheme`). `host` is the Host header, `path` the request URI (query
 * included). Appends what happened to `trace`.
 */
export function serveIngress(c: Cluster, pod: Pod, host: string, path: string, trace: string[], scheme: 'http' | 'https' = 'http'): HttpAnswer {
  const args = controllerArgs(pod) ?? [];
  const ings = servedIngresses(c, flagsOf(args));
  const hostname = host.replace(/:\d+$/, '');
  const uri = path.split('?')[0] || '/';
  const server = selectServer(ings, hostname);
  let best: { loc: Location; score: number } | undefined;
  for (const loc of server.locations) {
    const score = locationMatch(loc, uri, server.regex);
    if (score !== undefined && (!best || score > best.score)) best = { loc, score };
  }
  const target = best ? { ing: best.loc.ing, backend: best.loc.backend } : server.defaultBackend;
  if (scheme === 'http') {
    const redirect = httpsRedirect(tlsServers(c, pod).servers, target?.ing, host, path);
    if (redirect) {
      trace.push(`ingress-nginx: host "${hostname}" has a TLS certificate: plain HTTP is redirected (308) to ${redirect.location}`);
      return redirect;
    }
  }
  if (!target) {
    trace.push(`ingress-nginx: no Ingress rule matches host "${hostname}" path ${uri}: default backend answers 404`);
    return errorAnswer(404, 'Not Found');
  }
  const ns = target.ing.metadata.namespace ?? 'default';
  const where = `Ingress ${ns}/${target.ing.metadata.name}${best ? ` path ${best.loc.path} (${best.loc.pathType}${server.regex ? ', regex' : ''})` : ' defaultBackend'}`;
  const svcRef = target.backend.service;
  if (!svcRef) {
    trace.push(`ingress-nginx: ${where} has a resource backend, which ingress-nginx does not serve: 503`);
    return errorAnswer(503, 'Service Temporarily Unavailable');
  }
  const portLabel = svcRef.port.number ?? svcRef.port.name ?? '';
  const up = upstreams(c, ns, svcRef);
  if (up.eps.length === 0) {
    const why = !up.svc ? `Service ${ns}/${svcRef.name} does not exist` : `Service ${ns}/${svcRef.name} port ${portLabel} has no ready endpoints`;
    trace.push(`ingress-nginx: ${where} → ${why}: 503`);
    return errorAnswer(503, 'Service Temporarily Unavailable');
  }
  const ep = pick(c, `${ns}/${svcRef.name}:${portLabel}`, up.eps);
  const upstreamUri = best ? rewritten(best.loc, uri) : uri;
  trace.push(`ingress-nginx: ${where} → ${svcRef.name}:${portLabel} → endpoint ${ep.ip}:${ep.port}${upstreamUri !== uri ? ` (URI rewritten to ${upstreamUri})` : ''}`);
  const conn = connect(c, { kind: 'pod', ns: pod.metadata.namespace ?? 'default', name: pod.metadata.name }, ep.ip, ep.port, 'tcp');
  trace.push(...conn.trace.map((t) => `  ${t}`));
  if (!conn.ok) return conn.error === 'refused' ? errorAnswer(502, 'Bad Gateway') : errorAnswer(504, 'Gateway Time-out');
  const site = conn.to?.listener?.http;
  if (!site) return errorAnswer(502, 'Bad Gateway');
  const a = siteAnswer(site, upstreamUri, { host, method: 'GET' });
  // an upstream that closes without a response is ingress-nginx's 502
  if (!a) return errorAnswer(502, 'Bad Gateway');
  // the controller's nginx writes its own Server header over the upstream's
  return { ...a, server: 'nginx' };
}
