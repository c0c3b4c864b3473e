/** Setup steps and named breaks: each leaves the observable state a learner would find. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../sim/cluster.js';
import { CONTROLLERS } from '../../sim/controllers/index.js';
import { ManualClock } from '../../util/clock.js';
import { Session } from '../../shell/session.js';
import { fixtureSnapshot } from '../session.js';
import { SetupStepSchema } from '../schema.js';
import { runSetup, SetupError, mergePatch } from './index.js';
import type { ConfigMap, Deployment, Node } from '../../sim/api/types.js';

function fresh(): Session {
  const snap = fixtureSnapshot('kubeadm-calico', 1);
  return new Session(Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS));
}

const steps = (raw: unknown[]) => raw.map((r) => SetupStepSchema.parse(r));

const CASES: { name: string; steps: unknown[]; then: (s: Session) => Promise<void> | void }[] = [
  {
    name: 'apiserver-flag: the manifest changes and the API server restarts with the new value',
    steps: [{ break: { name: 'apiserver-flag', flag: 'service-node-port-range', value: '30000-30100' } }, { advance: '1m' }],
    then: async (s) => {
      await s.exec('ssh cka-cp1');
      assert.equal((await s.exec('grep -c -e "--service-node-port-range=30000-30100" /etc/kubernetes/manifests/kube-apiserver.yaml')).stdout, '1\n');
    },
  },
  {
    name: 'stop-kubelet: the unit is inactive and the node goes NotReady',
    steps: [{ break: { name: 'stop-kubelet', node: 'cka-w2' } }, { advance: '2m' }],
    then: (s) => {
      assert.equal(s.cluster.host('cka-w2')!.unitActive('kubelet'), false);
      const node = s.cluster.store.get<Node>('Node', undefined, 'cka-w2')!;
      assert.notEqual(node.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
    },
  },
  {
    name: 'ip-forward-off: off now and not persisted',
    steps: [{ break: { name: 'ip-forward-off', node: 'cka-w1' } }],
    then: (s) => {
      const h = s.cluster.host('cka-w1')!;
      assert.equal(h.sysctl('net.ipv4.ip_forward'), '0');
      assert.match(h.fs.read('/etc/sysctl.d/k8s.conf'), /^#net\.ipv4\.ip_forward = 1$/m);
    },
  },
  {
    name: 'remove-cni-config: /etc/cni/net.d is empty',
    steps: [{ break: { name: 'remove-cni-config', node: 'cka-w1' } }],
    then: (s) => assert.deepEqual(s.cluster.host('cka-w1')!.fs.list('/etc/cni/net.d'), []),
  },
  {
    name: 'corrupt-corefile: a misspelt directive in the ConfigMap',
    steps: [{ break: { name: 'corrupt-corefile', plugin: 'forward' } }],
    then: (s) => assert.match(s.cluster.store.get<ConfigMap>('ConfigMap', 'kube-system', 'coredns')!.data!['Corefile']!, /^ {4}forwad \. \/etc\/resolv\.conf/m),
  },
  {
    name: 'scale: replicas change',
    steps: [{ break: { name: 'scale', target: 'deployment/coredns', namespace: 'kube-system', replicas: 0 } }],
    then: (s) => assert.equal(s.cluster.store.get<Deployment>('Deployment', 'kube-system', 'coredns')!.spec.replicas, 0),
  },
  {
    name: 'apply, patch, file and exec steps',
    steps: [
      { apply: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: demo}\ndata: {a: "1"}\n' },
      { patch: { kind: 'ConfigMap', name: 'demo', merge: { data: { a: null, b: '2' } } } },
      { file: { host: 'cka-w1', path: '/etc/demo.conf', content: 'x=1\n' } },
      { file: { host: 'cka-w1', path: '/etc/demo.conf', replace: [{ from: 'x=1', to: 'x=2' }] } },
      { exec: { host: 'cka-w1', run: 'echo done >> /etc/demo.conf' } },
    ],
    then: (s) => {
      assert.deepEqual(s.cluster.store.get<ConfigMap>('ConfigMap', 'default', 'demo')!.data, { b: '2' });
      assert.equal(s.cluster.host('cka-w1')!.fs.read('/etc/demo.conf'), 'x=2\ndone\n');
    },
  },
];

for (const c of CASES) {
  test(`setup: ${c.name}`, async () => {
    const s = fresh();
    await runSetup(s, steps(c.steps));
    await c.then(s);
  });
}

test('a step that cannot apply is a SetupError naming the step', async () => {
  const s = fresh();
  await assert.rejects(
    runSetup(s, steps([{ advance: '1s' }, { delete: { kind: 'Service', name: 'nope' } }])),
    (e: unknown) => e instanceof SetupError && e.message === 'setup[1] (delete): services "nope" not found',
  );
  await assert.rejects(runSetup(s, steps([{ exec: 'cat /nope' }])), (e: unknown) => e instanceof SetupError && e.message.startsWith('setup[0] (exec): `cat /nope` exited 1'));
});

test('mergePatch follows RFC 7386', () => {
  assert.deepEqual(mergePatch({ a: 1, b: { c: 2, d: 3 } }, { b: { c: null, e: 4 }, f: [1] }), { a: 1, b: { d: 3, e: 4 }, f: [1] });
});
