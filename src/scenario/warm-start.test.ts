/**
 * A task's session starts from its fixture snapshot settled once more, with its controllers'
 * memory (scenario/session.ts warmStart): it settles nothing until something changes, and goes on
 * exactly as a cluster restored from the snapshot itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureSnapshot, restoreFixture } from './session.js';
import { freezeObjects } from '../sim/api/store.js';
import { ManualClock } from '../util/clock.js';
import { Session } from '../shell/session.js';

const LINES = [
  'kubectl create deployment web --image=nginx --replicas=2',
  'kubectl expose deployment web --port=80',
  'sleep 40',
  'kubectl get pods -A -o wide',
  'kubectl get endpointslices -A',
  'kubectl run probe --image=busybox --restart=Never --command -- nslookup web.default.svc.cluster.local',
  'sleep 20',
  'kubectl logs probe',
  'kubectl describe node cka-w1',
  'kubectl get events -A --sort-by=.metadata.name',
];

test('warm start: a restored fixture settles nothing at first, and goes on as a cold restore of the snapshot does', async () => {
  const snap = fixtureSnapshot('kubeadm-calico', 1);
  freezeObjects(snap.store);
  const warm = restoreFixture(snap, new ManualClock(snap.now));
  const cold = restoreFixture(snap, new ManualClock(snap.now), false);
  warm.settle();
  cold.settle();
  // the cold restore looked at every controller's inputs again; the warm one knew they had not changed
  assert.equal(warm.settles, 0, 'the warm cluster settled again');
  assert.equal(cold.settles, 1);
  const a = new Session(warm);
  const b = new Session(cold);
  for (const line of LINES) {
    const [ra, rb] = [await a.exec(line), await b.exec(line)];
    assert.deepEqual(ra, rb, `\`${line}\` differs`);
  }
  assert.deepEqual(JSON.parse(JSON.stringify(a.cluster.store.toJSON())), JSON.parse(JSON.stringify(b.cluster.store.toJSON())));
});

test('warm start: a clock past the snapshot restores the snapshot itself', () => {
  const snap = fixtureSnapshot('kubeadm-calico', 1);
  freezeObjects(snap.store);
  const later = restoreFixture(snap, new ManualClock(snap.now + 1000));
  later.settle();
  assert.equal(later.settles, 1);
});
