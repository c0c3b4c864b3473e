/** The validate pool: workers started ahead of time are used, and those not needed end. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadScenarioFile } from './index.js';
import { startWorkers, validateMany } from './validate-pool.js';

const LIB = new URL('../../scenarios', import.meta.url).pathname;

test('validateMany proves scenarios on workers started ahead (startWorkers) and ends every one of them', async () => {
  const s = loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`);
  const started = startWorkers(3);
  assert.equal(started.length, 3);
  const exited = started.map((w) => new Promise<number>((resolve) => w.once('exit', resolve)));
  const results = await validateMany([s, s], { seeds: [1], workers: 2, started });
  assert.deepEqual(
    results.map((r) => [r.id, r.problems]),
    [
      [s.id, []],
      [s.id, []],
    ],
  );
  // the two it used end when the queue is empty, the third one at once
  await Promise.all(exited);
  assert.deepEqual(startWorkers(1), [], 'one worker: validateMany runs in-process');
});
