/**
 * End to end through the shell: the coredns ConfigMap in kube-system is edited with kubectl, the
 * kubelet's volume sync and the reload plugin pick it up, and a pod's nslookup sees the new
 * plugin (k8s_external with a Service's externalIP; autopath @kubernetes with pods verified).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { addSeed000Web } from '../../../sim/traffic/seed000.js';
import { Session } from '../../session.js';

async function seed000(): Promise<Session> {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  return new Session(c);
}

/** Ask until every CoreDNS replica answers the way `ok` wants (both reloaded), at most 3 minutes. */
async function waitFor(s: Session, line: string, ok: (out: string) => boolean): Promise<string> {
  let last = '';
  for (let i = 0; i < 36; i++) {
    s.cluster.advance(5_000);
    const rs = [await s.exec(line), await s.exec(line), await s.exec(line), await s.exec(line)];
    last = rs.map((r) => r.stdout + r.stderr).join('\n---\n');
    if (rs.every((r) => ok(r.stdout))) return rs[0]?.stdout ?? '';
  }
  throw new Error(`never answered as expected:\n${last}`);
}

test('transcript: k8s_external added to the coredns ConfigMap serves a Service external IP to a pod', async () => {
  const s = await seed000();
  const steps = [
    `kubectl -n net patch svc web -p '{"spec":{"externalIPs":["192.168.122.240"]}}'`,
    'kubectl -n kube-system get cm coredns -o yaml > /tmp/cm.yaml',
    "sed -i 's/^        ready$/        ready\\n        k8s_external example.test/' /tmp/cm.yaml",
    'kubectl replace -f /tmp/cm.yaml',
  ];
  for (const l of steps) {
    const r = await s.exec(l);
    assert.equal(r.exitCode, 0, `${l}\n${r.stderr}`);
  }
  const cm = await s.exec('kubectl -n kube-system get cm coredns -o jsonpath={.data.Corefile}');
  assert.match(cm.stdout, /\n {4}k8s_external example\.test\n/);
  const before = await s.exec('kubectl -n net exec c -- nslookup web.net.example.test');
  assert.equal(before.exitCode, 1, before.stdout);
  const out = await waitFor(s, 'kubectl -n net exec c -- nslookup web.net.example.test', (o) => o.includes('Address: 192.168.122.240'));
  // busybox prints the A answers, then the (empty) AAAA answers of its second query.
  assert.equal(out, 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.net.example.test\nAddress: 192.168.122.240\n\n\n');
});

test('transcript: autopath @kubernetes with pods verified answers a search-path query with a CNAME', async () => {
  const s = await seed000();
  const steps = [
    'kubectl -n kube-system get cm coredns -o yaml > /tmp/cm.yaml',
    "sed -i -e 's/pods insecure/pods verified/' -e 's/^        ready$/        ready\\n        autopath @kubernetes/' /tmp/cm.yaml",
    'kubectl replace -f /tmp/cm.yaml',
  ];
  for (const l of steps) {
    const r = await s.exec(l);
    assert.equal(r.exitCode, 0, `${l}\n${r.stderr}`);
  }
  // What a resolver sends first for `web.net` from namespace net: the name plus the first search suffix.
  const q = 'kubectl -n net exec c -- nslookup web.net.net.svc.cluster.local';
  const before = await s.exec(q);
  assert.match(before.stdout, /\*\* server can't find web\.net\.net\.svc\.cluster\.local: NXDOMAIN/);
  const out = await waitFor(s, q, (o) => o.includes('canonical name'));
  assert.equal(out, 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nweb.net.net.svc.cluster.local\tcanonical name = web.net.svc.cluster.local\nName:\tweb.net.svc.cluster.local\nAddress: 10.111.80.136\n\n\n');
});

test('transcript: a file-plugin zone in the coredns ConfigMap is served only once the volume projects its key', async () => {
  const s = await seed000();
  const steps = [
    "printf '$ORIGIN example.internal.\\n@ 3600 IN SOA ns1 admin 2024010101 7200 3600 1209600 3600\\n  IN NS ns1\\nns1 IN A 192.168.122.53\\nlegacy IN A 192.168.122.200\\nwww IN CNAME legacy\\n' > /tmp/example.db",
    'kubectl -n kube-system get cm coredns -o jsonpath={.data.Corefile} > /tmp/Corefile',
    "printf 'example.internal:53 {\\n    file /etc/coredns/example.db\\n}\\n' >> /tmp/Corefile",
    'kubectl -n kube-system create cm coredns --from-file=Corefile=/tmp/Corefile --from-file=example.db=/tmp/example.db --dry-run=client -o yaml | kubectl replace -f -',
  ];
  for (const l of steps) {
    const r = await s.exec(l);
    assert.equal(r.exitCode, 0, `${l}\n${r.stderr}`);
  }
  // kubeadm's config volume lists only the Corefile key: the reloaded server cannot open the zone.
  const q = 'kubectl -n net exec c -- nslookup www.example.internal';
  const broken = await waitFor(s, q, (o) => o.includes('SERVFAIL'));
  assert.match(broken, /\*\* server can't find www\.example\.internal: SERVFAIL/);
  const logs = await s.exec('kubectl -n kube-system logs deploy/coredns');
  assert.match(logs.stdout, /\[WARNING\] plugin\/file: Failed to open "open \/etc\/coredns\/example\.db: no such file or directory": trying again in 1m0s\n/);
  const patch = await s.exec(
    `kubectl -n kube-system patch deploy coredns --type=json -p '[{"op":"add","path":"/spec/template/spec/volumes/0/configMap/items/-","value":{"key":"example.db","path":"example.db"}}]'`,
  );
  assert.equal(patch.exitCode, 0, patch.stderr);
  const out = await waitFor(s, q, (o) => o.includes('Address: 192.168.122.200'));
  assert.equal(out, 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nwww.example.internal\tcanonical name = legacy.example.internal\nName:\tlegacy.example.internal\nAddress: 192.168.122.200\n\nwww.example.internal\tcanonical name = legacy.example.internal\n\n');
  const nx = await s.exec('kubectl -n net exec c -- nslookup nope.example.internal');
  assert.match(nx.stdout, /\*\* server can't find nope\.example\.internal: NXDOMAIN/);
});
