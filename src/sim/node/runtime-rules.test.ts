/**
 * The hosts' iptables rules in an in-memory snapshot are frozen (runtime.ts freezeIptables), so
 * the copies grading and validate make of one state share them instead of copying them; a cluster
 * restored from such a copy makes a node's rules its own when it first asks for them
 * (nodeIptables), and every write (iptables commands, the packet path's counters) reaches that
 * cluster alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { Cluster } from '../cluster.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from '../controllers/index.js';
import { nodeIptables } from './runtime.js';
import { renderSave } from '../net/render.js';
import { runIptables } from '../net/iptables-cmd.js';
import { newRecentState, walkFilter } from '../net/packet.js';
import type { IptablesState } from '../net/iptables.js';

function save(st: IptablesState): string {
  return renderSave(st.tables, { now: 0, counters: true });
}

test('an in-memory snapshot shares its hosts\' rules frozen; each restored copy writes its own', () => {
  const a = loadFixture('kubeadm-calico');
  // (an INPUT chain without rules: a packet reaches its policy without a rule that counts it first)
  assert.equal(runIptables(nodeIptables(a.host('cka-w1')!), ['-F', 'INPUT']).exitCode, 0);
  const snap = a.snapshot();
  const held = snap.hosts.find((h) => h.name === 'cka-w1')!.state.iptables!;
  assert.ok(Object.isFrozen(held) && Object.isFrozen(held.tables.filter!.chains) && Object.isFrozen(held.tables.filter!.chains[0]), 'the snapshot\'s rules are frozen, down to the chains');
  const text = JSON.stringify(snap);
  const before = save(held);

  const b = Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS);
  const c = Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS);
  const bw1 = b.host('cka-w1')!;
  assert.equal(bw1.data.state.iptables, held, 'a copy shares the frozen rules until it asks for them');
  assert.equal(JSON.stringify(b.snapshot()), text, 'a copy saves as the snapshot it was restored from');

  const st = nodeIptables(bw1);
  assert.ok(!Object.isFrozen(st) && st !== held);
  assert.equal(save(st), before);
  // a counted packet bumps rule and policy counters (the built-in chain's own, frozen in the snapshot)
  const ctx = { localAddrs: ['192.168.122.21'], rng: { float: (): number => 0 }, recent: newRecentState(), nowSeconds: 0, count: { bytes: 60 } };
  assert.equal(walkFilter(st, { src: '10.1.1.1', dst: '192.168.122.21', proto: 'tcp', dport: 22 }, 'INPUT', ctx).verdict, 'ACCEPT');
  assert.equal(runIptables(st, ['-A', 'INPUT', '-s', '10.9.9.9/32', '-j', 'DROP']).exitCode, 0);
  assert.equal(runIptables(st, ['-P', 'FORWARD', 'DROP']).exitCode, 0);
  assert.equal(runIptables(st, ['-t', 'nat', '-N', 'PROBE']).exitCode, 0);
  const after = save(st);
  assert.match(after, /-A INPUT -s 10\.9\.9\.9\/32 -j DROP/);
  assert.match(after, /:FORWARD DROP/);
  assert.match(after, /:INPUT ACCEPT \[1:60\]/);
  assert.match(after, /:PROBE - \[0:0\]/);

  assert.equal(save(nodeIptables(c.host('cka-w1')!)), before, 'the other copy is untouched');
  assert.equal(save(held), before);
  assert.equal(JSON.stringify(snap), text, 'the snapshot is untouched');
  assert.equal(save(nodeIptables(a.host('cka-w1')!)), before, 'the live cluster is untouched');
  // a snapshot of the copy holds its rules as they are now, frozen again
  const again = b.snapshot().hosts.find((h) => h.name === 'cka-w1')!.state.iptables!;
  assert.ok(Object.isFrozen(again));
  assert.equal(save(again), after);
});
