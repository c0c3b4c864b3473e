import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../../shell/session.js';
import { serviceEnvVariableBuilds } from './env.js';

async function session(manifest: string): Promise<{ s: Session; run: (l: string) => Promise<string> }> {
  const s = new Session(loadFixture('kubeadm-calico', 0));
  const run = async (l: string): Promise<string> => {
    const r = await s.exec(l);
    return r.stdout + r.stderr;
  };
  await run(`kubectl apply -f - <<'EOF'\n${manifest}\nEOF`);
  await run('sleep 10');
  return { s, run };
}

const CM = `apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {MODE: prod, app.conf: "a=1\\n"}
---
`;

test('runtime: env from ConfigMap, fieldRef and the service variables, as exec sees it', async () => {
  const { run } = await session(`${CM}apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    image: busybox
    command: [sleep, "3600"]
    env:
    - {name: MODE, valueFrom: {configMapKeyRef: {name: cfg, key: MODE}}}
    - {name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}
    - {name: GREETING, value: "mode $(MODE)"}
    envFrom: [{configMapRef: {name: cfg}, prefix: CFG_}]`);
  const env = await run('kubectl exec p -- env');
  assert.match(env, /^PATH=\/usr\/local\/sbin.*\nHOSTNAME=p\nCFG_MODE=prod\nCFG_app\.conf=a=1\n\nMODE=prod\nNODE=cka-w\d\nGREETING=mode prod\nKUBERNETES_SERVICE_HOST=10\.96\.0\.1\n/);
  assert.match(env, /\nKUBERNETES_PORT_443_TCP_ADDR=10\.96\.0\.1\nHOME=\/root\n$/);
});

test('runtime: a missing ConfigMap key is CreateContainerConfigError until it exists', async () => {
  const { run } = await session(`apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    image: busybox
    command: [sleep, "3600"]
    env: [{name: X, valueFrom: {configMapKeyRef: {name: other, key: k}}}]`);
  assert.match(await run('kubectl get pod p'), /CreateContainerConfigError/);
  assert.match(await run('kubectl get events'), /Error: configmap "other" not found/);
  await run('kubectl create configmap other --from-literal=j=1');
  await run('sleep 11');
  assert.match(await run('kubectl get events'), /Error: couldn't find key k in ConfigMap default\/other/);
  await run('kubectl create configmap other --from-literal=k=v --dry-run=client -o yaml | kubectl apply -f -');
  await run('sleep 11');
  assert.equal(await run('kubectl exec p -- printenv X'), 'v\n');
});

test('runtime: a ConfigMap volume has the ..data layout and follows updates after the sync, a subPath does not', async () => {
  const { run } = await session(`${CM}apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    image: busybox
    command: [sleep, "3600"]
    volumeMounts: [{name: v, mountPath: /etc/cfg}, {name: v, mountPath: /etc/mode, subPath: MODE}]
  volumes: [{name: v, configMap: {name: cfg}}]`);
  assert.match(await run('kubectl exec p -- ls -la /etc/cfg'), /\.\.data -> \.\.\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d\.\d+\n.*MODE -> \.\.data\/MODE/s);
  await run(`kubectl patch cm cfg -p '{"data":{"MODE":"staging"}}'`);
  assert.equal(await run('kubectl exec p -- cat /etc/cfg/MODE'), 'prod');
  await run('sleep 60');
  assert.equal(await run('kubectl exec p -- cat /etc/cfg/MODE'), 'staging');
  assert.equal(await run('kubectl exec p -- cat /etc/mode'), 'prod');
  assert.match(await run('kubectl exec p -- sh -c "echo x > /etc/cfg/y"'), /Read-only file system/);
});

test('runtime: a native sidecar tails a file the app writes into a shared emptyDir', async () => {
  const { run } = await session(`apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers:
  - name: sidecar
    image: busybox
    restartPolicy: Always
    command: [sh, -c, 'tail -F /logs/app.log']
    volumeMounts: [{name: logs, mountPath: /logs}]
  containers:
  - name: app
    image: busybox
    command: [sh, -c, 'i=0; while true; do i=$((i+1)); echo "line $i" >> /var/log/app.log; sleep 5; done']
    volumeMounts: [{name: logs, mountPath: /var/log}]
  volumes: [{name: logs, emptyDir: {}}]`);
  await run('sleep 20');
  assert.match(await run('kubectl get pod p'), /p {6}2\/2 {5}Running/);
  const logs = await run('kubectl logs p -c sidecar --timestamps');
  assert.match(logs, /Z line 1\n\S+Z line 2\n\S+Z line 3\n/);
  assert.equal(await run('kubectl logs p -c app'), '');
  assert.equal(await run('kubectl exec p -c sidecar -- cat /logs/app.log'), await run('kubectl exec p -c app -- cat /var/log/app.log'));
});

test('runtime: init containers run in order; a failing one is Init:Error then Init:CrashLoopBackOff', async () => {
  const { run } = await session(`apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers:
  - {name: a, image: busybox, command: [sh, -c, 'echo first; sleep 2']}
  - {name: b, image: busybox, command: [sh, -c, 'echo second; exit 2']}
  containers:
  - {name: c, image: nginx}`);
  assert.match(await run('kubectl get pod p'), /Init:(Error|CrashLoopBackOff|1\/2)/);
  await run('sleep 30');
  assert.match(await run('kubectl get pod p'), /0\/1 {5}Init:CrashLoopBackOff/);
  assert.equal(await run('kubectl logs p -c a'), 'first\n');
  assert.equal(await run('kubectl logs p -c b'), 'second\n');
});

test('runtime: stress beyond its memory limit is OOMKilled (137); QoS class from requests and limits', async () => {
  const { run } = await session(`apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: s
    image: polinux/stress
    resources: {requests: {memory: 50Mi}, limits: {memory: 100Mi}}
    command: [stress]
    args: [--vm, "1", --vm-bytes, 250M, --vm-hang, "1"]`);
  const d = await run('kubectl describe pod p');
  assert.match(d, /Last State: {5}Terminated\n\s+Reason: {7}OOMKilled\n\s+Exit Code: {4}137/);
  assert.match(d, /QoS Class: +Burstable/);
  assert.equal(await run('kubectl logs p --previous'), 'stress: info: [1] dispatching hogs: 0 cpu, 0 io, 1 vm, 0 hdd\n');
});

test('runtime: kubectl logs job/NAME and --since', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 0));
  await s.exec('kubectl create job j --image=busybox -- sh -c "echo hi from job"');
  await s.exec('kubectl create deploy d --image=busybox -- sh -c "while true; do echo tick; sleep 10; done"');
  await s.exec('sleep 60');
  assert.equal((await s.exec('kubectl logs job/j')).stdout, 'hi from job\n');
  assert.equal((await s.exec('kubectl logs deploy/d --since=25s')).stdout, 'tick\ntick\n');
});

test("runtime: a Service's variables are built once for every container started beside it, and change with the Service", async () => {
  const { run } = await session(`apiVersion: v1
kind: Service
metadata: {name: env-memo}
spec: {ports: [{name: http, port: 80}], selector: {app: none}}`);
  const before = serviceEnvVariableBuilds();
  await run('kubectl run a --image=busybox -- sleep 3600');
  await run('kubectl run b --image=busybox -- sleep 3600');
  await run('sleep 10');
  // env-memo's, once for both pods (the kubernetes Service's were built for the cluster's own pods)
  assert.equal(serviceEnvVariableBuilds() - before, 1);
  assert.match(await run('kubectl exec b -- printenv ENV_MEMO_SERVICE_PORT_HTTP'), /^80\n$/);
  assert.match(await run(`kubectl patch svc env-memo --type=json -p '[{"op":"replace","path":"/spec/ports/0/port","value":8080}]'`), /patched/);
  await run('kubectl run c --image=busybox -- sleep 3600');
  await run('sleep 10');
  assert.equal(serviceEnvVariableBuilds() - before, 2, 'the new version of env-memo');
  assert.match(await run('kubectl exec c -- printenv ENV_MEMO_SERVICE_PORT_HTTP'), /^8080\n$/);
  assert.match(await run('kubectl exec a -- printenv ENV_MEMO_SERVICE_PORT_HTTP'), /^80\n$/, 'a running container keeps what it started with');
});
