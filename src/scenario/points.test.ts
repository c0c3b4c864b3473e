/**
 * One source of truth for a task's points: its `weight`. The checks share it by their `points`
 * (grade.ts shareTenths), so check totals, the task's score, its header and the exam agree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shareTenths } from './grade.js';
import { loadLibrary } from './loader.js';

test('points: checks share the weight in tenths, by largest remainder', () => {
  const cases = [
    { name: 'points already sum to the weight', points: [1, 3], weight: 4, want: [10, 30] },
    { name: 'pending-node-selector: 2+2+2+1 over 4', points: [2, 2, 2, 1], weight: 4, want: [12, 11, 11, 6] },
    { name: 'one check takes it all', points: [1], weight: 6, want: [60] },
    { name: 'equal thirds of 1', points: [1, 1, 1], weight: 1, want: [4, 3, 3] },
    { name: 'more points than the weight', points: [3, 3, 2, 2, 2], weight: 7, want: [17, 17, 12, 12, 12] },
    { name: 'no points', points: [], weight: 4, want: [] },
  ];
  for (const c of cases) {
    const got = shareTenths(c.points, c.weight);
    assert.deepEqual(got, c.want, c.name);
    if (c.points.length) assert.equal(got.reduce((a, t) => a + t, 0), c.weight * 10, `${c.name}: adds up`);
  }
});

test('points: in every library task each check is worth something and the shares add up to the weight', () => {
  const { scenarios } = loadLibrary(new URL('../../scenarios', import.meta.url).pathname);
  assert.ok(scenarios.length > 100);
  const bad: string[] = [];
  for (const s of scenarios) {
    const shares = shareTenths(s.checks.map((c) => c.points), s.weight);
    if (shares.reduce((a, t) => a + t, 0) !== s.weight * 10 || shares.some((t) => t === 0)) bad.push(`${s.id}: ${shares.join('+')} tenths for weight ${s.weight}`);
  }
  assert.deepEqual(bad, []);
});
