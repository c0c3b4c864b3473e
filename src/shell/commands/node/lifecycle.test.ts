/**
 * Cluster lifecycle on kubeadm-calico-v134: packages (apt/dpkg), kubeadm upgrade of the control
 * plane, and kubeadm join of the machine that is not part of the cluster yet. Goldens in testdata/.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { Session } from '../../session.js';
import { goldenTranscript } from '../../../testing/transcripts.js';
import type { ConfigMap, Deployment, Node } from '../../../sim/api/types.js';

const transcript = goldenTranscript;

const session = (): Session => new Session(loadFixture('kubeadm-calico-v134', 1));
const nodeOf = (s: Session, n: string): Node | undefined => s.cluster.store.get<Node>('Node', undefined, n);

describe('cluster lifecycle on kubeadm-calico-v134', () => {
  it('packages and the control plane upgrade', async () => {
    const s = session();
    const text = await transcript(s, [
      'ssh cka-cp1',
      'kubeadm version',
      'apt-cache madison kubeadm',
      'dpkg -l | grep kube',
      'kubeadm upgrade plan',
      "sed -i 's|/v1.34/|/v1.35/|' /etc/apt/sources.list.d/kubernetes.list",
      'apt-cache madison kubeadm',
      'apt-get update',
      'apt-cache madison kubeadm',
      'kubeadm upgrade apply v1.35.2 -y',
      "apt-get install -y kubeadm='1.35.2-1.1'",
      'apt-mark unhold kubeadm',
      "apt-get install -y kubeadm='1.35.2-1.1'",
      'apt-mark hold kubeadm',
      'kubeadm version -o short',
      'kubeadm upgrade plan',
      'kubeadm upgrade apply v1.36.0 -y',
      'kubeadm upgrade apply v1.35.2 -y',
      'kubectl version',
      "apt-get install -y --allow-change-held-packages kubelet='1.35.2-1.1'",
      'kubelet --version',
      'kubectl get nodes',
      'systemctl daemon-reload',
      'systemctl restart kubelet',
      'kubectl get nodes',
      'apt list --installed',
      'apt-mark showhold',
    ]);
    assertGolden(goldenPath(import.meta.url, 'lifecycle-upgrade.txt'), text);
  });

  it('upgrade apply to v1.35 keeps a modified Corefile (no migration from CoreDNS 1.12.1 to 1.13.1) and moves the CoreDNS image', async () => {
    const s = session();
    await s.exec('ssh cka-cp1');
    const corefile = '.:53 {\n    errors\n    health\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods insecure\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    hosts {\n        10.0.0.1 db.example\n        fallthrough\n    }\n    forward . 8.8.8.8\n    cache 30\n    loop\n    reload\n}\n';
    const cm = s.cluster.store.get<ConfigMap>('ConfigMap', 'kube-system', 'coredns')!;
    s.cluster.write({ ...cm, data: { ...cm.data, Corefile: corefile } });
    for (const l of ["sed -i 's|/v1.34/|/v1.35/|' /etc/apt/sources.list.d/kubernetes.list", 'apt-get update', 'apt-mark unhold kubeadm', "apt-get install -y kubeadm='1.35.2-1.1'"]) await s.exec(l);
    const r = await s.exec('kubeadm upgrade apply v1.35.2 -y');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.ok(!r.stdout.includes('Migrating CoreDNS Corefile'));
    const after = s.cluster.store.get<ConfigMap>('ConfigMap', 'kube-system', 'coredns')!;
    assert.deepEqual(Object.keys(after.data ?? {}), ['Corefile'], 'no Corefile-backup');
    assert.equal(after.data!['Corefile'], corefile);
    const dep = s.cluster.store.get<Deployment>('Deployment', 'kube-system', 'coredns')!;
    assert.equal(dep.spec.template.spec!.containers[0]!.image, 'registry.k8s.io/coredns/coredns:v1.13.1');
  });

  it('the node VERSION follows the running kubelet, not the installed package', async () => {
    const s = session();
    await s.exec('ssh cka-w1');
    await s.exec("sed -i 's|/v1.34/|/v1.35/|' /etc/apt/sources.list.d/kubernetes.list");
    await s.exec('apt-get update');
    // kubeadm v1.35's upgrade node first: it takes --pod-infra-container-image, which the v1.35 kubelet no longer has, out of kubeadm-flags.env
    await s.exec("apt-get install -y --allow-change-held-packages kubeadm='1.35.2-1.1'");
    assert.equal((await s.exec('kubeadm upgrade node')).exitCode, 0);
    await s.exec("apt-get install -y --allow-change-held-packages kubelet='1.35.2-1.1'");
    s.cluster.advance(60_000);
    assert.equal(nodeOf(s, 'cka-w1')?.status?.nodeInfo?.kubeletVersion, 'v1.34.3');
    await s.exec('systemctl restart kubelet');
    assert.equal(nodeOf(s, 'cka-w1')?.status?.nodeInfo?.kubeletVersion, 'v1.35.2');
  });

  it("upgrade apply renews the components' certificates and admin.conf with new keys, unless --certificate-renewal=false", async () => {
    for (const renew of [true, false]) {
      const s = session();
      const cp = s.cluster.host('cka-cp1')!;
      const files = ['/etc/kubernetes/pki/apiserver.crt', '/etc/kubernetes/pki/apiserver.key', '/etc/kubernetes/pki/etcd/peer.key', '/etc/kubernetes/admin.conf', '/etc/kubernetes/scheduler.conf'];
      const before = files.map((f) => cp.fs.read(f));
      const superAdmin = cp.fs.read('/etc/kubernetes/super-admin.conf');
      const r = await s.exec(`ssh cka-cp1 kubeadm upgrade apply v1.34.3 -y${renew ? '' : ' --certificate-renewal=false'}`);
      assert.equal(r.exitCode, 0, r.stderr);
      assert.equal(r.stdout.includes('[upgrade/staticpods] Renewing apiserver certificate\n'), renew);
      files.forEach((f, i) => assert.equal(cp.fs.read(f) !== before[i], renew, `${f} renewed: ${renew}`));
      assert.equal(cp.fs.read('/etc/kubernetes/super-admin.conf'), superAdmin, 'super-admin.conf is not renewed by an upgrade');
    }
  });

  it('token, preflight errors and join of cka-w3', async () => {
    const s = session();
    assert.equal(nodeOf(s, 'cka-w3'), undefined);
    const text = await transcript(s, [
      'ssh cka-cp1',
      'kubeadm token list',
      'kubeadm token create --print-join-command',
      'kubeadm token list',
      'exit',
      'ssh cka-w3',
      'kubeadm join 192.168.122.11:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:00',
      // warnings print as their checks run, before the errors that fail the phase
      'systemctl disable kubelet',
      'touch /swap.img; swapon /swap.img',
      'kubeadm join 192.168.122.11:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:00 --ignore-preflight-errors=filecontent--proc-sys-net-ipv4-ip_forward',
      'swapoff -a; systemctl enable kubelet',
      'sysctl -w net.ipv4.ip_forward=1',
      'kubeadm join 192.168.122.11:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:00',
    ]);
    assertGolden(goldenPath(import.meta.url, 'lifecycle-join-errors.txt'), text);
    const join = (await s.exec('ssh cka-cp1 kubeadm token create --print-join-command')).stdout.trim();
    const r = await s.exec(join);
    assert.equal(r.exitCode, 0, r.stderr);
    // the kubelet's TLS bootstrap leaves its own kubeconfig (bootstrap.go writeKubeconfigFromBootstrapping), 0600, with the cluster CA
    const conf = s.cluster.host('cka-w3')!.fs.stat('/etc/kubernetes/kubelet.conf')!;
    assert.equal(conf.mode, 0o600);
    // kubelet-wait-bootstrap removed the token kubeconfig kubelet-start wrote
    assert.equal(s.cluster.host('cka-w3')!.fs.exists('/etc/kubernetes/bootstrap-kubelet.conf'), false);
    assert.match(conf.content, /^ {2}name: default-cluster\n[\s\S]*^current-context: default-context\n[\s\S]*^- name: default-auth\n/m);
    const ca = /certificate-authority-data: (\S+)/.exec(conf.content)?.[1] ?? '';
    assert.equal(Buffer.from(ca, 'base64').toString(), s.cluster.host('cka-cp1')!.fs.tryRead('/etc/kubernetes/pki/ca.crt'));
    s.cluster.advance(60_000);
    const ready = nodeOf(s, 'cka-w3')?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
    assert.equal(ready, 'True');
    const gen = await s.exec('ssh cka-cp1 kubeadm token generate');
    assert.match(gen.stdout, /^[a-z0-9]{6}\.[a-z0-9]{16}\n$/, 'token generate prints a token');
    assert.ok(!(await s.exec('ssh cka-cp1 kubeadm token list')).stdout.includes(gen.stdout.trim()), 'and does not create it');
    const made = await s.exec(`ssh cka-cp1 kubeadm token create ${gen.stdout.trim()} --ttl 90m`);
    assert.equal(made.stdout, gen.stdout, 'token create takes the generated token');
    assert.match((await s.exec('ssh cka-cp1 kubeadm token list')).stdout, new RegExp(`^${gen.stdout.trim().replace('.', '\\.')}\\s+1h\\s`, 'm'));
    assert.equal((await s.exec('kubeadm join 1.2.3.4:6443 --token abcdef.0123456789abcdef --discovery-token-unsafe-skip-ca-verification')).stderr.split('\n')[0], 'error execution phase preflight: [preflight] Some fatal errors occurred:');
  });
});
