/**
 * kubeadm init|join|reset and their phases as cobra answers them (kubeadm-phases-spec.ts). The
 * golden holds what the lab prints; its help texts were checked against a Go program that builds
 * the same command tree with the real spf13/cobra and spf13/pflag (see the commit message).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { Session } from '../../session.js';

const LINES = [
  'kubeadm reset -h',
  'kubeadm init phase -h',
  'kubeadm init phase',
  'kubeadm init phase nope',
  ...['preflight', 'certs', 'kubeconfig', 'kubelet-start', 'control-plane', 'etcd', 'upload-config', 'upload-certs', 'mark-control-plane', 'bootstrap-token', 'kubelet-finalize', 'addon'].map((p) => `kubeadm init phase ${p} -h`),
  'kubeadm init phase certs',
  'kubeadm init phase certs extra',
  'kubeadm init phase certs apiserver --help',
  'kubeadm init phase kubeconfig admin -h',
  'kubeadm init phase certs apiserver --bogus',
  'kubeadm join phase -h',
  'kubeadm join phase control-plane-prepare -h',
  'kubeadm help init phase kubelet-finalize enable-client-cert-rotation',
];

test('kubeadm init, join and reset phases: help and command-line errors', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  let out = '';
  for (const l of LINES) {
    const r = await s.exec(l);
    out += `$ ${l}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}--- exit ${r.exitCode}\n`;
  }
  assertGolden(goldenPath(import.meta.url, 'kubeadm-phases.txt'), out);
});

test('a phase only kubeadm declares is refused, the help does not run it, reset phase --dry-run does not reset', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const before = s.cluster.host('cka-cp1')!.fs.read('/etc/kubernetes/pki/apiserver.crt');
  s.cluster.host('cka-cp1')!.fs.remove('/etc/kubernetes/pki/apiserver.crt');
  assert.equal((await s.exec('kubeadm init phase certs apiserver -h')).exitCode, 0);
  assert.equal(s.cluster.host('cka-cp1')!.fs.tryRead('/etc/kubernetes/pki/apiserver.crt'), undefined);
  assert.match((await s.exec('kubeadm init phase certs apiserver')).stdout, /^\[certs\] Generating "apiserver" certificate and key\n/);
  assert.notEqual(s.cluster.host('cka-cp1')!.fs.read('/etc/kubernetes/pki/apiserver.crt'), before);
  // reset's phases run (kubeadm-join-reset.test.ts); --dry-run only says what cleanup-node would delete
  const r = await s.exec('kubeadm reset phase cleanup-node --dry-run');
  assert.equal(r.exitCode, 0);
  assert.ok(s.cluster.host('cka-cp1')!.fs.exists('/etc/kubernetes/manifests/kube-apiserver.yaml'));
});
