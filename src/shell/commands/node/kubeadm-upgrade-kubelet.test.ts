/**
 * `kubeadm upgrade node|apply`'s kubelet-config phase and kubeadm v1.35's post-upgrade phase
 * (phases/upgrade/postupgrade.go WriteKubeletConfigFiles and RemoveKubeletArgsFromFile,
 * phases/kubelet/config.go WriteConfigToDisk with the NodeLocalCRISocket instance configuration).
 * The expected lines are those of a real upgrade of a kubeadm v1.34.0 cluster (a worker's
 * `kubeadm upgrade node` with kubeadm 1.34.0 and then 1.35.0, recorded 2026-06-08), with this
 * lab's clock, node names and temporary-directory digits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

const NEW_KUBEADM = [
  "sed -i 's|/v1.34/|/v1.35/|' /etc/apt/sources.list.d/kubernetes.list",
  'apt-get update >/dev/null',
  'apt-mark unhold kubeadm >/dev/null',
  "apt-get install -y kubeadm='1.35.2-1.1' >/dev/null",
];

const HEAD = `[upgrade] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...
[upgrade] Use 'kubeadm init phase upload-config kubeadm --config your-config-file' to re-upload it.
[upgrade/preflight] Running pre-flight checks
[upgrade/preflight] Skipping prepull. Not a control plane node.
[upgrade/control-plane] Skipping phase. Not a control plane node.
[upgrade/kubeconfig] Skipping phase. Not a control plane node.
`;
const SKIP_ADDONS = `[upgrade/addon] Skipping the addon/coredns phase. Not a control plane node.
[upgrade/addon] Skipping the addon/kube-proxy phase. Not a control plane node.
`;
const PATCHED = `[patches] Applied patch of type "application/strategic-merge-patch+json" to target "kubeletconfiguration"
[kubelet-start] Writing kubelet configuration to file "/var/lib/kubelet/config.yaml"
[upgrade/kubelet-config] The kubelet configuration for this node was successfully upgraded!
`;

test('kubeadm v1.34 upgrade node on a worker: the instance configuration is applied as a patch; a random backup directory (postupgrade.go:116)', async () => {
  const s = new Session(loadFixture('kubeadm-calico-v134', 1));
  await s.exec('ssh cka-w1');
  const r = await s.exec('kubeadm upgrade node');
  assert.equal(r.exitCode, 0, r.stderr);
  const dir = /kubeadm-kubelet-config(\d{10})/.exec(r.stderr)?.[1];
  assert.ok(dir, r.stderr);
  assert.equal(r.stdout, `${HEAD}[upgrade] Backing up kubelet config file to /etc/kubernetes/tmp/kubeadm-kubelet-config${dir}/config.yaml\n${PATCHED}${SKIP_ADDONS}`);
  assert.equal(r.stderr, `W1202 10:00:00.000000    4000 postupgrade.go:116] Using temporary directory /etc/kubernetes/tmp/kubeadm-kubelet-config${dir} for kubelet config. To override it set the environment variable KUBEADM_UPGRADE_DRYRUN_DIR\n`);
});

test('kubeadm v1.35 upgrade node on a worker: a time-stamped backup (postupgrade.go:105), then the post-upgrade phase drops --pod-infra-container-image from kubeadm-flags.env', async () => {
  const s = new Session(loadFixture('kubeadm-calico-v134', 1));
  await s.exec('ssh cka-w1');
  for (const l of NEW_KUBEADM) await s.exec(l);
  const fs = s.cluster.host('cka-w1')!.fs;
  const flags = fs.read('/var/lib/kubelet/kubeadm-flags.env');
  const r = await s.exec('kubeadm upgrade node');
  assert.equal(r.exitCode, 0, r.stderr);
  const env = /kubeadm-kubelet-env(\d{10})/.exec(r.stderr)?.[1];
  assert.ok(env, r.stderr);
  const cfgDir = '/etc/kubernetes/tmp/kubeadm-kubelet-config-2026-12-02-10-00-00';
  assert.equal(
    r.stdout,
    `${HEAD}[upgrade] Backing up kubelet config file to ${cfgDir}/config.yaml\n${PATCHED}${SKIP_ADDONS}` +
      `[upgrade] Backing up kubelet env file to /etc/kubernetes/tmp/kubeadm-kubelet-env${env}/kubeadm-flags.env\n` +
      '[kubelet-start] Writing kubelet environment file with flags to file "/var/lib/kubelet/kubeadm-flags.env"\n',
  );
  assert.equal(
    r.stderr,
    `W1202 10:00:00.000000    4000 postupgrade.go:105] Using temporary directory ${cfgDir} for kubelet config. To override it set the environment variable KUBEADM_UPGRADE_DRYRUN_DIR\n` +
      `W1202 10:00:00.000000    4000 postupgrade.go:203] Using temporary directory /etc/kubernetes/tmp/kubeadm-kubelet-env${env} for kubelet env file. To override it set the environment variable KUBEADM_UPGRADE_DRYRUN_DIR\n`,
  );
  assert.match(flags, /--pod-infra-container-image=/);
  assert.equal(fs.read(`/etc/kubernetes/tmp/kubeadm-kubelet-env${env}/kubeadm-flags.env`), flags);
  assert.equal(fs.read('/var/lib/kubelet/kubeadm-flags.env'), flags.replace(/ --pod-infra-container-image=\S+(?=")/, ''));
  assert.equal(fs.read('/var/lib/kubelet/kubeadm-flags.env'), 'KUBELET_KUBEADM_ARGS="--node-ip=192.168.122.21"\n');
  // the instance configuration's endpoint is now in config.yaml (the strategic merge patch)
  assert.match(fs.read('/var/lib/kubelet/config.yaml'), /^containerRuntimeEndpoint: unix:\/\/\/var\/run\/containerd\/containerd\.sock$/m);
  assert.ok(fs.exists(`${cfgDir}/config.yaml`));
});

test('upgrade node without instance-config.yaml: kubeadm creates it from kubeadm-flags.env (the flag leaves that file) before the patch', async () => {
  const s = new Session(loadFixture('kubeadm-calico-v134', 1));
  await s.exec('ssh cka-w1');
  await s.exec('rm /var/lib/kubelet/instance-config.yaml');
  await s.exec(`echo 'KUBELET_KUBEADM_ARGS="--node-ip=192.168.122.21 --container-runtime-endpoint=unix:///run/containerd/containerd.sock"' > /var/lib/kubelet/kubeadm-flags.env`);
  const r = await s.exec('kubeadm upgrade node');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(
    r.stdout,
    /config\.yaml\n\[kubelet-start\] Writing kubelet environment file with flags to file "\/var\/lib\/kubelet\/kubeadm-flags\.env"\n\[kubelet-start\] Writing kubelet configuration to file "\/var\/lib\/kubelet\/instance-config\.yaml"\n\[patches\] Applied patch/,
  );
  const fs = s.cluster.host('cka-w1')!.fs;
  assert.equal(fs.read('/var/lib/kubelet/instance-config.yaml'), 'containerRuntimeEndpoint: "unix:///run/containerd/containerd.sock"\n');
  assert.equal(fs.read('/var/lib/kubelet/kubeadm-flags.env'), 'KUBELET_KUBEADM_ARGS="--node-ip=192.168.122.21"\n');
  assert.match(fs.read('/var/lib/kubelet/config.yaml'), /^containerRuntimeEndpoint: unix:\/\/\/run\/containerd\/containerd\.sock$/m);
});
