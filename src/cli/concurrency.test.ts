/**
 * No lost writes (issue 18): one-shot `cka-lab kubectl` processes running at the same time, and
 * an open shell beside them, each read, change and write the session under its lock
 * (app/sessions.ts lock), and the shell picks up the one-shot changes before its next command.
 * The writers' verbs come from a seed (src/testing/fuzz.ts); `npm run fuzz` runs more writes per
 * writer over many seeds and counts lost writes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { harness, until } from './testing/harness.js';
import { FuzzLog, HANG_MS, fuzzCount, fuzzSeed } from '../testing/fuzz.js';
import { Random } from '../util/random.js';

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

/** One write of a named object through a verb the seed picks; returns the command and what it should print. */
function oneShotWrite(r: Random, dir: string, name: string): { args: string[]; expect: string; kind: 'configmap' | 'secret' } {
  const file = join(dir, `${name}.yaml`);
  switch (r.int(5)) {
    case 0:
      return { args: ['kubectl', 'create', 'configmap', name, '--from-literal=k=v'], expect: `configmap/${name} created\n`, kind: 'configmap' };
    case 1:
      writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  k: v\n`);
      return { args: ['kubectl', 'apply', '-f', file], expect: `configmap/${name} created\n`, kind: 'configmap' };
    case 2:
      writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`);
      return { args: ['kubectl', 'create', '-f', file], expect: `configmap/${name} created\n`, kind: 'configmap' };
    case 3:
      return { args: ['kubectl', 'create', 'secret', 'generic', name, '--from-literal=k=v'], expect: `secret/${name} created\n`, kind: 'secret' };
    default:
      writeFileSync(file, `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\nstringData:\n  k: v\n`);
      return { args: ['kubectl', 'apply', '-f', file], expect: `secret/${name} created\n`, kind: 'secret' };
  }
}

test('parallel one-shot writers: every write survives, every object is counted afterwards', async () => {
  const seed = fuzzSeed(18);
  const log = new FuzzLog('concurrency', seed);
  const r = new Random(seed);
  const data = mkdtempSync(join(tmpdir(), 'cka-lab-conc-'));
  await cli(data, ['kubectl', 'get', 'ns', '-o', 'name']);
  const writers = 6;
  const each = fuzzCount(1);
  const expected: string[] = [];
  // each writer runs its writes one after another; the writers run at the same time
  const plans = Array.from({ length: writers }, (_, w) => Array.from({ length: each }, (_, j) => oneShotWrite(r, data, `w${w}-${j}`)));
  await Promise.all(
    plans.map(async (plan) => {
      for (const step of plan) {
        log.run();
        const t = performance.now();
        const res = await cli(data, step.args);
        // a writer may wait its turn for the session lock (up to 20 s, app/sessions.ts) before its own work
        if (performance.now() - t > 20_000 + HANG_MS) log.record('hangs', `${step.args.join(' ')} took ${Math.round(performance.now() - t)} ms`);
        if (res.stdout !== step.expect) log.record('lostWrites', `${step.args.join(' ')} printed ${JSON.stringify(res.stdout)} ${res.stderr}`);
        expected.push(step.expect.replace(/ created\n$/, ''));
      }
    }),
  );
  const list = await cli(data, ['kubectl', 'get', 'cm,secret', '-o', 'name']);
  if (list.code !== 0) log.record('poisoned', `the session does not list after the writers: ${list.stderr}`);
  const found = new Set(list.stdout.split('\n'));
  const missing = expected.filter((n) => !found.has(n));
  if (missing.length > 0) log.record('lostWrites', `missing after all writers finished: ${missing.join(', ')}`, missing.length);
  if (existsSync(join(data, 'cka-lab', 'sessions', 'default.json.lock'))) log.record('poisoned', 'a lock is left behind');
  const all = await cli(data, ['kubectl', 'get', 'all', '-A']);
  if (all.code !== 0) log.record('poisoned', `kubectl get all -A fails: ${all.stderr}`);
  log.finish();
});

/**
 * A shell's stdin that gives `first`, then waits for `between` (another process's one-shot
 * command, say) before it gives `rest` and ends: the shell reads its next line only after that.
 */
async function scriptedStdin(first: string, between: () => Promise<void>, rest: string[]): Promise<import('node:stream').Readable> {
  const { Readable } = await import('node:stream');
  let fed = false;
  return new Readable({
    read() {
      if (fed) return;
      fed = true;
      this.push(first);
      void between().then(() => {
        for (const line of rest) this.push(line);
        this.push(null);
      });
    },
  });
}

test('an open shell sees one-shot changes and does not drop them at its next save', async () => {
  const h = harness();
  await h.run(['shell'], 'kubectl create ns from-shell\n');
  // the shell reads its second line only after a one-shot command has changed the session
  const stdin = await scriptedStdin(
    'kubectl create ns second\n',
    async () => void (await h.run(['kubectl', 'create', 'ns', 'from-oneshot'])),
    ['kubectl get ns --no-headers -o custom-columns=N:.metadata.name\n'],
  );
  const r = await h.run(['shell'], stdin);
  for (const ns of ['from-shell', 'second', 'from-oneshot']) assert.match(r.stdout, new RegExp(`^${ns}$`, 'm'), `namespace ${ns} is there`);
  const after = await h.run(['kubectl', 'get', 'ns', 'from-oneshot', '-o', 'name']);
  assert.equal(after.stdout, 'namespace/from-oneshot\n', 'the shell did not overwrite the one-shot change');
});

test('a shell that picks up a one-shot change keeps its background jobs: a paused list runs on against the new state', async () => {
  const h = harness();
  const stdin = await scriptedStdin(
    'sleep 1 && kubectl get ns from-oneshot -o name > /root/ns.txt &\necho started\n',
    async () => {
      // the lines above have run (the job paused in its sleep) before the one-shot writes
      await until(() => h.live.stdout.includes('started'), 'the job to start');
      await h.run(['kubectl', 'create', 'ns', 'from-oneshot']);
    },
    ['jobs\n', 'sleep 2; cat /root/ns.txt\n'],
  );
  const r = await h.run(['shell'], stdin);
  // the job's redirection writes the workstation's file of the new state, which cat reads
  assert.equal(r.stdout, 'started\n[1]+  Running                 sleep 1 && kubectl get ns from-oneshot -o name > /root/ns.txt &\nnamespace/from-oneshot\n');
  assert.equal(r.stderr, '[1] 4300\n[1]+  Done                    sleep 1 && kubectl get ns from-oneshot -o name > /root/ns.txt\n');
  // and the session saved it
  assert.equal((await h.run(['shell'], 'cat /root/ns.txt\n')).stdout, 'namespace/from-oneshot\n');
});

test('a stale lock left by a dead process does not block', async () => {
  const h = harness();
  await h.run(['kubectl', 'get', 'ns', '-o', 'name']);
  writeFileSync(join(h.data, 'xdg', 'cka-lab', 'sessions', 'default.json.lock'), '999999999');
  const r = await h.run(['kubectl', 'create', 'ns', 'after-stale']);
  assert.equal(r.stdout, 'namespace/after-stale created\n');
});

test('an open shell that picks up a one-shot change keeps its variables, functions, aliases and traps', async () => {
  const h = harness();
  await h.run(['shell'], 'true\n');
  let one = { stdout: '', stderr: '' };
  const stdin = await scriptedStdin(
    "k=kubectl; arr=(a b); alias kk='echo alias-kk'; f() { echo fn $k; }; trap 'echo usr1' USR1\n",
    // another process's one-shot (the session lock is another process's to wait for); the shell
    // reloads the session it wrote before it reads the next line
    async () => void (one = await cli(join(h.data, 'xdg'), ['kubectl', 'create', 'ns', 'from-oneshot'])),
    ['$k get ns from-oneshot -o name; echo "${arr[1]}"; kk; f; trap -p USR1\n'],
  );
  const r = await h.run(['shell'], stdin);
  assert.equal(one.stdout, 'namespace/from-oneshot created\n', one.stderr);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, "namespace/from-oneshot\nb\nalias-kk\nfn kubectl\ntrap -- 'echo usr1' SIGUSR1\n");
});
