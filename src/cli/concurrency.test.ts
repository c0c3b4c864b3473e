/**
 * No lost writes (issue 18): one-shot `cka-lab kubectl` processes running at the same time, and
 * an open shell beside them, each read, change and write the session under its lock
 * (app/sessions.ts lock), and the shell picks up the one-shot changes before its next command.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { harness } from './testing/harness.js';

/** run-main beside this test: .ts under tsx, .js when the tests run compiled (scripts/test.mjs). */
const EXT = extname(new URL(import.meta.url).pathname);
const MAIN = new URL(`./testing/run-main${EXT}`, import.meta.url).pathname;
const LOADER = EXT === '.ts' ? ['--import', 'tsx'] : [];

function cli(data: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [...LOADER, MAIN, ...args], { env: { ...process.env, XDG_DATA_HOME: data, HOME: data, TZ: 'UTC' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    p.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

test('parallel one-shot writers: every write survives', async () => {
  const data = mkdtempSync(join(tmpdir(), 'cka-lab-conc-'));
  await cli(data, ['kubectl', 'get', 'ns', '-o', 'name']);
  const n = 6;
  const runs = await Promise.all(Array.from({ length: n }, (_, i) => cli(data, ['kubectl', 'create', 'configmap', `c${i}`, '--from-literal=k=v'])));
  for (const [i, r] of runs.entries()) assert.equal(r.stdout, `configmap/c${i} created\n`, r.stderr);
  const list = await cli(data, ['kubectl', 'get', 'cm', '-o', 'name']);
  const names = list.stdout.split('\n').filter((l) => /^configmap\/c\d$/.test(l));
  assert.equal(names.length, n, `all ${n} ConfigMaps are in the session: ${list.stdout}`);
  assert.equal(existsSync(join(data, 'cka-lab', 'sessions', 'default.json.lock')), false, 'no lock is left behind');
});

test('an open shell sees one-shot changes and does not drop them at its next save', async () => {
  const h = harness();
  await h.run(['shell'], 'kubectl create ns from-shell\n');
  // the shell reads its second line only after a one-shot command has changed the session
  let fed = false;
  const { Readable } = await import('node:stream');
  const stdin = new Readable({
    read() {
      if (fed) return;
      fed = true;
      this.push('kubectl create ns second\n');
      void h.run(['kubectl', 'create', 'ns', 'from-oneshot']).then(() => {
        this.push('kubectl get ns --no-headers -o custom-columns=N:.metadata.name\n');
        this.push(null);
      });
    },
  });
  const r = await h.run(['shell'], stdin);
  for (const ns of ['from-shell', 'second', 'from-oneshot']) assert.match(r.stdout, new RegExp(`^${ns}$`, 'm'), `namespace ${ns} is there`);
  const after = await h.run(['kubectl', 'get', 'ns', 'from-oneshot', '-o', 'name']);
  assert.equal(after.stdout, 'namespace/from-oneshot\n', 'the shell did not overwrite the one-shot change');
});

test('a stale lock left by a dead process does not block', async () => {
  const h = harness();
  await h.run(['kubectl', 'get', 'ns', '-o', 'name']);
  writeFileSync(join(h.data, 'xdg', 'cka-lab', 'sessions', 'default.json.lock'), '999999999');
  const r = await h.run(['kubectl', 'create', 'ns', 'after-stale']);
  assert.equal(r.stdout, 'namespace/after-stale created\n');
});
