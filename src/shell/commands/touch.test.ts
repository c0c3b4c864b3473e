/** touch in a container: a read-only Secret volume reports EROFS the way touch does. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../session.js';
import { loadFixture } from '../../testing/fixtures.js';

test('touch on a read-only Secret volume: "Read-only file system", exit 1; elsewhere it creates the file', async () => {
  const c = loadFixture('kubeadm-calico');
  const s = new Session(c);
  await s.exec('kubectl create secret generic s --from-literal=k=v');
  await s.exec(`kubectl apply -f - <<'EOF'
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: busybox:1.36, command: [sleep, "3600"], volumeMounts: [{name: s, mountPath: /s}]}]
  volumes: [{name: s, secret: {secretName: s}}]
EOF`);
  c.advance(20_000);
  const r = await s.exec('kubectl exec p -- touch /s/x');
  assert.equal(r.stderr, 'touch: /s/x: Read-only file system\ncommand terminated with exit code 1\n');
  assert.equal(r.exitCode, 1);
  assert.equal((await s.exec('kubectl exec p -- touch /tmp/x')).exitCode, 0);
});
