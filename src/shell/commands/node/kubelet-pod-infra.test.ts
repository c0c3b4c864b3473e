/**
 * kubelet v1.35 without --pod-infra-container-image (kubernetes PR #133779): a node whose
 * kubeadm-flags.env still carries kubeadm v1.34's flag runs a v1.35 kubelet only after
 * `kubeadm upgrade node` (v1.35) removed it (phases/upgrade/postupgrade.go); before, the kubelet
 * exits on pflag's error at every start (cmd/kubelet/app/server.go "failed to parse kubelet flag").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { goldenTranscript } from '../../../testing/transcripts.js';
import { Session } from '../../session.js';

const TO_135 = ["sed -i 's|/v1.34/|/v1.35/|' /etc/apt/sources.list.d/kubernetes.list", 'apt-get update >/dev/null'];

test('a v1.35 kubelet started with kubeadm v1.34 flags exits on --pod-infra-container-image until kubeadm upgrade node cleans kubeadm-flags.env', async () => {
  const s = new Session(loadFixture('kubeadm-calico-v134', 1));
  await goldenTranscript(s, ['ssh cka-w1', ...TO_135, "apt-get install -y --allow-change-held-packages kubelet='1.35.2-1.1' >/dev/null", 'systemctl restart kubelet']);
  s.cluster.advance(5_000);
  const j = await s.exec('journalctl -u kubelet -n 3 --no-pager');
  assert.match(j.stdout, /"command failed" err="failed to parse kubelet flag: unknown flag: --pod-infra-container-image"\n/);
  assert.match((await s.exec('systemctl status kubelet --no-pager')).stdout, /\n {5}Active: activating \(auto-restart\) \(Result: exit-code\)/);
  await goldenTranscript(s, ["apt-get install -y --allow-change-held-packages kubeadm='1.35.2-1.1' >/dev/null"]);
  const up = await s.exec('kubeadm upgrade node');
  assert.equal(up.exitCode, 0, up.stderr);
  assert.doesNotMatch(s.cluster.host('cka-w1')!.fs.read('/var/lib/kubelet/kubeadm-flags.env'), /pod-infra/);
  await s.exec('systemctl restart kubelet');
  s.cluster.advance(5_000);
  assert.match((await s.exec('systemctl status kubelet --no-pager')).stdout, /\n {5}Active: active \(running\)/);
});
