/**
 * Practice, self-checks and the exam keep their task's session on disk as the shell does: a
 * one-shot `cka-lab kubectl` from another terminal works on the task the learner is in (and says
 * which session it used when a shell is open too), and a practice that ended without quitting
 * goes on where it was left.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harness, until } from './testing/harness.js';

/** A stdin that gives one line at a time, when the test says so. */
function feed(): { stdin: Readable; line(text: string): void; end(): void } {
  const stdin = new Readable({ read() {} });
  return { stdin, line: (t) => void stdin.push(`${t}\n`), end: () => void stdin.push(null) };
}

test('a one-shot kubectl works on the open practice task, which sees the change at its next command', async () => {
  const h = harness();
  const p = feed();
  const running = h.run(['practice', 'expose-nodeport'], p.stdin);
  p.line('echo ready');
  await until(() => /^ready$/m.test(h.live.stdout), 'practice to run its first line');
  const one = await h.run(['kubectl', 'create', 'ns', 'from-oneshot']);
  assert.equal(one.stdout, 'namespace/from-oneshot created\n');
  assert.equal(one.stderr, '', 'one open session: no note');
  p.line('kubectl get ns from-oneshot -o name');
  p.line('quit');
  const r = await running;
  assert.match(r.stdout, /^namespace\/from-oneshot$/m);
});

test('with a shell and a practice open, the one-shot says which session it used', async () => {
  const h = harness();
  const sh = feed();
  const shell = h.run(['shell'], sh.stdin);
  sh.line('echo shell-up');
  await until(() => /^shell-up$/m.test(h.live.stdout), 'the shell');
  const p = feed();
  const practice = h.run(['practice', 'expose-nodeport'], p.stdin);
  p.line('echo practice-up');
  await until(() => /^practice-up$/m.test(h.live.stdout), 'practice');
  const one = await h.run(['kubectl', 'get', 'ns', 'default', '-o', 'name']);
  assert.equal(one.stdout, 'namespace/default\n');
  assert.equal(
    one.stderr,
    'cka-lab: sessions "practice" (practice expose-nodeport), "default" (shell) are open; this command uses "practice", the last one used (CKA_LAB_SESSION=NAME picks one)\n',
  );
  p.line('quit');
  sh.end();
  await Promise.all([practice, shell]);
});

test('CKA_LAB_SESSION picks the session a one-shot works on', async () => {
  const h = harness();
  await h.run(['shell', '--session', 'other'], 'kubectl create ns only-in-other\n');
  await h.run(['shell'], 'echo default\n');
  const recent = await h.run(['kubectl', 'get', 'ns', 'only-in-other', '-o', 'name']);
  assert.match(recent.stderr, /NotFound/, 'without it, the most recently saved session (default)');
  const named = await h.run(['kubectl', 'get', 'ns', 'only-in-other', '-o', 'name'], '', { CKA_LAB_SESSION: 'other' });
  assert.equal(named.stdout, 'namespace/only-in-other\n');
});

test('a practice that ended without quitting goes on where it was left', async () => {
  const h = harness();
  await h.run(['practice', 'expose-nodeport'], 'kubectl create cm keep --from-literal=a=b\nhint\n');
  // what a crash leaves behind: the open mark of a process that is gone
  writeFileSync(join(h.data, 'xdg', 'cka-lab', 'sessions', 'practice.json.open'), JSON.stringify({ pid: 999999999, mode: 'practice', task: 'expose-nodeport' }));
  const r = await h.run(['practice', 'expose-nodeport'], 'kubectl get cm keep -o name\nquit\n');
  assert.match(r.stderr, /the last practice ended without quitting; expose-nodeport goes on where it was left/);
  assert.match(r.stdout, /^configmap\/keep$/m);
  // a practice that quit leaves no mark: the next one starts afresh
  const fresh = await h.run(['practice', 'expose-nodeport'], 'kubectl get cm keep -o name\nquit\n');
  assert.doesNotMatch(fresh.stderr, /goes on where it was left/);
  assert.match(fresh.stderr, /NotFound/);
});

test('a one-shot kubectl works on the exam task in progress', async () => {
  const h = harness();
  const p = feed();
  const running = h.run(['exam', '--tasks', '2'], p.stdin);
  p.line('echo exam-up');
  await until(() => /^exam-up$/m.test(h.live.stdout), 'the exam');
  const one = await h.run(['kubectl', 'create', 'ns', 'during-exam']);
  assert.equal(one.stdout, 'namespace/during-exam created\n');
  p.line('kubectl get ns during-exam -o name');
  p.line('quit');
  const r = await running;
  assert.match(r.stdout, /^namespace\/during-exam$/m);
  // the exam's own record has it too: the resumed exam's task sees it
  const again = await h.run(['exam'], 'kubectl get ns during-exam -o name\nquit\n');
  assert.match(again.stdout, /^namespace\/during-exam$/m);
});

test('a second practice beside a running one works on its own session', async () => {
  const h = harness();
  const first = feed();
  const a = h.run(['practice', 'expose-nodeport'], first.stdin);
  first.line('kubectl create ns only-in-first');
  await until(() => /namespace\/only-in-first created/.test(h.live.stdout), 'the first practice');
  const second = await h.run(['practice', 'expose-nodeport'], 'kubectl get ns only-in-first -o name\nquit\n');
  assert.match(second.stderr, /NotFound/, 'the second practice has its own cluster');
  first.line('kubectl get ns only-in-first -o name');
  first.line('quit');
  const r = await a;
  assert.match(r.stdout, /^namespace\/only-in-first$/m, 'the first practice kept its own');
});

for (const mode of ['practice', 'exam'] as const) {
  test(`${mode}: a one-shot's change is taken over by a session with background jobs, which run on (the paused list is not lost)`, async () => {
    const h = harness();
    const p = feed();
    const running = h.run(mode === 'practice' ? ['practice', 'expose-nodeport'] : ['exam', '--tasks', '2'], p.stdin);
    p.line('sleep 30 && kubectl create ns later &');
    p.line('echo up');
    await until(() => /^up$/m.test(h.live.stdout), `the ${mode}`);
    const one = await h.run(['kubectl', 'create', 'ns', 'from-oneshot']);
    assert.equal(one.stdout, 'namespace/from-oneshot created\n');
    p.line('sleep 40');
    p.line('kubectl get ns from-oneshot later -o name');
    p.line('quit');
    const r = await running;
    assert.match(r.stdout, /^namespace\/later created\nnamespace\/from-oneshot\nnamespace\/later$/m, r.stdout);
  });
}
