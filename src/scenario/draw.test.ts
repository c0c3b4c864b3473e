import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apportion, stratifiedDraw } from './draw.js';
import { DOMAINS, type Domain } from './schema.js';
import { Random } from '../util/random.js';

const lib = (counts: Partial<Record<Domain, number>>): { id: string; domain: Domain }[] =>
  Object.entries(counts).flatMap(([d, n]) => Array.from({ length: n }, (_, i) => ({ id: `${d}-${i}`, domain: d as Domain })));

const CASES: { name: string; n: number; available: Partial<Record<Domain, number>>; seats: Partial<Record<Domain, number>> }[] = [
  {
    name: '17 tasks over a full library: largest remainder of 5.1, 4.25, 3.4, 2.55, 1.7',
    n: 17,
    available: { troubleshooting: 20, 'cluster-architecture': 20, 'services-networking': 20, 'workloads-scheduling': 20, storage: 20 },
    seats: { troubleshooting: 5, 'cluster-architecture': 4, 'services-networking': 3, 'workloads-scheduling': 3, storage: 2 },
  },
  {
    name: 'absent domains give their share to the others',
    n: 10,
    available: { troubleshooting: 20, 'services-networking': 20 },
    seats: { troubleshooting: 6, 'services-networking': 4 },
  },
  {
    name: 'a domain with too few tasks passes its surplus on',
    n: 10,
    available: { troubleshooting: 1, 'cluster-architecture': 20, 'services-networking': 20 },
    seats: { troubleshooting: 1, 'cluster-architecture': 5, 'services-networking': 4 },
  },
  { name: 'never more tasks than the library has', n: 17, available: { storage: 2, troubleshooting: 3 }, seats: { storage: 2, troubleshooting: 3 } },
];

for (const c of CASES) {
  test(`apportion: ${c.name}`, () => {
    const seats = apportion(c.n, DOMAINS, c.available);
    assert.deepEqual(Object.fromEntries(Object.entries(seats).filter(([, v]) => v! > 0)), c.seats);
    const drawn = stratifiedDraw(lib(c.available), c.n, DOMAINS, new Random(3));
    assert.equal(new Set(drawn.map((d) => d.id)).size, drawn.length, 'no task twice');
    for (const [d, k] of Object.entries(c.seats)) assert.equal(drawn.filter((x) => x.domain === d).length, k, d);
  });
}

test('the same random state draws the same exam; another seed another one', () => {
  const l = lib({ troubleshooting: 10, 'cluster-architecture': 10, 'services-networking': 10, 'workloads-scheduling': 10, storage: 10 });
  const ids = (seed: number): string[] => stratifiedDraw(l, 17, DOMAINS, new Random(seed)).map((s) => s.id);
  assert.deepEqual(ids(42), ids(42));
  assert.notDeepEqual(ids(42), ids(43));
});

test('an exam holds at most one task of a family, across domains, and still fills its seats', () => {
  const l: { id: string; domain: Domain; family?: string }[] = [
    ...lib({ troubleshooting: 6, 'cluster-architecture': 5, 'services-networking': 4, 'workloads-scheduling': 3, storage: 2 }),
    { id: 'sel-a', domain: 'troubleshooting', family: 'selector' },
    { id: 'sel-b', domain: 'troubleshooting', family: 'selector' },
    { id: 'sel-c', domain: 'services-networking', family: 'selector' },
    { id: 'hosts-a', domain: 'services-networking', family: 'hosts' },
    { id: 'hosts-b', domain: 'services-networking', family: 'hosts' },
  ];
  let sawFamily = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const exam = stratifiedDraw(l, 17, DOMAINS, new Random(seed));
    assert.equal(exam.length, 17, `seed ${seed}`);
    assert.equal(new Set(exam.map((s) => s.id)).size, 17, 'no task twice');
    const fams = exam.flatMap((s) => (s.family ? [s.family] : []));
    assert.equal(new Set(fams).size, fams.length, `seed ${seed}: ${exam.map((s) => s.id).join(' ')}`);
    sawFamily += fams.length;
  }
  assert.ok(sawFamily > 0, 'family members are drawn at all');
});

test('a domain is apportioned by its families: two of one family count as one task', () => {
  const l = [
    { id: 'a', domain: 'storage' as Domain, family: 'f' },
    { id: 'b', domain: 'storage' as Domain, family: 'f' },
    ...lib({ troubleshooting: 20 }),
  ];
  const exam = stratifiedDraw(l, 10, DOMAINS, new Random(1));
  assert.equal(exam.filter((s) => s.domain === 'storage').length, 1);
  assert.equal(exam.length, 10);
});
