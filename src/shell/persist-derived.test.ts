/**
 * Saved sessions leave kube-proxy's iptables rules out when they are derived (exactly a sync of the
 * saved objects: sim/controllers/kube-proxy-derived.ts) and rebuild them on load. Whatever the
 * history, a session saved and loaded is the session it was, byte for byte: every node's
 * `iptables-save -c`, and the whole snapshot. A node someone edited by hand keeps its edit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Session, type SessionData } from './session.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { ManualClock } from '../util/clock.js';
import { Random } from '../util/random.js';
import type { Cluster } from '../sim/cluster.js';
import type { ConfigMap } from '../sim/api/types.js';

const NODES = ['cka-cp1', 'cka-w1', 'cka-w2'];

/** What the shell saves (app/sessions.ts), through its JSON text, and the session loaded back. */
function saveAndLoad(s: Session): { loaded: Session; saved: SessionData } {
  const text = JSON.stringify(s.toJSON({ persist: true }));
  const saved = JSON.parse(text) as SessionData;
  const loaded = Session.fromJSON(JSON.parse(text) as SessionData, new ManualClock(s.cluster.now()), CONTROLLERS, {}, true);
  return { loaded, saved };
}

/** The nodes whose rules the saved file left out. */
function leftOut(saved: SessionData): string[] {
  return saved.cluster.hosts.filter((h) => (h.state as { iptables?: unknown }).iptables === null).map((h) => h.name);
}

async function iptablesSave(s: Session, node: string): Promise<string> {
  const r = await s.exec(`ssh ${node} sudo iptables-save -c`);
  assert.equal(r.exitCode, 0, r.stderr);
  return r.stdout;
}

/** Save and load `s`; the loaded session is identical (rules of every node, whole snapshot). Returns the nodes left out. */
async function assertRoundTrip(s: Session, what: string): Promise<string[]> {
  const { loaded, saved } = saveAndLoad(s);
  for (const node of NODES) assert.equal(await iptablesSave(loaded, node), await iptablesSave(s, node), `${what}: iptables-save -c on ${node}`);
  assert.equal(JSON.stringify(loaded.toJSON()), JSON.stringify(s.toJSON()), `${what}: the loaded session's snapshot differs`);
  return leftOut(saved);
}

test('a saved session leaves derived rules out and rebuilds them byte-identical on every node', async () => {
  const c = loadFixture('kubeadm-calico');
  const s = new Session(c);
  assert.deepEqual(await assertRoundTrip(s, 'fresh fixture'), NODES);
  for (const line of [
    'kubectl create deploy web --image=nginx --replicas=3',
    'kubectl expose deploy web --port=80 --type=NodePort',
    'kubectl create svc clusterip extra --tcp=8080:80',
    'kubectl scale deploy web --replicas=1',
    'kubectl label svc web tier=front',
    'kubectl delete svc extra',
  ]) {
    assert.equal((await s.exec(line)).exitCode, 0, line);
    assert.deepEqual(await assertRoundTrip(s, line), NODES, line);
  }
  // the saved file is smaller without the rules (by a tenth here; by nine tenths at 1,000 Services)
  const full = JSON.stringify(s.toJSON()).length;
  const persisted = JSON.stringify(s.toJSON({ persist: true })).length;
  assert.ok(persisted < full, `persisted ${persisted} vs ${full}`);
});

test('a node edited by hand keeps its edit across save and load, and stays saved as it is', async () => {
  const c = loadFixture('kubeadm-calico');
  const s = new Session(c);
  await s.exec('kubectl create deploy web --image=nginx --replicas=2');
  await s.exec('kubectl expose deploy web --port=80');
  const edit = await s.exec('ssh cka-w1 sudo iptables -I INPUT 1 -s 10.9.9.9/32 -j DROP');
  assert.equal(edit.exitCode, 0, edit.stderr);
  assert.deepEqual(await assertRoundTrip(s, 'after the edit'), ['cka-cp1', 'cka-w2']);
  // a Service change re-syncs every node (partially): the edit, in a chain kube-proxy does not
  // rewrite, survives on cka-w1
  await s.exec('kubectl create svc clusterip later --tcp=81:80');
  assert.deepEqual(await assertRoundTrip(s, 'after a partial sync'), ['cka-cp1', 'cka-w2']);
  const { loaded } = saveAndLoad(s);
  assert.match(await iptablesSave(loaded, 'cka-w1'), /-A INPUT -s 10\.9\.9\.9\/32 -j DROP/);
  // deleting the edited rule again is still an edit by hand: the node's tables keep being saved
  await s.exec('ssh cka-w1 sudo iptables -D INPUT -s 10.9.9.9/32 -j DROP');
  assert.deepEqual(await assertRoundTrip(s, 'after undoing the edit'), ['cka-cp1', 'cka-w2']);
});

test('rules kube-proxy has not synced, or synced with another config, are saved or rebuilt as they are', async () => {
  const c = loadFixture('kubeadm-calico');
  const s = new Session(c);
  // a config change restarts kube-proxy: its full sync with the new config is what loading rebuilds
  const cm = c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'kube-proxy')!;
  const conf = cm.data!['config.conf']!;
  assert.match(conf, /masqueradeAll: false/);
  c.write({ ...cm, metadata: { ...cm.metadata }, data: { ...cm.data, 'config.conf': conf.replace('masqueradeAll: false', 'masqueradeAll: true') } });
  c.advance(120_000);
  await s.exec('kubectl create svc clusterip masq --tcp=80:80');
  assert.match(await iptablesSave(s, 'cka-w2'), /-A KUBE-SVC-\S+ .*-j KUBE-MARK-MASQ/);
  assert.deepEqual(await assertRoundTrip(s, 'masqueradeAll'), NODES);
  // without kube-proxy the rules fall behind the objects: they are saved, not rebuilt. The twin,
  // loaded before, has not read its rules yet when its objects change: it rebuilds them from the
  // objects it was loaded with, as the rules were
  const twin = saveAndLoad(s).loaded;
  for (const x of [s, twin]) {
    await x.exec('kubectl -n kube-system delete ds kube-proxy');
    x.cluster.advance(60_000);
    await x.exec('kubectl create svc clusterip unsynced --tcp=82:80');
  }
  assert.equal(JSON.stringify(twin.toJSON().cluster), JSON.stringify(s.toJSON().cluster));
  for (const node of NODES) assert.equal(await iptablesSave(twin, node), await iptablesSave(s, node), `twin: iptables-save -c on ${node}`);
  assert.deepEqual(await assertRoundTrip(s, 'kube-proxy gone'), []);
});

/** Services with 5 endpoints each, straight into the store (as the bench builds them). */
function addServices(c: Cluster, from: number, n: number): void {
  for (let i = from; i < from + n; i++) {
    const ip = `10.100.${(i >> 8) & 255}.${i & 255}`;
    c.insert({ apiVersion: 'v1', kind: 'Service', metadata: { name: `s${i}`, namespace: 'default' }, spec: { type: 'ClusterIP', clusterIP: ip, clusterIPs: [ip], ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }] } });
    c.insert({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: `s${i}-x`, namespace: 'default', labels: { 'kubernetes.io/service-name': `s${i}` } },
      addressType: 'IPv4',
      endpoints: Array.from({ length: 5 }, (_, j) => ({ addresses: [`10.245.${((i * 5 + j) >> 8) & 255}.${(i * 5 + j) & 255}`], conditions: { ready: true }, nodeName: 'cka-w1' })),
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    });
  }
  c.settle();
}

test('large-cluster mode: chains kept from the other mode, or stale ones left for later, are saved; a full sync or cleanup derives them again', async () => {
  const c = loadFixture('kubeadm-calico');
  const s = new Session(c);
  addServices(c, 0, 150);
  assert.deepEqual(await assertRoundTrip(s, '750 endpoints'), NODES);
  // past 1,000 endpoints: the partial sync keeps the 150 Services' chains with their comments
  addServices(c, 150, 60);
  assert.deepEqual(await assertRoundTrip(s, 'large-cluster mode by a partial sync'), []);
  // within syncPeriod of the last cleanup, a Service that goes leaves its chains behind
  c.advance(3_600_000);
  assert.deepEqual(await assertRoundTrip(s, 'after the hourly full sync'), []);
  await s.exec('kubectl create svc clusterip wake --tcp=80:80');
  assert.deepEqual(await assertRoundTrip(s, 'a sync after the full one'), NODES);
  await s.exec('kubectl delete svc s3');
  assert.match(await iptablesSave(s, 'cka-w1'), /KUBE-SVC-\S+ .*default\/s3:http/);
  assert.deepEqual(await assertRoundTrip(s, 'stale chains left'), []);
  c.advance(31_000);
  await s.exec('kubectl delete svc s4');
  assert.doesNotMatch(await iptablesSave(s, 'cka-w1'), /default\/s3:http/);
  assert.deepEqual(await assertRoundTrip(s, 'after the cleanup'), NODES);
});

test('any history of Service, endpoint, time and hand edits saves and loads identically', async () => {
  const c = loadFixture('kubeadm-calico');
  let s = new Session(c);
  const rnd = new Random(42);
  const actions = [
    (i: number) => `kubectl create deploy d${i} --image=nginx --replicas=${1 + rnd.int(3)}`,
    (i: number) => `kubectl expose deploy d${rnd.int(i + 1)} --port=${80 + rnd.int(5)} --name=e${i}`,
    (i: number) => `kubectl scale deploy d${rnd.int(i + 1)} --replicas=${rnd.int(4)}`,
    (i: number) => `kubectl delete svc e${rnd.int(i + 1)}`,
    (i: number) => `kubectl label svc e${rnd.int(i + 1)} v=${i} --overwrite`,
    (i: number) => `kubectl delete deploy d${rnd.int(i + 1)}`,
    () => `ssh ${NODES[rnd.int(3)]} sudo iptables -t nat -A KUBE-SERVICES -d 10.1.2.${rnd.int(200)}/32 -j RETURN`,
    () => `ssh ${NODES[rnd.int(3)]} sudo iptables -t mangle -X KUBE-PROXY-CANARY`,
    () => 'sleep 40',
  ];
  for (let i = 0; i < 30; i++) {
    // hand edits are rarer, so most steps keep some nodes derived
    const a = actions[rnd.int(10) < 8 ? rnd.int(6) : 6 + rnd.int(3)]!;
    const line = a(i);
    await s.exec(line);
    await assertRoundTrip(s, `step ${i}: ${line}`);
    // carry on in the loaded session half of the time: its rebuilt rules are the ones kube-proxy syncs next
    if (rnd.int(2) === 0) s = saveAndLoad(s).loaded;
  }
});

test('a loaded session whose commands change no Service or endpoint leaves the rules unbuilt, and saves them left out', async () => {
  const s = new Session(loadFixture('kubeadm-calico'));
  await s.exec('kubectl create deploy web --image=nginx --replicas=2');
  await s.exec('kubectl expose deploy web --port=80');
  // the pods ready and their endpoints written: nothing for kube-proxy to sync from here on
  (s.cluster.clock as ManualClock).advance(600_000);
  await s.exec('kubectl get po');
  const { loaded } = saveAndLoad(s);
  const unbuilt = (x: Session): string[] => x.cluster.nodeHosts().filter((h) => h.data.state.iptables === null).map((h) => h.name);
  assert.deepEqual(unbuilt(loaded), NODES);
  // a Pod change wakes kube-proxy, which compares each node's ruleset revision with its last
  // sync's: the deferred rebuild's revision answers that without the full sync per node that a
  // one-shot `cka-lab kubectl` used to pay for
  const lines = ['kubectl run idle --image=busybox --restart=Never -- sleep 3600', 'kubectl label pod idle tier=x', 'kubectl get po -A', 'kubectl delete pod idle --wait=false'];
  for (const line of lines) {
    (loaded.cluster.clock as ManualClock).advance(90_000);
    assert.equal((await loaded.exec(line)).exitCode, 0, line);
  }
  assert.deepEqual(unbuilt(loaded), NODES);
  assert.deepEqual(leftOut(JSON.parse(JSON.stringify(loaded.toJSON({ persist: true }))) as SessionData), NODES);
  // rules read later are what the node would have had
  for (const line of lines) {
    (s.cluster.clock as ManualClock).advance(90_000);
    assert.equal((await s.exec(line)).exitCode, 0, line);
  }
  for (const node of NODES) assert.equal(await iptablesSave(loaded, node), await iptablesSave(s, node), node);
});
