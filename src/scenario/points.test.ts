/**
 * One source of truth for a task's points: its `weight`. The checks share it by their `points`
 * (grade.ts shareTenths), so check totals, the task's score, its header and the exam agree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grade, guardsCount, shareTenths } from './grade.js';
import { instantiate } from './instance.js';
import { setupSession } from './session.js';
import type { CheckSpec } from './schema.js';
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

test('points: a passAtStart guard earns its share only once one of the task\'s own checks passes', () => {
  const guard = { passAtStart: true } as CheckSpec;
  const own = {} as CheckSpec;
  const cases = [
    { name: 'untouched: only the guard passes', all: [own, guard], ok: [false, true], want: false },
    { name: 'worked on: an own check passes', all: [own, guard], ok: [true, true], want: true },
    { name: 'worked on, guard broken', all: [own, guard], ok: [true, false], want: true },
    { name: 'two own checks, one passes', all: [own, own, guard], ok: [false, true, true], want: true },
    { name: 'a task of guards alone', all: [guard, guard], ok: [true, true], want: true },
  ];
  for (const c of cases) assert.equal(guardsCount(c.all, c.all.map((check, i) => ({ check, out: { ok: c.ok[i]! } }))), c.want, c.name);
});

test('points: an untouched task scores nothing although its guards pass, and its solution scores all', async () => {
  const { scenarios } = loadLibrary(new URL('../../scenarios', import.meta.url).pathname);
  const s = scenarios.find((x) => x.id === 'namespace-stuck-terminating')!;
  assert.ok(s.checks.some((c) => c.passAtStart) && s.checks.some((c) => !c.passAtStart), 'the task has guards and its own checks');
  const inst = instantiate(s, 1);
  const session = await setupSession(inst);
  const r0 = await grade(inst, session);
  assert.equal(r0.score, 0);
  const waiting = r0.checks.filter((c) => c.waiting).map((c) => c.id);
  assert.deepEqual(waiting, s.checks.filter((c) => c.passAtStart).map((c) => c.id));
  assert.ok(r0.checks.every((c) => c.points === 0));
  for (const line of inst.resolved.solution) await session.exec(line);
  const r1 = await grade(inst, session);
  assert.deepEqual([r1.percent, r1.checks.filter((c) => c.waiting)], [100, []]);
});
