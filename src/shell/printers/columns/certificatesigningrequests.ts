/**
 * CertificateSigningRequests: printers.go certificateSigningRequestColumnDefinitions and
 * extractCSRStatus (Denied over Approved over Pending, then ,Failed and ,Issued).
 */
import { humanDuration, translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr, optNum, str } from './cells.js';
import type { KindPrinter } from './types.js';

function condition(obj: unknown): string {
  const types = arr(obj, 'status', 'conditions').map((c) => (c as { type?: string }).type);
  let s = types.includes('Denied') ? 'Denied' : types.includes('Approved') ? 'Approved' : 'Pending';
  if (types.includes('Failed')) s += ',Failed';
  if (str(obj, 'status', 'certificate') !== '') s += ',Issued';
  return s;
}

export const certificatesigningrequests: KindPrinter = {
  columns: [NAME, AGE, { name: 'SignerName' }, { name: 'Requestor' }, { name: 'RequestedDuration' }, { name: 'Condition' }],
  row(obj, now) {
    const secs = optNum(obj, 'spec', 'expirationSeconds');
    return [obj.metadata.name, translateTimestampSince(obj.metadata.creationTimestamp, now), str(obj, 'spec', 'signerName'), str(obj, 'spec', 'username'), secs === undefined ? '<none>' : humanDuration(secs * 1000), condition(obj)];
  },
};
