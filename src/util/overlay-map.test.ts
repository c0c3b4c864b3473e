import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OverlayMap } from './overlay-map.js';

test('OverlayMap: a chain of replacements reads as the Map with them applied, and never changes', () => {
  const base = new Map(Array.from({ length: 50 }, (_, i) => [`k${i}`, i] as [string, number]));
  const want = new Map(base);
  let m: ReadonlyMap<string, number> = base;
  const kept: [ReadonlyMap<string, number>, [string, number][]][] = [];
  for (let step = 0; step < 20; step++) {
    const changes = new Map([[`k${(step * 7) % 50}`, 100 + step], [`k${(step * 3) % 50}`, 200 + step]]);
    m = OverlayMap.of(m, changes);
    for (const [k, v] of changes) want.set(k, v);
    assert.deepEqual([...m], [...want]);
    assert.deepEqual([...m.keys()], [...want.keys()]);
    assert.deepEqual([...m.values()], [...want.values()]);
    assert.equal(m.size, want.size);
    for (const [k, v] of want) assert.equal(m.get(k), v);
    assert.equal(m.has('nope'), false);
    kept.push([m, [...want]]);
  }
  for (const [map, entries] of kept) assert.deepEqual([...map], entries, 'earlier maps unchanged');
  const seen: [string, number][] = [];
  m.forEach((v, k) => seen.push([k, v]));
  assert.deepEqual(seen, [...want]);
  // a key the base lacks: a plain copy with it added at the end
  const added = OverlayMap.of(m, new Map([['new', 1]]));
  assert.deepEqual([...added.keys()].slice(-1), ['new']);
  assert.equal(added.size, want.size + 1);
});
