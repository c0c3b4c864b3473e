/**
 * The typed cluster and host state (state.ts, node/host.ts HostState) keeps the JSON shape of the
 * string-keyed bags it replaced: snapshots of a running cluster carry only known keys, and a
 * snapshot restores to a cluster whose snapshot is the same JSON, so saved sessions (whose
 * SESSION_FILE_SCHEMA and SNAPSHOT_VERSION did not change) load as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Cluster } from './cluster.js';
import { CONTROLLERS } from './controllers/index.js';
import { ManualClock } from '../util/clock.js';
import { CLUSTER_STATE_OWNERS } from './state.js';
import type { HostState } from './node/host.js';
import { connect } from './traffic/path.js';

const HOST_STATE_KEYS: { readonly [K in keyof Required<HostState>]: true } = { iptables: true, ip6tables: true, ip6Proxy: true, recent: true, nftables: true, nftAffinity: true, kubeletStartedConfig: true, kubeletCmdlineAtStart: true, packages: true, kubeletBinaryAtStart: true, registeredAt: true, modules: true, swaps: true, reboots: true, bootedAt: true, sockets: true, pulledImages: true };

/** A cluster that has run for a while with traffic, so most owners have written their fields. */
function busyCluster(): Cluster {
  const c = loadFixture('kubeadm-calico', 7);
  c.advance(120_000);
  connect(c, { kind: 'node', host: c.meta.controlPlane }, '10.96.0.10', 53, 'udp');
  c.advance(60_000);
  return c;
}

test('a running cluster snapshots only typed state keys, under their old names', () => {
  const snap = busyCluster().snapshot();
  const keys = Object.keys(snap.state).filter((k) => !k.startsWith('__'));
  assert.ok(keys.length >= 8, `expected most owners to have written state, got ${keys.join(', ')}`);
  assert.deepEqual(keys.filter((k) => !(k in CLUSTER_STATE_OWNERS)), []);
  for (const h of snap.hosts) assert.deepEqual(Object.keys(h.state).filter((k) => !(k in HOST_STATE_KEYS)), [], h.name);
  assert.ok(snap.hosts.some((h) => h.state.iptables !== undefined), 'node iptables state is in the host');
});

test('snapshot → restore → snapshot is the same JSON', () => {
  const snap = busyCluster().snapshot();
  const text = JSON.stringify(snap);
  const restored = Cluster.restore(JSON.parse(text) as typeof snap, new ManualClock(0), CONTROLLERS);
  assert.equal(JSON.stringify(restored.snapshot()), text);
});
