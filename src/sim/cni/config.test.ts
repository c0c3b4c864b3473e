/**
 * cniStatusAt remembers a node's CNI status while its host generation stands
 * (Cluster.hostGenerationOf), and reads the files again once that node's files changed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import type { Node } from '../api/types.js';
import { cniStatus, cniStatusAt } from './config.js';

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
