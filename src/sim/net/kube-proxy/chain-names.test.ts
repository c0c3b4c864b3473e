import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  endpointChainName,
  hash16,
  sha256Base32,
  externalChainName,
  serviceChainName,
  servicePortName,
} from './chain-names.js';

// Expected names come from the seeds (000: net/web; 004: kube-dns) and reference §1.1.
const cases: { name: string; got: () => string; want: string }[] = [
  { name: 'kube-dns dns/udp SVC', got: () => serviceChainName(servicePortName('kube-system', 'kube-dns', 'dns'), 'UDP'), want: 'KUBE-SVC-TCOU7JCQXEZGVUNU' },
  { name: 'kube-dns dns-tcp/tcp SVC', got: () => serviceChainName('kube-system/kube-dns:dns-tcp', 'TCP'), want: 'KUBE-SVC-ERIFXISQEP7F7OF4' },
  { name: 'kube-dns metrics/tcp SVC', got: () => serviceChainName('kube-system/kube-dns:metrics', 'tcp'), want: 'KUBE-SVC-JD5MR3NA4I4DYORP' },
  { name: 'kube-dns endpoint .51', got: () => endpointChainName('kube-system/kube-dns:dns', 'UDP', '192.128.0.51:53'), want: 'KUBE-SEP-NZ4ZVJ6J3XCEJWKB' },
  { name: 'kube-dns endpoint .48 (seed 004 first SEP)', got: () => endpointChainName('kube-system/kube-dns:dns', 'UDP', '192.128.0.48:53'), want: 'KUBE-SEP-SAYSLAX2SI43IZRU' },
  { name: 'net/web unnamed port SVC', got: () => serviceChainName(servicePortName('net', 'web', ''), 'TCP'), want: 'KUBE-SVC-RTHZXQ2YZKSHM2PI' },
  { name: 'net/web EXT', got: () => externalChainName('net/web', 'TCP'), want: 'KUBE-EXT-RTHZXQ2YZKSHM2PI' },
  { name: 'net/web endpoint 10.244.62.167', got: () => endpointChainName('net/web', 'TCP', '10.244.62.167:80'), want: 'KUBE-SEP-S3UT2MK4P7AJ67WG' },
  { name: 'net/web endpoint 10.244.95.170', got: () => endpointChainName('net/web', 'TCP', '10.244.95.170:80'), want: 'KUBE-SEP-JIQR6UIXHEWKPI63' },
  { name: 'upstream test ns2/svc2:p80', got: () => externalChainName('ns2/svc2:p80', 'TCP'), want: 'KUBE-EXT-GNZBNJ2PO5MGZ6GT' },
];

for (const c of cases) {
  test(`chain name: ${c.name}`, () => {
    assert.equal(c.got(), c.want);
  });
}

test('hashing the upper-case protocol string gives the wrong name the reference warns about', () => {
  // serviceChainName lower-cases; hashing "…:dnsUDP" literally would give GOKYAH2GUFSZRCFJ.
  assert.notEqual(serviceChainName('kube-system/kube-dns:dns', 'UDP'), 'KUBE-SVC-GOKYAH2GUFSZRCFJ');
});

test('hash16 is the first 16 characters of base32(sha256) for names of every length', () => {
  for (let n = 0; n < 300; n++) {
    const s = `ns${n}/svc-${'x'.repeat(n % 37)}:p${n}tcp10.244.${n >> 8}.${n & 255}:${8000 + n}`;
    assert.equal(hash16(s), sha256Base32(s).slice(0, 16), s);
  }
});

test('hash16 matches node crypto across SHA-256 block boundaries and for non-ASCII input', () => {
  // the digest is computed in chain-names.ts for ASCII input: every padding case (a length of 55,
  // 56, 63, 64 bytes puts the length field in this block or the next) against node's sha256
  for (let n = 0; n <= 200; n++) {
    const s = Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 7 + n) % 94))).join('');
    assert.equal(hash16(s), sha256Base32(s).slice(0, 16), `length ${n}`);
  }
  for (const s of ['ns/ü:p', 'ns/名前tcp10.0.0.1:80', '\u007f\u0080']) assert.equal(hash16(s), sha256Base32(s).slice(0, 16), s);
  assert.equal(endpointChainName('ns/ü', 'TCP', '10.0.0.1:80'), `KUBE-SEP-${sha256Base32('ns/ütcp10.0.0.1:80').slice(0, 16)}`);
});
