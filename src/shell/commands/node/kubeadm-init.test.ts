/** kubeadm init phase upload-certs, certs certificate-key and the control-plane join command. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDecipheriv } from 'node:crypto';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import type { KObject } from '../../../sim/api/types.js';

/** cryptoutil.DecryptBytes: nonce (12 bytes), sealed data, 16-byte tag. */
function decrypt(b64: string, keyHex: string): string {
  const raw = Buffer.from(b64, 'base64');
  const d = createDecipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]).toString('utf8');
}

test('upload-certs stores the shared keys encrypted under the printed certificate key', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const skipped = await s.exec('kubeadm init phase upload-certs');
  assert.equal(skipped.stdout, '[upload-certs] Skipping phase. Please see --upload-certs\n');
  assert.equal(s.cluster.store.get('Secret', 'kube-system', 'kubeadm-certs'), undefined);
  const r = await s.exec('kubeadm init phase upload-certs --upload-certs');
  const m = /^\[upload-certs\] Storing the certificates in Secret "kubeadm-certs" in the "kube-system" Namespace\n\[upload-certs\] Using certificate key:\n([0-9a-f]{64})\n$/.exec(r.stdout);
  assert.ok(m, r.stdout);
  const key = m[1]!;
  const secret = s.cluster.store.get<KObject & { data: Record<string, string> }>('Secret', 'kube-system', 'kubeadm-certs')!;
  assert.deepEqual(Object.keys(secret.data).sort(), ['ca.crt', 'ca.key', 'etcd-ca.crt', 'etcd-ca.key', 'front-proxy-ca.crt', 'front-proxy-ca.key', 'sa.key', 'sa.pub']);
  assert.equal(decrypt(secret.data['ca.crt']!, key), s.cluster.host('cka-cp1')!.fs.read('/etc/kubernetes/pki/ca.crt'));
  // a key of one's own, made by `certs certificate-key`, and a quiet upload
  const own = (await s.exec('kubeadm certs certificate-key')).stdout.trim();
  assert.match(own, /^[0-9a-f]{64}$/);
  assert.notEqual(own, key);
  const quiet = await s.exec(`kubeadm init phase upload-certs --upload-certs --certificate-key ${own} --skip-certificate-key-print`);
  assert.equal(quiet.stdout, '[upload-certs] Storing the certificates in Secret "kubeadm-certs" in the "kube-system" Namespace\n');
  const again = s.cluster.store.get<KObject & { data: Record<string, string> }>('Secret', 'kube-system', 'kubeadm-certs')!;
  assert.equal(decrypt(again.data['etcd-ca.key']!, own), s.cluster.host('cka-cp1')!.fs.read('/etc/kubernetes/pki/etcd/ca.key'));
  const bad = await s.exec('kubeadm init phase upload-certs --upload-certs --certificate-key xyz');
  assert.equal(bad.exitCode, 1);
  assert.match(bad.stderr, /error decoding certificate key: encoding\/hex: invalid byte: U\+0078 'x'/);
  // each upload made a two-hour proxy token that owns the Secret
  const list = (await s.exec('kubeadm token list')).stdout;
  assert.equal(list.match(/ 1h +\S+ +<none> +Proxy for managing TTL for the kubeadm-certs secret +<none>\n/g)?.length, 2, list);
  const owner = again.metadata.ownerReferences?.[0];
  assert.ok(owner?.controller && s.cluster.store.get('Secret', 'kube-system', owner.name)?.metadata.uid === owner.uid);
});

test('token create --print-join-command --certificate-key prints a control-plane join', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const key = 'ab'.repeat(32);
  const r = await s.exec(`kubeadm token create --print-join-command --certificate-key ${key}`);
  assert.match(r.stdout, new RegExp(`^kubeadm join 192\\.168\\.122\\.11:6443 --token [a-z0-9]{6}\\.[a-z0-9]{16} --discovery-token-ca-cert-hash sha256:[0-9a-f]{64} --control-plane --certificate-key ${key}\\n$`));
  const worker = await s.exec('kubeadm token create --print-join-command');
  assert.match(worker.stdout, /--discovery-token-ca-cert-hash sha256:[0-9a-f]{64} \n$/);
});
