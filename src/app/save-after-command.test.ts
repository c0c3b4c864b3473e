/**
 * The shell's save after a command (SessionStore.saveAfterCommand) writes only when something a
 * resumed session would see changed: not after a read-only command, whose history line waits for
 * the next write; a clock pushed ahead of the wall (`sleep`) is a change.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from './sessions.js';
import { WallClock, syncClock } from './wallclock.js';
import { Session } from '../shell/session.js';
import { loadFixture } from '../testing/fixtures.js';

test('saveAfterCommand: read-only commands are not written, changes are, history is owed until then', async () => {
  let real = Date.UTC(2026, 0, 1);
  const store = new SessionStore(mkdtempSync(join(tmpdir(), 'cka-lab-save-')), () => real);
  const c = loadFixture('kubeadm-calico');
  c.clock = new WallClock(c.now(), () => real);
  const s = new Session(c);
  const run = async (line: string, wallMs = 2000): Promise<void> => {
    real += wallMs;
    syncClock(c.clock);
    await s.exec(line);
  };
  await run('kubectl get svc -A', 0); // the first command catches the containers' replay up
  let mark = store.saveAfterCommand('x', 'kubeadm-calico', 1, s, undefined);
  const first = store.stamp('x');
  // two seconds later: the running scripts' replay positions (runtime/processes.ts flushedTo)
  // followed the clock, which alone is no change to save
  await run('kubectl get svc -A');
  mark = store.saveAfterCommand('x', 'kubeadm-calico', 1, s, mark);
  assert.equal(store.stamp('x'), first, 'a read-only command rewrote the session');
  assert.equal(mark.pending, true);
  await run('kubectl create cm one --from-literal=a=b');
  mark = store.saveAfterCommand('x', 'kubeadm-calico', 1, s, mark);
  assert.notEqual(store.stamp('x'), first, 'a change was not written');
  assert.equal(mark.pending, false);
  const read = store.read('x');
  assert.equal(read.status, 'ok');
  if (read.status === 'ok') assert.deepEqual(read.data.session.history, ['kubectl get svc -A', 'kubectl get svc -A', 'kubectl create cm one --from-literal=a=b']);
  // a clock pushed ahead of the wall is a change: the file's time must carry it
  const before = store.stamp('x');
  await run('sleep 30');
  mark = store.saveAfterCommand('x', 'kubeadm-calico', 1, s, mark);
  assert.notEqual(store.stamp('x'), before, 'sleep 30 was not written');
  // another process's write is never overwritten by a skipped save's assumption
  const stamp = store.stamp('x');
  await run('kubectl get cm');
  store.save('x', 'kubeadm-calico', 1, s);
  const other = store.stamp('x');
  assert.notEqual(other, stamp);
  mark = store.saveAfterCommand('x', 'kubeadm-calico', 1, s, mark);
  assert.equal(mark.pending, false);
});

test('saveAfterCommand: a session saved before quiet commands resumes to the same container output', async () => {
  let real = Date.UTC(2026, 0, 1);
  const store = new SessionStore(mkdtempSync(join(tmpdir(), 'cka-lab-save-')), () => real);
  const c = loadFixture('kubeadm-calico');
  c.clock = new WallClock(c.now(), () => real);
  const s = new Session(c);
  const run = async (sess: Session, line: string, wallMs = 2000): Promise<string> => {
    real += wallMs;
    syncClock(sess.cluster.clock);
    const r = await sess.exec(line);
    return r.stdout;
  };
  await run(s, "kubectl run ticker --image=busybox:1.36 -- sh -c 'i=0; while true; do sleep 30; i=$((i+1)); echo tick $i; done'", 0);
  await run(s, 'kubectl get pod ticker', 5000);
  let mark = store.saveAfterCommand('t', 'kubeadm-calico', 1, s, undefined);
  const saved = store.stamp('t');
  for (let i = 0; i < 5; i++) {
    await run(s, 'kubectl get pod ticker', 4000);
    mark = store.saveAfterCommand('t', 'kubeadm-calico', 1, s, mark);
  }
  assert.equal(store.stamp('t'), saved, 'a quiet command (no tick yet) rewrote the session');
  const read = store.read('t');
  assert.equal(read.status, 'ok');
  if (read.status !== 'ok') return;
  const resumed = store.revive(read.data).session;
  // both carry on to the same moment: the resumed one replays the quiet stretch it was not told of
  real += 100_000;
  const live = await run(s, 'kubectl logs ticker', 0);
  const back = await run(resumed, 'kubectl logs ticker', 0);
  assert.match(live, /tick 3\n/);
  assert.equal(back, live);
});
