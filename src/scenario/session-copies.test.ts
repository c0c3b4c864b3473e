/** Session copies (copier): what they share with the state they copy, and that sharing never lets one copy's change reach another. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instantiate, loadScenarioFile, setupSession } from './index.js';
import { copier } from './session.js';
import { copyJSON } from '../util/json-copy.js';
import { grade } from './grade.js';
import type { ContainerRun } from '../sim/runtime/processes.js';
import type { Session } from '../shell/session.js';

const LIB = new URL('../../scenarios', import.meta.url).pathname;

function runsOf(s: Session): ContainerRun[] {
  const all = s.cluster.state.containerRuns ?? {};
  const key = Object.keys(all).find((k) => k.endsWith('/logger'));
  assert.ok(key, 'the logger container has runs');
  return all[key]!;
}

test("copies share a container's log chunks until one of them logs more, and no copy's logging reaches another", async () => {
  const session = await setupSession(instantiate(loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`), 1));
  const run = await session.exec(`kubectl run logger --image=busybox --restart=Never -- sh -c 'i=0; while true; do i=$((i+1)); echo "line $i"; sleep 1; done'`);
  assert.equal(run.exitCode, 0, run.stderr);
  session.cluster.advance(30_000);
  const before = (await session.exec('kubectl logs logger')).stdout;
  assert.match(before, /line 1\n/);
  const take = copier(session, true, 2);
  const a = take();
  const b = take();
  const logsA = runsOf(a).at(-1)!.logs;
  // the list is shared, frozen, by the original and both copies: no copy walks or copies it
  assert.ok(Object.isFrozen(logsA));
  assert.equal(runsOf(b).at(-1)!.logs, logsA);
  assert.equal(runsOf(session).at(-1)!.logs, logsA);
  b.cluster.advance(20_000);
  const later = (await b.exec('kubectl logs logger')).stdout;
  assert.ok(later.startsWith(before) && later.length > before.length, 'the copy goes on logging');
  assert.notEqual(runsOf(b).at(-1)!.logs, logsA, 'into a list of its own');
  assert.equal((await a.exec('kubectl logs logger')).stdout, before, 'the other copy is untouched');
  assert.equal((await session.exec('kubectl logs logger')).stdout, before, 'and so is the original');
  session.cluster.advance(20_000);
  assert.equal((await session.exec('kubectl logs logger')).stdout, later, 'the original logs the same lines as the copy did');
});

test('a copy of a session at rest runs a read-only line without settling; one made before its original looked at a change settles it the same', async () => {
  const session = await setupSession(instantiate(loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`), 1));
  const take = copier(session, true, 2);
  const quiet = take();
  assert.equal((await quiet.exec('true')).exitCode, 0);
  assert.equal(quiet.cluster.settles, 0, 'nothing changed: no controller looks again');
  // a host change the original has not settled yet (no line ran since): the copy sees it as the original will
  const cp = session.cluster.host(session.cluster.meta.controlPlane)!;
  cp.fs.write('/etc/kubernetes/manifests/extra.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: extra\n  namespace: kube-system\nspec:\n  containers:\n  - name: c\n    image: busybox\n');
  const later = copier(session, true, 1)();
  await later.exec('true');
  await session.exec('true');
  assert.ok(later.cluster.settles > 0);
  assert.ok(later.cluster.store.get('Pod', 'kube-system', `extra-${session.cluster.meta.controlPlane}`), 'the static pod is created in the copy');
  assert.equal(JSON.stringify(later.cluster.snapshot()), JSON.stringify(session.cluster.snapshot()));
});

test("grading in place applies the containers' output up to now once, before the copies its command checks run on", async () => {
  const inst = instantiate(loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`), 1);
  const session = await setupSession(inst);
  const run = await session.exec(`kubectl run logger --image=busybox --restart=Never -- sh -c 'i=0; while true; do i=$((i+1)); echo "line $i"; sleep 1; done'`);
  assert.equal(run.exitCode, 0, run.stderr);
  session.cluster.advance(30_000);
  const check = { id: 'logs', kind: 'command', points: 1, description: { en: 'logs' }, run: 'kubectl logs logger --tail=1', expect: { regex: '^line \\d+$' } };
  const only = { ...inst, resolved: { ...inst.resolved, checks: [check] } } as unknown as typeof inst;
  const now = session.cluster.now();
  assert.ok(runsOf(session).at(-1)!.flushedTo < now, 'the output of the last 30 s is not applied yet');
  const r = await grade(only, session, { inPlace: true });
  assert.equal(r.checks[0]!.ok, true, r.checks[0]!.detail);
  // applied in the graded session, so the copy the check ran on started from it
  assert.equal(runsOf(session).at(-1)!.flushedTo, now);
});

test("copies share the pods' volume and container files until one of them writes, and no copy's write reaches another", async () => {
  const session = await setupSession(instantiate(loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`), 1));
  assert.equal((await session.exec('kubectl create configmap cfg --from-literal=key=one')).exitCode, 0);
  const manifest = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: reader\nspec:\n  containers:\n  - name: c\n    image: busybox\n    command: [sleep, "3600"]\n    volumeMounts:\n    - {name: cfg, mountPath: /cfg}\n  volumes:\n  - name: cfg\n    configMap: {name: cfg}\n';
  const applied = await session.exec(`cat <<'EOF' | kubectl apply -f -\n${manifest}EOF`);
  assert.equal(applied.exitCode, 0, applied.stderr);
  session.cluster.advance(30_000);
  assert.equal((await session.exec('kubectl exec reader -- sh -c "echo mine > /tmp/f"')).exitCode, 0);
  const uid = session.cluster.store.get('Pod', 'default', 'reader')!.metadata.uid!;
  const volume = (s: Session) => s.cluster.state.podVolumes![`${uid}/cfg`]!.fs;
  const own = (s: Session) => s.cluster.state.podfs![`${uid}/c`]!;
  const take = copier(session, true, 2);
  const a = take();
  const b = take();
  // frozen and shared by the original and both copies: no copy walks or copies them
  for (const part of ['files', 'links', 'dirs'] as const) {
    assert.ok(Object.isFrozen(volume(session)[part]), `the volume's ${part}`);
    assert.equal(volume(a)[part], volume(session)[part]);
    assert.equal(volume(b)[part], volume(session)[part]);
    assert.ok(own(session)[part] === undefined || Object.isFrozen(own(session)[part]), `the container's ${part}`);
    assert.equal(own(b)[part], own(session)[part]);
  }
  assert.equal((await b.exec('kubectl exec reader -- sh -c "echo theirs > /tmp/f; mkdir -p /tmp/d"')).exitCode, 0);
  assert.equal((await b.exec('kubectl patch configmap cfg -p \'{"data":{"key":"two"}}\'')).exitCode, 0);
  b.cluster.advance(120_000);
  assert.equal((await b.exec('kubectl exec reader -- cat /tmp/f /cfg/key')).stdout, 'theirs\ntwo');
  assert.equal((await a.exec('kubectl exec reader -- cat /tmp/f /cfg/key')).stdout, 'mine\none', 'the other copy is untouched');
  assert.equal((await session.exec('kubectl exec reader -- cat /tmp/f /cfg/key')).stdout, 'mine\none', 'and so is the original');
  assert.equal((await session.exec('kubectl exec reader -- ls /tmp')).stdout, 'f\n');
});

test('copies share the flags the control-plane components started with until one of them restarts a component', async () => {
  const session = await setupSession(instantiate(loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`), 1));
  const flags = session.cluster.state.componentFlags!;
  const take = copier(session, true, 2);
  const a = take();
  const b = take();
  for (const [component, record] of Object.entries(flags)) {
    assert.ok(Object.isFrozen(record), component);
    assert.equal(a.cluster.state.componentFlags![component], record, `${component}: shared by the copy`);
  }
  const cp = b.cluster.host(b.cluster.meta.controlPlane)!;
  const path = '/etc/kubernetes/manifests/kube-scheduler.yaml';
  cp.fs.write(path, cp.fs.read(path).replace('- kube-scheduler\n', '- kube-scheduler\n    - --v=3\n'));
  b.cluster.advance(60_000);
  assert.equal(b.cluster.state.componentFlags!['kube-scheduler']!['v'], '3', 'the copy restarted the scheduler with its new flag');
  assert.equal(flags['kube-scheduler']!['v'], undefined, 'the original did not');
  assert.equal(a.cluster.state.componentFlags!['kube-scheduler'], flags['kube-scheduler'], 'nor did the other copy');
});

test("a snapshot's settle bookkeeping is frozen as it is made: its copies share it, and a restore from it goes on the same", async () => {
  const session = await setupSession(instantiate(loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`), 1));
  const snap = session.cluster.snapshot();
  const ctl = snap.state.__controllers!;
  for (const part of [ctl, ctl.lastSeen, ctl.changes, ctl.wakeOwners, ctl.ownTicks, ...Object.values(ctl.wakeOwners ?? {})]) assert.ok(Object.isFrozen(part));
  assert.equal(copyJSON(snap).state.__controllers, ctl, 'a copy of the snapshot shares it');
  const a = copier(session, true, 2)();
  a.cluster.advance(120_000);
  session.cluster.advance(120_000);
  assert.equal(JSON.stringify(a.cluster.snapshot()), JSON.stringify(session.cluster.snapshot()));
});

test("the fixture's container runs' environments and plans are shared by every session and copy, and a copy's kill reaches no other", async () => {
  const inst = instantiate(loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`), 1);
  const session = await setupSession(inst);
  const other = await setupSession(inst);
  const take = copier(session, true, 2);
  const a = take();
  const b = take();
  const runs = session.cluster.state.containerRuns!;
  const keys = Object.keys(runs);
  assert.ok(keys.length > 5, "the fixture's containers have runs");
  for (const key of keys) {
    const run = runs[key]!.at(-1)!;
    assert.ok(Object.isFrozen(run.env) && run.env.every((pair) => Object.isFrozen(pair)) && Object.isFrozen(run.plan), `${key}: frozen`);
    for (const s of [a, b, other]) {
      const mine = s.cluster.state.containerRuns![key]!.at(-1)!;
      assert.equal(mine.env, run.env, `${key}: the environment is shared`);
      assert.equal(mine.plan, run.plan, `${key}: the plan is shared`);
    }
  }
  // a pod deleted in one copy: its runs end there (a new plan), and nowhere else
  const pod = a.cluster.store.list('Pod', 'kube-system').find((p) => p.metadata.name.startsWith('coredns-'))!;
  const key = keys.find((k) => k.startsWith(`${pod.metadata.uid}/`))!;
  const plan = runs[key]!.at(-1)!.plan;
  assert.equal((await a.exec(`kubectl -n kube-system delete pod ${pod.metadata.name}`)).exitCode, 0);
  a.cluster.advance(60_000);
  assert.notEqual(a.cluster.state.containerRuns![key]?.at(-1)?.plan, plan, 'the copy killed its container');
  assert.equal(b.cluster.state.containerRuns![key]!.at(-1)!.plan, plan, 'the other copy did not');
  assert.equal(runs[key]!.at(-1)!.plan, plan, 'nor did the original');
  assert.equal(runs[key]!.at(-1)!.finishedAt, undefined);
});

test("copies share nginx's loaded configuration, the nodes' package lists and the kubelet's pod conditions, which their owners replace whole", async () => {
  const session = await setupSession(instantiate(loadScenarioFile(`${LIB}/cluster-architecture/find-service-cidr.yaml`), 1));
  assert.equal((await session.exec('kubectl run web --image=nginx')).exitCode, 0);
  session.cluster.advance(30_000);
  const node = [...session.cluster.hosts.values()].find((h) => h.data.state.packages?.lists.length)!;
  assert.ok(node, 'a node has package lists');
  const uid = session.cluster.store.get('Pod', 'default', 'web')!.metadata.uid!;
  const loaded = (s: Session): unknown => Object.entries(s.cluster.state.nginx!.pods).find(([k]) => k.startsWith(`${uid}/`))?.[1].loaded;
  const lists = (s: Session): unknown => s.cluster.host(node.name)!.data.state.packages!.lists;
  const own = (s: Session): unknown => s.cluster.state.kubeletConditions?.[uid];
  assert.ok(loaded(session) && own(session));
  const take = copier(session, true, 2);
  const a = take();
  const b = take();
  for (const part of [loaded, lists, own]) {
    assert.ok(Object.isFrozen(part(session)), part.name);
    assert.equal(part(a), part(session), `${part.name}: shared`);
    assert.equal(part(b), part(session), `${part.name}: shared`);
  }
  const before = { loaded: loaded(a), own: own(a) };
  assert.equal((await b.exec('kubectl delete pod web')).exitCode, 0);
  b.cluster.advance(60_000);
  assert.equal(own(b), undefined, 'the copy forgot the pod');
  assert.deepEqual({ loaded: loaded(a), own: own(a) }, before, 'the other copy did not');
  assert.equal(own(session), before.own, 'nor did the original');
  assert.equal((await a.exec('kubectl get pod web -o name')).stdout, 'pod/web\n');
});
