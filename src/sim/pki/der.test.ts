/**
 * DER parsing of what a learner can put in a PEM file: a made-up or truncated body is "not a
 * certificate" at once, never a loop or a crash (der.ts parse bounds every length).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DerError, parse } from './der.js';
import { readCertificatePem } from './x509.js';
import { parseCsrPem } from './csr.js';

const cases = [
  { name: 'base64 that is not DER', pem: '-----BEGIN CERTIFICATE-----\nMIIDBTCCAe2gAwIBAgIIcka+lab+root+ca+simulated+certificate+AAAAAAAA\n-----END CERTIFICATE-----\n' },
  { name: 'a sequence claiming more than it holds', pem: `-----BEGIN CERTIFICATE-----\n${Buffer.from([0x30, 0x82, 0xff, 0xff, 0x02, 0x01]).toString('base64')}\n-----END CERTIFICATE-----\n` },
  { name: 'an empty constructed value inside', pem: `-----BEGIN CERTIFICATE-----\n${Buffer.from([0x30, 0x02, 0x30, 0x00]).toString('base64')}\n-----END CERTIFICATE-----\n` },
  { name: 'a length of length zero', pem: `-----BEGIN CERTIFICATE-----\n${Buffer.from([0x30, 0x80, 0x00, 0x00]).toString('base64')}\n-----END CERTIFICATE-----\n` },
];
for (const c of cases) {
  test(`not a certificate: ${c.name}`, () => {
    assert.equal(readCertificatePem(c.pem), undefined);
    assert.equal(parseCsrPem(c.pem.replace(/CERTIFICATE/g, 'CERTIFICATE REQUEST')), undefined);
  });
}

test('parse throws DerError past the end of its input', () => {
  assert.throws(() => parse(Buffer.from([0x30])), DerError);
  assert.throws(() => parse(Buffer.from([0x30, 0x05, 0x01])), DerError);
});
