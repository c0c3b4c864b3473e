/**
 * kubeadm `--patches DIR` (kubeadm-patches.ts) on kubeadm-calico-v134: upgrade apply patches the
 * control-plane manifests, the kubelet configuration and the CoreDNS Deployment it writes, and the
 * kubelet runs the patched manifests; `init phase` and `join` patch what they write; malformed
 * patch files give kubeadm's errors and leave the node's files as they were. Goldens in testdata/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { goldenTranscript } from '../../../testing/transcripts.js';
import { Session } from '../../session.js';
import type { Deployment, Pod } from '../../../sim/api/types.js';
import type { Host } from '../../../sim/node/host.js';
import { goYamlKeyLess, kubeadmYaml, yamlAsJson } from './kubeadm-patches.js';

const NEW_KUBEADM = [
  "sed -i 's|/v1.34/|/v1.35/|' /etc/apt/sources.list.d/kubernetes.list",
  'apt-get update >/dev/null',
  'apt-mark unhold kubeadm >/dev/null',
  "apt-get install -y kubeadm='1.35.2-1.1' >/dev/null",
];

const FILES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'].map((c) => `/etc/kubernetes/manifests/${c}.yaml`).concat(['/var/lib/kubelet/config.yaml']);
const nodeFiles = (h: Host): string[] => FILES.map((f) => h.fs.read(f));

async function cp1(): Promise<{ s: Session; h: Host }> {
  const s = new Session(loadFixture('kubeadm-calico-v134', 1));
  await goldenTranscript(s, ['ssh cka-cp1', ...NEW_KUBEADM]);
  return { s, h: s.cluster.host('cka-cp1')! };
}

test('kubeadm writes its manifests and kubelet config as sigs.k8s.io/yaml does, so an unpatched file is unchanged by the round trip', () => {
  const h = loadFixture('kubeadm-calico-v134', 1).host('cka-cp1')!;
  for (const f of FILES) assert.equal(kubeadmYaml(yamlAsJson(h.fs.read(f))!), h.fs.read(f), f);
  // go-yaml v2 sorter.go: a non-letter before a letter, digit runs by value
  assert.deepEqual(['b', 'a1', 'a10', 'a2', 'a-b', 'aB'].sort((x, y) => (goYamlKeyLess(x, y) ? -1 : goYamlKeyLess(y, x) ? 1 : 0)), ['a-b', 'a1', 'a2', 'a10', 'aB', 'b']);
});

test('kubeadm upgrade apply --patches patches the manifests, the kubelet config and CoreDNS, and the kubelet runs the patched manifests', async () => {
  const { s, h } = await cp1();
  h.fs.write('/root/patches/kube-apiserver.yaml', 'spec:\n  containers:\n  - name: kube-apiserver\n    resources:\n      requests:\n        cpu: 300m\n');
  h.fs.write('/root/patches/etcd0+json.json', '[{"op": "add", "path": "/metadata/labels/patched", "value": "yes"}]\n');
  h.fs.write('/root/patches/kubeletconfiguration+merge.yaml', 'shutdownGracePeriod: 30s\n---\nshutdownGracePeriodCriticalPods: 10s\n');
  h.fs.write('/root/patches/corednsdeployment.yaml', 'spec:\n  template:\n    metadata:\n      annotations:\n        patched: "yes"\n');
  h.fs.write('/root/patches/README.md', 'notes\n');
  h.fs.write('/root/patches/scheduler.yaml', 'spec: {}\n');
  h.fs.write('/root/patches/kube-controller-manager.json', '');
  const text = await goldenTranscript(s, ['ls /root/patches', 'kubeadm upgrade apply --patches /root/patches -y v1.35.2']);
  assertGolden(goldenPath(import.meta.url, 'kubeadm-patches-upgrade.txt'), text);
  const api = h.fs.read('/etc/kubernetes/manifests/kube-apiserver.yaml');
  assert.match(api, /\n {4}resources:\n {6}requests:\n {8}cpu: 300m\n/);
  assert.match(api, /image: registry\.k8s\.io\/kube-apiserver:v1\.35\.2\n/);
  assert.match(h.fs.read('/etc/kubernetes/manifests/etcd.yaml'), /\n {4}patched: "yes"\n/);
  assert.match(h.fs.read('/var/lib/kubelet/config.yaml'), /\nshutdownGracePeriod: 30s\nshutdownGracePeriodCriticalPods: 10s\n/);
  // the instance configuration still applies after the user's patches
  assert.match(h.fs.read('/var/lib/kubelet/config.yaml'), /\ncontainerRuntimeEndpoint: unix:\/\/\/var\/run\/containerd\/containerd\.sock\n/);
  s.cluster.advance(30_000);
  const mirror = s.cluster.store.get<Pod>('Pod', 'kube-system', 'kube-apiserver-cka-cp1');
  assert.equal(mirror?.spec.containers[0]?.resources?.requests?.['cpu'], '300m');
  assert.equal(s.cluster.store.get<Pod>('Pod', 'kube-system', 'etcd-cka-cp1')?.metadata.labels?.['patched'], 'yes');
  assert.equal(s.cluster.store.get<Deployment>('Deployment', 'kube-system', 'coredns')?.spec.template.metadata?.annotations?.['patched'], 'yes');
});

test('kubeadm upgrade apply with a malformed patch directory stops with kubeadm’s error and leaves the manifests and the kubelet config as they were', async () => {
  const { s, h } = await cp1();
  const before = nodeFiles(h);
  const store = JSON.stringify(s.cluster.snapshot().store);
  h.fs.write('/root/bad-yaml/kube-scheduler.yaml', 'spec:\n  containers:\n  - name: kube-scheduler\n   image: x\n');
  h.fs.write('/root/bad-type/kube-apiserver+strategik.yaml', 'spec: {}\n');
  h.fs.write('/root/not-a-map/kube-controller-manager.yaml', '- a\n- b\n');
  h.fs.write('/root/bad-json-patch/etcd+json.yaml', 'op: add\n');
  h.fs.write('/root/bad-kubelet/kubeletconfiguration.yaml', '- 1\n');
  h.fs.write('/root/a-file', 'x\n');
  const text = await goldenTranscript(s, [
    'kubeadm upgrade apply v1.35.2 -y --patches /root/missing',
    'kubeadm upgrade apply v1.35.2 -y --patches /root/a-file',
    'kubeadm upgrade apply v1.35.2 -y --patches /root/bad-yaml',
    'kubeadm upgrade apply v1.35.2 -y --patches /root/bad-type',
    'kubeadm upgrade apply v1.35.2 -y --patches /root/not-a-map',
    'kubeadm upgrade apply v1.35.2 -y --patches /root/bad-json-patch',
  ]);
  assertGolden(goldenPath(import.meta.url, 'kubeadm-patches-errors.txt'), text.replace(/kubeadm-upgraded-manifests\d+/g, 'kubeadm-upgraded-manifestsNNN'));
  assert.deepEqual(nodeFiles(h), before);
  assert.equal(JSON.stringify(s.cluster.snapshot().store), store);
  // a kubelet patch that fails stops the kubelet-config phase before config.yaml is written
  const kubelet = await s.exec('kubeadm upgrade apply v1.35.2 -y --patches /root/bad-kubelet');
  assert.equal(kubelet.exitCode, 1);
  assert.match(kubelet.stderr, /^error execution phase kubelet-config: error writing kubelet configuration to file: could not apply patches to the KubeletConfiguration: could not apply the following patch of type "application\/strategic-merge-patch\+json" to target "kubeletconfiguration":\n\[1\]\n: invalid JSON document\n/m);
  assert.equal(h.fs.read('/var/lib/kubelet/config.yaml'), before[4]);
});

test('kubeadm init phase control-plane and etcd --patches patch each manifest after its Creating line; kubelet-start patches config.yaml', async () => {
  const { s, h } = await cp1();
  h.fs.write('/root/p/kube-apiserver+merge.yaml', 'metadata:\n  annotations:\n    patched: "yes"\n');
  h.fs.write('/root/p/kube-scheduler+json.yaml', '- op: replace\n  path: /spec/priority\n  value: 2000000000\n');
  h.fs.write('/root/p/etcd.yaml', 'metadata:\n  labels:\n    patched: "yes"\n');
  h.fs.write('/root/p/kubeletconfiguration.yaml', 'maxPods: 150\n');
  h.fs.write('/root/q/kube-controller-manager+json.yaml', '- op: test\n  path: /spec/hostNetwork\n  value: false\n');
  const text = await goldenTranscript(s, [
    'kubeadm init phase control-plane all --kubernetes-version v1.35.2 --patches /root/p',
    'kubeadm init phase etcd local --patches /root/p',
    'kubeadm init phase kubelet-start --patches /root/p',
    'kubeadm init phase control-plane controller-manager --kubernetes-version v1.35.2 --patches /root/q',
  ]);
  assertGolden(goldenPath(import.meta.url, 'kubeadm-patches-init.txt'), text);
  assert.match(h.fs.read('/etc/kubernetes/manifests/kube-apiserver.yaml'), /^ {2}annotations:\n[\s\S]*^ {4}patched: "yes"\n/m);
  assert.match(h.fs.read('/etc/kubernetes/manifests/kube-scheduler.yaml'), /\n {2}priority: 2000000000\n/);
  assert.match(h.fs.read('/var/lib/kubelet/config.yaml'), /\nmaxPods: 150\n/);
  assert.equal(h.fs.read('/var/lib/kubelet/kubeadm-flags.env'), `KUBELET_KUBEADM_ARGS="--node-ip=${h.ip}"\n`);
});

test('kubeadm join --patches patches the kubelet config before the instance configuration; kubeadm v1.35 writes no --pod-infra-container-image', async () => {
  const s = new Session(loadFixture('kubeadm-calico-v134', 1));
  const join = (await s.exec('ssh cka-cp1 kubeadm token create --print-join-command')).stdout.trim();
  await goldenTranscript(s, ['ssh cka-w3', 'sysctl -w net.ipv4.ip_forward=1 >/dev/null']);
  const w3 = s.cluster.host('cka-w3')!;
  w3.fs.write('/root/p/kubeletconfiguration+json.yaml', '- op: add\n  path: /maxPods\n  value: 50\n');
  w3.fs.write('/root/p/kube-apiserver.yaml', 'spec: {}\n');
  const r = await s.exec(`${join} --patches /root/p`);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /\[kubelet-start\] Writing kubelet configuration to file "\/var\/lib\/kubelet\/instance-config\.yaml"\n\[patches\] Reading patches from path "\/root\/p"\n\[patches\] Found the following patch files: \[kube-apiserver\.yaml kubeletconfiguration\+json\.yaml\]\n\[patches\] Applied patch of type "application\/json-patch\+json" to target "kubeletconfiguration"\n\[patches\] Applied patch of type "application\/strategic-merge-patch\+json" to target "kubeletconfiguration"\n\[kubelet-start\] Writing kubelet configuration to file "\/var\/lib\/kubelet\/config\.yaml"\n/);
  assert.match(w3.fs.read('/var/lib/kubelet/config.yaml'), /\nmaxPods: 50\n/);
  assert.match(w3.fs.read('/var/lib/kubelet/config.yaml'), /\ncontainerRuntimeEndpoint: unix:\/\/\/var\/run\/containerd\/containerd\.sock\n/);
  // the fixture's kubeadm is v1.34: it still passes the pause image
  assert.match(w3.fs.read('/var/lib/kubelet/kubeadm-flags.env'), /--pod-infra-container-image=registry\.k8s\.io\/pause:3\.10\.1"/);

  // with kubeadm v1.35 the flag is gone (kubernetes PR #133778); a patch that fails stops kubelet-start before config.yaml
  const t = new Session(loadFixture('kubeadm-calico-v134', 1));
  const join2 = (await t.exec('ssh cka-cp1 kubeadm token create --print-join-command')).stdout.trim();
  await goldenTranscript(t, ['ssh cka-w3', 'sysctl -w net.ipv4.ip_forward=1 >/dev/null', ...NEW_KUBEADM]);
  const h3 = t.cluster.host('cka-w3')!;
  h3.fs.write('/root/bad/kubeletconfiguration+merge.yaml', 'true\n');
  const bad = await t.exec(`${join2} --patches /root/bad`);
  assert.equal(bad.exitCode, 1);
  assert.equal(bad.stderr.split('\n').slice(0, 3).join('\n'), 'error execution phase kubelet-start: could not apply patches to the KubeletConfiguration: could not apply the following patch of type "application/merge-patch+json" to target "kubeletconfiguration":\ntrue\n: Invalid JSON Patch');
  assert.equal(h3.fs.exists('/var/lib/kubelet/config.yaml'), false);
  assert.equal(h3.fs.exists('/var/lib/kubelet/kubeadm-flags.env'), false);
  // the failed join left its bootstrap kubeconfig and CA behind, as kubeadm's does
  const ok = await t.exec(`${join2} --ignore-preflight-errors=all`);
  assert.equal(ok.exitCode, 0, ok.stderr);
  assert.equal(h3.fs.read('/var/lib/kubelet/kubeadm-flags.env'), `KUBELET_KUBEADM_ARGS="--node-ip=${h3.ip}"\n`);
});

test('kubeadm upgrade apply --dry-run --patches prints the patched manifests and kubelet config and writes nothing', async () => {
  const { s, h } = await cp1();
  h.fs.write('/root/p/kube-apiserver.yaml', 'spec:\n  containers:\n  - name: kube-apiserver\n    resources:\n      requests:\n        cpu: 300m\n');
  h.fs.write('/root/p/kubeletconfiguration+merge.yaml', 'maxPods: 150\n');
  const before = nodeFiles(h);
  const r = await s.exec('kubeadm upgrade apply v1.35.2 --dry-run --patches /root/p');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /\[dryrun\] Would upgrade your static Pod-hosted control plane to version "v1\.35\.2"\[patches\] Reading patches from path "\/root\/p"\n\[patches\] Found the following patch files: \[kube-apiserver\.yaml kubeletconfiguration\+merge\.yaml\]\n\[patches\] Applied patch of type "application\/strategic-merge-patch\+json" to target "kube-apiserver"\n\[dryrun\] Would write file "\/etc\/kubernetes\/manifests\/kube-apiserver\.yaml" with content:\n[\s\S]*?\n {8}cpu: 300m\n/);
  assert.match(r.stdout, /\[patches\] Applied patch of type "application\/merge-patch\+json" to target "kubeletconfiguration"\n\[patches\] Applied patch of type "application\/strategic-merge-patch\+json" to target "kubeletconfiguration"\n\[kubelet-start\] Writing kubelet configuration to file "\/etc\/kubernetes\/tmp\/kubeadm-upgrade-dryrun\d+\/config\.yaml"\n\[dryrun\] Would write file "\/var\/lib\/kubelet\/config\.yaml" with content:\n[\s\S]*\nmaxPods: 150\n/);
  assert.deepEqual(nodeFiles(h), before);
});

test('kubeadm --patches walks a directory as filepath.Walk does: a symbolic link back up the tree is an entry, not a loop', async () => {
  const { s, h } = await cp1();
  h.fs.write('/root/loop/sub/etcd.yaml', 'metadata:\n  labels:\n    patched: "yes"\n');
  h.fs.symlink('/root/loop', '/root/loop/sub/up');
  const r = await s.exec('kubeadm init phase etcd local --patches /root/loop');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /\[patches\] Found the following patch files: \[etcd\.yaml\]\n/);
  assert.match(h.fs.read('/etc/kubernetes/manifests/etcd.yaml'), /\n {4}patched: "yes"\n/);
});
