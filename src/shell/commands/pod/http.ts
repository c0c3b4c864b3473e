/**
 * One HTTP GET/HEAD over the simulated network: connect through the packet path, then ask what
 * listens there (the image catalogue's site: a page per path, nginx's 404 page otherwise).
 */
import type { Cluster } from '../../../sim/cluster.js';
import { connect, type ConnectResult, type Source } from '../../../sim/traffic/path.js';

export interface HttpResponse {
  status: number;
  reason: string;
  body: string;
  server: string;
}

const NGINX_404 = '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/1.29.3</center>\r\n</body>\r\n</html>\r\n';

export function httpRequest(c: Cluster, from: Source, ip: string, port: number, path: string): { conn: ConnectResult; response?: HttpResponse } {
  const conn = connect(c, from, ip, port, 'tcp');
  if (!conn.ok) return { conn };
  const site = conn.to?.listener?.http;
  if (!site) {
    conn.trace.push('the process there does not speak HTTP: the connection is closed without a response');
    return { conn };
  }
  const body = site.pages[path];
  if (body !== undefined) return { conn, response: { status: 200, reason: 'OK', body, server: site.server } };
  const nf = site.server.startsWith('nginx') ? NGINX_404.replace('nginx/1.29.3', site.server) : '404 page not found\n';
  return { conn, response: { status: 404, reason: 'Not Found', body: nf, server: site.server } };
}

/** Split `http://host[:port][/path]` (scheme optional). */
export function parseUrl(url: string): { host: string; port: number; path: string } | undefined {
  const m = /^(?:(https?):\/\/)?([^/:?#]+)(?::(\d+))?([^?#]*)/.exec(url);
  if (!m || !m[2]) return undefined;
  const port = m[3] ? Number(m[3]) : m[1] === 'https' ? 443 : 80;
  return { host: m[2], port, path: m[4] || '/' };
}
