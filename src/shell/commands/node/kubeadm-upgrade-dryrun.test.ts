/**
 * `kubeadm upgrade apply|node --dry-run` (kubeadm-upgrade-dryrun.ts): the phases' `[dryrun]` lines
 * (golden), and nothing changes: every object, every node's files and packages are the same after.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { Session } from '../../session.js';

async function transcript(s: Session, lines: string[]): Promise<string> {
  let out = '';
  for (const l of lines) {
    const r = await s.exec(l);
    out += `$ ${l}\n${r.stdout}${r.stderr}${r.exitCode ? `[exit ${r.exitCode}]\n` : ''}`;
  }
  return out;
}

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

test('kubeadm upgrade node ends with the addon phase, as cmd/upgrade/node.go prints nothing after its phases', async () => {
  const s = new Session(loadFixture('kubeadm-calico-v134', 1));
  await transcript(s, ['ssh cka-w1', ...NEW_KUBEADM]);
  const r = await s.exec('kubeadm upgrade node');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /\[upgrade\/kubelet-config\] The kubelet configuration for this node was successfully upgraded!\n\[upgrade\/addon\] Skipping the addon\/coredns phase\. Not a control plane node\.\n\[upgrade\/addon\] Skipping the addon\/kube-proxy phase\. Not a control plane node\.\n$/);
});
