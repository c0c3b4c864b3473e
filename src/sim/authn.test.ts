/**
 * authenticateRemembered (authn.ts): one kubectl command after another asks who its client
 * certificate proves; the answer is kept while the clock stays inside the certificate's validity
 * and the control plane's files stand, and is asked again past either edge or after a change.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { ManualClock } from '../util/clock.js';
import { authenticate, authenticateRemembered } from './authn.js';
import { readCertificatePem } from './pki/x509.js';

test('authenticateRemembered: the same user while the clock is inside the certificate window, none past its edges or after the client CA changes', () => {
  const c = loadFixture('kubeadm-calico', 1);
  const cp = c.host(c.meta.controlPlane)!;
  const conf = cp.fs.tryRead('/etc/kubernetes/admin.conf')!;
  const pem = Buffer.from(/client-certificate-data: (\S+)/.exec(conf)![1]!, 'base64').toString();
  const cert = readCertificatePem(pem)!;
  const creds = { clientCertificate: pem };
  const at = (ms: number): void => {
    c.clock = new ManualClock(ms);
  };
  const start = c.now();
  const u = authenticateRemembered(c, creds);
  assert.ok(u && u.username === 'kubernetes-admin');
  assert.deepEqual(u, authenticate(c, creds));
  assert.ok(Object.isFrozen(u) && Object.isFrozen(u.groups), 'shared, so read-only');
  at(start + 3_600_000);
  assert.equal(authenticateRemembered(c, creds), u, 'an hour later, inside the window: the remembered answer');
  at(cert.notAfter);
  assert.equal(authenticateRemembered(c, creds), u, 'notAfter itself is still valid (now > notAfter fails)');
  at(cert.notAfter + 1);
  assert.equal(authenticate(c, creds), undefined);
  assert.equal(authenticateRemembered(c, creds), undefined, 'past notAfter the certificate no longer verifies');
  at(cert.notBefore - 1);
  assert.equal(authenticateRemembered(c, creds), undefined, 'before notBefore neither');
  at(cert.notBefore);
  assert.deepEqual(authenticateRemembered(c, creds), u);
  at(start);
  const again = authenticateRemembered(c, creds);
  assert.deepEqual(again, u);
  assert.equal(authenticateRemembered(c, creds), again);
  // another CA in the file --client-ca-file names: the certificate no longer chains to it
  cp.fs.write('/etc/kubernetes/pki/ca.crt', cp.fs.tryRead('/etc/kubernetes/pki/front-proxy-ca.crt')!);
  assert.equal(authenticate(c, creds), undefined);
  assert.equal(authenticateRemembered(c, creds), undefined, 'a changed client CA file is read again');
  // no certificate, no token: anonymous, whatever the time
  assert.equal(authenticateRemembered(c, {})?.username, 'system:anonymous');
});
