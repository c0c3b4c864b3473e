/**
 * Persistence and time: atomic versioned JSON files with corrupt files set aside, the progress
 * store, the wall-following clock, history aggregation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readJsonVersioned, writeJsonAtomic } from './jsonfile.js';
import { ProgressStore, emptyProgress, type Attempt } from './progress.js';
import { summarise } from './history.js';
import { WallClock } from './wallclock.js';
import { dataDir } from './paths.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'cka-lab-app-'));
const NOW = Date.parse('2026-12-01T09:00:00Z');

test('dataDir follows XDG_DATA_HOME, else ~/.local/share', () => {
  const cases = [
    { name: 'xdg', env: { XDG_DATA_HOME: '/x/data', HOME: '/home/u' }, want: '/x/data/cka-lab' },
    { name: 'relative xdg is ignored', env: { XDG_DATA_HOME: 'rel', HOME: '/home/u' }, want: '/home/u/.local/share/cka-lab' },
    { name: 'home', env: { HOME: '/home/u' }, want: '/home/u/.local/share/cka-lab' },
  ];
  for (const c of cases) assert.equal(dataDir(c.env), c.want, c.name);
});

test('readJsonVersioned: ok, missing, and every kind of corrupt file set aside', () => {
  const dir = tmp();
  const p = join(dir, 'f.json');
  assert.deepEqual(readJsonVersioned(p, 1, () => undefined, NOW), { status: 'missing' });
  writeJsonAtomic(p, { schema: 1, x: 2 });
  assert.deepEqual(readJsonVersioned(p, 1, () => undefined, NOW), { status: 'ok', data: { schema: 1, x: 2 } });
  const cases = [
    { name: 'truncated', text: '{"schema":1,', reason: /^not valid JSON/ },
    { name: 'array', text: '[]', reason: /^not a JSON object$/ },
    { name: 'newer schema', text: '{"schema":2}', reason: /^schema version 2, expected 1$/ },
    { name: 'bad shape', text: '{"schema":1}', reason: /^no x$/ },
  ];
  for (const c of cases) {
    writeFileSync(p, c.text);
    const r = readJsonVersioned(p, 1, (v) => ((v as { x?: unknown }).x === undefined ? 'no x' : undefined), NOW);
    assert.equal(r.status, 'corrupt', c.name);
    if (r.status !== 'corrupt') continue;
    assert.match(r.reason, c.reason, c.name);
    assert.equal(r.movedTo, `${p}.corrupt-2026-12-01T09-00-00-000Z`, c.name);
    assert.equal(readFileSync(r.movedTo, 'utf8'), c.text, `${c.name}: the content is kept`);
  }
  assert.ok(!readdirSync(dir).some((n) => n.endsWith('.tmp')));
});

test('ProgressStore: a corrupt progress file is reported, kept aside, and a new record starts', () => {
  const dir = tmp();
  writeFileSync(join(dir, 'progress.json'), '{"schema":1,"attempts":"oops","exams":[]}');
  const store = new ProgressStore(dir, () => NOW);
  assert.deepEqual(store.load(), emptyProgress());
  assert.equal(store.warning, `progress file could not be read (missing attempts or exams); it was moved to ${join(dir, 'progress.json')}.corrupt-2026-12-01T09-00-00-000Z and a new record begins`);
  store.update((p) => p.exams.push());
  assert.deepEqual(new ProgressStore(dir, () => NOW).load(), emptyProgress());
  assert.deepEqual(readdirSync(dir).sort(), ['progress.json', 'progress.json.corrupt-2026-12-01T09-00-00-000Z']);
});

test('WallClock: simulated time follows the wall and can be pushed ahead, never back', () => {
  let real = 1000;
  const c = new WallClock(5_000_000, () => real);
  assert.equal(c.now(), 5_000_000);
  real += 2500;
  assert.equal(c.now(), 5_000_000, 'still until synced (controllers settle on a fixed time)');
  c.sync();
  assert.equal(c.now(), 5_002_500);
  c.advance(30_000); // `sleep 30`
  assert.equal(c.now(), 5_032_500);
  c.set(5_000_000); // backwards: ignored
  assert.equal(c.now(), 5_032_500);
  c.set(6_000_000);
  real += 1000;
  c.sync();
  assert.equal(c.now(), 6_001_000);
});

test('history: per-domain strength, weakest topics first, time per task', () => {
  const a = (scenario: string, domain: string, topics: string[], score: number, max: number, seconds: number, targetMinutes: number): Attempt => ({
    scenario, domain, topics, score, max, seconds, targetMinutes, mode: 'practice', startedAt: 0, endedAt: 0, assisted: false,
  });
  const p = {
    ...emptyProgress(),
    attempts: [
      a('dns-1', 'services-networking', ['dns'], 2, 4, 600, 5),
      a('dns-1', 'services-networking', ['dns'], 4, 4, 240, 5),
      a('np-1', 'services-networking', ['nodeport', 'service'], 1, 4, 300, 5),
      a('etcd-1', 'cluster-architecture', ['etcd'], 5, 5, 120, 8),
      a('pv-1', 'storage', ['pv'], 0, 3, 900, 6),
    ],
  };
  const s = summarise(p);
  assert.deepEqual(s.domains.map((d) => [d.name, d.score, d.max, d.percent]), [
    ['storage', 0, 3, 0],
    ['services-networking', 7, 12, 58],
    ['cluster-architecture', 5, 5, 100],
  ]);
  assert.deepEqual(s.topics.map((t) => [t.name, t.percent]), [['pv', 0], ['nodeport', 25], ['service', 25], ['dns', 75], ['etcd', 100]]);
  assert.deepEqual(s.times.map((t) => [t.scenario, t.meanSeconds, t.ratio]), [['pv-1', 900, 2.5], ['dns-1', 420, 1.4], ['np-1', 300, 1], ['etcd-1', 120, 0.25]]);
  assert.deepEqual(s.practiseNext, ['pv', 'nodeport', 'service']);
  assert.deepEqual([s.attempts, s.exams], [5, 0]);
});

test('a wall that moves on every reading does not keep the controllers from settling', async () => {
  const { loadFixture } = await import('../testing/fixtures.js');
  const { Session } = await import('../shell/session.js');
  const { syncClock } = await import('./wallclock.js');
  const c = loadFixture('flannel-single', 1);
  let real = 0;
  c.clock = new WallClock(c.now(), () => (real += 7));
  const s = new Session(c);
  for (const line of ['kubectl create deployment web --image=nginx', 'kubectl get deploy web -o name']) {
    syncClock(c.clock);
    const r = await s.exec(line);
    assert.equal(r.stderr, '', line);
  }
});

test('history: exam tasks never worked on are no evidence of time or strength; tenths add up cleanly', () => {
  const a = (scenario: string, score: number, max: number, seconds: number, attempted?: boolean): Attempt => ({
    scenario, domain: 'storage', topics: ['pv'], score, max, seconds, targetMinutes: 5, mode: 'exam', startedAt: 0, endedAt: 0, assisted: false,
    ...(attempted === undefined ? {} : { attempted }),
  });
  const cases = [
    { name: 'untouched only', attempts: [a('pv-1', 0, 6, 0, false)], domains: [], times: [] },
    { name: 'worked and untouched', attempts: [a('pv-1', 2.4, 4, 300, true), a('pv-2', 0, 6, 0, false)], domains: [['storage', 1, 2.4, 4]], times: [['pv-1', 300]] },
    { name: 'older records count as attempted', attempts: [a('pv-1', 0.1, 1, 60), a('pv-1', 0.2, 1, 120)], domains: [['storage', 2, 0.3, 2]], times: [['pv-1', 90]] },
  ];
  for (const c of cases) {
    const s = summarise({ ...emptyProgress(), attempts: c.attempts });
    assert.deepEqual(s.domains.map((d) => [d.name, d.attempts, d.score, d.max]), c.domains, c.name);
    assert.deepEqual(s.times.map((t) => [t.scenario, t.meanSeconds]), c.times, c.name);
  }
});
