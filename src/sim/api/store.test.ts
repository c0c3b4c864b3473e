import { test } from 'node:test';
import assert from 'node:assert/strict';
import { objectsKeyed, Store } from './store.js';
import type { KObject } from './types.js';

const cm = (): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' }, data: { k: 'v' } } as KObject);

test('store: stored objects are frozen all the way down', () => {
  const st = new Store();
  const stored = st.put(cm());
  assert.ok(Object.isFrozen(stored) && Object.isFrozen(stored.metadata) && Object.isFrozen((stored as unknown as { data: object }).data));
  assert.throws(() => {
    (stored as unknown as { data: Record<string, string> }).data['k'] = 'x';
  }, TypeError);
});

test('store: a stored object written back as it is gets a new resourceVersion; the old one is unchanged', () => {
  const st = new Store();
  st.put(cm());
  const first = st.get('ConfigMap', 'default', 'a')!;
  const rv = first.metadata.resourceVersion;
  const again = st.put(first);
  assert.notEqual(again.metadata.resourceVersion, rv);
  assert.equal(first.metadata.resourceVersion, rv);
  assert.equal(st.get('ConfigMap', 'default', 'a'), again);
});

test('store: { ...stored } written back does not change the stored object it shares metadata with', () => {
  const st = new Store();
  const first = st.put(cm());
  const rv = first.metadata.resourceVersion;
  st.put({ ...first, data: { k: 'w' } } as KObject);
  assert.equal(first.metadata.resourceVersion, rv);
});

test('an insert or removal leaves a list handed out as it was, and changes in place a list nobody holds', () => {
  const s = new Store();
  const cm = (name: string): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'a' } });
  s.put(cm('b'));
  const held = s.list('ConfigMap');
  s.put(cm('a'));
  s.put(cm('c'));
  assert.deepEqual(held.map((o) => o.metadata.name), ['b']);
  const now = s.list('ConfigMap');
  assert.deepEqual(now.map((o) => o.metadata.name), ['a', 'b', 'c']);
  s.remove('ConfigMap', 'a', 'b');
  assert.deepEqual(now.map((o) => o.metadata.name), ['a', 'b', 'c'], 'held through the removal');
  assert.deepEqual(s.list('ConfigMap').map((o) => o.metadata.name), ['a', 'c']);
});

test('store: the uid index and the set of objects being deleted follow every write, whenever they were first asked', () => {
  const obj = (name: string, uid: string, deleting = false): KObject =>
    ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'a', uid, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['x'] } : {}) } }) as KObject;
  type Step = { name: string; run: (s: Store) => void };
  const steps: Step[] = [
    { name: 'create b', run: (s) => s.put(obj('b', 'u-b')) },
    { name: 'create c, being deleted', run: (s) => s.put(obj('c', 'u-c', true)) },
    { name: 'b deleted with a finalizer', run: (s) => s.put(obj('b', 'u-b', true)) },
    { name: 'c re-created under a new uid', run: (s) => { s.remove('ConfigMap', 'a', 'c'); s.put(obj('c', 'u-c2')); } },
    { name: 'b removed', run: (s) => s.remove('ConfigMap', 'a', 'b') },
    { name: 'load another database', run: (s) => s.load({ resourceVersion: 5000, uidCounter: 9, objects: [obj('d', 'u-d', true)] }) },
  ];
  const view = (s: Store): string => JSON.stringify({ uids: ['u-b', 'u-c', 'u-c2', 'u-d'].map((u) => s.byUid(u)?.metadata.name ?? null), deleting: [...s.beingDeleted()].map((o) => o.metadata.name).sort() });
  const expected = [
    { uids: ['b', null, null, null], deleting: [] },
    { uids: ['b', 'c', null, null], deleting: ['c'] },
    { uids: ['b', 'c', null, null], deleting: ['b', 'c'] },
    { uids: ['b', null, 'c', null], deleting: ['b'] },
    { uids: [null, null, 'c', null], deleting: [] },
    { uids: [null, null, null, 'd'], deleting: ['d'] },
  ];
  // asked after every step (kept up to date), and asked only at the end (built from the objects)
  const early = new Store();
  steps.forEach((step, i) => {
    step.run(early);
    assert.equal(view(early), JSON.stringify(expected[i]), step.name);
  });
  for (let n = 1; n <= steps.length; n++) {
    const late = new Store();
    for (const step of steps.slice(0, n)) step.run(late);
    assert.equal(view(late), JSON.stringify(expected[n - 1]), `asked first after: ${steps[n - 1]!.name}`);
  }
});

// Validate and the grader restore one saved state thousands of times: a frozen saved store is
// indexed at its first restore and the later ones share that index's per-kind maps, each copying a
// kind's map at its first write to it (Store.fromJSON).
test('store: restores of a frozen saved store share its index, and no restore sees another one\'s writes', () => {
  const cm = (name: string, v = '1'): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'x', uid: `u-${name}` }, data: { v } } as KObject);
  const st = new Store();
  for (const n of ['b', 'a', 'c']) st.put(cm(n));
  st.put({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'x' } } as KObject);
  const data = st.toJSON();
  assert.ok(Object.isFrozen(data.objects), 'the saved list is frozen with its objects, so copies of the state share it');
  const names = (s: Store): string[] => s.list('ConfigMap').map((o) => `${o.metadata.name}=${(o as unknown as { data: { v: string } }).data.v}`);
  const one = Store.fromJSON(data);
  const two = Store.fromJSON(data);
  assert.deepEqual(names(one), ['a=1', 'b=1', 'c=1']);
  one.put(cm('d'));
  one.remove('ConfigMap', 'x', 'a');
  two.put(cm('b', '2'));
  assert.deepEqual(names(one), ['b=1', 'c=1', 'd=1']);
  assert.deepEqual(names(two), ['a=1', 'b=2', 'c=1']);
  const three = Store.fromJSON(data);
  assert.deepEqual(names(three), ['a=1', 'b=1', 'c=1']);
  assert.equal(three.get('ConfigMap', 'x', 'b'), data.objects.find((o) => o.metadata.name === 'b'));
  assert.equal(three.remove('ConfigMap', 'x', 'zz'), undefined);
  assert.deepEqual([one.byUid('u-a'), three.byUid('u-a')?.metadata.name, three.kinds()], [undefined, 'a', ['ConfigMap', 'Pod']]);
  // iterating a kind while writing it sees the writes, as a store of its own does
  const seen: string[] = [];
  for (const o of three.unordered('ConfigMap')) {
    seen.push(o.metadata.name);
    if (o.metadata.name === 'c') three.put(cm('e'));
  }
  assert.deepEqual(seen.sort(), ['a', 'b', 'c', 'e']);
  assert.deepEqual(names(Store.fromJSON(data)), ['a=1', 'b=1', 'c=1']);
});

test('store: a saved store is indexed from the store that saved it while that one is unchanged, as an index built afresh would be', () => {
  const obj = (kind: string, name: string): KObject => ({ apiVersion: 'v1', kind, metadata: { name, namespace: 'x', uid: `u-${kind}-${name}` } } as KObject);
  const st = new Store();
  for (const n of ['b', 'a', 'c']) st.put(obj('ConfigMap', n));
  for (const n of ['q', 'p']) st.put(obj('Pod', n));
  st.put(obj('Secret', 's'));
  const first = Store.fromJSON(st.toJSON());
  first.put(obj('Pod', 'o'));
  first.remove('Secret', 'x', 's');
  const before = objectsKeyed.count;
  const data = first.toJSON();
  const second = Store.fromJSON(data);
  assert.equal(objectsKeyed.count - before, 3, 'only the Pods are keyed again: the ConfigMaps are the index the first restore shared');
  const fresh = Store.fromJSON({ ...data, objects: Object.freeze([...data.objects]) as KObject[] });
  assert.equal(objectsKeyed.count - before, 3 + 6, 'a list no store saved is keyed whole');
  const shape = (s: Store): unknown => s.kinds().map((k) => [k, [...s.unordered(k)].map((o) => o.metadata.name), s.list(k).map((o) => o.metadata.name), s.byUid(`u-${k}-a`)?.metadata.name]);
  assert.deepEqual(shape(second), shape(fresh));
  assert.deepEqual(shape(second), [['ConfigMap', ['a', 'b', 'c'], ['a', 'b', 'c'], 'a'], ['Pod', ['o', 'p', 'q'], ['o', 'p', 'q'], undefined]]);
  // the store that saved it writes before the first restore: the saved list is keyed whole, as it stands
  const later = first.toJSON();
  first.put(obj('Pod', 'n'));
  const n = objectsKeyed.count;
  const third = Store.fromJSON(later);
  assert.equal(objectsKeyed.count - n, 6);
  assert.deepEqual(shape(third), shape(fresh));
});
