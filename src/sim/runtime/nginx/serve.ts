/**
 * How nginx answers one request from its loaded configuration and the files in its container,
 * following the phases of src/http/ngx_http_core_module.c:
 *  - server: among the servers listening on the port (an IPv6-only listen takes no IPv4
 *    connection), the one whose server_name matches the Host (exact, `*.x`, `x.*`, `~regex`),
 *    else the address's default_server, else the first (ngx_http_find_virtual_server);
 *  - server rewrite phase: a server-level `return`;
 *  - location: `=` exact wins at once; otherwise the longest prefix, searched again inside it for
 *    nested locations; then, unless that prefix is `^~`, the regex locations in order, the first
 *    match winning (ngx_http_core_find_location);
 *  - rewrite phase: the location's `return`; then try_files; then the content handlers: index
 *    (ngx_http_index_module.c: the first index file that exists, by internal redirect; a missing
 *    directory is 404), autoindex, static (ngx_http_static_module.c: a file, a directory without
 *    the slash → 301, else 404), with 403 for a directory nothing lists;
 *  - special responses (ngx_http_special_response.c): `error_page` redirects internally once
 *    (recursive_error_pages off), else the built-in page with the server_tokens tail.
 * Bodies are read from the container's filesystem at request time, so a ConfigMap mounted over the
 * document root is what the client gets.
 */
import type { ErrorPage, NginxHttp, NginxLocation, NginxServer, Settings } from './conf.js';
import { compileLocationRegex } from './conf.js';
import { hasNginxPage, nginxReason, nginxStatusPage } from './pages.js';
import { remember } from '../../../util/bounded-map.js';

export interface NginxRequest {
  method: string;
  /** The request path (no query string). */
  uri: string;
  /** The Host header (port included when the client sent one). */
  host: string;
  port: number;
  /** The container's hostname ($hostname). */
  hostname?: string;
  query?: string;
}

export interface NginxAnswer {
  status: number;
  reason: string;
  body: string;
  server: string;
  contentType: string;
  location?: string;
}

/** The container's files as nginx sees them. */
export interface ServeFiles {
  kind(path: string): 'file' | 'dir' | undefined;
  read(path: string): string | undefined;
  list?(dir: string): string[];
}

/** nginx's own default when no default_type is configured (ngx_http_core_merge_loc_conf). */
const BUILTIN_DEFAULT_TYPE = 'text/plain';
/** NGX_HTTP_MAX_URI_CHANGES + 1: internal redirects before nginx gives up with 500. */
const MAX_REDIRECTS = 10;

/** The servers that take a connection on `port` over IPv4 (every simulated connection is IPv4). */
export function serversOn(http: NginxHttp, port: number): NginxServer[] {
  return http.servers.filter((s) => s.listens.some((l) => l.port === port && !l.ipv6));
}

/**
 * listeningPorts by loaded configuration: a parsed configuration is never changed (a reload
 * loads a new one; parseNginxConfCached shares its results because callers only read them), so
 * its ports are worked out once. The packet path asks at every connection to an nginx pod.
 */
const PORTS = new WeakMap<NginxHttp, readonly number[]>();

/** Ports nginx listens on for IPv4 connections. */
export function listeningPorts(http: NginxHttp | undefined): readonly number[] {
  if (!http) return [];
  let ports = PORTS.get(http);
  if (ports === undefined) {
    ports = Object.freeze([...new Set(http.servers.flatMap((s) => s.listens.filter((l) => !l.ipv6 && l.port > 0).map((l) => l.port)))].sort((a, b) => a - b));
    PORTS.set(http, ports);
  }
  return ports;
}

/**
 * selectServer's answers by loaded configuration, port and Host header: a parsed configuration
 * is never changed (see PORTS), and the choice reads nothing else, so a site answering the same
 * Host again (the split check's 200 requests) picks its server once. At most 256 per configuration.
 */
const SERVERS = new WeakMap<NginxHttp, Map<string, NginxServer | undefined>>();
let serverChoices = 0;

/** How many times a server was chosen by looking through the configuration (tests). */
export function serverSelections(): number {
  return serverChoices;
}

/** ngx_http_find_virtual_server for the address the connection came in on. */
export function selectServer(http: NginxHttp, port: number, hostHeader: string): NginxServer | undefined {
  let byKey = SERVERS.get(http);
  if (!byKey) SERVERS.set(http, (byKey = new Map()));
  const key = `${port} ${hostHeader}`;
  if (byKey.has(key)) return byKey.get(key);
  const server = findServer(http, port, hostHeader);
  serverChoices++;
  return remember(byKey, key, server, 256);
}

function findServer(http: NginxHttp, port: number, hostHeader: string): NginxServer | undefined {
  const candidates = serversOn(http, port);
  if (candidates.length === 0) return undefined;
  const host = hostHeader.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase();
  const exact = candidates.find((s) => s.names.includes(host));
  if (exact) return exact;
  const lead = longest(candidates, (n) => n.startsWith('*.') && host.endsWith(n.slice(1)), (n) => n.length);
  if (lead) return lead;
  const dotLead = candidates.find((s) => s.names.some((n) => n.startsWith('.') && (host === n.slice(1) || host.endsWith(n))));
  if (dotLead) return dotLead;
  const trail = longest(candidates, (n) => n.endsWith('.*') && host.startsWith(n.slice(0, -1)), (n) => n.length);
  if (trail) return trail;
  for (const s of candidates) {
    for (const n of s.names) {
      if (!n.startsWith('~')) continue;
      const re = compileLocationRegex(n.slice(1), false);
      if (re?.test(host)) return s;
    }
  }
  return candidates.find((s) => s.listens.some((l) => l.port === port && !l.ipv6 && l.defaultServer)) ?? candidates[0];
}

function longest(servers: NginxServer[], match: (n: string) => boolean, weight: (n: string) => number): NginxServer | undefined {
  let best: { s: NginxServer; w: number } | undefined;
  for (const s of servers) for (const n of s.names) if (match(n) && (!best || weight(n) > best.w)) best = { s, w: weight(n) };
  return best?.s;
}

/** ngx_http_core_find_location: the chain of locations (outer first) that handles `uri`, empty when none. */
export function findLocation(locations: readonly NginxLocation[], uri: string): NginxLocation[] {
  const exact = locations.find((l) => l.modifier === '=' && l.path === uri);
  if (exact) return [exact];
  let prefix: NginxLocation | undefined;
  for (const l of locations) {
    if ((l.modifier === '' || l.modifier === '^~') && uri.startsWith(l.path) && (!prefix || l.path.length > prefix.path.length)) prefix = l;
  }
  let chain: NginxLocation[] = prefix ? [prefix] : [];
  if (prefix && prefix.locations.length > 0) {
    const inner = findLocation(prefix.locations, uri);
    if (inner.length > 0) {
      chain = [prefix, ...inner];
      const last = inner[inner.length - 1]!;
      if (last.modifier === '=' || last.modifier === '~' || last.modifier === '~*') return chain;
    }
  }
  if (prefix?.modifier === '^~') return chain;
  for (const l of locations) {
    if (l.modifier !== '~' && l.modifier !== '~*') continue;
    const re = compileLocationRegex(l.path, l.modifier === '~*');
    if (re?.test(uri)) {
      const inner = l.locations.length > 0 ? findLocation(l.locations, uri) : [];
      return [l, ...inner];
    }
  }
  return chain;
}

/** The effective settings of a request in this chain: inner levels replace outer ones, per setting (ngx_http_core_merge_loc_conf). */
export function mergeSettings(levels: readonly Settings[]): Settings {
  const out: Settings = {};
  for (const s of levels) {
    if (s.root) out.root = s.root;
    if (s.index) out.index = s.index;
    if (s.errorPages) out.errorPages = s.errorPages;
    if (s.defaultType !== undefined) out.defaultType = s.defaultType;
    if (s.autoindex !== undefined) out.autoindex = s.autoindex;
    if (s.serverTokens !== undefined) out.serverTokens = s.serverTokens;
  }
  const last = levels[levels.length - 1];
  // try_files, return and proxy_pass act in the location that has them, they are not inherited
  if (last?.tryFiles) out.tryFiles = last.tryFiles;
  if (last?.proxyPass !== undefined) out.proxyPass = last.proxyPass;
  if (last?.ret) out.ret = last.ret;
  return out;
}

/** ngx_http_parse_complex_uri's normalisation: %XX decoded, `//` merged, `.` and `..` resolved; undefined above the root (400). */
export function normalizeUri(uri: string): string | undefined {
  let decoded = uri;
  try {
    decoded = decodeURIComponent(uri);
  } catch {
    decoded = uri;
  }
  const out: string[] = [];
  const segs = decoded.split('/');
  for (let i = 1; i < segs.length; i++) {
    const s = segs[i]!;
    if (s === '.' || (s === '' && i < segs.length - 1)) continue;
    if (s === '..') {
      if (out.length === 0) return undefined;
      out.pop();
      continue;
    }
    out.push(s);
  }
  return `/${out.join('/')}`;
}

interface Run {
  http: NginxHttp;
  server: NginxServer;
  req: NginxRequest;
  files: ServeFiles;
  version: string;
  redirects: number;
  /** Set while serving an error_page's URI: no second error_page redirect. */
  inErrorPage: boolean;
}

/** Answer one request; undefined when nginx closes the connection without a response (`return 444`). */
export function nginxServe(http: NginxHttp, req: NginxRequest, files: ServeFiles, version: string): NginxAnswer | undefined {
  const server = selectServer(http, req.port, req.host);
  if (!server) return undefined;
  const run: Run = { http, server, req, files, version, redirects: 0, inErrorPage: false };
  const uri = normalizeUri(req.uri);
  if (uri === undefined) return special(run, mergeSettings([http.settings, server.settings]), 400);
  // server rewrite phase: a server-level return answers before any location is looked up
  const sret = server.settings.ret;
  if (sret) return answerReturn(run, mergeSettings([http.settings, server.settings]), sret, uri);
  return handle(run, uri);
}

function handle(run: Run, uri: string): NginxAnswer | undefined {
  if (++run.redirects > MAX_REDIRECTS) return special(run, mergeSettings([run.http.settings, run.server.settings]), 500);
  const chain = uri.startsWith('@') ? run.server.locations.filter((l) => l.modifier === '@' && l.path === uri) : findLocation(run.server.locations, uri);
  const eff = mergeSettings([run.http.settings, run.server.settings, ...chain.map((l) => l.settings)]);
  const loc = chain[chain.length - 1];
  if (eff.ret) return answerReturn(run, eff, eff.ret, uri);
  // proxy_pass: no upstream is modelled behind a plain nginx; connect() fails → 502
  if (eff.proxyPass !== undefined) return special(run, eff, 502);
  if (eff.tryFiles) return tryFiles(run, eff, loc, uri);
  return serveStatic(run, eff, loc, uri);
}

/** The file a URI maps to: root + URI, or for alias the location's prefix replaced (ngx_http_map_uri_to_path). */
export function mapUriToPath(eff: Settings, loc: NginxLocation | undefined, uri: string): string {
  const root = eff.root ?? { path: '/etc/nginx/html', alias: false };
  if (root.alias && loc && (loc.modifier === '' || loc.modifier === '^~' || loc.modifier === '=')) {
    return loc.modifier === '=' ? root.path : `${root.path}${uri.slice(loc.path.length)}`;
  }
  return `${root.path}${uri}`;
}

function serveStatic(run: Run, eff: Settings, loc: NginxLocation | undefined, uri: string): NginxAnswer | undefined {
  const method = run.req.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return special(run, eff, 405);
  const path = mapUriToPath(eff, loc, uri);
  if (uri.endsWith('/')) {
    // ngx_http_index_handler
    for (const name of eff.index ?? ['index.html']) {
      if (name.startsWith('/')) return handle(run, name);
      const kind = run.files.kind(`${path}${name}`);
      if (kind === 'file') return handle(run, `${uri}${name}`);
      if (kind === undefined && run.files.kind(path.replace(/\/$/, '') || '/') !== 'dir') return special(run, eff, 404);
    }
    if (eff.autoindex && run.files.kind(path.replace(/\/$/, '') || '/') === 'dir') return autoindex(run, eff, path, uri);
    return special(run, eff, 403);
  }
  const kind = run.files.kind(path);
  if (kind === 'dir') return redirect(run, eff, 301, `${uri}/`);
  if (kind !== 'file') return special(run, eff, 404);
  const body = run.files.read(path) ?? '';
  return ok(run, eff, 200, body, contentType(run.http, eff, path));
}

/** ngx_http_try_files_handler: each file (`$uri`, `$uri/` tests a directory) in turn, the last one a URI or `=CODE`. */
function tryFiles(run: Run, eff: Settings, loc: NginxLocation | undefined, uri: string): NginxAnswer | undefined {
  const list = eff.tryFiles!;
  for (const raw of list.slice(0, -1)) {
    const v = expand(raw, run, uri);
    const dir = v.endsWith('/');
    const path = mapUriToPath(eff, loc, dir ? v.replace(/\/+$/, '') || '/' : v);
    const kind = run.files.kind(path);
    if (dir ? kind === 'dir' : kind === 'file') {
      const served: Settings = { ...eff };
      delete served.tryFiles;
      return serveStatic(run, served, loc, dir ? (v.endsWith('/') ? v : `${v}/`) : v);
    }
  }
  const last = list[list.length - 1]!;
  if (/^=\d+$/.test(last)) return special(run, eff, Number(last.slice(1)));
  return handle(run, expand(last, run, uri));
}

function answerReturn(run: Run, eff: Settings, ret: { code: number; text?: string }, uri: string): NginxAnswer | undefined {
  if (ret.code === 444) return undefined;
  const text = ret.text === undefined ? undefined : expand(ret.text, run, uri);
  if (ret.code >= 301 && ret.code <= 308 && ret.code !== 304) return redirect(run, eff, ret.code, text ?? '');
  if (text !== undefined) return ok(run, eff, ret.code, text, eff.defaultType ?? BUILTIN_DEFAULT_TYPE);
  if (ret.code >= 300) return special(run, eff, ret.code);
  return ok(run, eff, ret.code, '', eff.defaultType ?? BUILTIN_DEFAULT_TYPE);
}

/** A redirect: the Location made absolute from the Host and the port (absolute_redirect, port_in_redirect on). */
function redirect(run: Run, eff: Settings, status: number, to: string): NginxAnswer {
  const host = run.req.host.replace(/:\d+$/, '');
  const location = /^[a-z][a-z0-9+.-]*:\/\//i.test(to) ? to : `http://${host}${run.req.port === 80 ? '' : `:${run.req.port}`}${to.startsWith('/') ? to : `/${to}`}`;
  return { ...special(run, eff, status, false), location };
}

/** A status without a body of its own: error_page's URI if one is set for it, else nginx's built-in page. */
function special(run: Run, eff: Settings, status: number, pages = true): NginxAnswer {
  const page = pages && !run.inErrorPage ? errorPageFor(eff.errorPages, status) : undefined;
  if (page) {
    if (/^https?:\/\//.test(page.uri)) return redirect(run, eff, 302, page.uri);
    run.inErrorPage = true;
    const saved = run.req.method;
    run.req = { ...run.req, method: 'GET' };
    const a = handle(run, page.uri.split('?')[0]!);
    run.req = { ...run.req, method: saved };
    if (a && a.status === 200) {
      const code = page.overwrite === 'page' ? a.status : (page.overwrite ?? status);
      return { ...a, status: code, reason: nginxReason(code) };
    }
    if (a) return a;
  }
  const server = serverHeader(eff, run.version);
  const body = hasNginxPage(status) ? nginxStatusPage(status, server) : '';
  return { status, reason: nginxReason(status), body, server, contentType: 'text/html' };
}

function errorPageFor(pages: readonly ErrorPage[] | undefined, status: number): ErrorPage | undefined {
  return pages?.find((p) => p.codes.includes(status));
}

function ok(run: Run, eff: Settings, status: number, body: string, type: string): NginxAnswer {
  return { status, reason: nginxReason(status), body, server: serverHeader(eff, run.version), contentType: type };
}

/** The Server header: `nginx/VERSION` with server_tokens on (the default) or build, `nginx` with off. */
function serverHeader(eff: Settings, version: string): string {
  return eff.serverTokens === 'off' ? 'nginx' : `nginx/${version}`;
}

/** ngx_http_set_content_type: the extension's type from the types table, else default_type. */
function contentType(http: NginxHttp, eff: Settings, path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  return (ext && http.types[ext]) || eff.defaultType || BUILTIN_DEFAULT_TYPE;
}

/** Variables a `return` text or try_files entry uses, as far as one request knows them. */
function expand(text: string, run: Run, uri: string): string {
  const host = run.req.host.replace(/:\d+$/, '').toLowerCase();
  const query = run.req.query?.replace(/^\?/, '') ?? '';
  const vars: Record<string, string> = {
    uri,
    document_uri: uri,
    request_uri: `${run.req.uri}${query ? `?${query}` : ''}`,
    host: host || run.server.names[0] || '',
    hostname: run.req.hostname ?? '',
    scheme: 'http',
    request_method: run.req.method.toUpperCase(),
    server_port: String(run.req.port),
    server_name: run.server.names[0] ?? '',
    server_protocol: 'HTTP/1.1',
    args: query,
    query_string: query,
    is_args: query ? '?' : '',
    nginx_version: run.version,
    http_host: run.req.host,
  };
  return text.replace(/\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_m, a: string | undefined, b: string | undefined) => vars[a ?? b ?? ''] ?? '');
}

/** ngx_http_autoindex_module.c's HTML listing: names padded to 50 columns, date and size. */
function autoindex(run: Run, eff: Settings, dir: string, uri: string): NginxAnswer {
  const names = (run.files.list?.(dir.replace(/\/$/, '') || '/') ?? []).filter((n) => !n.startsWith('.'));
  const entries = names.map((n) => ({ n, isDir: run.files.kind(`${dir}${n}`) === 'dir' })).sort((a, b) => (a.isDir === b.isDir ? (a.n < b.n ? -1 : 1) : a.isDir ? -1 : 1));
  let body = `<html>\r\n<head><title>Index of ${uri}</title></head>\r\n<body>\r\n<h1>Index of ${uri}</h1><hr><pre><a href="../">../</a>\r\n`;
  for (const e of entries) {
    const name = e.isDir ? `${e.n}/` : e.n;
    const shown = name.length > 50 ? `${name.slice(0, 47)}..&gt;` : name;
    const size = e.isDir ? '-' : String(Buffer.byteLength(run.files.read(`${dir}${e.n}`) ?? ''));
    body += `<a href="${encodeURI(name)}">${shown}</a>${' '.repeat(Math.max(1, 51 - shown.length))}01-Jan-1970 00:00 ${size.padStart(19)}\r\n`;
  }
  body += '</pre><hr></body>\r\n</html>\r\n';
  return ok(run, eff, 200, body, 'text/html');
}
