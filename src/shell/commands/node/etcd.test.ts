/**
 * etcdctl and etcdutl against the kubeadm-calico fixture: the TLS model decided by the real
 * certificates, and the causal backup/restore cycle (a snapshot restored into a new data
 * directory and mounted by the etcd manifest brings back the snapshot's API objects).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import { goTable } from './tablewriter.js';
import { clusterId, memberId, humanizeBytes } from '../../../sim/etcd/db.js';

const C = '--endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';

async function root(): Promise<Session> {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  await s.exec('sudo -i');
  return s;
}

describe('etcd member identity', () => {
  it('member and cluster IDs are etcd\'s (a restored default member is 8e9e05c52164694d in cdf818194e3a8c32)', () => {
    const id = memberId(['http://localhost:2380']);
    assert.equal(id, '8e9e05c52164694d');
    assert.equal(clusterId([id]), 'cdf818194e3a8c32');
  });
  it('go-humanize sizes', () => {
    assert.equal(humanizeBytes(2147483648), '2.1 GB');
    assert.equal(humanizeBytes(171078), '171 kB');
    assert.equal(humanizeBytes(9), '9 B');
  });
  it('tablewriter centres headers (odd space right) and right-aligns cells', () => {
    assert.equal(goTable(['ID', 'status'], [['8e9e05c52164694d', 'started']]), '+------------------+---------+\n|        ID        | STATUS  |\n+------------------+---------+\n| 8e9e05c52164694d | started |\n+------------------+---------+\n');
  });
});

describe('etcdctl TLS', () => {
  it('the right certificates list the member; wrong ones fail as the client does', async () => {
    const s = await root();
    const ok = await s.exec(`etcdctl ${C} member list`);
    assert.equal(ok.exitCode, 0);
    assert.match(ok.stdout, /^[0-9a-f]+, started, cka-cp1, https:\/\/[\d.]+:2380, https:\/\/[\d.]+:2379, false\n$/);
    const cases: [string, RegExp][] = [
      ['etcdctl member list', /http2: frame too large/],
      ['etcdctl --endpoints=https://127.0.0.1:2379 member list', /x509: certificate signed by unknown authority/],
      ['etcdctl --endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/ca.crt member list', /x509: certificate signed by unknown authority/],
      ['etcdctl --endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt member list', /tls: certificate required/],
      ['etcdctl --endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/apiserver-kubelet-client.crt --key=/etc/kubernetes/pki/apiserver-kubelet-client.key member list', /tls: unknown certificate authority/],
      ['etcdctl --endpoints=https://127.0.0.1:2380 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key member list', /connect: connection refused/],
    ];
    for (const [cmd, re] of cases) {
      const r = await s.exec(cmd);
      assert.equal(r.exitCode, 1, cmd);
      assert.match(r.stderr, re, cmd);
      assert.match(r.stderr, /\nError: context deadline exceeded\n$/, cmd);
    }
    const mismatch = await s.exec('etcdctl --endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/peer.key member list');
    assert.equal(mismatch.stderr, 'Error: tls: private key does not match public key\n');
    assert.equal(mismatch.exitCode, 128);
    const missing = await s.exec('etcdctl --cacert=/nope.crt member list');
    assert.equal(missing.stderr, 'Error: open /nope.crt: no such file or directory\n');
  });

  it('ETCDCTL_* variables stand in for the flags, and etcdctl runs inside the etcd container', async () => {
    const s = await root();
    const env = 'ETCDCTL_ENDPOINTS=https://127.0.0.1:2379 ETCDCTL_CACERT=/etc/kubernetes/pki/etcd/ca.crt ETCDCTL_CERT=/etc/kubernetes/pki/etcd/healthcheck-client.crt ETCDCTL_KEY=/etc/kubernetes/pki/etcd/healthcheck-client.key';
    const r = await s.exec(`${env} etcdctl endpoint health`);
    assert.match(r.stdout, /^https:\/\/127\.0\.0\.1:2379 is healthy: successfully committed proposal: took = [\d.]+ms\n$/);
    const inPod = await s.exec(`kubectl -n kube-system exec etcd-cka-cp1 -- etcdctl ${C} endpoint health`);
    assert.match(inPod.stdout, /is healthy/);
  });
});

describe('snapshot save and restore', () => {
  it('restoring a snapshot into a new data dir and mounting it brings back the snapshot state', async () => {
    const s = await root();
    const saved = await s.exec(`etcdctl ${C} snapshot save /opt/snap.db`);
    assert.equal(saved.stdout, 'Snapshot saved at /opt/snap.db\nServer version 3.6.6\n');
    // the zap log lines are written while saving, the result after: a terminal shows them first
    const merged = await s.exec(`etcdctl ${C} snapshot save /opt/snap2.db 2>&1`);
    assert.match(merged.stdout, /^\{"level":"info".*"msg":"created temporary db file"[^]*"msg":"saved".*\nSnapshot saved at \/opt\/snap2\.db\nServer version 3\.6\.6\n$/);
    const st = await s.exec('etcdutl snapshot status /opt/snap.db -w table');
    assert.match(st.stdout, /\| +HASH +\| REVISION \| TOTAL KEYS \| TOTAL SIZE \| VERSION \|/);
    await s.exec('kubectl create deploy after --image=nginx');
    await s.exec('kubectl -n kube-system delete deploy coredns');
    const busy = await s.exec('etcdutl snapshot restore /opt/snap.db --data-dir /var/lib/etcd');
    assert.match(busy.stderr, /Error: data-dir "\/var\/lib\/etcd" not empty or could not be read/);
    const r = await s.exec('etcdutl snapshot restore /opt/snap.db --data-dir /var/lib/etcd-restore');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /restored snapshot/);
    await s.exec("sed -i 's#path: /var/lib/etcd$#path: /var/lib/etcd-restore#' /etc/kubernetes/manifests/etcd.yaml");
    s.cluster.advance(60_000);
    const deps = await s.exec('kubectl get deploy -A -o name');
    assert.doesNotMatch(deps.stdout, /deployment.apps\/after/);
    assert.match(deps.stdout, /deployment.apps\/coredns/);
    const ml = await s.exec(`etcdctl ${C} member list`);
    assert.match(ml.stdout, /^8e9e05c52164694d, started, cka-cp1, http:\/\/localhost:2380, /);
    // the old directory keeps what the member held when it left it
    const old = await s.exec('etcdutl snapshot restore /var/lib/etcd/member/snap/db --data-dir /tmp/x');
    assert.match(old.stderr, /snapshot missing hash but --skip-hash-check=false/);
  });

  it('an empty data directory gives an empty cluster: the control plane comes back, the workloads do not', async () => {
    const s = await root();
    await s.exec('mkdir -p /var/lib/etcd-empty');
    await s.exec("sed -i 's#path: /var/lib/etcd$#path: /var/lib/etcd-empty#' /etc/kubernetes/manifests/etcd.yaml");
    s.cluster.advance(60_000);
    // the API server recreates its bootstrap RBAC, not kubeadm's kubeadm:cluster-admins binding:
    // admin.conf's user is now forbidden, super-admin.conf (system:masters) still works
    const denied = await s.exec('kubectl get ns -o name');
    assert.match(denied.stderr, /User "kubernetes-admin" cannot list resource "namespaces"/);
    const k = 'kubectl --kubeconfig /etc/kubernetes/super-admin.conf';
    const deps = await s.exec(`${k} get deploy -A`);
    assert.equal(deps.stdout, '');
    const ns = await s.exec(`${k} get ns -o name`);
    assert.match(ns.stdout, /namespace\/kube-system/);
    const pods = await s.exec(`${k} -n kube-system get pods -o name`);
    assert.match(pods.stdout, /pod\/kube-apiserver-cka-cp1/);
  });

  it('etcdctl del of a /registry key deletes the object behind the API server', async () => {
    const s = await root();
    await s.exec('kubectl create cm gone --from-literal=a=b');
    const r = await s.exec(`etcdctl ${C} del /registry/configmaps/default/gone`);
    assert.equal(r.stdout, '1\n');
    const g = await s.exec('kubectl get cm gone');
    assert.match(g.stderr, /NotFound|not found/);
  });
});
