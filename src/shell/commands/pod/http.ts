/**
 * One HTTP GET/HEAD over the simulated network: connect through the packet path, then ask what
 * listens there (the image catalogue's site: a page per path, nginx's 404 page otherwise; the
 * ingress-nginx controller routes by its Ingresses, sim/traffic/ingress.ts).
 */
import type { Cluster } from '../../../sim/cluster.js';
import { connect, type ConnectResult, type Source } from '../../../sim/traffic/path.js';
import { isIngressController, serveIngress, siteAnswer } from '../../../sim/traffic/ingress.js';
import { isGatewayDataPlane, serveGateway } from '../../../sim/traffic/gateway.js';
import type { Pod } from '../../../sim/api/types.js';
import type { HttpAnswer } from '../../../sim/images.js';

/** One HTTP response as curl and wget print it: the simulation's answer (its Server header is '' when the server sends none, as Go's net/http does not). */
export type HttpResponse = HttpAnswer;

/**
 * `host` is the request's Host header (default: `ip`); the ingress-nginx controller and NGINX Gateway
 * Fabric's data plane route by it (the latter also by `method` and the other `headers`).
 */
export function httpRequest(
  c: Cluster,
  from: Source,
  ip: string,
  port: number,
  path: string,
  host = ip,
  opts: { method?: string; headers?: Record<string, string>; query?: string } = {},
): { conn: ConnectResult; response?: HttpResponse } {
  const conn = connect(c, from, ip, port, 'tcp');
  if (!conn.ok) return { conn };
  const podRef = conn.to?.pod;
  const pod = podRef ? c.store.get<Pod>('Pod', podRef.ns, podRef.name) : undefined;
  if (pod && conn.to && isIngressController(pod, conn.to.port)) return { conn, response: serveIngress(c, pod, host, path, conn.trace) };
  if (pod && conn.to && isGatewayDataPlane(pod)) {
    const response = serveGateway(c, pod, conn.to.port, { host, path, method: opts.method ?? 'GET', headers: { ...opts.headers, host } }, conn.trace);
    if (response) return { conn, response };
    conn.trace.push(`nginx-gateway: no Gateway listener is configured on port ${conn.to.port}: the connection is closed without a response`);
    return { conn };
  }
  const site = conn.to?.listener?.http;
  if (!site) {
    conn.trace.push('the process there does not speak HTTP: the connection is closed without a response');
    return { conn };
  }
  const response = siteAnswer(site, path, { host, method: opts.method ?? 'GET', ...(opts.query ? { query: opts.query } : {}) });
  if (!response) {
    conn.trace.push('the server closed the connection without a response');
    return { conn };
  }
  return { conn, response };
}

/** Split `http://host[:port][/path][?query]` (scheme optional, http by default); `authority` is host[:port] as written. */
export function parseUrl(url: string): { scheme: 'http' | 'https'; host: string; port: number; path: string; query: string; authority: string } | undefined {
  const m = /^(?:(https?):\/\/)?([^/:?#]+)(?::(\d+))?([^?#]*)(\?[^#]*)?/.exec(url);
  if (!m || !m[2]) return undefined;
  const scheme = m[1] === 'https' ? 'https' : 'http';
  const port = m[3] ? Number(m[3]) : scheme === 'https' ? 443 : 80;
  return { scheme, host: m[2], port, path: m[4] || '/', query: m[5] ?? '', authority: m[3] ? `${m[2]}:${m[3]}` : m[2] };
}
