/**
 * A kubelet pointed at the wrong container runtime endpoint (its config file's
 * containerRuntimeEndpoint, or the deprecated --container-runtime-endpoint flag in
 * kubeadm-flags.env): cri-client's NewRemoteRuntimeService fails at start (validate service
 * connection, the gRPC dial error of a socket that does not exist), the kubelet exits and systemd
 * restarts it every 10 s, and the node goes NotReady once the node lifecycle controller's grace
 * period passes. The wording is upstream's, as kubelets print it (kubernetes/minikube#17170's
 * journal: `run.go] "command failed" err="failed to run Kubelet: validate service connection:
 * validate CRI v1 runtime API for endpoint \"…\": rpc error: …"`, preceded at each start by pflag's
 * deprecation notice of the flag).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

const WRONG = 'unix:///run/containerd/containerd.sockx';
const FAILED =
  '"command failed" err="failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint \\"unix:///run/containerd/containerd.sockx\\": rpc error: code = Unavailable desc = connection error: desc = \\"transport: Error while dialing: dial unix /run/containerd/containerd.sockx: connect: no such file or directory\\""';
const DEPRECATED = "Flag --container-runtime-endpoint has been deprecated, This parameter should be set via the config file specified by the Kubelet's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.";

async function nodeStatus(s: Session, node: string): Promise<string> {
  return (await s.exec(`kubectl get node ${node} --no-headers`)).stdout.split(/\s+/)[1] ?? '';
}

test("a wrong containerRuntimeEndpoint in the kubelet's config: it exits at start, the node goes NotReady, fixing it brings it back", async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-w1');
  await s.exec(`sed -i 's|^containerRuntimeEndpoint: .*|containerRuntimeEndpoint: ${WRONG}|' /var/lib/kubelet/config.yaml`);
  assert.match(s.cluster.host('cka-w1')!.fs.read('/var/lib/kubelet/config.yaml'), /containerRuntimeEndpoint: unix:\/\/\/run\/containerd\/containerd\.sockx\n/);
  await s.exec('systemctl restart kubelet');
  await s.exec('sleep 15');
  const journal = (await s.exec('journalctl -u kubelet --no-pager')).stdout;
  assert.ok(journal.includes(FAILED), journal.slice(-1500));
  assert.match(journal, /systemd\[1\]: kubelet\.service: Main process exited, code=exited, status=1\/FAILURE\n/);
  assert.doesNotMatch(journal, /Flag --container-runtime-endpoint/);
  assert.match((await s.exec('systemctl status kubelet')).stdout, /Active: activating \(auto-restart\) \(Result: exit-code\)/);
  await s.exec('exit');
  await s.exec('sleep 60');
  assert.equal(await nodeStatus(s, 'cka-w1'), 'NotReady');
  assert.match((await s.exec('kubectl describe node cka-w1')).stdout, /Kubelet stopped posting node status/);
  await s.exec('ssh cka-w1');
  await s.exec(`sed -i 's|^containerRuntimeEndpoint: .*|containerRuntimeEndpoint: unix:///var/run/containerd/containerd.sock|' /var/lib/kubelet/config.yaml`);
  await s.exec('systemctl restart kubelet');
  await s.exec('exit');
  await s.exec('sleep 20');
  assert.equal(await nodeStatus(s, 'cka-w1'), 'Ready');
});

test('--container-runtime-endpoint in kubeadm-flags.env wins over the file, with its deprecation notice at each start', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-w1');
  await s.exec(`sed -i 's|^KUBELET_KUBEADM_ARGS="|KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=${WRONG} |' /var/lib/kubelet/kubeadm-flags.env`);
  await s.exec('systemctl restart kubelet');
  await s.exec('sleep 12');
  const journal = (await s.exec('journalctl -u kubelet --no-pager')).stdout;
  const deprecations = journal.split('\n').filter((l) => l.endsWith(`: ${DEPRECATED}`));
  const failures = journal.split('\n').filter((l) => l.includes(FAILED));
  assert.equal(deprecations.length, 2, journal.slice(-2000));
  assert.equal(failures.length, 2);
  // the notice comes from the same process, just before its failure
  const lines = journal.split('\n');
  assert.ok(lines.indexOf(deprecations[1]!) === lines.indexOf(failures[1]!) - 1);
  assert.equal(/kubelet\[(\d+)\]/.exec(deprecations[1]!)?.[1], /kubelet\[(\d+)\]/.exec(failures[1]!)?.[1]);
  assert.doesNotMatch((await s.exec('ps aux')).stdout, /\/usr\/bin\/kubelet/, 'it exits at each start');
  // a flag naming containerd's socket (through /var/run) starts a healthy kubelet that still warns
  await s.exec(`sed -i 's|--container-runtime-endpoint=[^ ]* |--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock |' /var/lib/kubelet/kubeadm-flags.env`);
  await s.exec('systemctl restart kubelet');
  const healthy = (await s.exec('journalctl -u kubelet --no-pager')).stdout;
  assert.match(healthy, /"Started kubelet"\n/);
  assert.match(healthy.split('Started kubelet.service').pop()!, new RegExp(`kubelet\\[\\d+\\]: ${DEPRECATED.replace(/[.?*+^$()[\]{}|\\]/g, '\\$&')}\\n`));
  const tcp = await s.exec(`sed -i 's|--container-runtime-endpoint=[^ ]* |--container-runtime-endpoint=tcp://127.0.0.1:1234 |' /var/lib/kubelet/kubeadm-flags.env && systemctl restart kubelet && journalctl -u kubelet --no-pager | tail -3`);
  assert.match(tcp.stdout, /"command failed" err="failed to run Kubelet: only support unix socket endpoint"/);
});
