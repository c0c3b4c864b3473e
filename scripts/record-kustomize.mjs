#!/usr/bin/env node
/**
 * Record `kubectl kustomize` goldens from the real kubectl v1.35 (kustomize v5.7.1).
 *
 *   node scripts/record-kustomize.mjs [CASE…]
 *
 * Each case is a directory tree under src/shell/kustomize/testdata/<case>/ (the kustomization
 * to build is the case directory itself, or the path in its `.target` file). The tree is copied
 * to /tmp/cka-kustomize/<case> (a fixed absolute path, because kustomize's errors print
 * absolute paths) and built there; exit code, stdout and stderr go to testdata/<case>.golden.
 * src/shell/kustomize/kustomize.test.ts builds the same tree at the same path in the simulated
 * filesystem and compares byte for byte.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const kubectl = join(root, '.cache/kubectl/kubectl');
const testdata = join(root, 'src/shell/kustomize/testdata');
const base = '/tmp/cka-kustomize';

const only = process.argv.slice(2);
const cases = readdirSync(testdata).filter((c) => statSync(join(testdata, c)).isDirectory() && (only.length === 0 || only.includes(c)));
for (const c of cases) {
  const dest = join(base, c);
  rmSync(dest, { recursive: true, force: true });
  cpSync(join(testdata, c), dest, { recursive: true });
  const targetFile = join(testdata, c, '.target');
  const target = existsSync(targetFile) ? readFileSync(targetFile, 'utf8').trim() : '.';
  const r = await new Promise((resolve) => {
    execFile(kubectl, ['kustomize', join(dest, target)], { env: { HOME: '/tmp', PATH: process.env.PATH ?? '' }, encoding: 'utf8', cwd: base }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
  writeFileSync(join(testdata, `${c}.golden`), `exit: ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`);
  console.log(`${c}: exit ${r.status}`);
}
