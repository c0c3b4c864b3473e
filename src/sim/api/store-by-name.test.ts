/**
 * Store.get reads a per-kind index by namespace and name (store.ts byName), kept beside the
 * `<namespace>/<name>` maps: these check that it always answers what those maps hold, through
 * writes, removals, a reload, copies that share a saved store's index and write their own kinds,
 * and the keys two pairs make alike when a `/` is in a name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from './store.js';
import type { KObject } from './types.js';

const obj = (kind: string, namespace: string | undefined, name: string, v = '1'): KObject =>
  ({ apiVersion: 'v1', kind, metadata: { name, ...(namespace !== undefined ? { namespace } : {}) }, data: { v } }) as KObject;
const value = (o: KObject | undefined): string | undefined => (o as { data?: { v: string } } | undefined)?.data?.v;

test('get after put, replace and remove, once the index is built', () => {
  const s = new Store();
  s.put(obj('ConfigMap', 'a', 'x'));
  assert.equal(value(s.get('ConfigMap', 'a', 'x')), '1');
  s.put(obj('ConfigMap', 'a', 'x', '2'));
  s.put(obj('ConfigMap', 'b', 'x', '3'));
  assert.equal(value(s.get('ConfigMap', 'a', 'x')), '2');
  assert.equal(value(s.get('ConfigMap', 'b', 'x')), '3');
  s.remove('ConfigMap', 'a', 'x');
  assert.equal(s.get('ConfigMap', 'a', 'x'), undefined);
  assert.equal(value(s.get('ConfigMap', 'b', 'x')), '3');
  // no namespace and the empty one are one key, as `<namespace>/<name>` made them
  s.put(obj('Node', undefined, 'n1'));
  assert.equal(value(s.get('Node', '', 'n1')), '1');
  assert.equal(value(s.get('Node', undefined, 'n1')), '1');
  assert.equal(s.get('Nope', undefined, 'n1'), undefined);
  s.load({ resourceVersion: 5000, uidCounter: 0, objects: [obj('ConfigMap', 'c', 'y', '4')] });
  assert.equal(s.get('ConfigMap', 'b', 'x'), undefined, 'a reload forgets the old objects');
  assert.equal(value(s.get('ConfigMap', 'c', 'y')), '4');
});

test("copies of a saved store share its index until they write a kind, and never see each other's writes", () => {
  const s = new Store();
  for (const n of ['p', 'q', 'r']) s.put(obj('Pod', 'default', n));
  s.put(obj('Service', 'default', 'svc'));
  const saved = s.toJSON();
  const a = Store.fromJSON(saved);
  const b = Store.fromJSON(saved);
  assert.equal(value(a.get('Pod', 'default', 'q')), '1');
  assert.equal(value(b.get('Pod', 'default', 'q')), '1');
  a.put(obj('Pod', 'default', 'q', 'a'));
  a.put(obj('Pod', 'default', 'new'));
  a.remove('Pod', 'default', 'p');
  assert.equal(value(a.get('Pod', 'default', 'q')), 'a');
  assert.equal(value(a.get('Pod', 'default', 'new')), '1');
  assert.equal(a.get('Pod', 'default', 'p'), undefined);
  assert.equal(value(b.get('Pod', 'default', 'q')), '1', 'the other copy reads the saved object');
  assert.equal(b.get('Pod', 'default', 'new'), undefined);
  assert.equal(value(b.get('Pod', 'default', 'p')), '1');
  const c = Store.fromJSON(saved);
  assert.equal(value(c.get('Pod', 'default', 'q')), '1', 'a later copy too');
  // a kind copied on write by `unordered` (own) and written after
  b.unordered('Service');
  b.put(obj('Service', 'default', 'svc', 'b'));
  assert.equal(value(b.get('Service', 'default', 'svc')), 'b');
  assert.equal(value(a.get('Service', 'default', 'svc')), '1');
});

test('a `/` in a name: the pair whose `<namespace>/<name>` key is stored answers, as before', () => {
  const s = new Store();
  s.put(obj('ConfigMap', 'a', 'b/c', 'first'));
  assert.equal(value(s.get('ConfigMap', 'a', 'b/c')), 'first');
  // ("a/b", "c") makes the same key "a/b/c": the map holds one object for it
  assert.equal(value(s.get('ConfigMap', 'a/b', 'c')), 'first');
  s.put(obj('ConfigMap', 'a/b', 'c', 'second'));
  assert.equal(value(s.get('ConfigMap', 'a', 'b/c')), 'second');
  assert.equal(value(s.get('ConfigMap', 'a/b', 'c')), 'second');
  s.remove('ConfigMap', 'a', 'b/c');
  assert.equal(s.get('ConfigMap', 'a/b', 'c'), undefined);
  assert.equal(s.get('ConfigMap', 'a', 'b/c'), undefined);
});

test("keyBelow compares as `${namespace}/${name}` < key does, prefixes, '/' and '-' included", async () => {
  const { keyBelow } = await import('./store.js');
  const pairs: Array<[string | undefined, string]> = [];
  for (const ns of [undefined, '', 'a', 'a-b', 'a/b', 'ab', 'kube-system', 'z\u00e9', '\ud83d\ude00']) for (const name of ['', 'b', 'b/c', 'b-c', 'web-1', '0', '\uffff']) pairs.push([ns, name]);
  const keys = [...pairs.map(([ns, n]) => `${ns ?? ''}/${n}`), '', '/', '0', 'a', 'a/', 'a0', 'a-b/', 'a-b0', 'a/b', 'kube-system/', 'kube-system0', '\uffff'];
  for (const [ns, name] of pairs) {
    const o = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(ns !== undefined ? { namespace: ns } : {}) } } as KObject;
    for (const k of keys) assert.equal(keyBelow(o, k), `${ns ?? ''}/${name}` < k, `${ns}/${name} < ${k}`);
  }
});

test('a name that is no string (never valid, against the types) is found as `<namespace>/<name>` keyed it', () => {
  const s = new Store();
  s.put(obj('ConfigMap', 'a', 'x'));
  assert.equal(value(s.get('ConfigMap', 'a', 'x')), '1');
  s.put(obj('ConfigMap', 'a', 5 as unknown as string, 'five'));
  assert.equal(value(s.get('ConfigMap', 'a', '5')), 'five');
  assert.equal(value(s.get('ConfigMap', 'a', 5 as unknown as string)), 'five');
  s.put(obj('ConfigMap', 'a', 'undefined', 'word'));
  assert.equal(value(s.get('ConfigMap', 'a', undefined as unknown as string)), 'word');
});
