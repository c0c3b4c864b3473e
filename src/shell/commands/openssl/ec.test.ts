/**
 * EC (P-256) keys end to end: `openssl ecparam -genkey`, `genpkey -algorithm EC`, `req -newkey ec`
 * give keys from the seeded random source (the same seed, the same key), requests and certificates
 * signed with them are ecdsa-with-SHA256 and verify, and the ECDSA nonce is RFC 6979's (its P-256
 * / SHA-256 test vector, RFC 6979 A.2.5 "sample"). The printed layouts are goldens in
 * openssl.test.ts (cases 47–74, recorded from OpenSSL 3.0.19).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, verify } from 'node:crypto';
import { Vfs } from '../../../sim/node/vfs.js';
import { openssl } from '../openssl.js';
import type { CommandResult } from '../../types.js';
import { loadFixture } from '../../../testing/fixtures.js';
import { ecdsaSignSha256, p256KeyFromScalar } from '../../../sim/pki/ec.js';
import { parse } from '../../../sim/pki/der.js';
import { issuedBy, readCertificatePem } from '../../../sim/pki/x509.js';
import { parseCsrPem } from '../../../sim/pki/csr.js';

function session(): { fs: Vfs; run: (argv: string[]) => CommandResult } {
  const c = loadFixture('kubeadm-calico', 1);
  const cp = c.host(c.meta.controlPlane)!;
  const fs = new Vfs({ files: {}, dirs: ['/', '/root'] }, () => 0);
  fs.write('/root/ca.crt', cp.fs.read('/etc/kubernetes/pki/ca.crt'));
  fs.write('/root/ca.key', cp.fs.read('/etc/kubernetes/pki/ca.key'));
  const run = (argv: string[]): CommandResult => openssl({ argv: ['openssl', ...argv], stdin: '', env: {}, cwd: '/root', user: 'root', fs, location: { kind: 'workstation', host: 'ws' }, now: () => c.now(), cluster: c }) as CommandResult;
  return { fs, run };
}

test('RFC 6979 A.2.5: P-256, SHA-256, message "sample" gives the published r and s', () => {
  const key = p256KeyFromScalar(0xc9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721n);
  const sig = parse(ecdsaSignSha256(key, Buffer.from('sample')));
  const [r, s] = sig.children!.map((n) => n.body.toString('hex').replace(/^00/, '').toUpperCase());
  assert.equal(r, 'EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716');
  assert.equal(s, 'F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8');
});

test('ecparam -genkey and genpkey -algorithm EC: P-256 keys, the same for the same seed, mode 0600', () => {
  const a = session();
  const b = session();
  assert.deepEqual(a.run(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'k.pem']), { stdout: '', stderr: '', exitCode: 0 });
  b.run(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'k.pem']);
  const k = a.fs.read('/root/k.pem');
  assert.match(k, /^-----BEGIN EC PRIVATE KEY-----\n/);
  assert.equal(k, b.fs.read('/root/k.pem'));
  assert.equal(createPrivateKey(k).asymmetricKeyDetails?.namedCurve, 'prime256v1');
  assert.equal((a.fs.stat('/root/k.pem')?.mode ?? 0) & 0o777, 0o600);
  // a second key differs from the first
  const g = a.run(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256']);
  assert.equal(g.exitCode, 0);
  assert.match(g.stdout, /^-----BEGIN PRIVATE KEY-----\n/);
  assert.notEqual(createPublicKey(g.stdout).export({ format: 'jwk' }).x, createPublicKey(k).export({ format: 'jwk' }).x);
  const withParams = a.run(['ecparam', '-name', 'prime256v1', '-genkey']);
  assert.match(withParams.stdout, /^-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n-----BEGIN EC PRIVATE KEY-----\n/);
  assert.equal(a.run(['ecparam', '-name', 'secp256r1', '-genkey', '-noout']).stderr, 'using curve name prime256v1 instead of secp256r1\n');
});

test('an EC key → request → certificate signed by the cluster CA (RSA) and by an EC CA', () => {
  const { fs, run } = session();
  run(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'jane.key']);
  assert.deepEqual(run(['req', '-new', '-key', 'jane.key', '-subj', '/CN=jane/O=dev', '-out', 'jane.csr']), { stdout: '', stderr: '', exitCode: 0 });
  const csr = parseCsrPem(fs.read('/root/jane.csr'))!;
  assert.ok(csr.signatureOk);
  assert.equal(csr.signatureAlgorithm, '1.2.840.10045.4.3.2');
  const text = run(['req', '-in', 'jane.csr', '-noout', '-text']).stdout;
  assert.match(text, /Public Key Algorithm: id-ecPublicKey\n {16}Public-Key: \(256 bit\)\n {16}pub:\n {20}04:/);
  assert.match(text, /ASN1 OID: prime256v1\n {16}NIST CURVE: P-256\n/);
  assert.match(text, /\n {4}Signature Algorithm: ecdsa-with-SHA256\n/);
  // the cluster CA signs with RSA
  const r = run(['x509', '-req', '-in', 'jane.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'jane.crt', '-days', '5']);
  assert.equal(r.stderr, 'Certificate request self-signature ok\nsubject=CN = jane, O = dev\n');
  const cert = readCertificatePem(fs.read('/root/jane.crt'))!;
  assert.ok(issuedBy(cert, readCertificatePem(fs.read('/root/ca.crt'))!));
  assert.equal(cert.publicKeyAlgorithm, '1.2.840.10045.2.1');
  const ct = run(['x509', '-in', 'jane.crt', '-noout', '-text']).stdout;
  assert.match(ct, / {8}Signature Algorithm: sha256WithRSAEncryption\n/);
  assert.match(ct, /Public Key Algorithm: id-ecPublicKey\n/);
  // an EC CA: self-signed with req -x509, then signing the request
  run(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'eca.key']);
  assert.equal(run(['req', '-x509', '-new', '-key', 'eca.key', '-subj', '/CN=ec-ca', '-days', '10', '-out', 'eca.crt']).exitCode, 0);
  const eca = readCertificatePem(fs.read('/root/eca.crt'))!;
  assert.equal(eca.signatureAlgorithm, '1.2.840.10045.4.3.2');
  assert.ok(issuedBy(eca, eca));
  assert.equal(run(['x509', '-req', '-in', 'jane.csr', '-CA', 'eca.crt', '-CAkey', 'eca.key', '-CAcreateserial', '-out', 'jane2.crt']).exitCode, 0);
  const c2 = readCertificatePem(fs.read('/root/jane2.crt'))!;
  assert.ok(issuedBy(c2, eca));
  assert.ok(verify('sha256', c2.tbs, createPublicKey({ key: eca.spki, format: 'der', type: 'spki' }), c2.signature));
  assert.match(run(['x509', '-in', 'jane2.crt', '-noout', '-text']).stdout, / {8}Signature Algorithm: ecdsa-with-SHA256\n[\s\S]* {4}Signature Algorithm: ecdsa-with-SHA256\n {4}Signature Value:\n {8}30:4[45]:02:/);
});

test('req -newkey ec: a P-256 key in -keyout, only the separator on stderr; the same bytes for the same seed', () => {
  const a = session();
  const b = session();
  const argv = ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'e.key', '-subj', '/CN=e', '-out', 'e.csr'];
  assert.deepEqual(a.run(argv), { stdout: '', stderr: '-----\n', exitCode: 0 });
  b.run(argv);
  assert.equal(a.fs.read('/root/e.csr'), b.fs.read('/root/e.csr'));
  assert.equal(createPrivateKey(a.fs.read('/root/e.key')).asymmetricKeyType, 'ec');
  assert.deepEqual(a.run(['req', '-newkey', 'ec', '-nodes', '-keyout', 'x.key', '-subj', '/CN=e']), { stdout: '', stderr: 'req: Error generating ec key\n', exitCode: 1 });
});
