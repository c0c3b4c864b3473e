/**
 * flushPod's blocked runs (processes.ts BLOCKED): a container whose script has blocked for good
 * without reading anything is not replayed again at every shell line, and its logs stay as they
 * were; one that reads a file is replayed as before (what it reads may change).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../../shell/session.js';
import { flushReplays } from './processes.js';

async function session(): Promise<(l: string) => Promise<string>> {
  const s = new Session(loadFixture('kubeadm-calico', 0));
  return async (l: string): Promise<string> => {
    const r = await s.exec(l);
    return r.stdout + r.stderr;
  };
}

test('flush: a script blocked for good on nothing it reads is not replayed at each line; its logs are unchanged', async () => {
  const run = await session();
  await run(`kubectl run quiet --image=busybox --command -- sh -c 'echo started; sleep infinity'`);
  await run('sleep 10');
  assert.equal(await run('kubectl logs quiet'), 'started\n');
  const before = flushReplays();
  for (let i = 0; i < 3; i++) {
    await run('sleep 5');
    assert.equal(await run('kubectl logs quiet'), 'started\n');
  }
  // the cluster's own pods (kube-proxy's daemon, CoreDNS) and this one: no replay of any
  assert.equal(flushReplays(), before, 'a blocked run was replayed again');
});

test('flush: a blocked script that read a file is still replayed at each flush', async () => {
  const run = await session();
  await run(`kubectl run reader --image=busybox --command -- sh -c 'cat /etc/hostname; sleep infinity'`);
  await run('sleep 10');
  assert.equal(await run('kubectl logs reader'), 'reader\n');
  const before = flushReplays();
  await run('sleep 5');
  assert.equal(await run('kubectl logs reader'), 'reader\n');
  assert.ok(flushReplays() > before);
});
