import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../session.js';

async function onNode(fixture: string, node: string, lines: string[]): Promise<string[]> {
  const s = new Session(loadFixture(fixture, 1));
  await s.exec('sleep 30');
  await s.exec(`ssh ${node}`);
  const out: string[] = [];
  for (const l of lines) {
    const r = await s.exec(l);
    out.push(r.stdout + r.stderr);
  }
  return out;
}

// Ubuntu nodes with systemd-resolved: /etc/resolv.conf is a link to the stub file; the kubelet's
// resolvConf names the file with the upstream servers (kubeadm's systemd-resolved detection)
const nodes: { fixture: string; node: string }[] = [
  { fixture: 'kubeadm-calico', node: 'cka-w1' },
  { fixture: 'flannel-single', node: 'ncss-i' },
  { fixture: 'weave-2node', node: 'controlplane' },
];

for (const tc of nodes) {
  test(`ls -l /etc/resolv.conf on ${tc.fixture}/${tc.node} shows the systemd-resolved link`, async () => {
    const [link, stub, upstream, kubelet] = await onNode(tc.fixture, tc.node, [
      'ls -l /etc/resolv.conf',
      'cat /etc/resolv.conf',
      'cat /run/systemd/resolve/resolv.conf',
      'grep resolvConf /var/lib/kubelet/config.yaml',
    ]);
    assert.match(link!, /^lrwxrwxrwx 1 root root 39 \w{3} [ \d]\d \d\d:\d\d \/etc\/resolv\.conf -> \.\.\/run\/systemd\/resolve\/stub-resolv\.conf\n$/);
    assert.match(stub!, /^# This is \/run\/systemd\/resolve\/stub-resolv\.conf managed by man:systemd-resolved\(8\)\.\n/);
    assert.match(stub!, /\nnameserver 127\.0\.0\.53\noptions edns0 trust-ad\nsearch \.\n$/);
    assert.match(upstream!, /^# This is \/run\/systemd\/resolve\/resolv\.conf managed/);
    assert.doesNotMatch(upstream!, /127\.0\.0\.53/);
    assert.equal(kubelet, 'resolvConf: /run/systemd/resolve/resolv.conf\n');
  });
}

test('ls -l of the kubelet log directories shows the simulated dates, never 1970', async () => {
  const [pods, containers] = await onNode('kubeadm-calico', 'cka-cp1', ['ls -l /var/log/pods', 'ls -l /var/log/containers']);
  for (const out of [pods!, containers!]) {
    const rows = out.split('\n').filter((l) => /^[d-]r/.test(l));
    assert.ok(rows.length > 3, out);
    for (const r of rows) assert.match(r, / (Nov|Dec) [ \d]\d \d\d:\d\d /, r);
  }
});

test('ls -l follows a symlinked directory given with a trailing slash, as ., or with -L (a Secret volume\'s ..data)', async () => {
  const c = loadFixture('kubeadm-calico');
  const s = new Session(c);
  await s.exec('kubectl create secret generic s --from-literal=k=v');
  await s.exec(`kubectl apply -f - <<'EOF'
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: busybox:1.36, command: [sleep, "3600"], volumeMounts: [{name: s, mountPath: /s}]}]
  volumes: [{name: s, secret: {secretName: s, defaultMode: 0400}}]
EOF`);
  c.advance(20_000);
  const out = async (l: string): Promise<string> => (await s.exec(l)).stdout;
  // busybox's long format (the container's ls is busybox's)
  const file = /^total 4\n-r-------- {4}1 root {5}root {13}1 \w{3} [ \d]\d \d\d:\d\d k\n$/;
  assert.match(await out('kubectl exec p -- ls -l /s/..data/'), file);
  assert.match(await out(`kubectl exec p -- sh -c 'cd /s/..data && ls -l'`), file);
  assert.match(await out('kubectl exec p -- ls -lL /s'), file);
  assert.match(await out('kubectl exec p -- ls -l /s/..data'), /^lrwxrwxrwx +1 root +root +\d+ .* \/s\/\.\.data -> \.\.\d{4}_/);
  assert.match(await out('kubectl exec p -- ls -l /s'), /^total 0\nlrwxrwxrwx {4}1 root {5}root {13}8 .* k -> \.\.data\/k\n$/);
});
