import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from './store.js';
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
