/** Grading in place: the last line a check runs goes on the session itself, meeting what a copy of it would. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instantiate, loadScenarioFile, setupSession } from './index.js';
import { grade } from './grade.js';
import type { Instance } from './instance.js';

const LIB = new URL('../../scenarios', import.meta.url).pathname;

function withChecks(inst: Instance, checks: unknown[]): Instance {
  return { ...inst, resolved: { ...inst.resolved, checks } } as unknown as Instance;
}

const command = (id: string, run: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ id, kind: 'command', points: 1, description: { en: id }, run, expect: { regex: '.' }, ...extra });

test('graded in place, the last line runs on the session itself, with the shell and cluster a copy would have', async () => {
  const inst = instantiate(loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`), 1);
  const session = await setupSession(inst);
  if (!session.atTop) assert.equal((await session.exec('exit')).exitCode, 0);
  // shell state a copy keeps (the workstation's variables, directory, aliases) and what it drops (history, the ssh)
  for (const line of ['export GREETING=hi', 'cd /tmp', 'alias kk=kubectl', 'kubectl create namespace before >/dev/null', 'ssh cka-w1']) assert.equal((await session.exec(line)).exitCode, 0, line);
  const checks = [
    command('first', 'kubectl create namespace first-line && echo "$GREETING $(pwd)"'),
    { id: 'ns', kind: 'resource', points: 1, description: { en: 'ns' }, target: { kind: 'Namespace', name: 'before' } },
    command('last', 'kubectl create namespace last-line >/dev/null && echo "$GREETING $(pwd) $(hostname) h=$(history | wc -l) $(alias kk)" && kubectl get ns -o name | grep line', { on: undefined }),
  ];
  const i = withChecks(inst, checks);
  const copied = await grade(i, session);
  assert.equal(session.cluster.store.get('Namespace', undefined, 'last-line'), undefined, 'graded on copies, the session is untouched');
  const inPlace = await grade(i, session, { inPlace: true });
  assert.deepEqual(inPlace, copied);
  assert.match(inPlace.checks[2]!.evidence[0]!, /\nhi \/tmp cka-ws h=1 alias kk='kubectl'\nnamespace\/last-line\n/);
  // the last line ran on the session itself (the first on a copy)
  assert.ok(session.cluster.store.get('Namespace', undefined, 'last-line'));
  assert.equal(session.cluster.store.get('Namespace', undefined, 'first-line'), undefined);
});

test('a session with background jobs is graded on copies only (a paused list lives in its shell alone)', async () => {
  const inst = instantiate(loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`), 1);
  const session = await setupSession(inst);
  assert.equal((await session.exec('sleep 1000 &')).exitCode, 0);
  const i = withChecks(inst, [command('last', 'kubectl create namespace last-line')]);
  const r = await grade(i, session, { inPlace: true });
  assert.equal(r.checks[0]!.ok, true, r.checks[0]!.detail);
  assert.equal(session.cluster.store.get('Namespace', undefined, 'last-line'), undefined);
});

test("a cluster that forgets what it carries goes on as a restored copy: CoreDNS's last-seen change counters are gone", async () => {
  const session = await setupSession(instantiate(loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`), 1));
  assert.equal((await session.exec('kubectl create service clusterip carried --tcp=80')).exitCode, 0);
  assert.equal(typeof session.cluster.carried().controllers.get('coredns'), 'string');
  session.cluster.forgetCarried();
  assert.equal(session.cluster.carried().controllers.get('coredns'), undefined);
});
