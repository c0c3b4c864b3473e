import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertGolden, goldenPath } from '../../testing/golden.js';
import type { KObject } from '../../sim/api/types.js';
import { noResourcesMessage, printTable, printTables } from './table.js';
import { SEED004_NOW, seed004Endpoints, seed004Services } from './testing/seed004.js';
import { configMap, deployment, endpointSlice, event, generic, namespace, node, pod, replicaSet, runningStatus, secret, service, T0 } from './testing/factories.js';

const collapse = (s: string): string =>
  s
    .split('\n')
    .map((l) => l.replace(/ +/g, ' ').trim())
    .join('\n');

const SEED004_SVC = `NAMESPACE NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE
default kubernetes ClusterIP 10.244.0.1 <none> 443/TCP 2d2h
default mysql ClusterIP None <none> 3306/TCP 2d2h
default mysql-read ClusterIP 10.244.27.22 <none> 3306/TCP 2d2h
default nginx ClusterIP 10.244.190.26 <none> 10100/TCP 2d2h
default nginx-server NodePort 10.244.155.83 <none> 443:443/TCP,20100:20100/TCP,20101:20101/TCP,20102:20102/TCP,20103:20103/TCP,10080:10080/TCP,10081:10081/TCP 2d2h
default uwsgi ClusterIP 10.244.144.63 <none> 8001/TCP,8000/TCP 5h20m
kube-system elasticsearch-logging ClusterIP 10.244.212.106 <none> 9200/TCP 2d2h
kube-system kibana-logging ClusterIP 10.244.117.119 <none> 5601/TCP 2d2h
kube-system kube-dns ClusterIP 10.244.0.10 <none> 53/UDP,53/TCP,9153/TCP 2d2h
`;

const SEED004_EP = `NAMESPACE NAME ENDPOINTS AGE
default kubernetes 10.244.0.200:6443 2d2h
default mysql 192.128.0.47:3306,192.128.0.52:3306 2d2h
default mysql-read 192.128.0.47:3306,192.128.0.52:3306 2d2h
default nginx 192.128.0.55:10100 2d2h
default nginx-server 192.128.0.55:443,192.128.0.55:20103,192.128.0.55:20101 + 4 more... 2d2h
default uwsgi 192.128.0.54:8000,192.128.0.54:8001 5h20m
kube-system elasticsearch-logging 192.128.0.43:9200,192.128.0.49:9200 2d2h
kube-system kibana-logging 192.128.0.46:5601 2d2h
kube-system kube-controller-manager <none> 2d2h
kube-system kube-dns 192.128.0.48:53,192.128.0.51:53,192.128.0.48:53 + 3 more... 2d2h
kube-system kube-scheduler <none> 2d2h
`;

test('seed 004: kubectl get svc -A', () => {
  const out = printTable(seed004Services(), { now: SEED004_NOW, allNamespaces: true });
  assert.equal(collapse(out), SEED004_SVC);
  assertGolden(goldenPath(import.meta.url, 'seed004-get-svc-A.txt'), out);
});

test('seed 004: kubectl get ep -A', () => {
  const out = printTable(seed004Endpoints(), { now: SEED004_NOW, allNamespaces: true });
  assert.equal(collapse(out), SEED004_EP);
  assertGolden(goldenPath(import.meta.url, 'seed004-get-ep-A.txt'), out);
});

test('seed 004: kubectl get svc -n kube-system (exact spacing)', () => {
  const out = printTable(
    seed004Services().filter((s) => s.metadata.namespace === 'kube-system'),
    { now: SEED004_NOW },
  );
  assert.equal(
    out,
    'NAME                    TYPE        CLUSTER-IP       EXTERNAL-IP   PORT(S)                  AGE\n' +
      'elasticsearch-logging   ClusterIP   10.244.212.106   <none>        9200/TCP                 2d2h\n' +
      'kibana-logging          ClusterIP   10.244.117.119   <none>        5601/TCP                 2d2h\n' +
      'kube-dns                ClusterIP   10.244.0.10      <none>        53/UDP,53/TCP,9153/TCP   2d2h\n',
  );
});

const NOW = Date.parse('2026-01-15T12:05:00Z');

function samplePods(): KObject[] {
  const web = pod('web-6c5d8f9b7d-abcde', { node: 'node01', ip: '10.244.1.4', labels: { app: 'web', 'pod-template-hash': '6c5d8f9b7d' } });
  const crash = pod('crashy', { node: 'node01', ip: '10.244.1.9' });
  crash.status!.conditions![1]!.status = 'False';
  crash.status!.containerStatuses = [
    {
      ...runningStatus('nginx', 'nginx:1.25', T0),
      ready: false,
      started: false,
      restartCount: 5,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 2m40s restarting failed container' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-01-15T12:02:00Z', finishedAt: '2026-01-15T12:03:00Z' } },
    },
  ];
  const pending = pod('pending-pod', { created: '2026-01-15T12:04:00Z' });
  pending.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }], qosClass: 'BestEffort' };
  const done = pod('job-1-xyz', { node: 'node02', ip: '10.244.2.3' });
  done.spec.restartPolicy = 'Never';
  done.status!.phase = 'Succeeded';
  done.status!.containerStatuses = [
    { ...runningStatus('nginx', 'busybox', T0), ready: false, started: false, state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: T0, finishedAt: T0 } } },
  ];
  const init = pod('init-pod', { node: 'node02' });
  init.spec.initContainers = [{ name: 'wait', image: 'busybox' }];
  init.status!.phase = 'Pending';
  init.status!.initContainerStatuses = [{ ...runningStatus('wait', 'busybox', T0), ready: false }];
  init.status!.conditions = [{ type: 'Initialized', status: 'False' }];
  init.status!.containerStatuses = [{ ...runningStatus('nginx', 'nginx:1.25', T0), ready: false, started: false, state: { waiting: { reason: 'PodInitializing' } } }];
  const pull = pod('badimage', { node: 'node01', ip: '10.244.1.10' });
  pull.status!.containerStatuses = [{ ...runningStatus('nginx', 'nginx:nope', T0), ready: false, state: { waiting: { reason: 'ImagePullBackOff' } } }];
  const term = pod('going', { node: 'node01', ip: '10.244.1.11' });
  term.metadata.deletionTimestamp = '2026-01-15T12:04:30Z';
  return [web, crash, pending, done, init, pull, term];
}

test('pods: STATUS/READY/RESTARTS cells', () => {
  const out = printTable(samplePods(), { now: NOW });
  assert.equal(
    out,
    [
      'NAME                   READY   STATUS             RESTARTS     AGE',
      'web-6c5d8f9b7d-abcde   1/1     Running            0            125m',
      'crashy                 0/1     CrashLoopBackOff   5 (2m ago)   125m',
      'pending-pod            0/1     Pending            0            60s',
      'job-1-xyz              0/1     Completed          0            125m',
      'init-pod               0/1     Init:0/1           0            125m',
      'badimage               0/1     ImagePullBackOff   0            125m',
      'going                  1/1     Terminating        0            125m',
      '',
    ].join('\n'),
  );
  assertGolden(goldenPath(import.meta.url, 'pods.txt'), out);
  assertGolden(goldenPath(import.meta.url, 'pods-wide.txt'), printTable(samplePods(), { now: NOW, wide: true }));
});

test('pods: --show-labels, -L, --no-headers, -A', () => {
  const pods = samplePods().slice(0, 2);
  assert.equal(
    printTable(pods, { now: NOW, showLabels: true, labelColumns: ['app', 'example.com/tier'] }),
    'NAME                   READY   STATUS             RESTARTS     AGE    APP   TIER   LABELS\n' +
      'web-6c5d8f9b7d-abcde   1/1     Running            0            125m   web          app=web,pod-template-hash=6c5d8f9b7d\n' +
      'crashy                 0/1     CrashLoopBackOff   5 (2m ago)   125m                <none>\n',
  );
  assert.equal(
    printTable(pods, { now: NOW, noHeaders: true }),
    'web-6c5d8f9b7d-abcde   1/1   Running            0            125m\n' + 'crashy                 0/1   CrashLoopBackOff   5 (2m ago)   125m\n',
  );
  assert.match(printTable(pods, { now: NOW, allNamespaces: true }), /^NAMESPACE {3}NAME {19}READY/);
});

test('cluster-scoped kinds never get a NAMESPACE column', () => {
  const out = printTable([node('cka-cp1', '192.168.122.11', { controlPlane: true })], { now: NOW, allNamespaces: true });
  assert.equal(out, 'NAME      STATUS   ROLES           AGE    VERSION\ncka-cp1   Ready    control-plane   125m   v1.35.0\n');
});

test('nodes: wide, NotReady, SchedulingDisabled', () => {
  const out = printTable(
    [
      node('cka-cp1', '192.168.122.11', { controlPlane: true }),
      node('cka-w1', '192.168.122.21', { unschedulable: true }),
      node('cka-w2', '192.168.122.22', { ready: false }),
    ],
    { now: NOW, wide: true },
  );
  assert.equal(
    collapse(out),
    'NAME STATUS ROLES AGE VERSION INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME\n' +
      'cka-cp1 Ready control-plane 125m v1.35.0 192.168.122.11 <none> Ubuntu 24.04.3 LTS 6.8.0-85-generic containerd://2.1.4\n' +
      'cka-w1 Ready,SchedulingDisabled <none> 125m v1.35.0 192.168.122.21 <none> Ubuntu 24.04.3 LTS 6.8.0-85-generic containerd://2.1.4\n' +
      'cka-w2 NotReady <none> 125m v1.35.0 192.168.122.22 <none> Ubuntu 24.04.3 LTS 6.8.0-85-generic containerd://2.1.4\n',
  );
  assertGolden(goldenPath(import.meta.url, 'nodes-wide.txt'), out);
});

test('multiple types: kind prefixes and a blank line between tables', () => {
  const out = printTables([[deployment('web', 3)], [service('web', 'default', T0, { clusterIP: '10.96.0.5', clusterIPs: ['10.96.0.5'], ports: [{ port: 80, protocol: 'TCP', nodePort: 31777 }], type: 'NodePort' })]], { now: NOW, withKind: true });
  assert.equal(
    out,
    'NAME                  READY   UP-TO-DATE   AVAILABLE   AGE\n' +
      'deployment.apps/web   3/3     3            3           125m\n' +
      '\n' +
      'NAME          TYPE       CLUSTER-IP   EXTERNAL-IP   PORT(S)        AGE\n' +
      'service/web   NodePort   10.96.0.5    <none>        80:31777/TCP   125m\n',
  );
});

test('services: LoadBalancer <pending>, ExternalName, headless, externalIPs', () => {
  const svcs = [
    service('lb', 'default', T0, { type: 'LoadBalancer', clusterIP: '10.111.57.195', clusterIPs: ['10.111.57.195'], ports: [{ port: 80, protocol: 'TCP', targetPort: 80, nodePort: 30363 }], selector: { app: 'lb' } }),
    service('ext', 'default', T0, { type: 'ExternalName', externalName: 'db.example.com' }),
    service('lb2', 'default', T0, { type: 'LoadBalancer', clusterIP: '10.96.0.7', clusterIPs: ['10.96.0.7'], ports: [{ port: 443, protocol: 'TCP', nodePort: 31000 }] }, { status: { loadBalancer: { ingress: [{ ip: '5.6.7.8' }, { ip: '1.2.3.4' }] } } }),
    service('eip', 'default', T0, { clusterIP: '10.96.0.8', clusterIPs: ['10.96.0.8'], externalIPs: ['192.168.1.5'], ports: [{ port: 80, protocol: 'TCP' }] }),
  ];
  const out = printTable(svcs, { now: NOW, wide: true });
  assert.equal(
    collapse(out),
    'NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE SELECTOR\n' +
      'lb LoadBalancer 10.111.57.195 <pending> 80:30363/TCP 125m app=lb\n' +
      'ext ExternalName <none> db.example.com <none> 125m <none>\n' +
      'lb2 LoadBalancer 10.96.0.7 1.2.3.4,5.6.7.8 443:31000/TCP 125m <none>\n' +
      'eip ClusterIP 10.96.0.8 192.168.1.5 80/TCP 125m <none>\n',
  );
});

test('endpointslices: seed 000 shape and + N more', () => {
  const s1 = endpointSlice('web-4bnv6', 'net', T0, ['10.244.62.167', '10.244.95.170'], [{ name: '', port: 80, protocol: 'TCP' }]);
  const s2 = endpointSlice('big-abcde', 'net', T0, ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5'], [
    { name: 'a', port: 1, protocol: 'TCP' },
    { name: 'b', port: 2, protocol: 'TCP' },
    { name: 'c', port: 3, protocol: 'TCP' },
    { name: 'd', port: 4, protocol: 'TCP' },
  ]);
  const s3 = endpointSlice('empty-zzzzz', 'net', T0, [], null);
  assert.equal(
    printTable([s1, s2, s3], { now: NOW }),
    'NAME          ADDRESSTYPE   PORTS               ENDPOINTS                                AGE\n' +
      'web-4bnv6     IPv4          80                  10.244.62.167,10.244.95.170              125m\n' +
      'big-abcde     IPv4          1,2,3 + 1 more...   10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...   125m\n' +
      'empty-zzzzz   IPv4          <unset>             <unset>                                  125m\n',
  );
});

test('other kinds: goldens', () => {
  const objs: [string, KObject[], boolean][] = [
    ['deployments', [deployment('web', 3), deployment('api', 2)], true],
    ['replicasets', [replicaSet('web-6c5d8f9b7d', 'web', 3)], true],
    ['configmaps', [configMap('kube-root-ca.crt', 'default', { 'ca.crt': 'x' }), configMap('app', 'default', { a: '1', b: '2' })], false],
    ['secrets', [secret('db', 'default', 'Opaque', { password: 'cGFzcw==' }), secret('tls', 'default', 'kubernetes.io/tls', { 'tls.crt': '', 'tls.key': '' })], false],
    ['namespaces', [namespace('default'), namespace('kube-system')], false],
    [
      'events',
      [
        event('web.1', { kind: 'Pod', name: 'web', namespace: 'default', fieldPath: 'spec.containers{nginx}' }, 'Pulled', 'Container image "nginx:1.25" already present on machine', { first: '2026-01-15T12:00:00Z', component: 'kubelet', host: 'node01' }),
        event('web.2', { kind: 'Deployment', name: 'web', namespace: 'default' }, 'ScalingReplicaSet', 'Scaled up replica set web-6c5d8f9b7d from 0 to 3', { first: '2026-01-15T10:00:00Z', last: '2026-01-15T12:00:00Z', count: 2, component: 'deployment-controller' }),
      ],
      true,
    ],
    ['roles', [generic('rbac.authorization.k8s.io/v1', 'Role', 'pod-reader', { rules: [] }, { namespace: 'default' })], false],
    ['rolebindings', [generic('rbac.authorization.k8s.io/v1', 'RoleBinding', 'read-pods', { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' }, subjects: [{ kind: 'User', name: 'jane' }, { kind: 'ServiceAccount', name: 'sa1', namespace: 'dev' }] }, { namespace: 'default' })], true],
    ['blockaffinities', [generic('crd.projectcalico.org/v1', 'BlockAffinity', 'cka-w1-10-244-95-128-26', { spec: { node: 'cka-w1', cidr: '10.244.95.128/26', state: 'confirmed' } })], false],
    ['storageclasses', [generic('storage.k8s.io/v1', 'StorageClass', 'standard', { provisioner: 'rancher.io/local-path', reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer' }, { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } })], false],
    ['persistentvolumes', [generic('v1', 'PersistentVolume', 'pv1', { spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', storageClassName: 'manual', claimRef: { namespace: 'default', name: 'claim1' }, volumeMode: 'Filesystem' }, status: { phase: 'Bound' } })], true],
    ['persistentvolumeclaims', [generic('v1', 'PersistentVolumeClaim', 'claim1', { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '500Mi' } }, volumeName: 'pv1', storageClassName: 'manual', volumeMode: 'Filesystem' }, status: { phase: 'Bound', accessModes: ['ReadWriteMany', 'ReadWriteOnce'], capacity: { storage: '1Gi' } } }, { namespace: 'default' }), generic('v1', 'PersistentVolumeClaim', 'claim2', { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } }, { namespace: 'default' })], false],
  ];
  for (const [name, list, wide] of objs) {
    assertGolden(goldenPath(import.meta.url, `${name}.txt`), printTable(list, { now: NOW }));
    if (wide) assertGolden(goldenPath(import.meta.url, `${name}-wide.txt`), printTable(list, { now: NOW, wide: true }));
  }
  assert.equal(printTable(objs[6]![1], { now: NOW }), 'NAME         CREATED AT\npod-reader   2026-01-15T10:00:00Z\n');
  assert.equal(printTable(objs[8]![1], { now: NOW }), 'NAME                      AGE\ncka-w1-10-244-95-128-26   125m\n');
});

test('noResourcesMessage', () => {
  assert.equal(noResourcesMessage('default', false, false), 'No resources found in default namespace.');
  assert.equal(noResourcesMessage('default', true, false), 'No resources found');
  assert.equal(noResourcesMessage('default', false, true), 'No resources found');
});
