import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyJSON, deepFreeze, freezeIfPlain, sameJSON, toPlainJSON, toPlainJSONSharing, toPlainJSONTop } from './json-copy.js';
import { fixtureSnapshot } from '../scenario/session.js';

const roundTrip = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

const CASES: { name: string; value: unknown }[] = [
  { name: 'undefined in an object is dropped', value: { a: undefined, b: 1 } },
  { name: 'undefined and functions in arrays become null', value: [undefined, () => 1, Symbol('x'), 2] },
  { name: 'non-finite numbers become null', value: { a: NaN, b: Infinity, c: -Infinity, d: -0 } },
  { name: 'toJSON is honoured with its key', value: { when: new Date(0), custom: { toJSON: (k: string) => `key=${k}` } } },
  { name: 'Maps and Sets become empty objects', value: { m: new Map([[1, 2]]), s: new Set([1]) } },
  { name: 'nested arrays and objects', value: { a: [{ b: [1, 'x', null, true] }], c: {} } },
  { name: 'key order is kept', value: { z: 1, a: 2, '1': 3 } },
];

for (const c of CASES)
  test(`toPlainJSON: ${c.name}`, () => {
    assert.deepEqual(toPlainJSON(c.value), roundTrip(c.value));
    assert.equal(JSON.stringify(toPlainJSON(c.value)), JSON.stringify(c.value));
  });

test('toPlainJSON and copyJSON of a fixture snapshot equal the JSON round trip, and the copy is independent', () => {
  const snap = fixtureSnapshot('kubeadm-calico', 1);
  assert.equal(JSON.stringify(toPlainJSON(snap)), JSON.stringify(snap));
  const copy = copyJSON(snap);
  assert.equal(JSON.stringify(copy), JSON.stringify(snap));
  // what can change is copied; the store's objects are frozen, so the copy shares them
  copy.hosts[0]!.name = 'changed';
  assert.notEqual(snap.hosts[0]!.name, 'changed');
  assert.equal(copy.store.objects[0], snap.store.objects[0]);
  assert.throws(() => {
    copy.store.objects[0]!.metadata.name = 'changed';
  }, TypeError);
  // toPlainJSON (the store's clone) copies frozen trees too: its result is the caller's to change
  const mutable = toPlainJSON(snap.store.objects[0]) as { metadata: { name: string } };
  mutable.metadata.name = 'changed';
  assert.notEqual(snap.store.objects[0]!.metadata.name, 'changed');
});

test('toPlainJSONSharing shares frozen subtrees and copies the rest', () => {
  const frozen = Object.freeze({ a: Object.freeze([1, 2]) });
  const tree = { f: frozen, m: { x: 1, u: undefined } };
  const out = toPlainJSONSharing(tree) as typeof tree;
  assert.equal(out.f, frozen);
  assert.notEqual(out.m, tree.m);
  assert.deepEqual(out.m, { x: 1 });
});

const SAME_CASES: { name: string; a: unknown; b: unknown }[] = [
  { name: 'equal trees', a: { a: [1, 'x', null, { b: true }] }, b: { a: [1, 'x', null, { b: true }] } },
  { name: 'a changed leaf', a: { a: { b: 1 } }, b: { a: { b: 2 } } },
  { name: 'key order differs', a: { a: 1, b: 2 }, b: { b: 2, a: 1 } },
  { name: 'an undefined member is absent', a: { a: 1, b: undefined }, b: { a: 1 } },
  { name: 'undefined in an array is null', a: [undefined, 1], b: [null, 1] },
  { name: 'an extra member', a: { a: 1 }, b: { a: 1, c: 0 } },
  { name: 'array against object', a: { a: [] }, b: { a: {} } },
  { name: 'number against string', a: [1], b: ['1'] },
  { name: 'NaN and null', a: [NaN], b: [null] },
  { name: '-0 and 0', a: [-0], b: [0] },
  { name: 'a function member is not printed', a: { a: 1, f: () => 1 }, b: { a: 1 } },
  { name: 'shorter array', a: [1, 2], b: [1] },
  { name: 'empty string against null', a: { a: '' }, b: { a: null } },
];

for (const c of SAME_CASES)
  test(`sameJSON: ${c.name} agrees with comparing JSON texts`, () => {
    assert.equal(sameJSON(c.a, c.b), JSON.stringify(c.a) === JSON.stringify(c.b));
    assert.equal(sameJSON(c.b, c.a), JSON.stringify(c.b) === JSON.stringify(c.a));
  });

test('deepFreeze freezes a tree all the way down and stops at a frozen subtree', () => {
  const shared = Object.freeze({ inner: { n: 1 } });
  const tree = { a: [{ b: 1 }, 'x'], c: { d: { e: null } }, shared };
  deepFreeze(tree);
  for (const v of [tree, tree.a, tree.a[0], tree.c, tree.c.d]) assert.ok(Object.isFrozen(v));
  // a frozen subtree is taken as frozen throughout: its unfrozen insides are left as they are
  assert.equal(Object.isFrozen(shared.inner), false);
  assert.throws(() => {
    (tree.c.d as { e: unknown }).e = 1;
  }, TypeError);
});

test('toPlainJSONTop gives toPlainJSON’s tree, sharing only frozen plain members', () => {
  const frozen = <T>(v: T): T => {
    deepFreeze(v);
    return v;
  };
  const shared = frozen({ a: [1, 'x', null, true, { b: 2 }], c: {} });
  const notPlain: Record<string, unknown> = {
    undef: frozen({ a: undefined, b: 1 }),
    nan: frozen({ a: NaN }),
    minusZero: frozen([-0]),
    // eslint-disable-next-line no-sparse-arrays
    hole: frozen([1, , 2]),
    date: frozen({ when: new Date(0) }),
    map: frozen({ m: new Map([[1, 2]]) }),
    proto: frozen(JSON.parse('{"__proto__":{"x":1}}') as unknown),
    unfrozenChild: Object.freeze({ inner: { x: 1 } }),
    fn: frozen({ f: () => 1 }),
  };
  const top: Record<string, unknown> = { kind: 'X', n: -0, u: undefined, shared, live: { x: [1] }, ...notPlain };
  for (const v of [top, Object.freeze({ ...top })]) {
    const out = toPlainJSONTop(v) as Record<string, unknown>;
    assert.equal(JSON.stringify(out), JSON.stringify(toPlainJSON(v)));
    assert.deepEqual(Object.keys(out), Object.keys(toPlainJSON(v) as object));
    assert.ok(!Object.isFrozen(out), 'the top level is new and writable');
    assert.equal(out.shared, shared, 'a frozen plain member is shared');
    assert.notEqual(out.live, v.live, 'a live member is copied');
    for (const k of Object.keys(notPlain)) {
      assert.notEqual(out[k], notPlain[k], `${k} is copied`);
      assert.equal(JSON.stringify(out[k]), JSON.stringify(toPlainJSON(notPlain[k])), `${k} as toPlainJSON gives it`);
    }
    // a write below a shared member throws instead of changing the original
    assert.throws(() => {
      (out.shared as { c: Record<string, unknown> }).c.y = 1;
    }, TypeError);
  }
  // not an object of the plain prototype: toPlainJSON's answer
  assert.deepEqual(toPlainJSONTop([shared]), [shared]);
  assert.notEqual((toPlainJSONTop([shared]) as unknown[])[0], shared);
  assert.equal(toPlainJSONTop({ toJSON: () => 'x' }), 'x');
});

test('freezeIfPlain freezes a tree toPlainJSON copies unchanged, which a snapshot then shares, and leaves any other as it is', () => {
  const plain = { a: [1, 'x', { b: null, c: true }], d: { e: [] as unknown[] }, f: Object.freeze({ g: 2 }) };
  assert.equal(freezeIfPlain(plain), true);
  assert.ok(Object.isFrozen(plain) && Object.isFrozen(plain.a) && Object.isFrozen(plain.a[2]) && Object.isFrozen(plain.d.e));
  const snap = toPlainJSONSharing({ part: plain }) as { part: unknown };
  assert.equal(snap.part, plain, 'shared by the snapshot');
  for (const other of [{ a: undefined }, { a: new Array<unknown>(2) }, { a: NaN }, { a: -0 }, { a: new Map() }, { a: { toJSON: () => 1 } }, { a: [() => 1] }]) {
    assert.equal(freezeIfPlain(other), false, JSON.stringify(other));
    assert.ok(!Object.isFrozen(other));
    assert.deepEqual(toPlainJSONSharing(other), JSON.parse(JSON.stringify(other)), 'copied as JSON would');
  }
  // a frozen part that is not plain (a snapshot would share it with its undefined member) is not taken for one
  const holder = { a: Object.freeze({ b: undefined }) };
  assert.equal(freezeIfPlain(holder), false);
  assert.ok(!Object.isFrozen(holder));
  assert.equal(freezeIfPlain(undefined), false);
  assert.equal(freezeIfPlain('s'), false);
});
