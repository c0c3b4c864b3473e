/**
 * What the cluster's own components answer to curl on their ports, as a learner checks them while
 * troubleshooting (`curl -k https://IP:6443/livez`, `curl localhost:10248/healthz` on a node):
 *
 * - kube-apiserver, TLS on --secure-port with the certificate its --tls-cert-file names: the health
 *   endpoints and /version for everyone (the system:public-info-viewer ClusterRole), a 403 Status for
 *   system:anonymous anywhere else, pretty-printed because curl's User-Agent asks for it
 *   (apiserver handlers/responsewriters, apimachinery serializer/json: MarshalIndent, no final newline);
 * - kube-controller-manager (10257) and kube-scheduler (10259), TLS with a self-signed certificate
 *   made at start: /healthz, /readyz, /livez are always allowed (--authorization-always-allow-paths),
 *   anything else is forbidden to system:anonymous;
 * - the kubelet: 10250 TLS refuses anonymous requests (`Unauthorized`), 10248 on 127.0.0.1 answers
 *   /healthz with `ok`; etcd's metrics port 2381 answers /health.
 *
 * TLS as curl sees it: without -k the server certificate must chain to --cacert and name the host
 * (curl 8's error 60 texts), plain HTTP to a TLS port gets Go's 400 reply, TLS to a plain port
 * fails the handshake (error 35).
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { Pod } from '../../../sim/api/types.js';
import type { Vfs } from '../../../sim/node/vfs.js';
import { resolvePath } from '../../../sim/node/vfs.js';
import { runningFlags } from '../../../sim/controlplane.js';
import { forbiddenText, type UserInfo } from '../../../sim/api/rbac.js';
import { serveGet } from '../../../sim/api/rest.js';
import { ApiServer } from '../../../sim/apiserver.js';
import { ApiError, ConnectionRefusedError } from '../../../sim/api/errors.js';
import type { ProxyConfig } from '../../../sim/node/user-sockets.js';
import { linearRegExp } from '../../../util/regex/index.js';
import { authenticate, type Credentials } from '../../../sim/authn.js';
import { issuedBy, readCertificatePem, type ParsedCert } from '../../../sim/pki/x509.js';
import type { ConnectResult } from '../../../sim/traffic/path.js';
import type { HttpResponse } from './http.js';

export interface TlsRequest {
  scheme: 'http' | 'https';
  /** The host name as typed in the URL (checked against the certificate's names). */
  host: string;
  path: string;
  /** -k / --insecure */
  insecure: boolean;
  /** --cacert FILE, read from the filesystem curl runs on. */
  cacert?: string;
  fs: Vfs;
  cwd: string;
  /** Credentials given (-H 'Authorization: Bearer …', --cert FILE), or none: an anonymous request. */
  credentials?: Credentials;
}

export type ComponentAnswer = { response: HttpResponse } | { curlError: number; message: string; sslHelp?: true };

interface Component {
  tls: boolean;
  /** The serving certificate when it is a file (the API server's); else self-signed. */
  cert?: ParsedCert;
  /** The verification error of a self-signed certificate. */
  selfSigned?: string;
  serve(path: string, credentials: Credentials | undefined, req: TlsRequest): HttpResponse;
}

const ANONYMOUS = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

function text(status: number, body: string, contentType = 'text/plain; charset=utf-8'): HttpResponse {
  return { status, reason: REASONS[status] ?? '', body, server: '', contentType };
}

const REASONS: Record<number, string> = { 200: 'OK', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 501: 'Not Implemented' };

/** The User-Agent curl sends (the API server pretty-prints JSON for it). */
const CURL_USER_AGENT = 'curl/8.14.1';

/** A Status as the API server writes it to curl: MarshalIndent with two spaces, no final newline. */
function statusBody(message: string, reason: string, code: number, details: Record<string, string> | undefined): string {
  const det = details && Object.keys(details).length ? `{\n${Object.entries(details).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n  }` : '{}';
  // metav1.Status.Details is a pointer with omitempty: a 401 has none, a 403 always has one
  return `{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": ${JSON.stringify(message)},\n  "reason": ${JSON.stringify(reason)},\n${details ? `  "details": ${det},\n` : ''}  "code": ${code}\n}`;
}

function apiServer(c: Cluster, host: string): Component {
  const flags = runningFlags(c, 'kube-apiserver');
  const certFile = flags.get('tls-cert-file') ?? '/etc/kubernetes/pki/apiserver.crt';
  const cert = readCertificatePem(c.host(host)?.fs.tryRead(certFile) ?? '');
  return {
    tls: true,
    ...(cert ? { cert } : {}),
    serve(path, credentials) {
      const unauthorized = text(401, statusBody('Unauthorized', 'Unauthorized', 401, undefined), 'application/json');
      let user: UserInfo = ANONYMOUS;
      if (credentials) {
        const who = authenticate(c, credentials);
        if (!who) return unauthorized;
        user = who;
      } else if (flags.get('anonymous-auth') === 'false') return unauthorized;
      const r = serveGet(c, { path, user, userAgent: CURL_USER_AGENT });
      return text(r.status, r.body, r.contentType);
    },
  };
}

/** kube-controller-manager and kube-scheduler: the health paths are always allowed. */
function secureComponent(): Component {
  return {
    tls: true,
    selfSigned: 'SSL certificate problem: self-signed certificate in certificate chain',
    serve(path) {
      const route = path.split('?')[0]!.replace(/\/+$/, '');
      if (['/healthz', '/readyz', '/livez'].includes(route)) return text(200, 'ok');
      return text(403, statusBody(forbiddenText(ANONYMOUS, { verb: 'get', path: route || '/' }), 'Forbidden', 403, {}), 'application/json');
    },
  };
}

/** Go regexp.MatchString against each of a comma-separated list (proxy_server.go MakeRegexpArray, matchesRegexp). */
function matchesAny(s: string, list: string): boolean {
  if (list === '') return false;
  return list.split(',').some((re) => {
    try {
      return linearRegExp(re, '', 're2').test(s);
    } catch {
      return false;
    }
  });
}

/**
 * `kubectl proxy` (k8s.io/kubectl pkg/proxy/proxy_server.go): plain HTTP on the learner's host.
 * The filter refuses a rejected path or method or a Host outside --accept-hosts with
 * http.Error's `Forbidden`; a prefix other than /api… is stripped (anything outside it is
 * `404 page not found`); the rest goes to the API server as the kubeconfig's user, the body passed
 * through (curl's User-Agent travels with it, so JSON comes pretty). A server that cannot be
 * reached is the responder's 500 with the dial error.
 */
function proxyComponent(c: Cluster, p: ProxyConfig): Component {
  return {
    tls: false,
    serve(fullPath, _credentials, req) {
      const q = fullPath.indexOf('?');
      let path = q >= 0 ? fullPath.slice(0, q) : fullPath;
      const query = q >= 0 ? fullPath.slice(q) : '';
      const prefix = p.apiPrefix;
      if (!path.startsWith(prefix) && !(path === prefix.replace(/\/$/, '') && prefix !== '/')) return text(404, '404 page not found\n');
      if (!prefix.startsWith('/api')) {
        const rest = path.slice(prefix.length);
        if (rest.length >= path.length) return text(404, '404 page not found\n');
        path = rest.startsWith('/') ? rest : `/${rest}`;
      }
      const host = req.host.startsWith('[') ? req.host : req.host.replace(/:\d+$/, '');
      const f = p.filter;
      if (f && (matchesAny(path, f.rejectPaths) || matchesAny('GET', f.rejectMethods) || !(matchesAny(path, f.acceptPaths) && matchesAny(host, f.acceptHosts)))) return text(403, 'Forbidden\n');
      const api = new ApiServer(c).forClient({ credentials: p.credentials, ...(p.impersonate ? { impersonate: p.impersonate } : {}) });
      let user: UserInfo | undefined;
      try {
        api.ensureUp();
        user = api.user();
      } catch (e) {
        if (e instanceof ConnectionRefusedError) return text(500, `dial tcp ${e.hostPort}: connect: connection refused\n`);
        if (e instanceof ApiError) return text(e.code, statusBody(e.message, e.reason, e.code, e.code === 401 ? undefined : {}), 'application/json');
        throw e;
      }
      const r = serveGet(c, { path: `${path}${query}`, user, userAgent: CURL_USER_AGENT });
      return text(r.status, r.body, r.contentType);
    },
  };
}

function componentOf(c: Cluster, conn: ConnectResult): Component | undefined {
  const to = conn.to;
  if (!to) return undefined;
  if (to.socket?.proxy) return proxyComponent(c, to.socket.proxy);
  const pod = to.pod ? c.store.get<Pod>('Pod', to.pod.ns, to.pod.name) : undefined;
  const node = to.host ?? pod?.spec.nodeName;
  const isStatic = (name: string): boolean => !!pod && pod.spec.hostNetwork === true && pod.metadata.name.startsWith(`${name}-`) && pod.metadata.namespace === 'kube-system';
  if (isStatic('kube-apiserver') && node && to.port === Number(runningFlags(c, 'kube-apiserver').get('secure-port') ?? 6443)) return apiServer(c, node);
  if ((isStatic('kube-controller-manager') && to.port === 10257) || (isStatic('kube-scheduler') && to.port === 10259)) return secureComponent();
  if (isStatic('etcd') && to.port === 2381) return { tls: false, serve: (path) => (path.split('?')[0] === '/health' ? text(200, '{"health":"true","reason":""}', 'text/plain; charset=utf-8') : text(404, '404 page not found\n')) };
  if (!pod && to.host && to.port === 10250) return { tls: true, selfSigned: 'SSL certificate problem: self-signed certificate', serve: () => text(401, 'Unauthorized\n') };
  if (!pod && to.host && to.port === 10248) return { tls: false, serve: (path) => (path.split('?')[0] === '/healthz' ? text(200, 'ok') : text(404, '404 page not found\n')) };
  return undefined;
}

/** curl's view of the server certificate: undefined when it trusts it. */
function verify(comp: Component, req: TlsRequest, now: number): ComponentAnswer | undefined {
  return verifyCertificate(comp.cert, comp.selfSigned ?? 'SSL certificate problem: unable to get local issuer certificate', req, now);
}

/**
 * curl (OpenSSL) verifying a server certificate, unless -k: it must chain to --cacert (a
 * self-signed one not there is X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, `self-signed certificate`),
 * be current, and name the URL's host (curl 8's error 60 texts). `unknown` is the error for a
 * certificate curl cannot see (a component's made at start).
 */
export function verifyCertificate(cert: ParsedCert | undefined, unknown: string, req: TlsRequest, now: number): { curlError: number; message: string; sslHelp?: true } | undefined {
  if (req.insecure) return undefined;
  let roots: ParsedCert[] = [];
  if (req.cacert !== undefined) {
    const pem = req.fs.tryRead(resolvePath(req.cwd, req.cacert));
    if (pem === undefined) return { curlError: 77, message: `error setting certificate file: ${req.cacert}` };
    roots = pem.split(/(?=-----BEGIN CERTIFICATE-----)/).map(readCertificatePem).filter((x): x is ParsedCert => !!x);
  }
  if (!cert) return { curlError: 60, message: unknown, sslHelp: true };
  if (!roots.some((r) => issuedBy(cert, r)))
    return { curlError: 60, message: issuedBy(cert, cert) ? 'SSL certificate problem: self-signed certificate' : 'SSL certificate problem: unable to get local issuer certificate', sslHelp: true };
  if (now > cert.notAfter) return { curlError: 60, message: 'SSL certificate problem: certificate has expired', sslHelp: true };
  const isIp = /^[\d.]+$/.test(req.host) || req.host.includes(':');
  const host = req.host.toLowerCase();
  const nameMatches = (n: string): boolean => {
    const p = n.toLowerCase();
    // a wildcard covers one label (lib/vtls/hostcheck.c)
    return p === host || (p.startsWith('*.') && host.endsWith(p.slice(1)) && host.length > p.length - 1 && !host.slice(0, host.length - p.length + 1).includes('.'));
  };
  if (isIp ? cert.ips.length > 0 : cert.dnsNames.length > 0) {
    const named = isIp ? cert.ips.includes(req.host) : cert.dnsNames.some(nameMatches);
    if (!named) return { curlError: 60, message: `SSL: no alternative certificate subject name matches target host name '${req.host}'`, sslHelp: true };
    return undefined;
  }
  // no subjectAltName of the host's type: curl compares the subject's CN (lib/vtls/openssl.c ossl_verifyhost)
  const cn = cert.subject.filter(([k]) => k === 'CN').pop()?.[1];
  if (cn === undefined) return { curlError: 60, message: 'SSL: unable to obtain common name from peer certificate', sslHelp: true };
  if (!(isIp ? cn === req.host : nameMatches(cn))) return { curlError: 60, message: `SSL: certificate subject name '${cn}' does not match target host name '${req.host}'`, sslHelp: true };
  return undefined;
}

/** A component's answer to curl, or undefined when the connection did not reach one of them. */
export function componentAnswer(c: Cluster, conn: ConnectResult, req: TlsRequest): ComponentAnswer | undefined {
  const comp = componentOf(c, conn);
  if (!comp) return undefined;
  if (!comp.tls && req.scheme === 'https') return { curlError: 35, message: 'OpenSSL/3.0.13: error:0A00010B:SSL routines::wrong version number' };
  if (comp.tls && req.scheme === 'http') return { response: text(400, 'Client sent an HTTP request to an HTTPS server.\n') };
  if (comp.tls) {
    const bad = verify(comp, req, c.now());
    if (bad) return bad;
  }
  return { response: comp.serve(req.path, req.credentials, req) };
}

/** curl 8's advice after an error 60 (src/tool_operate.c CURL_CA_CERT_ERRORMSG). */
export const SSL_HELP =
  'More details here: https://curl.se/docs/sslcerts.html\n\ncurl failed to verify the legitimacy of the server and therefore could not\nestablish a secure connection to it. To learn more about this situation and\nhow to fix it, please visit the webpage mentioned above.\n';
