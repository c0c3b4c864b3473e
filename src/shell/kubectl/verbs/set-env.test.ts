/** `kubectl set env --from` (set_env.go): one key reference per data key, --keys and --prefix. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../../session.js';
import { loadFixture } from '../../../testing/fixtures.js';

test('set env --from=configmap/… and secret/…: a keyRef per key, --keys filters, --prefix prepends, the name sanitised', async () => {
  const s = new Session(loadFixture('kubeadm-calico'));
  const run = (l: string): Promise<{ stdout: string; stderr: string; exitCode: number }> => s.exec(l);
  await run('kubectl create configmap app --from-literal=LOG_LEVEL=debug --from-literal=cache.ttl=300');
  await run('kubectl create secret generic creds --from-literal=db-pass=x --from-literal=user=y');
  await run('kubectl create deployment api --image=busybox:1.36 -- sleep 3600');
  assert.equal((await run('kubectl set env deployment/api --from=configmap/app')).stdout, 'deployment.apps/api env updated\n');
  assert.equal((await run('kubectl set env deployment/api --from=secret/creds --keys=db-pass --prefix=APP_')).exitCode, 0);
  const env = JSON.parse((await run(`kubectl get deploy api -o jsonpath='{.spec.template.spec.containers[0].env}'`)).stdout) as unknown;
  // keys in sorted order (LOG_LEVEL before cache.ttl)
  assert.deepEqual(env, [
    { name: 'LOG_LEVEL', valueFrom: { configMapKeyRef: { key: 'LOG_LEVEL', name: 'app' } } },
    { name: 'CACHE_TTL', valueFrom: { configMapKeyRef: { key: 'cache.ttl', name: 'app' } } },
    { name: 'APP_DB_PASS', valueFrom: { secretKeyRef: { key: 'db-pass', name: 'creds' } } },
  ]);
  const bad = await run('kubectl set env deployment/api --from=service/kubernetes');
  assert.equal(bad.stderr, 'error: unsupported resource specified in --from\n');
  assert.equal((await run('kubectl set env deployment/api --from=configmap/nope')).stderr, 'Error from server (NotFound): configmaps "nope" not found\n');
});

test('set image|env|resources --dry-run: client prints and changes nothing, server says so and changes nothing', async () => {
  const s = new Session(loadFixture('kubeadm-calico'));
  const run = (l: string): Promise<{ stdout: string; stderr: string; exitCode: number }> => s.exec(l);
  await run('kubectl create deployment w --image=nginx:1.27');
  assert.equal((await run('kubectl set image deployment/w nginx=nginx:1.28 --dry-run=client')).stdout, 'deployment.apps/w image updated (dry run)\n');
  assert.match((await run('kubectl set env deployment/w A=1 --dry-run=client -o yaml')).stdout, /- name: A\n {10}value: "1"\n/);
  assert.equal((await run('kubectl set resources deployment/w --requests=cpu=1 --dry-run=server')).stdout, 'deployment.apps/w resource requirements updated (server dry run)\n');
  const c = (await run(`kubectl get deploy w -o jsonpath='{.spec.template.spec.containers[0].image}|{.spec.template.spec.containers[0].env}|{.spec.template.spec.containers[0].resources}'`)).stdout;
  assert.equal(c, 'nginx:1.27||{}');
});
