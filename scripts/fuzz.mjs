#!/usr/bin/env node
// `npm run fuzz [-- --seeds N] [--first S] [--scale X] [--timeout SECONDS]`: the fuzz suites of
// `npm test` (src/shell/session-fuzz.test.ts, src/shell/validation-fuzz.test.ts,
// src/cli/concurrency.test.ts), run longer (CKA_FUZZ_SCALE times the runs of the short pass in
// `npm test`) once per seed. Each suite appends its figures to a report file (src/testing/fuzz.ts);
// a seed whose run does not finish within the timeout counts as a hang. Prints, per seed and in
// total, the figures issue 18 asks for: runs, crashes, hangs, lost writes, poisoned sessions (and
// half-applied writes). Exits 1 unless every figure but runs is 0.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SUITES = ['shell/session-fuzz.test', 'shell/validation-fuzz.test', 'cli/concurrency.test'];
const FIGURES = ['runs', 'crashes', 'hangs', 'lostWrites', 'poisoned', 'halfApplied'];
const LABELS = { runs: 'runs', crashes: 'crashes', hangs: 'hangs', lostWrites: 'lost writes', poisoned: 'poisoned sessions', halfApplied: 'half-applied writes' };

function arg(name, dflt) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : dflt;
}
const seeds = arg('seeds', 5);
const first = arg('first', 1);
const scale = arg('scale', 4);
const timeoutS = arg('timeout', 900);

const dir = mkdtempSync(join(tmpdir(), 'cka-lab-fuzz-'));
const rows = [];
const started = Date.now();
for (let k = 0; k < seeds; k++) {
  const seed = first + k;
  const report = join(dir, `seed-${seed}.jsonl`);
  const t = Date.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'test.mjs'), ...SUITES], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: timeoutS * 1000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, CKA_FUZZ_SEED: String(seed), CKA_FUZZ_SCALE: String(scale), CKA_FUZZ_REPORT: report, CKA_LAB_TEST_REUSE: k === 0 ? '0' : '1', CKA_LAB_TEST_OUT: '.fuzz-build' },
  });
  const lines = existsSync(report) ? readFileSync(report, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  for (const l of lines) rows.push(l);
  const timedOut = r.error?.code === 'ETIMEDOUT' || r.signal === 'SIGTERM';
  if (timedOut) rows.push({ suite: '(whole run)', seed, runs: 0, crashes: 0, hangs: 1, lostWrites: 0, poisoned: 0, halfApplied: 0, examples: [`seed ${seed} did not finish within ${timeoutS} s`] });
  // a suite that died without writing its figures (an exception outside its loop) is a crash
  const wrote = new Set(lines.map((l) => l.suite));
  for (const s of ['session-fuzz', 'validation-fuzz', 'concurrency']) {
    if (!wrote.has(s) && !timedOut) rows.push({ suite: s, seed, runs: 0, crashes: 1, hangs: 0, lostWrites: 0, poisoned: 0, halfApplied: 0, examples: [`${s} wrote no figures:\n${(r.stdout ?? '').split('\n').filter((x) => /✖|Error|at /.test(x)).slice(0, 20).join('\n')}`] });
  }
  process.stdout.write(`seed ${seed}: ${((Date.now() - t) / 1000).toFixed(0)} s${timedOut ? ' (timed out)' : ''}\n`);
}

const pad = (s, n) => String(s).padStart(n);
const head = ['seed', 'suite'.padEnd(16), ...FIGURES.map((f) => LABELS[f])];
console.log(`\n${head.join('  ')}`);
for (const r of rows) console.log([pad(r.seed, 4), r.suite.padEnd(16), ...FIGURES.map((f) => pad(r[f], LABELS[f].length))].join('  '));
const total = Object.fromEntries(FIGURES.map((f) => [f, rows.reduce((s, r) => s + (r[f] ?? 0), 0)]));
console.log(`\n${seeds} seeds (${first}..${first + seeds - 1}), scale ${scale}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(FIGURES.map((f) => `${LABELS[f]}: ${total[f]}`).join(', '));
const examples = rows.flatMap((r) => (r.examples ?? []).map((e) => `[${r.suite} seed ${r.seed}] ${e}`));
if (examples.length > 0) console.log(`\nfirst findings:\n${examples.slice(0, 12).join('\n')}`);
const bad = FIGURES.filter((f) => f !== 'runs' && total[f] > 0);
process.exit(bad.length === 0 ? 0 : 1);
