import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Cluster } from '../cluster.js';
import type { Deployment, EndpointSlice, KEvent, KObject, Node, Pod, ReplicaSet } from '../api/types.js';
import { ConnectionRefusedError } from '../api/errors.js';

function deployment(name: string, image: string, replicas: number, extra: Partial<Pod['spec']['containers'][number]> = {}): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image, ...extra }] } },
    },
  };
}

function podsOf(c: Cluster, app: string): Pod[] {
  return c.store.list<Pod>('Pod', 'default').filter((p) => p.metadata.labels?.['app'] === app);
}

function waiting(p: Pod): string | undefined {
  return p.status?.containerStatuses?.[0]?.state.waiting?.reason;
}

test('a Deployment gets a ReplicaSet named with its pod-template-hash and Running pods on workers', () => {
  const c = loadFixture('kubeadm-calico');
  new ApiServer(c).create(deployment('web', 'nginx', 3));
  const rs = c.store.list<ReplicaSet>('ReplicaSet', 'default');
  assert.equal(rs.length, 1);
  const hash = rs[0]!.metadata.labels?.['pod-template-hash'] ?? '';
  assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
  assert.equal(rs[0]!.metadata.name, `web-${hash}`);
  let pods = podsOf(c, 'web');
  assert.equal(pods.length, 3);
  assert.ok(pods.every((p) => p.metadata.name.startsWith(`web-${hash}-`) && waiting(p) === 'ContainerCreating'));
  assert.ok(pods.every((p) => p.spec.nodeName !== 'cka-cp1'), 'the control-plane taint keeps pods off cka-cp1');
  c.advance(5_000);
  pods = podsOf(c, 'web');
  assert.ok(pods.every((p) => p.status?.phase === 'Running' && p.status.podIP?.startsWith('10.244.')));
  const d = c.store.get<Deployment>('Deployment', 'default', 'web')!;
  assert.equal(d.status?.readyReplicas, 3);
  assert.equal(d.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
  const events = c.store.list<KEvent>('Event', 'default').filter((e) => e.reason === 'ScalingReplicaSet');
  assert.equal(events[0]?.message, `Scaled up replica set web-${hash} from 0 to 3`);
});

test('a template change rolls out a new ReplicaSet and scales the old one to zero', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create(deployment('web', 'nginx:1.27', 2));
  c.advance(5_000);
  const d = api.get<Deployment>('Deployment', 'default', 'web');
  const upd = JSON.parse(JSON.stringify(d)) as Deployment;
  upd.spec.template.spec.containers[0]!.image = 'nginx:1.29';
  api.update(upd);
  for (let i = 0; i < 10; i++) c.advance(3_000);
  const rs = c.store.list<ReplicaSet>('ReplicaSet', 'default').sort((a, b) => Number(a.metadata.annotations?.['deployment.kubernetes.io/revision']) - Number(b.metadata.annotations?.['deployment.kubernetes.io/revision']));
  assert.equal(rs.length, 2);
  assert.equal(rs[0]!.spec.replicas, 0);
  assert.equal(rs[1]!.spec.replicas, 2);
  const pods = podsOf(c, 'web').filter((p) => !p.metadata.deletionTimestamp);
  assert.ok(pods.every((p) => p.spec.containers[0]!.image === 'nginx:1.29'));
  assert.equal(api.get<Deployment>('Deployment', 'default', 'web').metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
});

test('an unknown image goes ErrImagePull then ImagePullBackOff', () => {
  const c = loadFixture('kubeadm-calico');
  new ApiServer(c).create(deployment('bad', 'nginxx:1.0', 1));
  c.advance(2_000);
  assert.equal(waiting(podsOf(c, 'bad')[0]!), 'ErrImagePull');
  c.advance(3_000);
  assert.equal(waiting(podsOf(c, 'bad')[0]!), 'ImagePullBackOff');
});

test('a container that exits is restarted with growing back-off (CrashLoopBackOff)', () => {
  const c = loadFixture('kubeadm-calico');
  new ApiServer(c).create(deployment('crash', 'busybox:1.36', 1));
  const restarts: number[] = [];
  for (let i = 0; i < 8; i++) {
    c.advance(60_000);
    restarts.push(podsOf(c, 'crash')[0]!.status?.containerStatuses?.[0]?.restartCount ?? -1);
  }
  assert.equal(waiting(podsOf(c, 'crash')[0]!), 'CrashLoopBackOff');
  // the first exit restarts at once (no back-off entry yet, kuberuntime_manager.go doBackOff), then
  // at ~11s, 31s, 71s, 151s, 311s, 611s: back-off 10s doubling to the 5 min cap
  assert.deepEqual(restarts, [3, 4, 5, 5, 5, 6, 6, 6]);
});

test('a failing readiness probe keeps the endpoint not ready', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create(deployment('probe', 'nginx', 1, { readinessProbe: { httpGet: { path: '/healthz-missing', port: 80 } } }));
  api.create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'probe', namespace: 'default' }, spec: { selector: { app: 'probe' }, ports: [{ port: 80 }] } });
  c.advance(30_000);
  const slice = c.store.list<EndpointSlice>('EndpointSlice', 'default').find((s) => s.metadata.labels?.['kubernetes.io/service-name'] === 'probe')!;
  assert.equal(slice.metadata.labels?.['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
  assert.equal(slice.endpoints?.length, 1);
  assert.deepEqual(slice.endpoints?.[0]?.conditions, { ready: false, serving: false, terminating: false });
  assert.equal(slice.ports?.[0]?.port, 80);
});

test('a pod that selects no node reports FailedScheduling with the scheduler message', () => {
  const c = loadFixture('kubeadm-calico');
  new ApiServer(c).create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'p', image: 'nginx' }] } });
  const pod = c.store.get<Pod>('Pod', 'default', 'p')!;
  assert.equal(pod.spec.nodeName, undefined);
  assert.equal(
    pod.status?.conditions?.[0]?.message,
    "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
  );
});

test('stopping the kubelet makes the node NotReady after the 50 s node-monitor-grace-period', () => {
  const c = loadFixture('kubeadm-calico');
  const h = c.host('cka-w1')!;
  h.data.units['kubelet'] = { active: false, enabled: true, since: c.now() };
  c.touchHosts();
  const ready = (): string | undefined => c.store.get<Node>('Node', undefined, 'cka-w1')?.status?.conditions?.find((x) => x.type === 'Ready')?.status;
  c.advance(49_999);
  assert.equal(ready(), 'True');
  c.advance(1);
  assert.equal(ready(), 'Unknown');
});

test('a kube-apiserver manifest with an unknown flag takes the API server down after the restart', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const cp = c.host('cka-cp1')!;
  const path = '/etc/kubernetes/manifests/kube-apiserver.yaml';
  const good = cp.fs.read(path);
  cp.fs.write(path, good.replace('--secure-port=6443', '--secure-prot=6443'));
  c.touchHosts();
  c.advance(20_000);
  assert.throws(() => api.list('Pod'), (e: unknown) => e instanceof ConnectionRefusedError && e.message === 'The connection to the server 192.168.122.11:6443 was refused - did you specify the right host or port?');
  cp.fs.write(path, good);
  c.touchHosts();
  c.advance(20_000);
  assert.ok(api.list('Pod').length > 0);
});

test('removing the CNI config makes the node NotReady with the runtime message', () => {
  const c = loadFixture('kubeadm-calico');
  c.host('cka-w2')!.fs.remove('/etc/cni/net.d/10-calico.conflist');
  c.touchHosts();
  c.settle();
  const cond = c.store.get<Node>('Node', undefined, 'cka-w2')?.status?.conditions?.find((x) => x.type === 'Ready');
  assert.equal(cond?.status, 'False');
  assert.equal(cond?.message, 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized');
});

test("flannel's manifest in its own namespace (ghcr.io images, cp init containers) brings a node without CNI back to Ready", () => {
  const c = loadFixture('flannel-single');
  const api = new ApiServer(c);
  api.delete('DaemonSet', 'kube-system', 'kube-flannel-ds');
  const host = c.host('ncss-i')!;
  host.fs.remove('/etc/cni/net.d/10-flannel.conflist');
  c.touchHosts();
  c.advance(60_000);
  const ready = (): string | undefined => c.store.get<Node>('Node', undefined, 'ncss-i')?.status?.conditions?.find((x) => x.type === 'Ready')?.status;
  assert.equal(ready(), 'False');
  api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-flannel' } });
  const cp = (image: string, name: string, args: string[]) => ({ name, image, command: ['cp'], args: ['-f', ...args] });
  api.create({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'kube-flannel-ds', namespace: 'kube-flannel' },
    spec: {
      selector: { matchLabels: { app: 'flannel' } },
      template: {
        metadata: { labels: { app: 'flannel', tier: 'node' } },
        spec: {
          hostNetwork: true,
          tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }],
          initContainers: [
            cp('ghcr.io/flannel-io/flannel-cni-plugin:v1.8.0-flannel1', 'install-cni-plugin', ['/flannel', '/opt/cni/bin/flannel']),
            cp('ghcr.io/flannel-io/flannel:v0.27.4', 'install-cni', ['/etc/kube-flannel/cni-conf.json', '/etc/cni/net.d/10-flannel.conflist']),
          ],
          containers: [{ name: 'kube-flannel', image: 'ghcr.io/flannel-io/flannel:v0.27.4', command: ['/opt/bin/flanneld'], args: ['--ip-masq', '--kube-subnet-mgr'] }],
        },
      },
    },
  } as KObject);
  c.advance(60_000);
  assert.ok(host.fs.exists('/etc/cni/net.d/10-flannel.conflist'));
  assert.equal(ready(), 'True');
});

test('deleting a namespace removes its contents, then the namespace', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'net' } });
  api.create({ ...deployment('web', 'nginx', 2), metadata: { name: 'web', namespace: 'net' } });
  c.advance(5_000);
  assert.ok(c.store.get('ConfigMap', 'net', 'kube-root-ca.crt'));
  api.delete('Namespace', undefined, 'net');
  c.advance(5_000);
  assert.equal(c.store.get('Namespace', undefined, 'net'), undefined);
  assert.equal(c.store.list('Pod', 'net').length, 0);
});

test('deleting a Deployment cascades to its ReplicaSets and pods', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create(deployment('web', 'nginx', 2));
  c.advance(5_000);
  api.delete('Deployment', 'default', 'web');
  c.advance(5_000);
  assert.equal(c.store.list('ReplicaSet', 'default').length, 0);
  assert.equal(podsOf(c, 'web').length, 0);
});

test('a claim binds to the smallest matching volume; a pod with an unbound claim is not scheduled', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const pv = (name: string, size: string): KObject => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name }, spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce'], storageClassName: 'manual', hostPath: { path: `/data/${name}` } } });
  api.create(pv('big', '5Gi'));
  api.create(pv('small', '1Gi'));
  api.create({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'manual', resources: { requests: { storage: '500Mi' } } } });
  const claim = api.get<KObject & { spec: { volumeName?: string }; status?: { phase?: string } }>('PersistentVolumeClaim', 'default', 'data');
  assert.equal(claim.spec.volumeName, 'small');
  assert.equal(claim.status?.phase, 'Bound');
  assert.equal(api.get<KObject & { status?: { phase?: string } }>('PersistentVolume', undefined, 'big').status?.phase, 'Available');
  api.create({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'none', namespace: 'default' }, spec: { accessModes: ['ReadWriteMany'], storageClassName: 'manual', resources: { requests: { storage: '1Gi' } } } });
  api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'p', image: 'nginx' }], volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'none' } }] } });
  const pod = c.store.get<Pod>('Pod', 'default', 'p')!;
  assert.equal(pod.spec.nodeName, undefined);
  assert.equal(pod.status?.conditions?.[0]?.message, '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
});

test('NetworkPolicy ports default to TCP and policyTypes follow the rules given', () => {
  const c = loadFixture('kubeadm-calico');
  const np = new ApiServer(c).create<KObject & { spec: { podSelector?: object; policyTypes?: string[]; egress?: { ports?: { port?: number; protocol?: string }[] }[] } }>({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'dns', namespace: 'default' },
    spec: { podSelector: {}, egress: [{ ports: [{ port: 53 }] }] },
  });
  assert.deepEqual(np.spec.policyTypes, ['Ingress', 'Egress']);
  assert.equal(np.spec.egress?.[0]?.ports?.[0]?.protocol, 'TCP');
});

test('pods the admission chain refuses become FailedCreate events in each controller\'s words, and are retried when the quota changes', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'default' }, spec: { hard: { pods: '0' } } });
  api.create({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'default' },
    spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'nginx' }] } } },
  });
  api.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once', namespace: 'default' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'x', image: 'busybox' }] } } } });
  const failed = c.store.list<KEvent>('Event', 'default').filter((e) => e.reason === 'FailedCreate' && e.type === 'Warning');
  const quota = 'exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0';
  assert.ok(failed.some((e) => e.involvedObject.kind === 'StatefulSet' && e.message === `create Pod db-0 in StatefulSet db failed error: pods "db-0" is forbidden: ${quota}`));
  assert.ok(failed.some((e) => e.involvedObject.kind === 'Job' && /^Error creating: pods "once-[a-z0-9]{5}" is forbidden: exceeded quota: q, /.test(e.message ?? '')));
  assert.equal(c.store.list<Pod>('Pod', 'default').filter((p) => p.metadata.name === 'db-0').length, 0);
  const q = c.store.get('ResourceQuota', 'default', 'q')!;
  api.update({ ...q, spec: { hard: { pods: '5' } } });
  assert.ok(c.store.get('Pod', 'default', 'db-0'));
  assert.ok(c.store.list<Pod>('Pod', 'default').some((p) => p.metadata.name.startsWith('once-')));
});
// kubelet_node_status.go tryUpdateNodeStatus: with nothing changed the kubelet posts its status
// every nodeStatusReportFrequency (5m), renewing each condition's heartbeat (served as a derived
// view, virtual-objects.ts nodeView); a stopped kubelet's last post is what the Unknown shows
test('node conditions show the kubelet\'s latest five-minute status post, and the last one before it stopped', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
  const beats = (): Set<string> => new Set((api.get<Node>('Node', undefined, 'cka-w1').status?.conditions ?? []).map((x) => x.lastHeartbeatTime ?? ''));
  const t0 = c.now();
  assert.deepEqual(beats(), new Set([iso(t0)]));
  c.advance(4 * 60_000);
  assert.deepEqual(beats(), new Set([iso(t0)]));
  c.advance(12 * 60_000);
  assert.deepEqual(beats(), new Set([iso(t0 + 15 * 60_000)]));
  c.host('cka-w1')!.data.units['kubelet'] = { active: false, enabled: true, since: c.now() };
  c.touchHosts();
  c.advance(7 * 60_000);
  const node = api.get<Node>('Node', undefined, 'cka-w1');
  assert.equal(node.status?.conditions?.find((x) => x.type === 'Ready')?.status, 'Unknown');
  assert.deepEqual(beats(), new Set([iso(t0 + 15 * 60_000)]));
});

// pkg/controller/util/node/controller_utils.go MarkPodsNotReady, from monitorNodeHealth when a
// node's Ready condition leaves True: the pods' Ready condition only, a Warning event; the kubelet
// posts Ready again when it is back
test('a node whose kubelet stops has its pods marked not ready, and out of their Service', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create(deployment('web', 'nginx', 2));
  c.advance(30_000);
  const onW1 = (): Pod => podsOf(c, 'web').find((p) => p.spec.nodeName === 'cka-w1')!;
  const readyOf = (p: Pod): string | undefined => p.status?.conditions?.find((x) => x.type === 'Ready')?.status;
  assert.equal(readyOf(onW1()), 'True');
  const w1 = c.host('cka-w1')!;
  w1.data.units['kubelet'] = { active: false, enabled: true, since: c.now() };
  c.touchHosts();
  c.advance(49_000);
  assert.equal(readyOf(onW1()), 'True', 'within the grace period');
  c.advance(2_000);
  assert.equal(readyOf(onW1()), 'False');
  assert.equal(onW1().status?.containerStatuses?.[0]?.ready, true, 'the READY column counts containers and does not change');
  const events = c.store.list<KEvent>('Event', 'default').filter((e) => e.reason === 'NodeNotReady' && e.involvedObject.name === onW1().metadata.name);
  assert.deepEqual(events.map((e) => [e.type, e.message, e.source?.component]), [['Warning', 'Node is not ready', 'node-controller']]);
  const onW2 = podsOf(c, 'web').find((p) => p.spec.nodeName !== 'cka-w1')!;
  assert.equal(readyOf(onW2), 'True');
  w1.data.units['kubelet'] = { active: true, enabled: true, since: c.now() };
  c.touchHosts();
  c.advance(20_000);
  assert.equal(readyOf(onW1()), 'True', 'the kubelet posts the pod ready again');
});

// node_lifecycle_controller.go processTaintBaseEviction / handleDisruption: NoExecute for a node
// that is not Ready while others are; master disruption mode (every node down) takes them all off
test('NoExecute taints for a down node, none while every node is down', () => {
  const c = loadFixture('kubeadm-calico');
  const noExecute = (name: string): string[] =>
    (c.store.get<Node>('Node', undefined, name)?.spec.taints ?? []).filter((t) => t.effect === 'NoExecute').map((t) => t.key);
  const stop = (name: string): void => {
    c.host(name)!.data.units['kubelet'] = { active: false, enabled: true, since: c.now() };
    c.touchHosts();
  };
  stop('cka-w1');
  c.advance(60_000);
  assert.deepEqual(noExecute('cka-w1'), ['node.kubernetes.io/unreachable']);
  assert.deepEqual(noExecute('cka-w2'), []);
  stop('cka-w2');
  stop('cka-cp1');
  c.advance(60_000);
  for (const n of ['cka-cp1', 'cka-w1', 'cka-w2']) assert.deepEqual(noExecute(n), [], `${n} in master disruption mode`);
});
