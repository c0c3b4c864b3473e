/**
 * ingress-nginx's HTTPS side, from its source (controller v1.14/v1.15):
 * - which certificate each server has (internal/ingress/controller/controller.go createServers,
 *   the TLS section): Ingresses in creation order, the first one with a TLS section for a host
 *   decides; its secret is the spec.tls entry listing the host, else one whose certificate
 *   covers it (extractTLSSecretName); an empty secretName, a missing or unreadable Secret
 *   (store/backend_ssl.go: `key 'tls.crt' missing…`, a pair that tls.X509KeyPair rejects) or a
 *   certificate that does not name the host (VerifyHostname, then the legacy CN check) means the
 *   default certificate;
 * - the default certificate: the --default-ssl-certificate Secret when it loads, else the
 *   generated "Kubernetes Ingress Controller Fake Certificate" (internal/net/ssl/ssl.go
 *   GetFakeSSLCert: O=Acme Co, DNS ingress.local, a year from the controller's start, a fresh key);
 * - the handshake (rootfs/etc/nginx/lua/certificate.lua call): the server named by SNI (trailing
 *   dot dropped, lower-cased), else its `*.` wildcard, else the default certificate (no SNI too);
 * - the redirect (lua_ingress.lua redirect_to_https): plain HTTP to a host that has a certificate
 *   (certificate.lua configured_for_current_request) is answered 308 to https://HOST + the request
 *   URI without its trailing slash, unless `nginx.ingress.kubernetes.io/ssl-redirect: "false"`;
 *   `force-ssl-redirect: "true"` redirects even without one.
 */
import type { Cluster } from '../cluster.js';
import type { Ingress, Pod, Secret } from '../api/types.js';
import type { HttpAnswer } from '../images.js';
import { createCertificate, type ParsedCert } from '../pki/x509.js';
import { serialFrom } from '../pki/kubeadm-pki.js';
import { USER_KEYS } from '../pki/user-keys.js';
import { nginxReason, nginxStatusPage } from '../runtime/nginx/pages.js';
import { fnv32a } from '../../util/fnv.js';
import { secretText, x509KeyPair } from './tls-secret.js';

const SSL_REDIRECT = 'nginx.ingress.kubernetes.io/ssl-redirect';
const FORCE_SSL_REDIRECT = 'nginx.ingress.kubernetes.io/force-ssl-redirect';
const YEAR_MS = 365 * 24 * 3600_000;

/** The certificate a server presents, and where it came from (for the trace). */
export interface ServerCert {
  certPem: string;
  /** `ns/name` of the Secret, or why the default certificate is used. */
  source: string;
  /** The default (fake or --default-ssl-certificate) certificate. */
  isDefault: boolean;
}

/** crypto/x509 matchHostnames: case-insensitive, a `*.` wildcard standing for one left-most label. */
function nameCovers(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  const h = host.toLowerCase();
  if (!p.startsWith('*.')) return p === h;
  const rest = p.slice(1);
  return h.endsWith(rest) && h.length > rest.length && !h.slice(0, h.length - rest.length).includes('.');
}

/** Certificate.VerifyHostname, then ingress-nginx's legacy Common Name check (verifyHostname). */
function certificateNames(cert: ParsedCert, host: string): boolean {
  if (cert.dnsNames.length > 0 && cert.dnsNames.some((n) => nameCovers(n, host))) return true;
  const cn = cert.subject.filter(([k]) => k === 'CN').pop()?.[1];
  return cn !== undefined && nameCovers(cn, host);
}

/** The certificate of a Secret as the controller's store loads it, or why it cannot. */
function loadSecret(c: Cluster, ns: string, name: string): { certPem: string; cert: ParsedCert } | { error: string } {
  const sec = c.store.get<Secret>('Secret', ns, name);
  if (!sec) return { error: `local SSL certificate ${ns}/${name} was not found` };
  if (sec.data?.['tls.crt'] === undefined) return { error: `key 'tls.crt' missing from Secret "${ns}/${name}"` };
  if (sec.data?.['tls.key'] === undefined) return { error: `key 'tls.key' missing from Secret "${ns}/${name}"` };
  const certPem = secretText(sec, 'tls.crt');
  const pair = x509KeyPair(certPem, secretText(sec, 'tls.key'));
  if ('error' in pair) return { error: `unexpected error creating SSL Cert: ${pair.error}` };
  return { certPem, cert: pair.cert };
}

const fakeCerts = new Map<string, string>();

/** GetFakeSSLCert for the controller process in `pod`: made once per container start. */
function fakeCertificate(c: Cluster, pod: Pod): string {
  const uid = pod.metadata.uid ?? pod.metadata.name;
  const running = pod.status?.containerStatuses?.find((s) => s.state.running)?.state.running?.startedAt;
  const started = Date.parse(running ?? pod.status?.startTime ?? '') || c.now();
  const key = `${uid}/${started}`;
  let pem = fakeCerts.get(key);
  if (pem === undefined) {
    pem = createCertificate(
      {
        serial: serialFrom(`ingress-nginx-fake/${key}`),
        subject: [['O', 'Acme Co'], ['CN', 'Kubernetes Ingress Controller Fake Certificate']],
        notBefore: started,
        notAfter: started + YEAR_MS,
        isCA: false,
        keyUsage: ['digitalSignature', 'keyEncipherment'],
        extKeyUsage: ['serverAuth'],
        dnsNames: ['ingress.local'],
      },
      USER_KEYS()[fnv32a(key) % USER_KEYS().length]!,
    );
    fakeCerts.set(key, pem);
  }
  return pem;
}

/** getDefaultSSLCertificate: the --default-ssl-certificate Secret when it loads, else the fake one. */
export function defaultCertificate(c: Cluster, pod: Pod, args: readonly string[]): ServerCert {
  const flag = args.map((a) => /^--?default-ssl-certificate=(.+)$/.exec(a)?.[1]).find((v) => v !== undefined);
  const [ns, name] = flag?.split('/') ?? [];
  if (ns && name) {
    const loaded = loadSecret(c, ns, name);
    if ('certPem' in loaded) return { certPem: loaded.certPem, source: `${ns}/${name} (--default-ssl-certificate)`, isDefault: true };
  }
  return { certPem: fakeCertificate(c, pod), source: 'the controller\'s "Kubernetes Ingress Controller Fake Certificate"', isDefault: true };
}

/** Ingresses in the order the controller's store lists them (by creation time). */
function byCreation(ings: readonly Ingress[]): Ingress[] {
  return [...ings].sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
}

/** extractTLSSecretName: the spec.tls entry listing the host, else one whose certificate covers it. */
function tlsSecretName(c: Cluster, host: string, ing: Ingress): string {
  for (const t of ing.spec.tls ?? []) for (const h of t.hosts ?? []) if (h.toLowerCase() === host) return t.secretName ?? '';
  for (const t of ing.spec.tls ?? []) {
    if (!t.secretName) continue;
    const loaded = loadSecret(c, ing.metadata.namespace ?? 'default', t.secretName);
    if ('cert' in loaded && certificateNames(loaded.cert, host)) return t.secretName;
  }
  return '';
}

/** The servers that have a certificate, by host name (lower case), as createServers leaves them. */
export function serverCertificates(c: Cluster, ings: readonly Ingress[], fallback: () => ServerCert): Map<string, ServerCert> {
  const out = new Map<string, ServerCert>();
  for (const ing of byCreation(ings)) {
    const ns = ing.metadata.namespace ?? 'default';
    for (const rule of ing.spec.rules ?? []) {
      const host = rule.host?.toLowerCase();
      if (!host || out.has(host) || (ing.spec.tls ?? []).length === 0) continue;
      const secret = tlsSecretName(c, host, ing);
      const fallbackFor = (why: string): ServerCert => {
        const d = fallback();
        return { ...d, source: `${d.source}: ${why}` };
      };
      if (secret === '') {
        out.set(host, fallbackFor(`host ${host} is listed in the TLS section of Ingress ${ns}/${ing.metadata.name} but secretName is empty`));
        continue;
      }
      const loaded = loadSecret(c, ns, secret);
      if ('error' in loaded) out.set(host, fallbackFor(`Error getting SSL certificate "${ns}/${secret}": ${loaded.error}`));
      else if (!certificateNames(loaded.cert, host)) out.set(host, fallbackFor(`SSL certificate "${ns}/${secret}" does not contain a Common Name or Subject Alternative Name for server "${host}"`));
      else out.set(host, { certPem: loaded.certPem, source: `${ns}/${secret}`, isDefault: false });
    }
  }
  return out;
}

/** get_pem_cert_uid: the server named exactly, else its `*.` wildcard. */
export function certificateFor(servers: ReadonlyMap<string, ServerCert>, name: string): ServerCert | undefined {
  const host = name.replace(/\.$/, '').toLowerCase();
  const exact = servers.get(host);
  if (exact) return exact;
  const wild = host.replace(/^[^.]+\./, '*.');
  return wild === host ? undefined : servers.get(wild);
}

/** redirect_to_https for a plain-HTTP request that matched `ing` (undefined: no location matched). */
export function httpsRedirect(servers: ReadonlyMap<string, ServerCert>, ing: Ingress | undefined, host: string, requestUri: string): HttpAnswer | undefined {
  const a = ing?.metadata.annotations ?? {};
  const hostname = host.replace(/:\d+$/, '');
  const force = a[FORCE_SSL_REDIRECT] === 'true';
  if (!force && (a[SSL_REDIRECT] === 'false' || !certificateFor(servers, hostname))) return undefined;
  // "do not append a trailing slash on redirects unless enabled by annotations"
  const uri = requestUri.endsWith('/') ? requestUri.slice(0, -1) : requestUri;
  return { status: 308, reason: nginxReason(308), body: nginxStatusPage(308, 'nginx'), server: 'nginx', location: `https://${hostname}${uri}` };
}
