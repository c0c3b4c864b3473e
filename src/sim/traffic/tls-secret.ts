/**
 * What the simulated nginx front ends (NGINX Gateway Fabric, ingress-nginx) share about TLS: a
 * Secret's certificate and key checked as Go's tls.X509KeyPair does, and nginx's answer to plain
 * HTTP on an `ssl` port.
 */
import type { Secret } from '../api/types.js';
import type { HttpAnswer } from '../images.js';
import { keyMatches, readCertificatePem, type ParsedCert } from '../pki/x509.js';

/**
 * Go's tls.X509KeyPair over a Secret's tls.crt and tls.key (crypto/tls/tls.go): the error texts
 * NGF puts after `TLS secret is invalid: `, or undefined with the certificate when the pair is good.
 */
export function x509KeyPair(certPem: string, keyPem: string): { error: string } | { cert: ParsedCert } {
  const blocks = (text: string): string[] => [...text.matchAll(/-----BEGIN ([^-]+)-----/g)].map((m) => m[1]!);
  const certTypes = blocks(certPem);
  if (certTypes.length === 0) return { error: 'tls: failed to find any PEM data in certificate input' };
  if (!certTypes.includes('CERTIFICATE'))
    return { error: `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [${certTypes.join(' ')}]` };
  const keyTypes = blocks(keyPem);
  if (keyTypes.length === 0) return { error: 'tls: failed to find any PEM data in key input' };
  if (!keyTypes.some((t) => t.endsWith('PRIVATE KEY')))
    return { error: `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [${keyTypes.join(' ')}]` };
  const cert = readCertificatePem(certPem);
  if (!cert) return { error: 'x509: malformed certificate' };
  if (!keyMatches(cert, keyPem)) return { error: 'tls: private key does not match public key' };
  return { cert };
}

/** A Secret's data value as text (its base64 decoded). */
export function secretText(sec: Secret, key: string): string {
  const v = sec.data?.[key];
  return v === undefined ? '' : Buffer.from(v, 'base64').toString('latin1');
}

/** nginx's answer to plain HTTP on an `ssl` port (ngx_http_special_response.c ngx_http_error_497_page, status 400). */
export function plainHttpToHttpsAnswer(): HttpAnswer {
  const title = 'The plain HTTP request was sent to HTTPS port';
  return {
    status: 400,
    reason: 'Bad Request',
    body: `<html>\r\n<head><title>400 ${title}</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>${title}</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
    server: 'nginx',
  };
}
