/**
 * What a learner sees after editing kube-proxy's nftables rules by hand (as `nft delete element` /
 * `nft delete rule` would): kube-proxy's partial syncs (pkg/proxy/nftables/proxier.go) leave the
 * edit in place, as the iptables backend does, until the edited Service's chains are rewritten
 * (rules) or the next full sync, an hour after the last one (rules and elements: a full sync reads
 * the maps back from the table, nftElementStorage.readOrReset). A partial sync never re-adds an
 * element the proxier believes it wrote, even when that Service changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { addSeed000Web } from './seed000.js';
import { connect } from './path.js';
import { ApiServer } from '../apiserver.js';
import type { ConfigMap, Service } from '../api/types.js';
import type { Cluster } from '../cluster.js';
import { nodeNftables } from '../node/runtime.js';
import { kubeProxyTable } from '../net/kube-proxy/nftables.js';
import { runNftTransaction } from '../net/kube-proxy/nftables-tx.js';

function nftablesMode(c: Cluster): void {
  const api = new ApiServer(c);
  const cm = structuredClone(c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'kube-proxy')!);
  cm.data!['config.conf'] = cm.data!['config.conf']!.replace(/^mode: ""$/m, 'mode: nftables');
  api.update(cm);
  c.advance(60_000);
}

function otherService(c: Cluster, name: string, ip: string): void {
  new ApiServer(c).create<Service>({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'net' }, spec: { type: 'ClusterIP', clusterIP: ip, clusterIPs: [ip], selector: { app: 'none' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] } });
  c.settle();
}

const fromC = { kind: 'pod', ns: 'net', name: 'c' } as const; // on cka-w1

test('nftables: an element deleted by hand stays deleted through partial syncs, a full sync restores it', () => {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  nftablesMode(c);
  assert.equal(connect(c, fromC, '10.111.80.136', 80, 'tcp').ok, true);
  const host = c.host('cka-w1')!;
  // nft delete element ip kube-proxy service-ips { 10.111.80.136 . tcp . 80 }
  const err = runNftTransaction(nodeNftables(host), [{ verb: 'delete', obj: 'element', set: 'service-ips', kind: 'map', elem: { key: ['10.111.80.136', 'tcp', '80'] } }]);
  assert.equal(err, undefined);
  c.touchHosts();
  const refused = connect(c, fromC, '10.111.80.136', 80, 'tcp');
  assert.equal(refused.error, 'refused', refused.trace.join('\n')); // cluster-ips-check: a ClusterIP without that port
  otherService(c, 'other', '10.100.0.60'); // a partial sync
  assert.equal(connect(c, fromC, '10.111.80.136', 80, 'tcp').error, 'refused');
  // the edited Service changes (an external IP): its chains are rewritten, the element is not re-added
  const api = new ApiServer(c);
  const web = structuredClone(c.store.get<Service>('Service', 'net', 'web')!);
  web.spec.externalIPs = ['192.168.122.200'];
  api.update(web);
  c.settle();
  const t = kubeProxyTable(nodeNftables(host))!;
  assert.ok(t.sets.find((x) => x.name === 'service-ips')!.elements.some((e) => e.key[0] === '192.168.122.200'));
  assert.equal(connect(c, fromC, '10.111.80.136', 80, 'tcp').error, 'refused');
  // cka-w2 was not edited
  assert.equal(connect(c, { kind: 'node', host: 'cka-w2' }, '10.111.80.136', 80, 'tcp').ok, true);
  c.advance(3_600_000); // FullSyncPeriod: the hourly full sync reads service-ips back and adds what is missing
  assert.equal(connect(c, fromC, '10.111.80.136', 80, 'tcp').ok, true);
});

test('nftables: a rule deleted by hand from a service chain comes back when that Service changes', () => {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  nftablesMode(c);
  const host = c.host('cka-w1')!;
  const t = kubeProxyTable(nodeNftables(host))!;
  const chain = t.chains.find((ch) => /^service-[A-Z2-7]{8}-net\/web\/tcp\/$/.test(ch.name))!;
  // nft delete rule … handle N: the numgen rule that picks an endpoint
  chain.rules = chain.rules.filter((r) => r.rule.op !== 'numgen');
  c.touchHosts();
  assert.equal(connect(c, fromC, '10.111.80.136', 80, 'tcp').ok, false);
  otherService(c, 'other', '10.100.0.60');
  assert.equal(connect(c, fromC, '10.111.80.136', 80, 'tcp').ok, false, 'a partial sync for another Service leaves the edit');
  new ApiServer(c).delete('Pod', 'net', 'web-1'); // web's endpoints change: its chains are rewritten
  c.settle();
  const r = connect(c, fromC, '10.111.80.136', 80, 'tcp');
  assert.equal(r.ok, true, r.trace.join('\n'));
});

test('nftables: a sync that must delete an element removed by hand fails, and the retry a syncPeriod later is full', () => {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  nftablesMode(c);
  const host = c.host('cka-w1')!;
  runNftTransaction(nodeNftables(host), [{ verb: 'delete', obj: 'element', set: 'service-ips', kind: 'map', elem: { key: ['10.111.80.136', 'tcp', '80'] } }]);
  c.touchHosts();
  // renaming the port changes the element's verdict: ensureElem deletes and re-adds it, and nft
  // refuses to delete what is not there, so the whole transaction fails
  const api = new ApiServer(c);
  const web = structuredClone(c.store.get<Service>('Service', 'net', 'web')!);
  web.spec.ports = [{ ...web.spec.ports![0]!, name: 'http' }];
  api.update(web);
  c.settle();
  const t = kubeProxyTable(nodeNftables(host))!;
  assert.ok(!t.chains.some((ch) => ch.name.endsWith('-net/web/tcp/http')), 'nothing of the failed transaction is applied');
  assert.equal(connect(c, fromC, '10.111.80.136', 80, 'tcp').error, 'refused');
  c.advance(30_000); // syncRunner.RetryAfter(syncPeriod), with needFullSync
  const r = connect(c, fromC, '10.111.80.136', 80, 'tcp');
  assert.equal(r.ok, true, r.trace.join('\n'));
  assert.ok(kubeProxyTable(nodeNftables(host))!.chains.some((ch) => ch.name.endsWith('-net/web/tcp/http')));
});
