/**
 * kube-proxy's in-memory memos (net/restore.ts parsed lines, net/kube-proxy/service-model.ts
 * ports and endpoints per stored object and per node, net/kube-proxy/sync.ts rendered ports and
 * fingerprints, controllers/kube-proxy.ts fingerprint maps) are never saved: a cluster restored
 * from its snapshot, whether it shares the saved objects or was read back from JSON text, must
 * program every node exactly as the cluster that saved it, through full and partial syncs, with
 * syncs of the clusters interleaved (the memos are process-wide), and with a user's edit that
 * partial syncs leave in place.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { addSeed000Web } from '../traffic/seed000.js';
import { Cluster } from '../cluster.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from './index.js';
import type { EndpointSlice, Service } from '../api/types.js';
import { nodeIptables } from '../node/runtime.js';
import { renderSave } from '../net/render.js';
import { runIptables } from '../net/iptables-cmd.js';
import { serviceChainName } from '../net/kube-proxy/chain-names.js';

function addService(c: Cluster, name: string, ip: string, nodes: readonly string[], local = false): void {
  c.insert<Service>({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'net' },
    spec: {
      type: local ? 'NodePort' : 'ClusterIP',
      clusterIP: ip,
      clusterIPs: [ip],
      ...(local ? { externalTrafficPolicy: 'Local' as const } : {}),
      ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, ...(local ? { nodePort: 31080 } : {}) }],
    },
  });
  c.insert<EndpointSlice>({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${name}-x`, namespace: 'net', labels: { 'kubernetes.io/service-name': name } },
    addressType: 'IPv4',
    endpoints: nodes.map((n, j) => ({ addresses: [`10.245.${ip.split('.')[3]}.${j + 1}`], conditions: { ready: true }, nodeName: n })),
    ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  });
}

/** Every node's iptables-save and kube-proxy's remembered sync state. */
function observed(c: Cluster): string {
  const saves = c.nodeHosts().map((h) => `${h.name}\n${renderSave(nodeIptables(h).tables, { now: 0 })}`);
  return `${saves.join('\n')}\n${JSON.stringify(c.state['kubeProxy'])}`;
}

test('kube-proxy: a restored cluster syncs every node as the cluster that saved it', () => {
  const a = loadFixture('kubeadm-calico', 0);
  addSeed000Web(a);
  addService(a, 'one', '10.100.0.51', ['cka-w1', 'cka-w2']);
  addService(a, 'two', '10.100.0.52', ['cka-w1']);
  addService(a, 'loc', '10.100.0.53', ['cka-w2'], true);
  a.settle();
  const snap = a.snapshot();
  const b = Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS);
  const text = JSON.parse(JSON.stringify(a.snapshot())) as typeof snap;
  const d = Cluster.restore(text, new ManualClock(text.now), CONTROLLERS);
  const all = [a, b, d];
  assert.equal(observed(b), observed(a));
  assert.equal(observed(d), observed(a));

  const steps: ((c: Cluster) => void)[] = [
    // a user flushes a Service chain on cka-w1: partial syncs of other Services leave it so
    (c) => {
      const host = c.nodeHosts().find((h) => h.name === 'cka-w1')!;
      assert.equal(runIptables(nodeIptables(host), ['-t', 'nat', '-F', serviceChainName('net/one:http', 'tcp')]).exitCode, 0);
      c.touchHosts();
    },
    // one endpoint changes (a partial sync rewrites that Service's chains only)
    (c) => {
      const s = c.store.get<EndpointSlice>('EndpointSlice', 'net', 'two-x')!;
      c.write<EndpointSlice>({ ...s, endpoints: [...(s.endpoints ?? []), { addresses: ['10.246.0.9'], conditions: { ready: true }, nodeName: 'cka-w2' }] });
    },
    // a Service is added, another deleted
    (c) => {
      addService(c, 'three', '10.100.0.54', ['cka-cp1', 'cka-w1']);
      c.deleteObject('EndpointSlice', 'net', 'one-x');
    },
    // the Local Service's endpoint moves to another node
    (c) => {
      const s = c.store.get<EndpointSlice>('EndpointSlice', 'net', 'loc-x')!;
      c.write<EndpointSlice>({ ...s, endpoints: (s.endpoints ?? []).map((e) => ({ ...e, nodeName: 'cka-w1' })) });
    },
  ];
  steps.forEach((step, i) => {
    // interleaved, in a different order at each step
    const order = i % 2 === 0 ? all : [...all].reverse();
    for (const c of order) {
      step(c);
      c.settle();
    }
    assert.equal(observed(b), observed(a), `step ${i + 1}: shared restore`);
    assert.equal(observed(d), observed(a), `step ${i + 1}: restore from JSON text`);
    if (i === 1) {
      // the user's flush survived the partial sync (one's chains were not rewritten)
      const rules = (node: string): number =>
        runIptables(nodeIptables(a.nodeHosts().find((h) => h.name === node)!), ['-t', 'nat', '-S', serviceChainName('net/one:http', 'tcp')])
          .stdout.split('\n')
          .filter((l) => l.startsWith('-A')).length;
      assert.equal(rules('cka-w1'), 0);
      assert.equal(rules('cka-w2'), 3);
    }
  });
});

/** Each node's remembered fingerprints: the record, and the delta of changed ones over it. */
function fingerprintRecords(c: Cluster): { fps: number; delta: number }[] {
  const synced = (c.state['kubeProxy'] as { synced: Record<string, { fps?: object; fpsDelta?: object }> }).synced;
  return Object.values(synced).map((s) => ({ fps: Object.keys(s.fps ?? {}).length, delta: Object.keys(s.fpsDelta ?? {}).length }));
}

test('kube-proxy: partial syncs record changed fingerprints over the last record, folded when many; a restore reads both', () => {
  const a = loadFixture('kubeadm-calico', 0);
  for (let i = 0; i < 80; i++) addService(a, `s${i}`, `10.100.1.${i + 1}`, ['cka-w1']);
  a.settle();
  // (a new address: every node's rules change, not only those of the nodes it moves between)
  const move = (c: Cluster, i: number): void => {
    const s = c.store.get<EndpointSlice>('EndpointSlice', 'net', `s${i}-x`)!;
    c.write<EndpointSlice>({ ...s, endpoints: (s.endpoints ?? []).map((e) => ({ ...e, addresses: [`10.246.1.${i + 1}`], nodeName: 'cka-w2' })) });
    c.settle();
  };
  // after the full sync: one record per node, no delta
  const full = fingerprintRecords(a);
  assert.ok(full.every((r) => r.fps > 80 && r.delta === 0), JSON.stringify(full));
  for (let i = 0; i < 3; i++) move(a, i);
  assert.deepEqual(fingerprintRecords(a).map((r) => r.delta), full.map(() => 3));

  // a cluster read back from JSON text in the middle goes on exactly as the one that saved it
  const text = JSON.parse(JSON.stringify(a.snapshot())) as ReturnType<Cluster['snapshot']>;
  const b = Cluster.restore(text, new ManualClock(text.now), CONTROLLERS);
  assert.equal(observed(b), observed(a));
  for (let i = 3; i < 70; i++) {
    move(a, i);
    move(b, i);
    if (i % 16 === 0 || i === 69) assert.equal(observed(b), observed(a), `change ${i}`);
  }
  // 70 changed Services passed the delta's bound (64 for this size): folded into a new record
  const folded = fingerprintRecords(a);
  assert.ok(folded.every((r) => r.delta < 64 && r.fps === full[0]!.fps), JSON.stringify(folded));
});
