/**
 * What the recorded goldens can only check by shape: the certificates parse (node:crypto's
 * X509Certificate) with the fields getBaseCertTemplate sets, a signed certificate verifies
 * against its CA, the keys are the types genPrivateKey names, bcrypt hashes verify, and the same
 * seed gives the same output.
 */
import assert from 'node:assert/strict';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { test } from 'node:test';
import { bcryptVerify } from '../../util/bcrypt.js';
import { Random } from '../../util/random.js';
import { GoTemplate } from './index.js';
import { sprigFuncs } from './sprig.js';

const NOW = Date.UTC(2026, 0, 15, 10, 0, 0);
const run = (text: string, seed = 1): string => {
  const rng = new Random(seed);
  return GoTemplate.parse('t', text, sprigFuncs(() => rng.nextU32() / 2 ** 32, () => NOW)).execute(null);
};

test('genCA and genSignedCert make certificates that verify', () => {
  const out = run('{{ $ca := genCA "my-ca" 365 }}{{ $c := genSignedCert "web" (list "10.0.0.1") (list "web.local") 30 $ca }}{{ $ca.Cert }}@{{ $c.Cert }}@{{ $c.Key }}');
  const [caPem, certPem, keyPem] = out.split('@') as [string, string, string];
  const ca = new X509Certificate(caPem);
  const cert = new X509Certificate(certPem);
  assert.equal(ca.subject, 'CN=my-ca');
  assert.ok(ca.ca);
  assert.equal(ca.validFrom, 'Jan 15 10:00:00 2026 GMT');
  assert.equal(ca.validTo, 'Jan 15 10:00:00 2027 GMT');
  assert.equal(cert.subject, 'CN=web');
  assert.equal(cert.issuer, 'CN=my-ca');
  assert.ok(!cert.ca);
  assert.equal(cert.subjectAltName, 'DNS:web.local, IP Address:10.0.0.1');
  assert.ok(cert.verify(ca.publicKey));
  assert.ok(cert.checkPrivateKey(createPrivateKey(keyPem)));
  assert.match(keyPem, /^-----BEGIN RSA PRIVATE KEY-----\n/);
});

test('the certificate functions are reproducible from the seed', () => {
  const t = '{{ (genSelfSignedCert "x" nil nil 1).Cert }}{{ encryptAES "k" "v" }}{{ bcrypt "pw" }}';
  assert.equal(run(t, 7), run(t, 7));
  assert.notEqual(run(t, 7), run(t, 8));
});

test('genPrivateKey key types', () => {
  assert.equal(createPrivateKey(run('{{ genPrivateKey "ecdsa" }}')).asymmetricKeyDetails?.namedCurve, 'prime256v1');
  assert.equal(createPrivateKey(run('{{ genPrivateKey "ed25519" }}')).asymmetricKeyType, 'ed25519');
  assert.equal(createPrivateKey(run('{{ genPrivateKey "rsa" }}')).asymmetricKeyDetails?.modulusLength, 4096);
});

test('bcrypt and htpasswd hashes verify', () => {
  assert.ok(bcryptVerify(run('{{ bcrypt "secret" }}'), Buffer.from('secret')));
  const [user, hash] = run('{{ htpasswd "me" "pw" }}').split(':') as [string, string];
  assert.equal(user, 'me');
  assert.ok(bcryptVerify(hash, Buffer.from('pw')));
});

test('genPrivateKey: the same seed gives the same key (the pool, sim/pki/sprig-keys.ts)', () => {
  for (const t of ['rsa', 'dsa', 'ecdsa', 'ed25519']) assert.equal(run(`{{ genPrivateKey "${t}" }}`), run(`{{ genPrivateKey "${t}" }}`), t);
});
