/**
 * Network tools in containers' own scripts (script-tools.ts, sim/runtime/net-tools.ts): they take
 * the path `kubectl exec POD -- wget` takes, with busybox's words, and the answer a run got is
 * the answer every replay of it gets, also after the network changed and across save and load.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { CONTROLLERS } from '../../../sim/controllers/index.js';
import { ManualClock } from '../../../util/clock.js';
import { Session, type SessionData } from '../../session.js';

async function run(s: Session, line: string): Promise<string> {
  const r = await s.exec(line);
  return r.stdout + r.stderr;
}

/** A session with an nginx Deployment behind Service `web` (port 80), ready. */
async function withWeb(): Promise<Session> {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('kubectl create deploy web --image=nginx');
  await s.exec('kubectl expose deploy web --port=80');
  await s.exec('sleep 20');
  return s;
}

const DENY = `cat <<EOF | kubectl apply -f -
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: deny
spec:
  podSelector:
    matchLabels:
      app: web
  policyTypes: [Ingress]
EOF`;

test('a container script reaches Services through DNS, kube-proxy and NetworkPolicy, in busybox words', async () => {
  const cases: { name: string; setup?: string; cmd: string; logs: RegExp; status: RegExp }[] = [
    {
      name: 'a Service by name',
      cmd: 'wget web:80',
      logs: /^Connecting to web:80 \(10\.\d+\.\d+\.\d+:80\)\nsaving to 'index\.html'\nindex\.html {11}100% \|\*{32}\| {3}615 {2}0:00:00 ETA\n'index\.html' saved\n$/,
      status: /Completed/,
    },
    { name: 'a name that does not resolve', cmd: 'wget nope:80', logs: /^wget: bad address 'nope:80'\n$/, status: /Error/ },
    {
      name: 'a Service without endpoints',
      setup: `kubectl patch svc web -p '{"spec":{"selector":{"app":"nope"}}}'`,
      cmd: 'wget web',
      logs: /^Connecting to web \((10\.\d+\.\d+\.\d+):80\)\nwget: can't connect to remote host \(\1\): Connection refused\n$/,
      status: /Error/,
    },
    {
      name: 'a second download without -O finds index.html there (O_EXCL)',
      cmd: `sh -c 'wget -q web; wget web'`,
      logs: /^Connecting to web \(10\.\d+\.\d+\.\d+:80\)\nwget: can't open 'index\.html': File exists\n$/,
      status: /Error/,
    },
    { name: 'a NetworkPolicy that drops', setup: DENY, cmd: 'wget -T 2 web', logs: /^Connecting to web \(10\.\d+\.\d+\.\d+:80\)\nwget: download timed out\n$/, status: /Error/ },
  ];
  for (const c of cases) {
    const s = await withWeb();
    if (c.setup) await s.exec(c.setup);
    await s.exec(`kubectl run t --image=busybox --restart=Never -- ${c.cmd}`);
    await s.exec('sleep 10');
    assert.match(await run(s, 'kubectl logs t'), c.logs, c.name);
    assert.match(await run(s, 'kubectl get pod t --no-headers'), c.status, c.name);
  }
});

test('a run keeps the answers it got: a replay after the network changed, and after save and load, sees the same', async () => {
  const s = await withWeb();
  await s.exec(`kubectl run t --image=busybox -- sh -c 'if wget -q -O /dev/null web; then sleep 10; echo up; else sleep 10; echo down; fi; sleep 3600'`);
  await s.exec('sleep 3');
  // the Service breaks before the run's later output is applied: the replay must not ask again
  await s.exec(`kubectl patch svc web -p '{"spec":{"selector":{"app":"nope"}}}'`);
  await s.exec('sleep 20');
  assert.equal(await run(s, 'kubectl logs t'), 'up\n');
  const data = JSON.parse(JSON.stringify(s.toJSON())) as SessionData;
  const back = Session.fromJSON(data, new ManualClock(s.cluster.now()), CONTROLLERS);
  assert.equal(await run(back, 'kubectl logs t'), 'up\n');
  // a new run asks the network as it is now
  await back.exec(`kubectl run t2 --image=busybox --restart=Never -- sh -c 'wget -q -O /dev/null web && echo up || echo down'`);
  await back.exec('sleep 5');
  assert.equal(await run(back, 'kubectl logs t2'), "wget: can't connect to remote host (" + /\((10\.[\d.]+)\)/.exec(await run(back, 'kubectl exec t -- wget web'))![1] + '): Connection refused\ndown\n');
});

test('a call later in the script waits for the clock, and a retry loop ends when the Service comes up', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec(`kubectl run probe --image=busybox --restart=Never -- sh -c 'until wget -q -O /dev/null web 2>/dev/null; do sleep 5; done; echo up at $(date +%T)'`);
  await s.exec('sleep 30');
  assert.match(await run(s, 'kubectl get pod probe --no-headers'), /Running/);
  await s.exec('kubectl create deploy web --image=nginx');
  await s.exec('kubectl expose deploy web --port=80');
  await s.exec('sleep 60');
  assert.match(await run(s, 'kubectl get pod probe --no-headers'), /Completed/);
  assert.match(await run(s, 'kubectl logs probe'), /^up at \d\d:\d\d:\d\d\n$/);
});

test('the same commands give the same bytes', async () => {
  const once = async (): Promise<string> => {
    const s = await withWeb();
    await s.exec(`kubectl run t --image=busybox --restart=Never -- sh -c 'for i in 1 2 3; do wget -qO- web | head -4; nc -zv web 80; sleep 2; done'`);
    await s.exec('sleep 30');
    return (await run(s, 'kubectl logs t')) + JSON.stringify(s.toJSON().cluster.state);
  };
  assert.equal(await once(), await once());
});
