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

const filters = process.argv.slice(2);
const files = [...walk('src', []), ...walk('test', [])]
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
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
