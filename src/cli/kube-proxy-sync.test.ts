/**
 * kube-proxy reacts to the first Service change of every process: a session restored from disk
 * (a one-shot `cka-lab kubectl`, a new `cka-lab shell`) must not take its first change for the
 * state it already synced (pkg/proxy/iptables/proxier.go syncProxyRules runs on every change the
 * informers deliver, whatever the process did before).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness } from './testing/harness.js';


test('kube-proxy: a one-shot `kubectl create svc` gets its REJECT rule at once', async () => {
  const h = harness();
  assert.equal((await h.run(['shell'], 'true\n')).code, 0);
  const created = await h.run(['kubectl', 'create', 'svc', 'clusterip', 'x', '--tcp=80:80']);
  assert.equal(created.stdout, 'service/x created\n');
  const ip = (await h.run(['kubectl', 'get', 'svc', 'x', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
  assert.match(ip, /^10\.9[6-9]\.|^10\.1[01]\d\./);
  const want = `-A KUBE-SERVICES -d ${ip}/32 -p tcp -m comment --comment "default/x:80-80 has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable\n`;
  const r = await h.run(['shell'], 'ssh cka-w1\nsudo iptables -S KUBE-SERVICES | grep default/x\n');
  assert.equal(r.stdout, want);
  // the first change made in a newly opened shell is seen too
  const s = await h.run(['shell'], 'kubectl create svc clusterip y --tcp=81:81\nssh cka-w1\nsudo iptables -S KUBE-SERVICES | grep -c default/y:81-81\n');
  assert.equal(s.stdout, 'service/y created\n1\n');
});
