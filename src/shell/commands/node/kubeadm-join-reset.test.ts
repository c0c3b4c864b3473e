/**
 * `kubeadm join phase …` and `kubeadm reset [phase …]` on kubeadm-calico-v134 (kubeadm-join.ts,
 * kubeadm-reset.ts): the join's phases one at a time do what the whole join does, each printing
 * its own lines; reset's phases run alone, --dry-run only says what it would do. Golden in testdata/.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { Session } from '../../session.js';
import type { Node } from '../../../sim/api/types.js';

async function transcript(s: Session, lines: string[]): Promise<string> {
  let out = '';
  for (const l of lines) {
    const r = await s.exec(l);
    out += `$ ${l}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}--- exit ${r.exitCode}\n`;
  }
  return out;
}

const session = (): Session => new Session(loadFixture('kubeadm-calico-v134', 1));
const ready = (s: Session, n: string): string | undefined => s.cluster.store.get<Node>('Node', undefined, n)?.status?.conditions?.find((c) => c.type === 'Ready')?.status;

describe('kubeadm join and reset phases', () => {
  it('join phase by phase: preflight writes nothing, kubelet-start starts the kubelet and leaves the bootstrap kubeconfig; a Ready node of the name refuses kubelet-start', async () => {
    const s = session();
    const join = (await s.exec('ssh cka-cp1 kubeadm token create --print-join-command')).stdout.trim().replace(/^kubeadm join /, '');
    await s.exec('ssh cka-w3');
    await s.exec('sysctl -w net.ipv4.ip_forward=1');
    const w3 = s.cluster.host('cka-w3')!;
    const pre = await s.exec(`kubeadm join phase preflight ${join}`);
    assert.equal(pre.exitCode, 0, pre.stderr);
    assert.equal(w3.fs.exists('/etc/kubernetes/kubelet.conf'), false);
    assert.equal(w3.fs.exists('/var/lib/kubelet/config.yaml'), false);
    const text = await transcript(s, [
      `kubeadm join phase control-plane-prepare all ${join}`,
      `kubeadm join phase kubelet-start ${join}`,
    ]);
    assert.ok(w3.fs.exists('/etc/kubernetes/bootstrap-kubelet.conf'));
    assert.match(w3.fs.read('/etc/kubernetes/bootstrap-kubelet.conf'), /^current-context: tls-bootstrap-token-user@kubernetes\n[\s\S]*^ {4}token: [a-z0-9]{6}\.[a-z0-9]{16}\n/m);
    assert.equal(w3.fs.stat('/etc/kubernetes/bootstrap-kubelet.conf')!.mode, 0o600);
    assert.ok(w3.fs.exists('/etc/kubernetes/kubelet.conf'));
    s.cluster.advance(60_000);
    assert.equal(ready(s, 'cka-w3'), 'True');
    // kubelet-wait-bootstrap inherits no discovery flags: alone (without --config) newJoinData refuses it;
    // a Ready Node of this name makes kubelet-start refuse (kubelet.go runKubeletStartJoinPhase), even with the preflight errors ignored
    const rest = await transcript(s, ['kubeadm join phase kubelet-wait-bootstrap', `kubeadm join ${join} --ignore-preflight-errors=all`]);
    assertGolden(goldenPath(import.meta.url, 'kubeadm-join-phases.txt'), `$ kubeadm join phase preflight …\n${pre.stdout}${text}${rest}`.replaceAll(join, 'ENDPOINT --token … --discovery-token-ca-cert-hash …'));
    assert.match(rest, /\nerror execution phase kubelet-start: a Node with name "cka-w3" and status "Ready" already exists in the cluster\. You must delete the existing Node or change the name of this new joining Node\n/);
  });

  it('a join phase validates discovery first; --control-plane is not simulated', async () => {
    const s = session();
    await s.exec('ssh cka-w3');
    const r = await s.exec('kubeadm join phase kubelet-start 192.168.122.11:6443');
    assert.equal(r.stderr.split('\n')[0], 'discovery: Invalid value: "": bootstrapToken or file must be set');
    const wrong = await s.exec('kubeadm join phase kubelet-start 192.168.122.11:6443 --token abcdef.0123456789abcdef --discovery-token-unsafe-skip-ca-verification');
    assert.equal(wrong.stderr.split('\n')[0], 'error execution phase kubelet-start: couldn\'t validate the identity of the API Server: could not find a JWS signature in the cluster-info ConfigMap for token ID "abcdef"');
    assert.equal(s.cluster.host('cka-w3')!.fs.exists('/var/lib/kubelet/config.yaml'), false);
    const cp = await s.exec('kubeadm join phase preflight 192.168.122.11:6443 --token abcdef.0123456789abcdef --discovery-token-unsafe-skip-ca-verification --control-plane');
    assert.equal(cp.exitCode, 1);
    assert.match(cp.stderr, /--control-plane is not simulated/);
  });

  it('reset phases: dry-run changes nothing, preflight asks, remove-etcd-member and cleanup-node clean', async () => {
    const s = session();
    await s.exec('ssh cka-w1');
    const w1 = s.cluster.host('cka-w1')!;
    const before = w1.fs.read('/etc/kubernetes/kubelet.conf');
    const text = await transcript(s, [
      'kubeadm reset phase cleanup-node --dry-run --cleanup-tmp-dir',
      'echo n | kubeadm reset phase preflight',
      'kubeadm reset phase preflight --force',
      'kubeadm reset phase remove-etcd-member',
      'exit',
      'ssh cka-cp1',
      'kubeadm reset phase remove-etcd-member --dry-run',
      'kubeadm reset --dry-run',
    ]);
    assert.equal(w1.fs.read('/etc/kubernetes/kubelet.conf'), before);
    assert.ok(w1.unitActive('kubelet'));
    const cp = s.cluster.host('cka-cp1')!;
    assert.ok(cp.fs.exists('/etc/kubernetes/manifests/etcd.yaml'));
    assert.ok(cp.fs.list('/var/lib/etcd').length > 0, 'the etcd data directory is kept by --dry-run');
    await s.exec('exit');
    await s.exec('ssh cka-w1');
    const cleanup = await transcript(s, ['kubeadm reset phase cleanup-node']);
    assertGolden(goldenPath(import.meta.url, 'kubeadm-reset-phases.txt'), text + cleanup);
    assert.equal(w1.fs.exists('/etc/kubernetes/kubelet.conf'), false);
    assert.equal(w1.unitActive('kubelet'), false);
    assert.deepEqual(w1.fs.list('/etc/kubernetes/pki'), []);
    assert.ok(w1.fs.isDir('/etc/kubernetes/pki'), 'CleanDir keeps the directory');
  });

  it('kubeadm reset on the control plane empties the etcd data directory it read from kubeadm-config', async () => {
    const s = session();
    await s.exec('ssh cka-cp1');
    const r = await s.exec('kubeadm reset -f');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /^\[reset\] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"\.\.\.\n/);
    assert.match(r.stdout, /\n\[preflight\] Running pre-flight checks\n\[reset\] Deleted contents of the etcd data directory: \/var\/lib\/etcd\n\[reset\] Stopping the kubelet service\n/);
    assert.equal(r.stderr, '');
    const cp = s.cluster.host('cka-cp1')!;
    assert.deepEqual(cp.fs.list('/var/lib/etcd'), []);
    assert.deepEqual(cp.fs.list('/etc/kubernetes/manifests'), []);
  });
});
