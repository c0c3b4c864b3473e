/**
 * CertificateSigningRequest: k8s.io/kubectl pkg/describe/describe.go
 * CertificateSigningRequestDescriber and describeCertificateSigningRequest (v1.35). Labels and
 * annotations print as labels.FormatLabels; the status as the table's (extractCSRStatus); the
 * subject and SANs come from the PEM request itself. A request that does not parse is the error
 * `Error parsing CSR: …` (returned by csrRequestError for the verb to report).
 */
import type { KObject } from '../../../sim/api/types.js';
import { parseCsrPem, type ParsedCsr } from '../../../sim/pki/csr.js';
import { arr, formatLabels, optNum, str } from '../columns/cells.js';
import { humanDuration, rfc1123z } from '../duration.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, tabbedString, type DescribeContext, type PrefixWriter } from './writer.js';

/** extractCSRStatus: Denied over Approved over Pending, then `,Failed` and `,Issued`. */
function csrStatus(csr: KObject): string {
  const types = arr(csr, 'status', 'conditions').map((c) => str(c, 'type'));
  let s = types.includes('Denied') ? 'Denied' : types.includes('Approved') ? 'Approved' : 'Pending';
  if (types.includes('Failed')) s += ',Failed';
  if (str(csr, 'status', 'certificate') !== '') s += ',Issued';
  return s;
}

/** The request of spec.request (base64 of a PEM block), or undefined when it does not parse. */
export function parsedRequest(csr: KObject): ParsedCsr | undefined {
  const b64 = str(csr, 'spec', 'request');
  return parseCsrPem(Buffer.from(b64, 'base64').toString('latin1'));
}

/** printListHelper: nothing for an empty list, else the values one per line under the label. */
function list(w: PrefixWriter, name: string, values: readonly string[]): void {
  if (values.length === 0) return;
  w.write(LEVEL_0, `\t${name}:\t${values.join('\n\t\t')}\n`);
}

export function describeCertificateSigningRequest(csr: KObject, ctx: DescribeContext): string {
  const cr = parsedRequest(csr);
  const subject = (t: string): string[] => (cr?.subject ?? []).filter(([k]) => k === t).map(([, v]) => v);
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${csr.metadata.name}\n`);
    w.write(LEVEL_0, `Labels:\t${formatLabels(csr.metadata.labels)}\n`);
    w.write(LEVEL_0, `Annotations:\t${formatLabels(csr.metadata.annotations)}\n`);
    const created = csr.metadata.creationTimestamp;
    w.write(LEVEL_0, `CreationTimestamp:\t${created ? rfc1123z(created) : 'Mon, 01 Jan 0001 00:00:00 +0000'}\n`);
    w.write(LEVEL_0, `Requesting User:\t${str(csr, 'spec', 'username')}\n`);
    const signer = str(csr, 'spec', 'signerName');
    if (signer) w.write(LEVEL_0, `Signer:\t${signer}\n`);
    const secs = optNum(csr, 'spec', 'expirationSeconds');
    if (secs !== undefined) w.write(LEVEL_0, `Requested Duration:\t${humanDuration(secs * 1000)}\n`);
    w.write(LEVEL_0, `Status:\t${csrStatus(csr)}\n`);
    w.write(LEVEL_0, 'Subject:\n');
    w.write(LEVEL_0, `\tCommon Name:\t${subject('CN')[0] ?? ''}\n`);
    w.write(LEVEL_0, '\tSerial Number:\t\n');
    list(w, 'Organization', subject('O'));
    list(w, 'Organizational Unit', subject('OU'));
    list(w, 'Country', subject('C'));
    list(w, 'Locality', subject('L'));
    list(w, 'Province', subject('ST'));
    const dns = cr?.dnsNames ?? [];
    const ips = cr?.ips ?? [];
    if (dns.length + ips.length > 0) {
      w.write(LEVEL_0, 'Subject Alternative Names:\n');
      list(w, 'DNS Names', dns);
      list(w, 'IP Addresses', ips);
    }
    maybeEvents(ctx.events, w, ctx.now);
  });
}
