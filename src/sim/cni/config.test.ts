/**
 * cniStatusAt remembers a node's CNI status while its host generation stands
 * (Cluster.hostGenerationOf), and reads the files again once that node's files changed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import type { Node } from '../api/types.js';
import { Cluster } from '../cluster.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from '../controllers/index.js';
import { cniConfigParses, cniStatus, cniStatusAt } from './config.js';

test('cniStatusAt: one answer while the host generation stands, the same as cniStatus', () => {
  const c = loadFixture('kubeadm-calico');
  const w1 = c.host('cka-w1')!;
  const first = cniStatusAt(w1, c.hostGenerationOf('cka-w1'));
  assert.deepEqual(first, cniStatus(w1));
  assert.equal(first.ready, true);
  assert.equal(cniStatusAt(w1, c.hostGenerationOf('cka-w1')), first);
  // another node's file changes leave this node's generation, and answer, as they were
  c.host('cka-w2')!.fs.write('/etc/cni/net.d/README', 'x\n');
  assert.equal(cniStatusAt(w1, c.hostGenerationOf('cka-w1')), first);
});

test("cniStatusAt: the node's own file changes are read again", () => {
  const c = loadFixture('kubeadm-calico');
  const w1 = c.host('cka-w1')!;
  assert.equal(cniStatusAt(w1, c.hostGenerationOf('cka-w1')).ready, true);
  w1.fs.remove('/opt/cni/bin/calico');
  assert.deepEqual(cniStatusAt(w1, c.hostGenerationOf('cka-w1')), { ready: false, message: 'failed to find plugin "calico" in path [/opt/cni/bin]' });
  w1.fs.remove('/etc/cni/net.d/10-calico.conflist');
  assert.deepEqual(cniStatusAt(w1, c.hostGenerationOf('cka-w1')), { ready: false, message: 'cni plugin not initialized' });
  // and the node-status controller, which asks, posts it
  c.settle();
  const ready = c.store.get<Node>('Node', undefined, 'cka-w1')!.status?.conditions?.find((x) => x.type === 'Ready');
  assert.equal(ready?.status, 'False');
  assert.match(ready?.message ?? '', /cni plugin not initialized/);
});

test("cniStatusAt: copies of a state share the answer of the frozen files they share, and a copy's own write is read", () => {
  const snap = loadFixture('kubeadm-calico').snapshot();
  const b = Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS);
  const d = Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS);
  const fromB = cniStatusAt(b.host('cka-w1')!, b.hostGenerationOf('cka-w1'));
  assert.equal(fromB.ready, true);
  assert.equal(cniStatusAt(d.host('cka-w1')!, d.hostGenerationOf('cka-w1')), fromB, "one copy's answer is the other's");
  // the copy's own files from its first write: read, not the shared answer
  d.host('cka-w1')!.fs.remove('/etc/cni/net.d/10-calico.conflist');
  assert.deepEqual(cniStatusAt(d.host('cka-w1')!, d.hostGenerationOf('cka-w1')), { ready: false, message: 'cni plugin not initialized' });
  assert.equal(cniStatusAt(b.host('cka-w1')!, b.hostGenerationOf('cka-w1')), fromB);
});

test('cniStatus: each config text is parsed once; a file that is not JSON is passed over at every look', () => {
  const c = loadFixture('kubeadm-calico');
  const host = c.nodeHosts()[0]!;
  const was = cniStatus(host);
  assert.equal(was.ready, true);
  // texts of their own (no other test has parsed them), lexically before the fixture's conflist
  host.fs.write('/etc/cni/net.d/00-memo.conflist', JSON.stringify({ cniVersion: '0.3.1', name: 'memo-test', plugins: [{ type: 'calico' }, { type: 'portmap' }] }));
  host.fs.write('/etc/cni/net.d/00-a-broken.conf', '{"type": "calico", memo-test');
  const before = cniConfigParses();
  const a = cniStatus(host);
  const b = cniStatus(host);
  assert.deepEqual(a, { ready: true, file: '/etc/cni/net.d/00-memo.conflist' });
  assert.deepEqual(b, a);
  assert.equal(cniConfigParses() - before, 2, 'the two new texts, once each over two looks');
  // a plugin the node does not have: the same parse, another answer
  host.fs.remove('/opt/cni/bin/portmap');
  assert.deepEqual(cniStatus(host), { ready: false, message: 'failed to find plugin "portmap" in path [/opt/cni/bin]' });
  assert.equal(cniConfigParses() - before, 2);
});
