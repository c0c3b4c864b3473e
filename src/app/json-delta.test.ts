/**
 * diffJSON / applyDelta: the edits between two trees, read back from JSON and applied to a parsed
 * copy of the first, give the second's JSON text byte for byte (key order, undefined members,
 * shared and moved array elements), and edits that do not fit throw DeltaMismatch, never a
 * TypeError or a polluted prototype.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDelta, diffJSON, DeltaMismatch } from './json-delta.js';

/** What a journal line carries through its file: the edits as JSON, applied to the parsed old tree. */
function roundTrip(a: unknown, b: unknown): { text: string; ops: number } {
  const ops = diffJSON(a, b);
  const applied = applyDelta(JSON.parse(JSON.stringify(a)) as unknown, JSON.parse(JSON.stringify(ops)) as unknown);
  return { text: JSON.stringify(applied), ops: JSON.stringify(ops).length };
}

function check(a: unknown, b: unknown, what: string): number {
  const r = roundTrip(a, b);
  assert.equal(r.text, JSON.stringify(b), what);
  return r.ops;
}

test('diffJSON: the applied edits print as the new tree, in its key order', () => {
  check({ a: 1, b: { c: [1, 2, 3] } }, { a: 1, b: { c: [1, 2, 3] } }, 'unchanged');
  assert.deepEqual(diffJSON({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 2] } }), []);
  check({ a: 1, b: 2 }, { a: 1, b: 3 }, 'a member changes');
  check({ a: 1, b: 2 }, { a: 1 }, 'a member goes');
  check({ a: 1, b: 2 }, { a: 1, b: 2, c: 3 }, 'a member comes');
  check({ a: 1, b: 2 }, { b: 2, a: 1 }, 'the order changes');
  check({ a: 1, b: 2 }, { c: 0, a: 1, b: 2 }, 'a member comes first');
  check({ a: 1, b: 2, c: 3 }, { a: 1, c: 3, d: 4 }, 'one goes, one comes');
  check({ b: 1, 10: 2 }, { b: 1, 10: 2, 5: 3 }, 'integer keys sort first');
  check({ a: 1, u: undefined }, { a: 1, u: 2 }, 'an undefined member is absent');
  check({ a: 1, u: 2 }, { a: 1, u: undefined, f: () => 1 }, 'an undefined member goes');
  check([1, { a: 1 }], [1, undefined], 'undefined in an array is null');
  check({ n: 1 }, { n: -0 }, '-0 prints as 0');
  check({ n: 1 }, { n: Number.NaN }, 'NaN prints as null');
  check({ a: [1, 2] }, { a: { 0: 1 } }, 'an array becomes an object');
  check({ a: 'x' }, { a: null }, 'a string becomes null');
  check(1, { a: 1 }, 'the root changes');
  // a member comes before the last ones (a controller's state beside the bookkeeping kept last):
  // the new member and the order, not the whole object
  const state = { big: 'x'.repeat(1000), __wakeups: [1], __controllers: { n: 1 } };
  const grown = check(state, { big: state.big, added: 1, __wakeups: [1], __controllers: { n: 1 } }, 'a member comes in the middle');
  assert.ok(grown < 200, `the whole object was written (${grown} bytes)`);
});

test('diffJSON: array elements that come and go; old elements are copied, each once', () => {
  const objs = Array.from({ length: 50 }, (_, i) => Object.freeze({ kind: 'Service', name: `s${i}`, spec: { port: i } }));
  const ev = { kind: 'Event', name: 'e' };
  const inserted = [...objs.slice(0, 20), ev, ...objs.slice(20)];
  const small = check({ objects: objs }, { objects: inserted }, 'an insertion in the middle');
  assert.ok(small < 200, `an insertion writes ${small} bytes`);
  check({ objects: objs }, { objects: objs.filter((_, i) => i !== 7 && i !== 30) }, 'two deletions');
  const moved = [...objs.slice(0, 10), ev, ...objs.slice(11, 40), { ...objs[40]!, spec: { port: 99 } }, ...objs.slice(41), ev];
  check({ objects: objs }, { objects: moved }, 'a replacement, a change and an append');
  check({ objects: objs }, { objects: [...objs.slice(0, 5), objs[3], ...objs.slice(5)] }, 'an old element twice');
  // the same old object at two places in the new tree must not be one object once loaded
  const twice = [objs[0], objs[0], objs[1]];
  const ops = JSON.parse(JSON.stringify(diffJSON({ l: [objs[0], objs[1]] }, { l: twice }))) as unknown;
  const loaded = applyDelta(JSON.parse(JSON.stringify({ l: [objs[0], objs[1]] })) as unknown, ops) as { l: { name: string }[] };
  assert.notEqual(loaded.l[0], loaded.l[1]);
  assert.equal(JSON.stringify(loaded), JSON.stringify({ l: twice }));
  // an object of the store that changed while others came: its own edits, not the whole object
  const pod = Object.freeze({ kind: 'Pod', metadata: { name: 'p', uid: 'u-p' }, spec: { big: 'x'.repeat(2000) }, status: { phase: 'Pending' } });
  const running = { ...pod, status: { phase: 'Running' } };
  const list = [...objs.slice(0, 10), pod, ...objs.slice(10)];
  const edited = check({ objects: list }, { objects: [ev, ...objs.slice(0, 10), running, ...objs.slice(10, 30), ev, ...objs.slice(30)] }, 'a changed object among new ones');
  assert.ok(edited < 400, `the changed object was written whole (${edited} bytes)`);
  check([1, 2, 3], [], 'emptied');
  check([], [1, 2, 3], 'filled');
  check([1, 2, 3, 4], [1, 4], 'the middle goes');
  check(['a', 'b'], ['b', 'a'], 'swapped');
});

test('diffJSON: random edits of random trees round-trip exactly', () => {
  let seed = 12345;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const keys = ['a', 'b', 'c', 'd', '0', '7', '__proto__', 'constructor', 'x.y', ''];
  const leaf = (): unknown => [1, 0, -1.5, 'x', '', 'é’', true, false, null, undefined][rnd(10)];
  const tree = (depth: number): unknown => {
    if (depth === 0 || rnd(4) === 0) return leaf();
    if (rnd(2) === 0) return Array.from({ length: rnd(6) }, () => tree(depth - 1));
    const o: Record<string, unknown> = {};
    // API objects, which array edits match by uid
    if (rnd(3) === 0) o['metadata'] = { uid: `u${rnd(4)}`, name: 'n' };
    for (let i = rnd(6); i > 0; i--) Object.defineProperty(o, keys[rnd(keys.length)]!, { value: tree(depth - 1), enumerable: true, writable: true, configurable: true });
    return o;
  };
  /** A copy of `t` with a few random edits; unedited subtrees are shared, as two snapshots share frozen objects. */
  const mutate = (t: unknown, depth: number): unknown => {
    if (rnd(5) === 0) return tree(depth);
    if (Array.isArray(t)) {
      const out = t.map((x) => (rnd(3) === 0 ? mutate(x, depth - 1) : x));
      if (rnd(3) === 0) out.splice(rnd(out.length + 1), 0, tree(depth - 1));
      if (rnd(3) === 0 && out.length) out.splice(rnd(out.length), 1);
      if (rnd(4) === 0 && out.length) out.push(out[rnd(out.length)]);
      return out;
    }
    if (typeof t === 'object' && t !== null) {
      const entries = Object.entries(t);
      if (rnd(4) === 0) entries.reverse();
      const out: Record<string, unknown> = {};
      for (const [k, v] of entries) if (rnd(6) !== 0) Object.defineProperty(out, k, { value: rnd(3) === 0 ? mutate(v, depth - 1) : v, enumerable: true, writable: true, configurable: true });
      if (rnd(3) === 0) Object.defineProperty(out, keys[rnd(keys.length)]!, { value: tree(depth - 1), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return rnd(2) === 0 ? leaf() : t;
  };
  for (let i = 0; i < 3000; i++) {
    const a = tree(5);
    let b = a;
    // a chain of saves, each applied on top of the last (a journal of several lines)
    let loaded = JSON.parse(JSON.stringify({ r: a }) ?? 'null') as unknown;
    let prev: unknown = { r: a };
    for (let step = 0; step < 3; step++) {
      b = mutate(b, 5);
      const ops = JSON.parse(JSON.stringify(diffJSON(prev, { r: b }))) as unknown;
      loaded = applyDelta(loaded, ops);
      assert.equal(JSON.stringify(loaded), JSON.stringify({ r: b }), `case ${i}, step ${step}`);
      prev = { r: b };
    }
  }
  assert.equal(({} as { polluted?: unknown }).polluted, undefined);
});

test('applyDelta: edits that do not fit the tree throw DeltaMismatch', () => {
  const bad: unknown[] = [
    'x',
    [['s', ['a', 'b'], 1]],
    [['s', [5], 1]],
    [['d', ['a']]],
    [['d', [0]]],
    [['a', ['l'], 0, 9, []]],
    [['a', ['l'], 0, 1, [[0, 5]]]],
    [['a', ['l'], 0, 1, ['junk']]],
    [['a', ['l'], 0, 1, [[0, 1], [0, 1]]]],
    [['a', ['l'], 0, 1, [{ e: 0, ops: [] }, { e: 0, ops: [] }]]],
    [['a', ['l'], 0, 1, [{ e: 1, ops: [] }]]],
    [['a', ['l'], 0, 1, [{ e: 0, ops: [['s', ['x', 'y'], 1]] }]]],
    [['a', ['o'], 0, 0, []]],
    [['z', ['o']]],
    [['o', ['o'], ['x']]],
    [['o', ['l'], []]],
    [['s', [-1], 1]],
    [['s', [{}], 1]],
    [null],
  ];
  for (const ops of bad) assert.throws(() => applyDelta({ l: [1], o: {} }, ops), DeltaMismatch, JSON.stringify(ops));
  assert.throws(() => applyDelta({ o: { a: 1, b: 2 } }, [['o', ['o'], ['a', 'a']]]), DeltaMismatch);
  // a member named __proto__ is a member, not the prototype
  const t = applyDelta({ o: {} }, [['s', ['o', '__proto__'], { polluted: true }]]) as { o: Record<string, unknown> };
  assert.equal(JSON.stringify(t), '{"o":{"__proto__":{"polluted":true}}}');
  assert.equal(({} as { polluted?: unknown }).polluted, undefined);
});
