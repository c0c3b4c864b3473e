#!/usr/bin/env node
// Runs every *.test.ts under src/ (and test/) with node's own test runner, TypeScript loaded by tsx.
// Usage: npm test [-- substring…] to run only files whose path contains one of the substrings.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';

function walk(dir, out) {
  let names;
  try { names = readdirSync(dir); } catch { return out; }
  for (const n of names) {
    if (n === 'node_modules' || n === 'dist' || n.startsWith('.')) continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (n.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/**
 * The longest files start first: with two files running at a time, a long file started last
 * would leave one core idle at the end (longest-processing-time-first scheduling).
 */
const HEAVY_FIRST = ['src/scenario/engine.test.ts', 'src/cli/concurrency.test.ts', 'src/shell/validation-fuzz.test.ts', 'src/shell/session-fuzz.test.ts', 'src/cli/kube-proxy-sync.test.ts'];
const weight = (f) => {
  const i = HEAVY_FIRST.indexOf(f);
  return i < 0 ? HEAVY_FIRST.length : i;
};
const filters = process.argv.slice(2);
const files = [...walk('src', []), ...walk('test', [])]
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort((a, b) => weight(a) - weight(b) || (a < b ? -1 : a > b ? 1 : 0));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// node 20 runs test files one at a time on 2 cores (availableParallelism - 1): use every core
const concurrency = Math.max(2, availableParallelism());
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, TZ: 'UTC' },
});
process.exit(r.status ?? 1);
