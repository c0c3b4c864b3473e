/**
 * One HTTP GET/HEAD over the simulated network: connect through the packet path, then ask what
 * listens there (the image catalogue's site: a page per path, nginx's 404 page otherwise; the
 * ingress-nginx controller routes by its Ingresses, sim/traffic/ingress.ts).
 */
import type { Cluster } from '../../../sim/cluster.js';
import { connect, type ConnectResult, type Source } from '../../../sim/traffic/path.js';
import { ingressCertificate, isIngressController, serveIngress, siteAnswer } from '../../../sim/traffic/ingress.js';
import { plainHttpToHttpsAnswer } from '../../../sim/traffic/tls-secret.js';
import { gatewayHandshake, isGatewayDataPlane, serveGateway } from '../../../sim/traffic/gateway.js';
import type { Pod } from '../../../sim/api/types.js';
import type { HttpAnswer } from '../../../sim/images.js';

/** One HTTP response as curl and wget print it: the simulation's answer (its Server header is '' when the server sends none, as Go's net/http does not). */
export type HttpResponse = HttpAnswer;

/**
 * `host` is the request's Host header (default: `ip`); the ingress-nginx controller and NGINX Gateway
 * Fabric's data plane route by it (the latter also by `method` and the other `headers`).
 */
/** What went wrong in a TLS handshake, as curl reports it. */
export interface TlsFailure {
  curlError: number;
  message: string;
  sslHelp?: true;
}

/** The TLS side of a request: the SNI sent (none for an IP address) and the client's verdict on the certificate. */
export interface TlsClient {
  sni: string | undefined;
  verify(certPem: string): TlsFailure | undefined;
}

/** OpenSSL 3's texts when the server does not complete the handshake (curl error 35). */
const WRONG_VERSION = 'OpenSSL/3.0.13: error:0A00010B:SSL routines::wrong version number';
const UNRECOGNIZED_NAME = 'OpenSSL/3.0.13: error:0A000458:SSL routines::tlsv1 unrecognized name';

export function httpRequest(
  c: Cluster,
  from: Source,
  ip: string,
  port: number,
  path: string,
  host = ip,
  opts: { method?: string; headers?: Record<string, string>; query?: string; tls?: TlsClient } = {},
): { conn: ConnectResult; response?: HttpResponse; tlsFailure?: TlsFailure } {
  const conn = connect(c, from, ip, port, 'tcp');
  if (!conn.ok) return { conn };
  const podRef = conn.to?.pod;
  const pod = podRef ? c.store.get<Pod>('Pod', podRef.ns, podRef.name) : undefined;
  if (pod && conn.to && isIngressController(pod, conn.to.port)) {
    const uri = opts.query ? `${path}?${opts.query}` : path;
    if (conn.to.port === 80) {
      if (opts.tls) {
        conn.trace.push('ingress-nginx: port 80 serves plain HTTP: the TLS ClientHello gets an HTTP answer');
        return { conn, tlsFailure: { curlError: 35, message: WRONG_VERSION } };
      }
      return { conn, response: serveIngress(c, pod, host, uri, conn.trace) };
    }
    if (!opts.tls) {
      conn.trace.push('ingress-nginx: port 443 serves HTTPS: a plain HTTP request gets nginx\'s 400');
      return { conn, response: plainHttpToHttpsAnswer() };
    }
    const cert = ingressCertificate(c, pod, opts.tls.sni);
    conn.trace.push(`ingress-nginx: TLS for server name ${opts.tls.sni === undefined ? '(none sent)' : `"${opts.tls.sni}"`} with ${cert.source}`);
    const bad = opts.tls.verify(cert.certPem);
    if (bad) return { conn, tlsFailure: bad };
    return { conn, response: serveIngress(c, pod, host, uri, conn.trace, 'https') };
  }
  if (pod && conn.to && isGatewayDataPlane(pod)) {
    let tls: { sni: string } | undefined;
    if (opts.tls) {
      const hs = gatewayHandshake(c, pod, conn.to.port, opts.tls.sni);
      if (hs?.kind === 'plain') {
        conn.trace.push(`nginx-gateway: port ${conn.to.port} serves plain HTTP: the TLS ClientHello gets an HTTP answer`);
        return { conn, tlsFailure: { curlError: 35, message: WRONG_VERSION } };
      }
      if (hs?.kind === 'reject') {
        conn.trace.push(`nginx-gateway: no HTTPS listener on port ${conn.to.port} takes the server name ${opts.tls.sni === undefined ? '(none sent)' : `"${opts.tls.sni}"`}: the default server rejects the handshake (ssl_reject_handshake on)`);
        return { conn, tlsFailure: { curlError: 35, message: UNRECOGNIZED_NAME } };
      }
      if (hs?.kind === 'certificate') {
        conn.trace.push(`nginx-gateway: TLS with listener ${hs.listener}'s certificate from Secret ${hs.secret}`);
        const bad = opts.tls.verify(hs.certPem);
        if (bad) return { conn, tlsFailure: bad };
        tls = { sni: opts.tls.sni ?? '' };
      }
    }
    const response = serveGateway(c, pod, conn.to.port, { host, path: opts.query ? `${path}?${opts.query}` : path, method: opts.method ?? 'GET', headers: { ...opts.headers, host } }, conn.trace, tls);
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
  // an IPv6 literal is bracketed (RFC 3986 IP-literal); `host` is the address without brackets
  const v6 = /^(?:(https?):\/\/)?\[([0-9A-Fa-f:.]+)\](?::(\d+))?([^?#]*)(\?[^#]*)?/.exec(url);
  if (v6) {
    const scheme = v6[1] === 'https' ? 'https' : 'http';
    return { scheme, host: v6[2]!, port: v6[3] ? Number(v6[3]) : scheme === 'https' ? 443 : 80, path: v6[4] || '/', query: v6[5] ?? '', authority: `[${v6[2]}]${v6[3] ? `:${v6[3]}` : ''}` };
  }
  const m = /^(?:(https?):\/\/)?([^/:?#]+)(?::(\d+))?([^?#]*)(\?[^#]*)?/.exec(url);
  if (!m || !m[2]) return undefined;
  const scheme = m[1] === 'https' ? 'https' : 'http';
  const port = m[3] ? Number(m[3]) : scheme === 'https' ? 443 : 80;
  return { scheme, host: m[2], port, path: m[4] || '/', query: m[5] ?? '', authority: m[3] ? `${m[2]}:${m[3]}` : m[2] };
}
