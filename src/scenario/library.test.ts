/**
 * Rules the scenario library as a whole keeps (issue 17): enough near misses per task, every text
 * in every language, competencies from the curriculum, a balance across domains and competencies
 * like the exam's once the library is big enough, exams without near-duplicates, and failure
 * texts that do not give the answer away. Each rule reports what it measured.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadLibrary } from './loader.js';
import { CURRICULUM, DOMAINS, resolveCompetency, type Domain } from './curriculum.js';
import { missingLangs, seedsFor } from './validate.js';
import { instantiate, type Instance } from './instance.js';
import { stratifiedDraw } from './draw.js';
import { textLangs, textFor, type Text } from './text.js';
import { Random } from '../util/random.js';

const LIB = new URL('../../scenarios', import.meta.url).pathname;
const { scenarios } = loadLibrary(LIB);

/** Below this many tasks the balance rules are reported, not enforced (the library is still growing). */
export const BALANCE_FROM = 120;
const enforced = scenarios.length >= BALANCE_FROM;

test('every task has at least two near-miss mutations', () => {
  const few = scenarios.filter((s) => s.mutations.length < 2).map((s) => `${s.id} (${s.mutations.length})`);
  assert.deepEqual(few, []);
});

test('every task has at least one alternative correct solution (validate proves it passes)', (t) => {
  const none = scenarios.filter((s) => s.alternatives.length === 0).map((s) => s.id);
  t.diagnostic(`${scenarios.reduce((a, s) => a + s.alternatives.length, 0)} alternatives over ${scenarios.length} tasks`);
  assert.deepEqual(none, []);
});

/**
 * The exam says where each task is worked: a node to `ssh` to, or the workstation and its context.
 * The English text must name the place, or the node the task starts on (the other languages are
 * translations of it).
 */
const PLACE = /\bssh\b|\byou are on\b|\bwork (?:from|on)\b|\bworkstation\b|\bcontext\b/i;

test('every task says where to work (ssh to a node, or the workstation)', () => {
  const says = (s: (typeof scenarios)[number]): boolean => PLACE.test(textFor(s.task, 'en')) || (s.host !== undefined && textFor(s.task, 'en').includes(s.host));
  const silent = scenarios.filter((s) => !says(s)).map((s) => s.id);
  assert.deepEqual(silent, []);
});

test('every task has its text in en, ja and zh-CN', () => {
  const missing = scenarios.flatMap((s) => missingLangs(s).map((m) => `${s.id}: ${m}`));
  const described = scenarios.flatMap((s) =>
    [...s.mutations.map((m) => [`mutation ${m.id}`, m.description] as const), ...s.alternatives.map((a) => [`alternative ${a.name}`, a.description] as const)]
      .filter(([, d]) => d !== undefined && typeof d !== 'string' && textLangs(d).length > 1 && textLangs(d).length < 3)
      .map(([w]) => `${s.id}: ${w}: a translated description needs all three languages`),
  );
  assert.deepEqual([...missing, ...described], []);
});

test(`domain shares are within ±5 points of the exam weights (enforced from ${BALANCE_FROM} tasks)`, (t) => {
  const off: string[] = [];
  for (const d of Object.keys(DOMAINS) as Domain[]) {
    const n = scenarios.filter((s) => s.domain === d).length;
    const share = (100 * n) / scenarios.length;
    t.diagnostic(`${d}: ${n} tasks, ${share.toFixed(1)} % (exam ${DOMAINS[d]} %)`);
    if (Math.abs(share - DOMAINS[d]) > 5) off.push(`${d} ${share.toFixed(1)} % vs ${DOMAINS[d]} %`);
  }
  if (!enforced) t.diagnostic(`not enforced: ${scenarios.length} tasks < ${BALANCE_FROM}; off today: ${off.join('; ') || 'none'}`);
  else assert.deepEqual(off, []);
});

test('every task practises a line of the v1.35 curriculum', () => {
  const unknown = scenarios.filter((s) => !CURRICULUM.some((c) => c.line === s.competency)).map((s) => `${s.id}: "${s.competency}" (run node --import tsx scripts/canonical-competency.mjs, or add it to LEGACY_COMPETENCIES)`);
  assert.deepEqual(unknown, []);
});

test(`every competency has at least three tasks (enforced from ${BALANCE_FROM} tasks)`, (t) => {
  const thin: string[] = [];
  for (const c of CURRICULUM) {
    const ids = scenarios.filter((s) => s.competency === c.line).map((s) => s.id);
    t.diagnostic(`${c.domain} / ${c.id}: ${ids.length}${ids.length ? ` (${ids.join(', ')})` : ''}`);
    if (ids.length < 3) thin.push(`${c.id} (${ids.length})`);
  }
  const crossing = scenarios.filter((s) => resolveCompetency(s.competency)?.domain !== s.domain).map((s) => `${s.id} (${s.domain} → ${resolveCompetency(s.competency)?.domain ?? '?'})`);
  if (crossing.length) t.diagnostic(`tasks whose competency belongs to another domain: ${crossing.join(', ')}`);
  if (!enforced) t.diagnostic(`not enforced: ${scenarios.length} tasks < ${BALANCE_FROM}; under three today: ${thin.join(', ') || 'none'}`);
  else assert.deepEqual(thin, []);
});

test('a family has at least two tasks (one alone is a misspelt family name)', () => {
  const families = new Map<string, string[]>();
  for (const s of scenarios) if (s.family) families.set(s.family, [...(families.get(s.family) ?? []), s.id]);
  const single = [...families].filter(([, ids]) => ids.length < 2).map(([f, ids]) => `${f}: ${ids.join(', ')}`);
  assert.deepEqual(single, []);
  assert.ok(families.size >= 3, `${families.size} families`);
});

test('a 17-task exam is drawn by domain weight and holds no two tasks of one family', () => {
  for (let seed = 1; seed <= 200; seed++) {
    const exam = stratifiedDraw(scenarios, 17, DOMAINS, new Random(seed));
    assert.equal(exam.length, Math.min(17, scenarios.length), `seed ${seed}`);
    const fams = exam.filter((s) => s.family).map((s) => s.family!);
    assert.equal(new Set(fams).size, fams.length, `seed ${seed}: ${exam.map((s) => s.id).join(', ')}`);
    if (scenarios.length >= 40) assert.equal(exam.filter((s) => s.domain === 'troubleshooting').length, 5, `seed ${seed}: 30 % of 17 seats`);
  }
});

/**
 * What a check's texts must not show: what the learner has to find out and type. A candidate is
 * secret when the solution types it and the task statement does not give it. Candidates are what
 * the check's matcher expects and the URLs, IPs and `--flag=value`s of the solution (matched in the
 * text), and the task's params (matched as `{{param}}` in the text as written).
 */
function leaksOf(inst: Instance, i: number): string[] {
  const r = inst.resolved;
  const check = r.checks[i]!;
  const given = [r.title, r.task].flatMap(textsOf).join('\n');
  const typed = r.solution.join('\n');
  const secret = (v: string): boolean => v.trim().length >= 3 && typed.includes(v) && !given.includes(v);
  const literals = new Set<string>();
  const addMatcher = (m: unknown): void => {
    if (!m || typeof m !== 'object') return;
    const o = m as Record<string, unknown>;
    for (const k of ['equals', 'contains', 'quantity']) if (o[k] !== undefined) literals.add(String(o[k]));
    if (Array.isArray(o['setEquals'])) for (const v of o['setEquals']) literals.add(String(v));
  };
  const c = check as unknown as Record<string, unknown>;
  addMatcher(c['expect']);
  addMatcher(c['body']);
  for (const m of typed.matchAll(/https?:\/\/[^\s'"]+|\b\d{1,3}(?:\.\d{1,3}){3}(?:[:/]\d+)?\b|--[a-z][a-z0-9-]*=[^\s'"]+/g)) literals.add(m[0]);
  const out: string[] = [];
  const texts = [...textsOf(check.description), ...textsOf(check.message)];
  for (const text of texts) for (const v of literals) if (secret(v) && text.includes(v)) out.push(`"${text}" shows ${JSON.stringify(v)}`);
  const written = inst.scenario.checks[i]!;
  for (const text of [...textsOf(written.description), ...textsOf(written.message)])
    for (const [name, v] of Object.entries(inst.params)) if (text.includes(`{{${name}}}`) && secret(String(v))) out.push(`"${text}" shows {{${name}}} (${String(v)})`);
  return out;
}

function textsOf(t: Text | undefined): string[] {
  return t === undefined ? [] : textLangs(t).map((l) => textFor(t, l));
}

test('check descriptions and failure messages do not give the answer away', () => {
  const leaks = new Set<string>();
  for (const s of scenarios)
    for (const seed of seedsFor(s)) {
      const inst = instantiate(s, seed);
      inst.resolved.checks.forEach((c, i) => leaksOf(inst, i).forEach((l) => leaks.add(`${s.id} check ${c.id}: ${l}`)));
    }
  assert.deepEqual([...leaks], []);
});

test('the give-away rule catches an expected literal and an unstated param in a description', () => {
  const s = scenarios.find((x) => x.id === 'apiserver-manifest-typo')!;
  const leaky = {
    ...s,
    checks: s.checks.map((c) => (c.id === 'flag-restored' ? { ...c, description: 'The manifest sets --{{flag}} again' } : c.id === 'original-settings' ? { ...c, description: 'grep counts 3' } : c)),
    solution: [...s.solution, 'echo 3'],
  };
  const inst = instantiate(leaky, 1);
  const found = inst.resolved.checks.flatMap((_, i) => leaksOf(inst, i));
  assert.ok(found.some((l) => l.includes('{{flag}}')), found.join('\n'));
  assert.ok(found.some((l) => l.includes('shows "3"')) === false, 'one character is too short to count');
  const etcd = scenarios.find((x) => x.id === 'apiserver-etcd-endpoint')!;
  // the check as it was written first: an exact expected URL, which the description then repeats
  const url = instantiate({ ...etcd, checks: etcd.checks.map((c) => (c.id === 'etcd-servers' ? ({ ...c, description: 'kube-apiserver uses https://127.0.0.1:2379', expect: { equals: 'https://127.0.0.1:2379' } } as typeof c) : c)) }, 1);
  assert.ok(url.resolved.checks.flatMap((_, i) => leaksOf(url, i)).some((l) => l.includes('https://127.0.0.1:2379')));
});
