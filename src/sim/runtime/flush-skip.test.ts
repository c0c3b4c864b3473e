/**
 * flushPod's up-to-date pods (processes.ts flushable): a flush of a pod whose runs are all flushed
 * to the time asked and that follows no file does nothing and is skipped; a `tail -f` follower is
 * still looked at, so a line appended to its file by someone else shows up at the next flush.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../../shell/session.js';
import type { Pod } from '../api/types.js';
import { envRecordBuilds, flushPod, flushesApplied } from './processes.js';
import { containerFs } from './volumes.js';

async function session(): Promise<{ s: Session; run: (l: string) => Promise<string> }> {
  const s = new Session(loadFixture('kubeadm-calico', 0));
  return {
    s,
    run: async (l: string): Promise<string> => {
      const r = await s.exec(l);
      return r.stdout + r.stderr;
    },
  };
}

test('flush: a pod already flushed to now is not flushed again', async () => {
  const { s, run } = await session();
  await run(`kubectl run quiet --image=busybox --command -- sh -c 'echo started; sleep infinity'`);
  await run('sleep 10');
  assert.equal(await run('kubectl logs quiet'), 'started\n');
  const pod = s.cluster.store.get<Pod>('Pod', 'default', 'quiet')!;
  flushPod(s.cluster, pod);
  const before = flushesApplied.count;
  for (let i = 0; i < 5; i++) flushPod(s.cluster, pod);
  assert.equal(flushesApplied.count, before, 'an up-to-date pod was flushed again');
  assert.equal(await run('kubectl logs quiet'), 'started\n');
});

test('flush: a tail -f follower flushed to now still sees a line appended to its file', async () => {
  const { s, run } = await session();
  await run(`kubectl run follower --image=busybox --command -- sh -c 'touch /tmp/app.log; tail -f /tmp/app.log'`);
  await run('sleep 10');
  const pod = s.cluster.store.get<Pod>('Pod', 'default', 'follower')!;
  flushPod(s.cluster, pod);
  assert.equal(await run('kubectl logs follower'), '');
  // written behind the container's back (as `kubectl exec … sh -c 'echo … >> /tmp/app.log'` does), at the same instant
  containerFs(s.cluster, pod, 'follower').append('/tmp/app.log', 'hello\n');
  const before = flushesApplied.count;
  flushPod(s.cluster, pod);
  assert.equal(flushesApplied.count, before + 1);
  assert.equal(await run('kubectl logs follower'), 'hello\n');
});

test("flush: a run's environment record is built once for all its replays, and the script sees it", async () => {
  const { s, run } = await session();
  // a script that reads a file is replayed at every flush (flush-blocked.test.ts); it prints a variable of its environment
  await run(`kubectl run reader --image=busybox --env=GREETING=hi --command -- sh -c 'echo $GREETING; cat /etc/hostname; sleep infinity'`);
  await run('sleep 10');
  assert.equal(await run('kubectl logs reader'), 'hi\nreader\n');
  const pod = s.cluster.store.get<Pod>('Pod', 'default', 'reader')!;
  const builds = envRecordBuilds.count;
  for (let i = 0; i < 3; i++) {
    await run('sleep 5');
    flushPod(s.cluster, pod);
  }
  assert.equal(envRecordBuilds.count, builds, 'the same run env was turned into a record again');
  assert.equal(await run('kubectl logs reader'), 'hi\nreader\n');
});
