/**
 * The session journal (app/sessions.ts): the shell's saves after a command append their edits to
 * `<name>.json.journal` instead of rewriting the file, and reading applies them. Pinned here: a
 * session read back is the one saved, byte for byte, and goes on to the same output; a torn or
 * damaged journal never loses the last whole state nor crashes; a journal left by an older file is
 * ignored; a journal grown too large is folded into a new file; a set-aside file takes its journal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore, type SavedMark } from './sessions.js';
import { WallClock, syncClock } from './wallclock.js';
import { Session } from '../shell/session.js';
import { loadFixture } from '../testing/fixtures.js';

/** A shell's loop: a session on a wall clock, saved after each command as cka-lab shell saves it. */
function shell(): { store: SessionStore; s: Session; run: (line: string) => Promise<string>; saved: () => string; mark: () => SavedMark | undefined; real: { now: number } } {
  const real = { now: Date.UTC(2026, 0, 1) };
  const store = new SessionStore(mkdtempSync(join(tmpdir(), 'cka-lab-journal-')), () => real.now);
  const c = loadFixture('kubeadm-calico');
  c.clock = new WallClock(c.now(), () => real.now);
  const s = new Session(c);
  let mark: SavedMark | undefined;
  let last = '';
  const run = async (line: string): Promise<string> => {
    real.now += 3000;
    syncClock(c.clock);
    const r = await s.exec(line);
    const before = store.stamp('j');
    mark = store.saveAfterCommand('j', 'kubeadm-calico', 1, s, mark);
    // what the save wrote, as the file holds it (a command that changed nothing is not written)
    if (store.stamp('j') !== before) last = JSON.stringify(s.toJSON({ persist: true }));
    return r.stdout + r.stderr;
  };
  return { store, s, run, saved: () => last, mark: () => mark, real };
}

const LINES = [
  'kubectl create deployment web --image=nginx:1.27 --replicas=2',
  'kubectl label node cka-w1 tier=front',
  'echo hello > /root/note.txt',
  'alias k=kubectl',
  'export FOO=bar; cd /etc',
  'kubectl create configmap cfg --from-literal=a=1',
  'kubectl scale deployment web --replicas=3',
  'kubectl expose deployment web --port=80',
  'kubectl delete configmap cfg',
  'ssh cka-w2',
  'echo from-w2 > /tmp/w2.txt',
  'exit',
  'kubectl annotate svc web note=x',
];

/** Equal texts, else where they first differ (a session's text is too long to print whole). */
function sameText(actual: string, expected: string, what: string): void {
  if (actual === expected) return;
  let i = 0;
  while (actual[i] === expected[i]) i++;
  assert.fail(`${what}: differs at ${i}: …${actual.slice(Math.max(0, i - 80), i + 80)}… instead of …${expected.slice(Math.max(0, i - 80), i + 80)}…`);
}

function readSession(store: SessionStore): string {
  const r = store.read('j');
  assert.equal(r.status, 'ok');
  return r.status === 'ok' ? JSON.stringify(r.data.session) : '';
}

test('journal: saves after the first append edits; the session read back is the one saved, byte for byte', async () => {
  const sh = shell();
  await sh.run('kubectl get nodes');
  const base = statSync(sh.store.path('j'));
  let writes = 0;
  for (const line of LINES) {
    const before = sh.store.stamp('j');
    await sh.run(line);
    if (sh.store.stamp('j') !== before) writes++;
    sameText(readSession(sh.store), sh.saved(), `after ${line}`);
  }
  // the file itself was not rewritten: the edits went to the journal, each a line
  const after = statSync(sh.store.path('j'));
  assert.deepEqual([after.mtimeMs, after.size], [base.mtimeMs, base.size], 'the whole file was rewritten');
  const journal = readFileSync(sh.store.journalPath('j'), 'utf8');
  assert.ok(writes >= LINES.length - 2, `${writes} writes`);
  assert.equal(journal.split('\n').length - 1, writes);
  // each line the command's edits (new pods are most of it), never the whole session
  const longest = Math.max(...journal.split('\n').map((l) => l.length));
  assert.ok(longest < base.size / 20, `a journal line of ${longest} bytes beside a file of ${base.size}`);
  // a session resumed from it carries on exactly as the live one
  const r = sh.store.read('j');
  assert.equal(r.status, 'ok');
  if (r.status !== 'ok') return;
  const resumed = sh.store.revive(r.data).session;
  sh.real.now += 60_000;
  for (const line of ['kubectl get pods -o wide', 'kubectl get svc web --show-labels', 'cat /root/note.txt; pwd; echo $FOO; k get cm', 'kubectl get node cka-w1 --show-labels', 'ssh cka-w2 cat /tmp/w2.txt']) {
    syncClock(sh.s.cluster.clock);
    const live = await sh.s.exec(line);
    syncClock(resumed.cluster.clock);
    const back = await resumed.exec(line);
    assert.equal(back.stdout + back.stderr, live.stdout + live.stderr, line);
  }
});

test('journal: a torn last line (a crash mid-append) is dropped, the lines before it kept; the next write starts over', async () => {
  const sh = shell();
  await sh.run('kubectl get nodes');
  await sh.run('kubectl create configmap one --from-literal=a=1');
  await sh.run('kubectl create configmap two --from-literal=a=2');
  const beforeLast = sh.saved();
  const size = statSync(sh.store.journalPath('j')).size;
  await sh.run('kubectl create configmap three --from-literal=a=3');
  const full = statSync(sh.store.journalPath('j')).size;
  // every cut of the last line, and zeros a file system may leave after a crash
  for (const cut of [size + 1, Math.floor((size + full) / 2), full - 2, full - 1]) {
    const torn = join(sh.store.dir, 'torn');
    copyFileSync(sh.store.journalPath('j'), torn);
    truncateSync(sh.store.journalPath('j'), cut);
    sameText(readSession(sh.store), beforeLast, `cut at ${cut} of ${size}…${full}`);
    copyFileSync(torn, sh.store.journalPath('j'));
  }
  truncateSync(sh.store.journalPath('j'), size);
  appendFileSync(sh.store.journalPath('j'), '\0'.repeat(4096));
  sameText(readSession(sh.store), beforeLast, 'zeros after the last line');
  // a new process (no mark) writes the whole file, and the torn journal goes with the old file
  const r = sh.store.read('j');
  assert.equal(r.status, 'ok');
  if (r.status !== 'ok') return;
  const s2 = sh.store.revive(r.data).session;
  await s2.exec('kubectl create configmap four --from-literal=a=4');
  sh.store.saveAfterCommand('j', 'kubeadm-calico', 1, s2, undefined);
  assert.equal(existsSync(sh.store.journalPath('j')), false);
  sameText(readSession(sh.store), JSON.stringify(s2.toJSON({ persist: true })), 'after the new write');
});

test('journal: lines of an older file, out of order or whose edits do not fit are never applied', async () => {
  const sh = shell();
  await sh.run('kubectl get nodes');
  await sh.run('kubectl create configmap one --from-literal=a=1');
  const one = sh.saved();
  await sh.run('kubectl create configmap two --from-literal=a=2');
  const two = sh.saved();
  await sh.run('kubectl create configmap three --from-literal=a=3');
  const jp = sh.store.journalPath('j');
  const good = readFileSync(jp, 'utf8');
  const lines = good.split('\n').slice(0, -1);
  assert.equal(lines.length, 3);
  // the second line's edits no longer fit (a path that is not there): only the first line holds
  const bent = JSON.parse(lines[1]!) as { ops: unknown[][] };
  bent.ops.unshift(['s', ['cluster', 'no', 'such', 'path'], 1]);
  writeFileSync(jp, [lines[0], JSON.stringify(bent), lines[2], ''].join('\n'));
  sameText(readSession(sh.store), one, 'a line whose edits do not fit');
  // out of order: the third line without the second
  writeFileSync(jp, [lines[0], lines[2], ''].join('\n'));
  sameText(readSession(sh.store), one, 'a missing line');
  writeFileSync(jp, [lines[0], lines[1], lines[1], ''].join('\n'));
  sameText(readSession(sh.store), two, 'a repeated line');
  writeFileSync(jp, good);
  // the file written whole again (another process's one-shot): the old journal, were it left by
  // a crash before its removal, belongs to the old file and is ignored
  sh.store.save('j', 'kubeadm-calico', 1, sh.s);
  const whole = JSON.stringify(sh.s.toJSON({ persist: true }));
  assert.equal(existsSync(jp), false, 'a full write removes the journal');
  writeFileSync(jp, good);
  sameText(readSession(sh.store), whole, 'a journal of the old file');
  // the shell's next save sees another write happened (the stamp) and writes the whole file
  await sh.run('kubectl create configmap four --from-literal=a=4');
  assert.equal(existsSync(jp), false);
  sameText(readSession(sh.store), sh.saved(), 'after the whole write');
});

test('journal: one grown past half the file is folded into a new file; a set-aside file takes its journal', async () => {
  const sh = shell();
  await sh.run('kubectl get nodes');
  await sh.run('kubectl create configmap one --from-literal=a=1');
  assert.ok(existsSync(sh.store.journalPath('j')));
  const size = statSync(sh.store.path('j')).size;
  // a file larger than the journal may grow: the whole session is written again
  const big = 'x'.repeat(Math.max(300_000, size));
  sh.s.cluster.host(sh.s.cluster.meta.workstation)!.fs.write('/root/big.txt', big);
  await sh.run('ls /root >/dev/null');
  assert.equal(existsSync(sh.store.journalPath('j')), false, 'the journal was not folded in');
  assert.ok(statSync(sh.store.path('j')).size > size + 300_000);
  sameText(readSession(sh.store), sh.saved(), 'after the fold');
  // a session whose file cannot be resumed is set aside with its journal
  await sh.run('kubectl create configmap two --from-literal=a=2');
  assert.ok(existsSync(sh.store.journalPath('j')));
  const movedTo = sh.store.quarantine('j');
  assert.ok(existsSync(`${movedTo}.journal`));
  assert.deepEqual(readdirSync(join(sh.store.dir, 'sessions')).filter((n) => n.startsWith('j.json') && !n.includes('corrupt')), []);
});

test('journal: edits that make a clock no session can run on set the file aside, as a file so saved would be', async () => {
  const sh = shell();
  await sh.run('kubectl get nodes');
  await sh.run('kubectl create configmap one --from-literal=a=1');
  const jp = sh.store.journalPath('j');
  const line = JSON.parse(readFileSync(jp, 'utf8').split('\n')[0]!) as { ops: unknown[][] };
  line.ops.push(['s', ['cluster', 'now'], 1e23]);
  writeFileSync(jp, `${JSON.stringify(line)}\n`);
  const r = sh.store.read('j');
  assert.equal(r.status, 'corrupt');
  if (r.status === 'corrupt') {
    assert.match(r.reason, /clock is not a valid time/);
    assert.ok(existsSync(r.movedTo) && existsSync(`${r.movedTo}.journal`));
  }
  assert.equal(sh.store.read('j').status, 'missing');
});
