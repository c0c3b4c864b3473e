/**
 * A flush goes on from the checkpoint the last one left (processes.ts Resumable) instead of
 * replaying a container's script from its start. The replay from the start stays the definition:
 * a session that keeps its checkpoints and one that loses them after every command (a JSON round
 * trip, as a one-shot command or a grading copy does) must print the same bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../../shell/session.js';
import { CONTROLLERS } from '../controllers/index.js';
import { ManualClock } from '../../util/clock.js';
import { copyJSON } from '../../util/json-copy.js';

function deployment(name: string, v: string, image: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: 1
  selector: {matchLabels: {app: web, v: ${v}}}
  template:
    metadata: {labels: {app: web, v: ${v}}}
    spec: {containers: [{name: c, image: "${image}"}]}
---
`;
}

/** Two backends that answer differently (nginx's and httpd's default pages) behind one Service. */
const WEB = `${deployment('web-a', 'a', 'nginx:1.27')}${deployment('web-b', 'b', 'httpd:2.4')}apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
`;

function pod(name: string, script: string): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  containers:
  - name: c
    image: busybox:1.36
    command: [sh, -c, ${JSON.stringify(script)}]
---
`;
}

interface Case {
  name: string;
  manifest: string;
  /** Commands after the apply; the logs of `pods` are compared after each. */
  steps: string[];
  pods: string[];
}

const CASES: Case[] = [
  {
    name: 'a counter loop with date and $RANDOM, flushed every few seconds',
    manifest: pod('tick', 'echo start; i=0; while true; do i=$((i+1)); echo "tick $i $(date +%s) $RANDOM"; sleep 0.7; done'),
    steps: ['sleep 3', 'sleep 1', 'sleep 7', 'sleep 0.3', 'sleep 20', 'kubectl get pods', 'sleep 61'],
    pods: ['tick'],
  },
  {
    name: 'an until loop waiting for a Service, then a polling client (network answers by window)',
    manifest: pod('client', 'until nslookup web.default.svc.cluster.local >/dev/null 2>&1; do echo waiting; sleep 2; done; echo found; while sleep 0.01; do wget -q -O- -T 1 http://web | grep -o -e nginx -e works | head -n 1; done'),
    steps: ['sleep 5', `kubectl apply -f - <<'EOF'\n${WEB}EOF`, 'sleep 4', 'sleep 13', 'kubectl scale deploy web-a --replicas=0', 'sleep 12', 'kubectl scale deploy web-a --replicas=1', 'sleep 25'],
    pods: ['client'],
  },
  {
    name: 'a loop reading a file that changes under it (the checkpoint must not be used)',
    manifest: pod('reader', 'n=0; while true; do if [ -f /tmp/go ]; then n=$((n+1)); fi; echo "n=$n $(cat /tmp/go 2>&1)"; sleep 1; done'),
    steps: ['sleep 4', 'sleep 2', 'kubectl exec reader -- sh -c "echo one > /tmp/go"', 'sleep 7', 'sleep 2', 'kubectl exec reader -- sh -c "echo two > /tmp/go"', 'sleep 5', 'kubectl exec reader -- rm /tmp/go', 'sleep 9', 'sleep 3'],
    pods: ['reader'],
  },
  {
    name: 'a chatty loop that reaches the output cap (its replay stops there, so does a resumed one)',
    manifest: pod('chatty', 'while true; do echo x; sleep 0.001; done'),
    steps: ['sleep 5', 'sleep 10', 'sleep 10', 'sleep 3'],
    pods: ['chatty'],
  },
  {
    name: 'a loop that breaks out, then a second loop',
    manifest: pod('two', 'n=0; while [ $n -lt 5 ]; do n=$((n+1)); echo "a$n"; sleep 1; done; echo between; until false; do echo b; sleep 2; done'),
    steps: ['sleep 2', 'sleep 2', 'sleep 3', 'sleep 1', 'sleep 10'],
    pods: ['two'],
  },
];

/**
 * A session on the fixture that records each line's output; `roundTrip` reads it back from its
 * JSON text after every line (losing what only lives in memory, such as checkpoints).
 */
function recorder(roundTrip: boolean): { run: (line: string) => Promise<void>; out: string[] } {
  let s = new Session(loadFixture('kubeadm-calico', 3));
  const out: string[] = [];
  const run = async (line: string): Promise<void> => {
    const r = await s.exec(line);
    out.push(`$ ${line}\n${r.stdout}${r.stderr}`);
    if (roundTrip) s = Session.fromJSON(JSON.parse(JSON.stringify(s.toJSON())), new ManualClock(s.cluster.now()), CONTROLLERS);
  };
  return { run, out };
}

async function transcript(c: Case, roundTrip: boolean): Promise<string[]> {
  const { run, out } = recorder(roundTrip);
  await run(`kubectl apply -f - <<'EOF'\n${c.manifest}EOF`);
  for (const step of c.steps) {
    await run(step);
    for (const p of c.pods) await run(`kubectl logs ${p} --timestamps | tail -n 3; kubectl logs ${p} | wc -l`);
  }
  return out;
}

for (const c of CASES)
  test(`replay from a checkpoint = replay from the start: ${c.name}`, async () => {
    const kept = await transcript(c, false);
    const lost = await transcript(c, true);
    assert.ok(kept.some((x) => x.split('\n').length > 6), 'the pods printed something');
    for (let i = 0; i < kept.length; i++) assert.equal(kept[i], lost[i], `step ${i}`);
  });

/**
 * For tests of copies that diverge: copies of `base`'s state that share its runs' checkpoints (as
 * grading's and validate's copies do), sessions read back from its text (sharing nothing), and a
 * player that runs each step and then `look`, printing both.
 */
function divergence(base: Session, look: string): { copy: () => Session; fromText: () => Session; play: (s: Session, steps: string[]) => Promise<string[]> } {
  const data = base.toJSON();
  return {
    copy: () => Session.fromJSON(copyJSON(data), new ManualClock(base.cluster.now()), CONTROLLERS, {}, true),
    fromText: () => Session.fromJSON(JSON.parse(JSON.stringify(data)), new ManualClock(base.cluster.now()), CONTROLLERS),
    play: async (s, steps) => {
      const out: string[] = [];
      for (const step of steps) {
        const r = await s.exec(step);
        const seen = await s.exec(look);
        out.push(`$ ${step}\n${r.stdout}${r.stderr}${seen.stdout}${seen.stderr}`);
      }
      return out;
    },
  };
}

/**
 * Session copies share their runs' checkpoints (grading and validate copy one state many times):
 * copies that went different ways must each replay as if from the start.
 */
test('replay from a checkpoint = replay from the start: copies of one session that diverge', async () => {
  const base = new Session(loadFixture('kubeadm-calico', 3));
  await base.exec(`kubectl apply -f - <<'EOF'\n${WEB}${pod('client', 'while sleep 0.01; do wget -q -O- -T 1 http://web | grep -o -e nginx -e works | head -n 1; done')}${pod('tick', 'i=0; while true; do i=$((i+1)); echo "tick $i"; sleep 0.5; done')}EOF`);
  await base.exec('sleep 20');
  const { copy, fromText, play } = divergence(base, 'kubectl logs client --timestamps | tail -n 4; kubectl logs client | sort | uniq -c; kubectl logs tick --timestamps | tail -n 2');
  const a = ['sleep 15', 'kubectl scale deploy web-b --replicas=0', 'sleep 12', 'sleep 9'];
  const b = ['sleep 11', 'kubectl scale deploy web-a --replicas=0', 'sleep 14', 'sleep 10'];
  const aKept = await play(copy(), a);
  const bKept = await play(copy(), b);
  const aAgain = await play(copy(), a);
  assert.deepEqual(bKept, await play(fromText(), b));
  assert.deepEqual(aKept, await play(fromText(), a));
  assert.deepEqual(aAgain, aKept);
  assert.notDeepEqual(aKept, bKept);
});

/**
 * A container that runs to completion stops its look-ahead at its first network call still in the
 * future, and the kubelet looks again then from the look-ahead's last checkpoint (processes.ts
 * LOOKAHEAD) instead of from the run's start. When it exits, its status and logs must be what the
 * look from the start gives: a session that keeps those checkpoints and one that loses them after
 * every command (a JSON round trip) must print the same bytes, also when a file the script reads
 * changes under it (the checkpoint must not be used then) and for copies that go different ways.
 */
const WAITER = `apiVersion: v1
kind: Pod
metadata: {name: waiter}
spec:
  initContainers:
  - name: wait
    image: busybox:1.36
    command: [sh, -c, 'n=0; until nslookup web.default.svc.cluster.local; do n=$((n+1)); echo "waiting $n $(cat /tmp/mode 2>&1)"; if [ "$(cat /tmp/mode 2>/dev/null)" = stop ]; then exit 3; fi; sleep 2; done; echo "found after $n"']
  containers:
  - name: main
    image: busybox:1.36
    command: [sh, -c, 'echo main; sleep 3600']
---
apiVersion: v1
kind: Pod
metadata: {name: once}
spec:
  restartPolicy: Never
  containers:
  - name: c
    image: busybox:1.36
    command: [sh, -c, 'i=0; until wget -q -O- -T 1 http://web >/dev/null; do i=$((i+1)); echo "try $i"; sleep 3; done; echo "got it after $i"']
---
`;

const LOOK = 'kubectl get pods waiter once --no-headers; kubectl logs waiter -c wait --timestamps | tail -n 3; kubectl logs waiter -c wait | wc -l; kubectl logs once --timestamps | tail -n 2; kubectl logs once | wc -l';

async function completing(steps: string[], roundTrip: boolean): Promise<string[]> {
  const { run, out } = recorder(roundTrip);
  await run(`kubectl apply -f - <<'EOF'\n${WAITER}EOF`);
  for (const step of steps) {
    await run(step);
    await run(LOOK);
  }
  return out;
}

test('look-ahead from a checkpoint = look-ahead from the start: containers that run to completion', async () => {
  const steps = ['sleep 7', 'sleep 31', 'kubectl exec waiter -c wait -- sh -c "echo slow > /tmp/mode"', 'sleep 9', 'sleep 40', `kubectl apply -f - <<'EOF'\n${WEB}EOF`, 'sleep 5', 'sleep 30'];
  const kept = await completing(steps, false);
  const lost = await completing(steps, true);
  assert.match(kept.at(-1)!, /found after \d+/);
  assert.match(kept.at(-1)!, /got it after \d+/);
  assert.match(kept.join('\n'), /waiting \d+ slow/);
  for (let i = 0; i < kept.length; i++) assert.equal(kept[i], lost[i], `step ${i}`);
});

test('look-ahead from a checkpoint = look-ahead from the start: a file the script reads decides its exit', async () => {
  const steps = ['sleep 9', 'sleep 20', 'kubectl exec waiter -c wait -- sh -c "echo stop > /tmp/mode"', 'sleep 5', 'sleep 30'];
  const kept = await completing(steps, false);
  const lost = await completing(steps, true);
  assert.match(kept.at(-1)!, /Init:Error|Init:CrashLoopBackOff/);
  for (let i = 0; i < kept.length; i++) assert.equal(kept[i], lost[i], `step ${i}`);
});

test('look-ahead from a checkpoint = look-ahead from the start: copies of one session that diverge', async () => {
  const base = new Session(loadFixture('kubeadm-calico', 3));
  await base.exec(`kubectl apply -f - <<'EOF'\n${WAITER}EOF`);
  await base.exec('sleep 25');
  const { copy, fromText, play } = divergence(base, LOOK);
  const a = ['sleep 13', `kubectl apply -f - <<'EOF'\n${WEB}EOF`, 'sleep 20'];
  const b = ['sleep 31', 'sleep 8', `kubectl apply -f - <<'EOF'\n${WEB}EOF`, 'sleep 20'];
  const aKept = await play(copy(), a);
  const bKept = await play(copy(), b);
  assert.deepEqual(bKept, await play(fromText(), b));
  assert.deepEqual(aKept, await play(fromText(), a));
  assert.notDeepEqual(aKept, bKept);
});
