/** kubeadm certs check-expiration and renew on the kubeadm-calico fixture's control plane. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import { createPrivateKey } from 'node:crypto';
import { issuedBy, keyMatches, readCertificatePem } from '../../../sim/pki/x509.js';
import type { ConfigMap } from '../../../sim/api/types.js';
import { expires } from './kubeadm-certs.js';
import { clusterConfiguration } from './kubeadm-lib.js';
import { parse as parseYaml } from 'yaml';

test('check-expiration prints both tables; renew gives a new NotAfter signed by the same CA', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const before = await s.exec('kubeadm certs check-expiration');
  assert.match(before.stdout, /\nCERTIFICATE {16}EXPIRES {18}RESIDUAL TIME {3}CERTIFICATE AUTHORITY {3}EXTERNALLY MANAGED\nadmin\.conf {17}Nov 27, 2027 06:00 UTC {3}359d {12}ca {22}no {6}\n/);
  assert.match(before.stdout, /\nCERTIFICATE AUTHORITY {3}EXPIRES {18}RESIDUAL TIME {3}EXTERNALLY MANAGED\nca {22}Nov 24, 2036 06:00 UTC {3}9y {14}no {6}\n/);
  const r = await s.exec('kubeadm certs renew apiserver');
  assert.match(r.stdout, /\ncertificate for serving the Kubernetes API renewed\n$/);
  const cp = s.cluster.host('cka-cp1')!;
  const cert = readCertificatePem(cp.fs.read('/etc/kubernetes/pki/apiserver.crt'))!;
  assert.equal(new Date(cert.notAfter).toISOString(), '2027-12-02T10:00:00.000Z');
  assert.ok(issuedBy(cert, readCertificatePem(cp.fs.read('/etc/kubernetes/pki/ca.crt'))!));
  assert.ok(cert.dnsNames.includes('kubernetes.default.svc.cluster.local'));
  const all = await s.exec('kubeadm certs renew all');
  assert.match(all.stdout, /Done renewing certificates\./);
  const after = await s.exec('kubeadm certs check-expiration');
  assert.match(after.stdout, /\nsuper-admin\.conf {11}Dec 02, 2027 10:00 UTC/);
  // the renewed admin.conf still authenticates as kubernetes-admin
  const who = await s.exec('kubectl --kubeconfig /etc/kubernetes/admin.conf auth whoami');
  assert.match(who.stdout, /Username {44}kubernetes-admin\n/);
  assert.equal((await s.exec('kubeadm certs renew nope')).exitCode, 1);
});

test("renew writes a new key of the cluster's encryptionAlgorithm beside the certificate, and the certificate is for that key", async () => {
  for (const { algorithm, pem } of [
    { algorithm: undefined, pem: '-----BEGIN RSA PRIVATE KEY-----' },
    { algorithm: 'RSA-3072', pem: '-----BEGIN RSA PRIVATE KEY-----' },
    { algorithm: 'ECDSA-P256', pem: '-----BEGIN EC PRIVATE KEY-----' },
    { algorithm: 'ECDSA-P384', pem: '-----BEGIN EC PRIVATE KEY-----' },
  ]) {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    if (algorithm) {
      const cm = s.cluster.store.get<ConfigMap>('ConfigMap', 'kube-system', 'kubeadm-config')!;
      s.cluster.write({ ...cm, data: { ...cm.data, ClusterConfiguration: `${cm.data!['ClusterConfiguration']!.replace(/^encryptionAlgorithm: .*\n/m, '')}encryptionAlgorithm: ${algorithm}\n` } });
    }
    await s.exec('ssh cka-cp1');
    const cp = s.cluster.host('cka-cp1')!;
    const oldKey = cp.fs.read('/etc/kubernetes/pki/apiserver.key');
    const oldAdmin = cp.fs.read('/etc/kubernetes/admin.conf');
    const r = await s.exec('kubeadm certs renew all');
    assert.equal(r.exitCode, 0, `${algorithm}: ${r.stderr}`);
    const key = cp.fs.stat('/etc/kubernetes/pki/apiserver.key')!;
    assert.notEqual(key.content, oldKey, `${algorithm}: a new key`);
    assert.ok(key.content.startsWith(pem), `${algorithm}: ${key.content.split('\n')[0]}`);
    assert.equal(key.mode, 0o600);
    assert.ok(keyMatches(readCertificatePem(cp.fs.read('/etc/kubernetes/pki/apiserver.crt'))!, key.content), `${algorithm}: the certificate is for the new key`);
    if (algorithm === 'RSA-3072') assert.equal(createPrivateKey(key.content).asymmetricKeyDetails?.modulusLength, 3072);
    if (algorithm === 'ECDSA-P384') assert.equal(createPrivateKey(key.content).asymmetricKeyDetails?.namedCurve, 'secp384r1');
    // a kubeconfig's embedded key is renewed with its certificate
    const data = (text: string, field: string): string => Buffer.from(new RegExp(`${field}: (\\S+)`).exec(text)?.[1] ?? '', 'base64').toString();
    const admin = cp.fs.read('/etc/kubernetes/admin.conf');
    assert.notEqual(data(admin, 'client-key-data'), data(oldAdmin, 'client-key-data'), `${algorithm}: admin.conf has a new key`);
    assert.ok(keyMatches(readCertificatePem(data(admin, 'client-certificate-data'))!, data(admin, 'client-key-data')), `${algorithm}: admin.conf's certificate is for its key`);
    const who = await s.exec('kubectl --kubeconfig /etc/kubernetes/admin.conf auth whoami');
    assert.match(who.stdout, /Username {44}kubernetes-admin\n/, `${algorithm}: ${who.stderr}`);
  }
});

test('renew: a missing certificate is MISSING! and skipped; one that holds no PEM certificate fails with Read\'s error and changes nothing', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const cp = s.cluster.host('cka-cp1')!;
  await s.exec('rm /etc/kubernetes/pki/apiserver.crt');
  const missing = await s.exec('kubeadm certs renew apiserver');
  assert.equal(missing.exitCode, 0, missing.stderr);
  assert.match(missing.stdout, /\nMISSING! certificate for serving the Kubernetes API\n$/);
  assert.equal(cp.fs.exists('/etc/kubernetes/pki/apiserver.crt'), false, 'nothing is made in its place');
  const all = await s.exec('kubeadm certs renew all');
  assert.equal(all.exitCode, 0, all.stderr);
  assert.match(all.stdout, /\ncertificate embedded in the kubeconfig file for the admin to use and for kubeadm itself renewed\nMISSING! certificate for serving the Kubernetes API\ncertificate the apiserver uses to access etcd renewed\n/);
  // a garbled file
  await s.exec('echo garbage > /etc/kubernetes/pki/apiserver.crt');
  const key = cp.fs.read('/etc/kubernetes/pki/apiserver.key');
  const r = await s.exec('kubeadm certs renew apiserver');
  assert.equal(r.exitCode, 1);
  assert.equal(r.stderr, 'failed to load existing certificate apiserver: error reading /etc/kubernetes/pki/apiserver.crt: data does not contain any valid RSA or ECDSA certificates\nTo see the stack trace of this error execute with --v=5 or higher\n');
  assert.equal(cp.fs.read('/etc/kubernetes/pki/apiserver.crt'), 'garbage\n');
  assert.equal(cp.fs.read('/etc/kubernetes/pki/apiserver.key'), key);
});

test('expires: Go\'s Jan 02, 2006 15:04 UTC, the month as en-US short names it, in every month', () => {
  for (let m = 0; m < 12; m++) {
    const ms = Date.UTC(2027, m, 3, 4, 5, 59);
    assert.equal(expires(ms).split(' ')[0], new Date(ms).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' }));
  }
  assert.equal(expires(Date.UTC(2036, 10, 24, 6, 0)), 'Nov 24, 2036 06:00 UTC');
  assert.equal(expires(Date.UTC(2027, 8, 1, 23, 9)), 'Sep 01, 2027 23:09 UTC');
});

test('clusterConfiguration: each call its own copy of the parsed ClusterConfiguration (it comes from the YAML memo)', () => {
  const c = loadFixture('kubeadm-calico', 1);
  const a = clusterConfiguration(c)!;
  a.doc['kubernetesVersion'] = 'changed';
  (a.doc['networking'] as Record<string, unknown>)['podSubnet'] = 'changed';
  const b = clusterConfiguration(c)!;
  assert.notEqual(b.doc['kubernetesVersion'], 'changed');
  assert.notEqual((b.doc['networking'] as Record<string, unknown>)['podSubnet'], 'changed');
  assert.deepEqual(b.doc, parseYaml(b.cm.data!['ClusterConfiguration']!));
});
