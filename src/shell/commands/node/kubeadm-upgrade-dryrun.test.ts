/**
 * `kubeadm upgrade apply|node --dry-run` (kubeadm-upgrade-dryrun.ts): the phases' `[dryrun]` lines
 * (golden), and nothing changes: every object, every node's files and packages are the same after.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { Session } from '../../session.js';
import { goldenTranscript } from '../../../testing/transcripts.js';

const transcript = goldenTranscript;

/** What the node and the API hold: the store, each host (files, units, packages) and the meta. */
function saved(s: Session): string {
  const snap = s.cluster.snapshot();
  return JSON.stringify({ store: snap.store, hosts: snap.hosts, meta: snap.meta });
}

const NEW_KUBEADM = [
  "sed -i 's|/v1.34/|/v1.35/|' /etc/apt/sources.list.d/kubernetes.list",
  'apt-get update >/dev/null',
  'apt-mark unhold kubeadm >/dev/null',
  "apt-get install -y kubeadm='1.35.2-1.1' >/dev/null",
];

test('kubeadm upgrade apply --dry-run prints what it would do and changes nothing', async () => {
  const s = new Session(loadFixture('kubeadm-calico-v134', 1));
  await transcript(s, ['ssh cka-cp1', ...NEW_KUBEADM]);
  const before = saved(s);
  const text = await transcript(s, ['kubeadm upgrade apply v1.35.2 --dry-run', 'kubeadm upgrade node --dry-run']);
  assert.equal(saved(s), before);
  assertGolden(goldenPath(import.meta.url, 'kubeadm-upgrade-dryrun-cp.txt'), text);
  // a skew error still stops it, as in the real run
  const skew = await s.exec('kubeadm upgrade apply v1.36.0 --dry-run');
  assert.equal(skew.exitCode, 1);
  assert.match(skew.stderr, /FATAL: the version argument is invalid due to these fatal errors/);
});

test('kubeadm upgrade node --dry-run on a worker prints the kubelet config it would write and changes nothing', async () => {
  const s = new Session(loadFixture('kubeadm-calico-v134', 1));
  await transcript(s, ['ssh cka-w1', ...NEW_KUBEADM]);
  const before = saved(s);
  const text = await transcript(s, ['kubeadm upgrade node --dry-run']);
  assert.equal(saved(s), before);
  assertGolden(goldenPath(import.meta.url, 'kubeadm-upgrade-dryrun-worker.txt'), text);
});

test('kubeadm upgrade apply with a certificate it cannot read for renewal rolls the moved manifests back and stops (staticpods.go renewCertsByComponent, rollbackOldManifests)', async () => {
  const s = new Session(loadFixture('kubeadm-calico-v134', 1));
  await transcript(s, ['ssh cka-cp1', ...NEW_KUBEADM]);
  const fs = s.cluster.host('cka-cp1')!.fs;
  const before = { etcd: fs.read('/etc/kubernetes/manifests/etcd.yaml'), api: fs.read('/etc/kubernetes/manifests/kube-apiserver.yaml'), kcm: fs.read('/etc/kubernetes/manifests/kube-controller-manager.yaml') };
  await s.exec('cp /etc/kubernetes/pki/apiserver.crt /root/apiserver.crt');
  await s.exec('echo garbage > /etc/kubernetes/pki/apiserver.crt');
  const r = await s.exec('kubeadm upgrade apply v1.35.2 -y');
  assert.equal(r.exitCode, 1);
  assert.match(r.stdout, /\[upgrade\/staticpods\] Preparing for "kube-apiserver" upgrade\n\[upgrade\/staticpods\] Renewing apiserver certificate\n$/);
  const backup = /backing up old manifest to "(\/etc\/kubernetes\/tmp\/kubeadm-backup-manifests-[-\d]+)\/etcd\.yaml"/.exec(r.stdout)![1]!;
  assert.equal(
    r.stderr,
    `error execution phase control-plane: couldn't complete the static pod upgrade: couldn't upgrade control plane. kubeadm has tried to recover everything into the earlier state. Errors faced: [failed to renew certificates for component "kube-apiserver": failed to load existing certificate apiserver: error reading /etc/kubernetes/pki/apiserver.crt: data does not contain any valid RSA or ECDSA certificates, rename ${backup}/kube-apiserver.yaml /etc/kubernetes/manifests/kube-apiserver.yaml: no such file or directory]\nTo see the stack trace of this error execute with --v=5 or higher\n`,
  );
  // etcd was upgraded before and is not rolled back for another component's failure; the others are untouched
  assert.notEqual(fs.read('/etc/kubernetes/manifests/etcd.yaml'), before.etcd);
  assert.equal(fs.read('/etc/kubernetes/manifests/kube-apiserver.yaml'), before.api);
  assert.equal(fs.read('/etc/kubernetes/manifests/kube-controller-manager.yaml'), before.kcm);
  // a missing kubeconfig of the controller manager: kube-apiserver, already moved, goes back
  await s.exec('cp /root/apiserver.crt /etc/kubernetes/pki/apiserver.crt');
  await s.exec('mv /etc/kubernetes/controller-manager.conf /root/');
  const r2 = await s.exec('kubeadm upgrade apply v1.35.2 -y');
  assert.equal(r2.exitCode, 1);
  assert.match(r2.stderr, /Errors faced: \[failed to renew certificates for component "kube-controller-manager": failed to load kubeConfig file \/etc\/kubernetes\/controller-manager\.conf: open \/etc\/kubernetes\/controller-manager\.conf: no such file or directory, rename \S+\/kube-controller-manager\.yaml \/etc\/kubernetes\/manifests\/kube-controller-manager\.yaml: no such file or directory\]\n/);
  assert.equal(fs.read('/etc/kubernetes/manifests/kube-apiserver.yaml'), before.api);
});
