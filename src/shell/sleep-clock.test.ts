/**
 * `sleep` inside a line moves the cluster's clock before the rest of the line runs, as the real
 * cluster keeps going while the shell sleeps (`sleep 60; kubectl get pod` sees the state 60 s
 * later, not the state when the line started).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Session } from './session.js';

function session(): Session {
  return new Session(loadFixture('kubeadm-calico', 1));
}

describe('sleep advances the cluster clock within a line', () => {
  it('date before and after a sleep in one line differ by the sleep', async () => {
    const s = session();
    const r = await s.exec('date +%s; sleep 90; date +%s');
    const [a, b] = r.stdout.trim().split('\n').map(Number);
    assert.equal(b! - a!, 90);
    assert.equal(r.advanceMs, 0, 'the time was applied while the line ran, not reported for later');
  });

  it('a broken API server manifest is seen broken by kubectl later in the same line', async () => {
    const s = session();
    await s.exec('ssh cka-cp1');
    const r = await s.exec(
      "sed -i 's/    - --secure-port=6443/    - --secure-port=6443\\n    - --foo=bar/' /etc/kubernetes/manifests/kube-apiserver.yaml; sleep 20; kubectl version",
    );
    assert.match(r.stderr, /^The connection to the server 192\.168\.122\.11:6443 was refused - did you specify the right host or port\?$/m);
    const fixed = await s.exec("sed -i '/--foo=bar/d' /etc/kubernetes/manifests/kube-apiserver.yaml; sleep 20; kubectl version >/dev/null; echo $?");
    assert.equal(fixed.stdout, '0\n');
  });

  it('ssh HOST with a sleep advances the clock once', async () => {
    const s = session();
    const t0 = s.cluster.now();
    await s.exec("ssh cka-w1 'sleep 30'");
    assert.equal(s.cluster.now() - t0, 30_000);
  });
});

describe('device files on every host', () => {
  for (const where of ['workstation', 'node']) {
    it(`${where}: </dev/null, 2>/dev/null, test -e /dev/null and /proc/self`, async () => {
      const s = session();
      if (where === 'node') await s.exec('ssh cka-w1');
      const r = await s.exec('cat </dev/null; echo "[$?]"; ls nope 2>/dev/null; echo "[$?]"; [ -e /dev/null ] && echo null-exists; test -d /proc/self && echo self; cat /dev/null | wc -c; grep -c Pid /proc/self/status');
      assert.equal(r.stderr, '');
      assert.equal(r.stdout, '[0]\n[2]\nnull-exists\nself\n0\n2\n');
    });
  }
});
