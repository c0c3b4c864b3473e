import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Pod } from '../api/types.js';
import { provideNetTools } from './net-tools.js';
import { answerSerialisations } from './processes.js';

test('processes: a run compares each new network answer with the remembered ones, each serialised once', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  let calls = 0;
  // every call answers the same: the run remembers one answer, asked about at each call
  provideNetTools(c, { names: ['wget'], run: () => (calls++, { stdout: 'ok\n', stderr: '', exitCode: 0, elapsedMs: 0, files: [] }) });
  api.create<Pod>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'poller', namespace: 'default' },
    spec: { restartPolicy: 'Never', containers: [{ name: 'p', image: 'busybox', command: ['sh', '-c', 'i=0; while [ $i -lt 30 ]; do wget -qO- http://10.96.0.1; i=$((i+1)); sleep 2; done'] }] },
  });
  const before = answerSerialisations.count;
  c.advance(120_000);
  const pod = c.store.get<Pod>('Pod', 'default', 'poller')!;
  assert.equal(pod.status?.containerStatuses?.[0]?.state.terminated?.exitCode, 0);
  assert.ok(calls >= 30, `${calls} calls answered`);
  // the one remembered answer, serialised when first compared (once per call when it was not kept)
  assert.equal(answerSerialisations.count - before, 1);
});
