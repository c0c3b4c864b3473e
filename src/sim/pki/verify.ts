/**
 * A TLS client's verdict on a server certificate, as Go's crypto/x509 Certificate.Verify reaches
 * it (crypto/x509/verify.go): validity first, then the name against the SANs (VerifyHostname),
 * then a chain to one of the roots. Every Go client the simulator models (kubectl, the API
 * server's etcd client) reports these texts after "tls: failed to verify certificate: ".
 */
import { issuedBy, readCertificatePem, type ParsedCert } from './x509.js';
import { goIPString, isIPv4 } from '../../util/ip.js';
import { rfc3339 } from '../../util/clock.js';
import { remember } from '../../util/bounded-map.js';

/** Go's x509.HostnameError text (crypto/x509/verify.go). */
export function hostnameError(cert: ParsedCert, host: string): string {
  let valid: string;
  if (isIPv4(host)) {
    if (cert.ips.length === 0) return `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
    valid = cert.ips.map(goIPString).join(', ');
  } else valid = cert.dnsNames.join(', ');
  if (!valid) return `x509: certificate is not valid for any names, but wanted to match ${host}`;
  return `x509: certificate is valid for ${valid}, not ${host}`;
}

/** Whether a certificate names a host (VerifyHostname: IP SANs for an address, DNS SANs with one-label wildcards for a name). */
export function matchesHost(cert: ParsedCert, host: string): boolean {
  if (isIPv4(host)) return cert.ips.includes(host);
  const h = host.toLowerCase().replace(/\.$/, '');
  return cert.dnsNames.some((d) => {
    const n = d.toLowerCase();
    if (n === h) return true;
    return n.startsWith('*.') && h.includes('.') && h.slice(h.indexOf('.')) === n.slice(1);
  });
}

/** The x509 error for `served` checked against the PEM bundle `rootsPem` for `name` at `now`, or undefined when it verifies. */
export function verifyServerCertificate(served: ParsedCert, rootsPem: string, name: string, now: number): string | undefined {
  if (now > served.notAfter) return `x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is after ${rfc3339(served.notAfter)}`;
  if (now < served.notBefore) return `x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is before ${rfc3339(served.notBefore)}`;
  if (!matchesHost(served, name)) return hostnameError(served, name);
  if (!chainsTo(served, rootsPem)) return 'x509: certificate signed by unknown authority';
  return undefined;
}

/**
 * A certificate's PEM text parsed, memoised by the text: every kubectl command's handshake reads
 * the API server's certificate and the kubeconfig's CA bundle, the same few texts each time.
 * What it returns is shared, so callers only read it (as this file and dial.ts do).
 */
export function parsedCertificatePem(text: string): ParsedCert | undefined {
  if (PARSED.has(text)) return PARSED.get(text);
  const cert = readCertificatePem(text);
  remember(PARSED, text, cert, 64);
  return cert;
}

const PARSED = new Map<string, ParsedCert | undefined>();

/** Whether a root of the PEM bundle issued `served` (memoised per parsed certificate and bundle text). */
function chainsTo(served: ParsedCert, rootsPem: string): boolean {
  let byBundle = CHAINS.get(served);
  if (!byBundle) CHAINS.set(served, (byBundle = new Map()));
  const hit = byBundle.get(rootsPem);
  if (hit !== undefined) return hit;
  const roots = rootsPem.split(/(?=-----BEGIN CERTIFICATE-----)/).map((p) => parsedCertificatePem(p)).filter((x): x is ParsedCert => x !== undefined);
  const ok = roots.some((ca) => issuedBy(served, ca));
  remember(byBundle, rootsPem, ok, 16);
  return ok;
}

const CHAINS = new WeakMap<ParsedCert, Map<string, boolean>>();
