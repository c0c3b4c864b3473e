/** kubeadm init phase certs NAME|all and kubeconfig NAME|all on the fixture's control plane. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import { issuedBy, readCertificatePem } from '../../../sim/pki/x509.js';

test('certs all keeps every certificate kubeadm made; a removed etcd-server certificate is signed again by the etcd CA', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const all = await s.exec('kubeadm init phase certs all');
  assert.equal(
    all.stdout,
    [
      '[certs] Using certificateDir folder "/etc/kubernetes/pki"',
      '[certs] Using existing ca certificate authority',
      '[certs] Using existing apiserver certificate and key on disk',
      '[certs] Using existing apiserver-kubelet-client certificate and key on disk',
      '[certs] Using existing front-proxy-ca certificate authority',
      '[certs] Using existing front-proxy-client certificate and key on disk',
      '[certs] Using existing etcd/ca certificate authority',
      '[certs] Using existing etcd/server certificate and key on disk',
      '[certs] Using existing etcd/peer certificate and key on disk',
      '[certs] Using existing etcd/healthcheck-client certificate and key on disk',
      '[certs] Using existing apiserver-etcd-client certificate and key on disk',
      '[certs] Using the existing "sa" key',
      '',
    ].join('\n'),
  );
  const fs = s.cluster.host('cka-cp1')!.fs;
  const before = fs.read('/etc/kubernetes/pki/etcd/server.crt');
  await s.exec('rm /etc/kubernetes/pki/etcd/server.crt /etc/kubernetes/pki/etcd/server.key');
  await s.exec('sleep 60');
  const r = await s.exec('kubeadm init phase certs etcd-server');
  assert.equal(r.stdout, '[certs] Generating "etcd/server" certificate and key\n[certs] etcd/server serving cert is signed for DNS names [cka-cp1 localhost] and IPs [192.168.122.11 127.0.0.1 ::1]\n');
  const cert = readCertificatePem(fs.read('/etc/kubernetes/pki/etcd/server.crt'))!;
  assert.notEqual(fs.read('/etc/kubernetes/pki/etcd/server.crt'), before);
  assert.ok(issuedBy(cert, readCertificatePem(fs.read('/etc/kubernetes/pki/etcd/ca.crt'))!));
  assert.ok(!issuedBy(cert, readCertificatePem(fs.read('/etc/kubernetes/pki/ca.crt'))!));
  assert.equal((await s.exec('kubeadm init phase certs apiserver-kubelet-client')).stdout, '[certs] Using existing apiserver-kubelet-client certificate and key on disk\n');
  const dry = await s.exec('kubeadm init phase certs all --dry-run');
  assert.equal(dry.exitCode, 1);
});

test('kubeconfig admin: an existing file is validated, a removed one is written again with a working client certificate', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  assert.equal((await s.exec('kubeadm init phase kubeconfig admin')).stdout, '[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/admin.conf"\n');
  await s.exec('rm /etc/kubernetes/admin.conf');
  assert.equal((await s.exec('kubeadm init phase kubeconfig admin')).stdout, '[kubeconfig] Writing "admin.conf" kubeconfig file\n');
  const r = await s.exec('kubectl --kubeconfig /etc/kubernetes/admin.conf get nodes --no-headers');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /^cka-cp1 +Ready/);
  const who = await s.exec('kubectl --kubeconfig /etc/kubernetes/admin.conf auth whoami -o jsonpath={.status.userInfo.username}');
  assert.equal(who.stdout, 'kubernetes-admin');
  await s.exec("sed -i 's|server: https://.*|server: https://10.0.0.1:6443|' /etc/kubernetes/scheduler.conf");
  const bad = await s.exec('kubeadm init phase kubeconfig all');
  assert.equal(bad.exitCode, 1);
  assert.equal(bad.stdout, '[kubeconfig] Using kubeconfig folder "/etc/kubernetes"\n[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/admin.conf"\n[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/super-admin.conf"\n[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/kubelet.conf"\n[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/controller-manager.conf"\n');
  assert.match(bad.stderr, /^error execution phase kubeconfig\/scheduler: a kubeconfig file "\/etc\/kubernetes\/scheduler\.conf" exists already but has got the wrong API Server URL\n/);
});
