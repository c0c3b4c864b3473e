#!/usr/bin/env node
// Runs every *.test.ts under src/ with node's own test runner.
//
// Compiled once: esbuild transpiles src/ file by file (no bundling, same layout) into .test-build/,
// and the tests run as plain JavaScript. Loading the simulation through tsx's loader hooks cost
// about 0.6 s of CPU per test file; plain modules load in a third of that. Files that are not
// TypeScript (testdata folders, data files) are linked into .test-build/ at the same place, so
// paths relative to a test's own module, and golden updates, reach the real files in src/.
// `CKA_LAB_TEST_TSX=1 npm test` runs the sources through tsx instead (no build step).
//
// Usage: npm test [-- substring…] to run only files whose path contains one of the substrings.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { build } from 'esbuild';

// scripts/fuzz.mjs builds into its own tree, so `npm test` may run beside a long fuzz run
const OUT = process.env['CKA_LAB_TEST_OUT'] ?? '.test-build';

function walk(dir, keep, out = []) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    if (n === 'node_modules' || n === 'dist' || n.startsWith('.')) continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) walk(p, keep, out);
    else if (keep(n)) out.push(p);
  }
  return out;
}

/**
 * Link every non-TypeScript file of src/ into the build tree; a testdata folder without compiled
 * modules is linked whole, so goldens a test writes land in src/.
 */
function mirrorAssets(dir) {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    const target = join(OUT, relative('src', p));
    if (statSync(p).isDirectory()) {
      if (n === 'testdata' && !existsSync(target)) {
        mkdirSync(dirname(target), { recursive: true });
        symlinkSync(resolve(p), target, 'dir');
      } else mirrorAssets(p);
    } else if (!n.endsWith('.ts')) {
      mkdirSync(dirname(target), { recursive: true });
      symlinkSync(resolve(p), target);
    }
  }
}

/**
 * The longest files run alone and start first: with two processes at a time, a long file started
 * last would leave one core idle at the end (longest-processing-time-first scheduling). Their CPU
 * seconds when this list was made, with fixtures cached per process: engine 63, concurrency 19,
 * launcher 18, replay-resume 18, runaway 17, verbs/transcripts 17; a group takes 12-28.
 */
const HEAVY_FIRST = [
  'scenario/engine.test',
  'cli/concurrency.test',
  'cli/launcher.test',
  'runtime/replay-resume.test',
  'cli/runaway.test',
  'kubectl/verbs/transcripts.test',
];
const weight = (f) => {
  const i = HEAVY_FIRST.findIndex((h) => f.includes(h));
  return i < 0 ? HEAVY_FIRST.length : i;
};

/**
 * The other files run GROUPS to a process. Each test file alone paid ~1 s of CPU to load the
 * simulation's ~1,200 modules and ran its code cold; in a group they load once and the JIT stays
 * warm, and fixtures are built once per process (testing/fixtures.ts): the suite takes about a
 * third less CPU. Files are dealt round-robin in path order, so a group's files are the same from
 * run to run. A file whose import fails shows as a failing test named after it. A filtered run of
 * a few files keeps one process per file, so their output stays apart.
 */
const GROUPS = 8;
const GROUP_MIN_FILES = 12;

function groupEntries(compiled) {
  const alone = compiled.filter((f) => weight(f) < HEAVY_FIRST.length);
  const rest = compiled.filter((f) => weight(f) === HEAVY_FIRST.length);
  if (rest.length < GROUP_MIN_FILES) return compiled;
  const dir = join(OUT, '.groups');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const groups = Array.from({ length: Math.min(GROUPS, rest.length) }, () => []);
  rest.forEach((f, i) => groups[i % groups.length].push(relative(dir, f)));
  const entries = groups.map((g, i) => {
    const entry = join(dir, `group-${i + 1}.test.js`);
    writeFileSync(
      entry,
      [
        `// ${g.length} test files in one process (scripts/test.mjs)`,
        "import { test } from 'node:test';",
        `for (const f of ${JSON.stringify(g, null, 1)}) {`,
        '  try {',
        '    await import(f);',
        '  } catch (e) {',
        '    test(`loading ${f}`, () => { throw e; });',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    return entry;
  });
  return [...alone, ...entries];
}

const viaTsx = process.env['CKA_LAB_TEST_TSX'] === '1';
// scripts/fuzz.mjs runs the same files once per seed: the tree built by its first run is reused
const reuse = process.env['CKA_LAB_TEST_REUSE'] === '1' && existsSync(OUT);
const filters = process.argv.slice(2);
let files = walk('src', (n) => n.endsWith('.test.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort((a, b) => weight(a) - weight(b) || (a < b ? -1 : a > b ? 1 : 0));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const nodeArgs = [];
if (viaTsx) nodeArgs.push('--import', 'tsx');
else if (reuse) {
  files = files.map((f) => join(OUT, relative('src', f)).replace(/\.ts$/, '.js'));
  nodeArgs.push('--enable-source-maps');
} else {
  rmSync(OUT, { recursive: true, force: true });
  await build({
    entryPoints: walk('src', (n) => n.endsWith('.ts')),
    outdir: OUT,
    outbase: 'src',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  mirrorAssets('src');
  files = files.map((f) => join(OUT, relative('src', f)).replace(/\.ts$/, '.js'));
  nodeArgs.push('--enable-source-maps');
}
if (!viaTsx) files = groupEntries(files);
// node 20 runs test files one at a time on 2 cores (availableParallelism - 1): use every core
const concurrency = Math.max(2, availableParallelism());
const r = spawnSync(process.execPath, [...nodeArgs, '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, TZ: 'UTC' },
});
process.exit(r.status ?? 1);
