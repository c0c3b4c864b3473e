/**
 * A template that does not parse refuses the command before any request (kubectl's
 * PrintFlags.ToPrinter runs in Complete): nothing is created, for every verb that prints the
 * object it sends (found by the session fuzz, seed 7: the Service was created, then the command
 * failed). The texts are recorded from kubectl in testdata/conformance/*-parse-before-*.txt.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

test('a broken -o template creates nothing', async () => {
  const c = loadFixture('kubeadm-calico');
  const s = new Session(c);
  c.host('cka-ws')!.fs.write('/root/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: f\n');
  await s.exec('kubectl create deploy web --image=nginx');
  const lines = [
    'kubectl create service clusterip x --tcp=80:8080 -o jsonpath={.x',
    'kubectl create cm y --from-literal=a=b -o jsonpath-as-json={.x',
    'kubectl create cm y -o go-template={{.x',
    'kubectl run p --image=nginx -o jsonpath={.x',
    'kubectl expose deploy web --port=80 -o jsonpath={.x',
    'kubectl create -f /root/cm.yaml -o jsonpath={.x',
    'kubectl apply -f /root/cm.yaml -o jsonpath={.x',
  ];
  for (const line of lines) {
    const before = c.store.generation;
    const r = await s.exec(line);
    assert.equal(r.exitCode, 1, line);
    assert.match(r.stderr, /^error: error parsing (jsonpath|template) \{/, line);
    assert.equal(c.store.generation, before, `${line} changed the cluster`);
  }
});
