import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Cluster } from '../cluster.js';
import type { Pod } from '../api/types.js';
import { provideNetTools } from './net-tools.js';
import { answerSerialisations, flushPod } from './processes.js';

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

/**
 * A `wget` whose every answer is its own: `<key>#<n>`, the n-th time the network was asked that
 * key (`key` of the call). Returns how many times each key was asked.
 */
function numberedWget(c: Cluster, key: (call: { argv: readonly string[]; stdin: string }) => string): Map<string, number> {
  const asked = new Map<string, number>();
  provideNetTools(c, {
    names: ['wget'],
    run: (_c, _who, call) => {
      const k = key(call);
      const n = asked.get(k) ?? 0;
      asked.set(k, n + 1);
      return { stdout: `${k}#${n}\n`, stderr: '', exitCode: 0, elapsedMs: 0, files: [] };
    },
  });
  return asked;
}

test('processes: calls that alternate between commands and stdin each get the answers of their own command, window and occurrence', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  // each distinct call is asked of the network once (its answer is remembered by command,
  // 10-second window and occurrence, the eighth and later of a window repeating the eighth)
  const asked = numberedWget(c, (call) => `${call.argv.join(' ')}|${JSON.stringify(call.stdin)}`);
  api.create<Pod>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'poller', namespace: 'default' },
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'p', image: 'busybox', command: ['sh', '-c', 'i=0; while [ $i -lt 25 ]; do wget -qO- http://a; echo x | wget -qO- http://a; echo y | wget -qO- http://a; wget -qO- http://b; i=$((i+1)); sleep 1; done'] }],
    },
  });
  c.advance(60_000);
  const pod = c.store.get<Pod>('Pod', 'default', 'poller')!;
  const started = Date.parse(pod.status!.containerStatuses![0]!.state.terminated!.startedAt!);
  const runs = (c.state.containerRuns ?? {})[`${pod.metadata.uid}/p`]!;
  const logs = runs[runs.length - 1]!.logs;
  const want: string[] = [];
  for (let i = 0; i < 25; i++) {
    // one iteration a second from the start: its window, and its occurrence in the window
    const window = Math.floor(i / 10);
    const occ = Math.min(i % 10, 7);
    for (const k of ['wget -qO- http://a|""', 'wget -qO- http://a|"x\\n"', 'wget -qO- http://a|"y\\n"', 'wget -qO- http://b|""']) want.push(`${k}#${window * 8 + occ}\n`);
  }
  assert.equal(logs.map((x) => x[2]).join(''), want.join(''));
  assert.ok(logs.every((x) => x[0] >= started));
  assert.deepEqual([...asked.values()], [21, 21, 21, 21], 'of each command: eight calls asked in each of the first two windows, five in the third');
});

test('processes: a long-running poller past the remembered-call limit reads each call its own answer after the oldest windows are forgotten', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  // every call asked of the network answers differently: an answer read by a stale index shows
  numberedWget(c, (call) => call.argv.join(' '));
  api.create<Pod>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'poller', namespace: 'default' },
    spec: { containers: [{ name: 'p', image: 'busybox', command: ['sh', '-c', 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18; do wget -qO- http://x$i; done; while true; do for h in a b c d; do wget -qO- http://$h; done; sleep 1; done'] }] },
  });
  // 18 calls at the start, then 4 commands × 8 remembered calls a window: the 2,001st call is
  // window 61's 31st (18 + 61 × 32 + 31), at its eighth iteration after two commands' eighth calls,
  // which their ninth and tenth ask again, after window 0 is forgotten and the answers renumbered
  c.advance(640_000);
  const pod = c.store.get<Pod>('Pod', 'default', 'poller')!;
  flushPod(c, pod);
  const runs = (c.state.containerRuns ?? {})[`${pod.metadata.uid}/p`]!;
  const run = runs[runs.length - 1]!;
  assert.ok((run.net?.from ?? 0) > 0, 'the oldest windows were forgotten');
  const started = run.startedAt;
  const want: string[] = [];
  const got = run.logs.map((x) => x[2]);
  // each line: the answer of its command, 10-second window and occurrence (the eighth and later repeat the eighth)
  for (const [t, , line] of run.logs) {
    const host = /http:\/\/(\w+)#/.exec(line)?.[1];
    assert.ok(host, `a wget answer: ${JSON.stringify(line)}`);
    const window = Math.floor((t - started) / 10_000);
    const occ = Math.min(Math.floor(((t - started) % 10_000) / 1000), 7);
    // (each of the first 18 is its own command, asked once)
    want.push(`wget -qO- http://${host}#${host.startsWith('x') ? 0 : window * 8 + occ}\n`);
  }
  assert.equal(got.join(''), want.join(''));
});
