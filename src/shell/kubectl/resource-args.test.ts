/**
 * The one resource builder (cli-runtime pkg/resource/builder.go): the argument grammar shared by
 * get/describe (resolveArgs) and the mutating verbs (parseTargets), and -f/-R through the manifest
 * visitor.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../session.js';
import { parseTargets, resolveFiles } from './resource-args.js';
import { BUILTIN } from '../../sim/api/registry.js';

const cases = [
  { name: 'type and names', args: ['deploy', 'a', 'b'], targets: ['Deployment/a', 'Deployment/b'], types: [] },
  { name: 'type/name pairs', args: ['deploy/a', 'svc/b'], targets: ['Deployment/a', 'Service/b'], types: [] },
  { name: 'two types, one name', args: ['deploy,svc', 'web'], targets: ['Deployment/web', 'Service/web'], types: [] },
  { name: 'a type alone (for --all / -l)', args: ['po'], targets: [], types: ['Pod'] },
  { name: 'the all category', args: ['all'], targets: [], types: ['Pod', 'Service', 'DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet', 'HorizontalPodAutoscaler', 'CronJob', 'Job'] },
];

for (const c of cases) {
  test(`parseTargets: ${c.name}`, () => {
    const r = parseTargets(c.args, BUILTIN, undefined);
    assert.deepEqual(r.targets.map((t) => `${t.info.kind}/${t.name}`), c.targets);
    if (c.name !== 'the all category') assert.deepEqual(r.typesOnly.map((t) => t.kind), c.types);
    else assert.ok(r.typesOnly.length > 3 && r.typesOnly.every((t) => t.all === true));
  });
}

const errors = [
  { name: 'mixed forms', args: ['deploy', 'svc/b'], message: /there is no need to specify a resource type as a separate argument/ },
  { name: 'empty name', args: ['deploy/'], message: /arguments in resource\/name form must have a single resource and name/ },
  { name: 'unknown type', args: ['foos', 'x'], message: /the server doesn't have a resource type "foos"/ },
  { name: 'two slashes', args: ['deploy/web', 'pod/x/y'], message: /arguments in resource\/name form may not have more than one slash/ },
];
for (const c of errors) test(`parseTargets error: ${c.name}`, () => assert.throws(() => parseTargets(c.args, BUILTIN, undefined), c.message));

test('resolveFiles reads directories (and -R) through the manifest visitor', () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const ws = s.fsOf({ kind: 'workstation', host: s.cluster.meta.workstation });
  ws.write('/root/m/a.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n  namespace: x\n');
  ws.write('/root/m/sub/c.yml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: c\n');
  const env = s.kubectlEnv({ argv: [], stdin: '', env: {}, cwd: '/root', user: 'root', fs: ws, location: { kind: 'workstation', host: s.cluster.meta.workstation }, now: () => 0 });
  const flat = resolveFiles(env, ['m'], false).requests.map((r) => `${r.info.kind}/${r.names?.join()}/${r.namespace ?? ''}`);
  assert.deepEqual(flat, ['ConfigMap/a/', 'Service/b/x']);
  assert.equal(resolveFiles(env, ['m'], true).requests.length, 3);
  assert.throws(() => resolveFiles(env, ['nope.yaml'], false), /the path "nope.yaml" does not exist/);
});

test('short-name warnings are their own command\'s, also when two commands run interleaved', async () => {
  // each command's resolutions note into its own list (KubectlEnv.shortNames), not a shared one
  const a = new Session(loadFixture('kubeadm-calico', 1));
  const b = new Session(loadFixture('kubeadm-calico', 1));
  const c = new Session(loadFixture('kubeadm-calico', 1));
  const [ra, rb, rc] = await Promise.all([a.exec('kubectl get ev -n nosuch'), b.exec('kubectl get po -n nosuch'), c.exec('kubectl get ev,ev -n nosuch')]);
  const warning = 'Warning: short name "ev" could also match lower priority resource events.events.k8s.io\n';
  assert.equal(ra.stderr, warning + 'No resources found in nosuch namespace.\n');
  assert.equal(rb.stderr, 'No resources found in nosuch namespace.\n');
  assert.equal(rc.stderr, warning + 'No resources found in nosuch namespace.\n', 'one warning per text and command');
});
