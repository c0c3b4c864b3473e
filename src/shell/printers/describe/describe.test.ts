import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import type { Pod } from '../../../sim/api/types.js';
import { configMap, deployment, endpointSlice, event, namespace, pod, replicaSet, secret, service, T0 } from '../testing/factories.js';
import { describe, joinDescribed } from './index.js';

const NOW = Date.parse('2026-01-15T12:00:00Z');

test('describe configmap: reference §6.5 layout exactly', () => {
  const cm = configMap('app-config', 'default', { 'app.properties': 'color=blue\nmode=production\n', APP_MODE: 'prod' });
  assert.equal(
    describe(cm, { now: NOW, events: [] }),
    [
      'Name:         app-config',
      'Namespace:    default',
      'Labels:       <none>',
      'Annotations:  <none>',
      '',
      'Data',
      '====',
      'APP_MODE:',
      '----',
      'prod',
      '',
      'app.properties:',
      '----',
      'color=blue',
      'mode=production',
      '',
      '',
      '',
      'BinaryData',
      '====',
      '',
      'Events:  <none>',
      '',
    ].join('\n'),
  );
});

test('describe deployment: reference §6.3 layout exactly', () => {
  const d = deployment('web', 3, '2026-01-15T09:55:00Z');
  d.spec.template.spec.containers[0]!.ports = [{ containerPort: 80, protocol: 'TCP' }];
  d.status!.conditions = [
    { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
    { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
  ];
  d.status!.replicas = 3;
  d.status!.unavailableReplicas = 0;
  const rs = replicaSet('web-6c5d8f9b7d', 'web', 3);
  const ev = event('web.1', { kind: 'Deployment', name: 'web', namespace: 'default' }, 'ScalingReplicaSet', 'Scaled up replica set web-6c5d8f9b7d from 0 to 3', {
    first: '2026-01-15T09:55:00Z',
    component: 'deployment-controller',
  });
  assert.equal(
    describe(d, { now: NOW, events: [ev], replicaSets: { old: [], new: rs } }),
    [
      'Name:                   web',
      'Namespace:              default',
      'CreationTimestamp:      Thu, 15 Jan 2026 09:55:00 +0000',
      'Labels:                 app=web',
      'Annotations:            deployment.kubernetes.io/revision: 1',
      'Selector:               app=web',
      'Replicas:               3 desired | 3 updated | 3 total | 3 available | 0 unavailable',
      'StrategyType:           RollingUpdate',
      'MinReadySeconds:        0',
      'RollingUpdateStrategy:  25% max unavailable, 25% max surge',
      'Pod Template:',
      '  Labels:  app=web',
      '  Containers:',
      '   nginx:',
      '    Image:         nginx:1.25',
      '    Port:          80/TCP',
      '    Host Port:     0/TCP',
      '    Environment:   <none>',
      '    Mounts:        <none>',
      '  Volumes:         <none>',
      '  Node-Selectors:  <none>',
      '  Tolerations:     <none>',
      'Conditions:',
      '  Type           Status  Reason',
      '  ----           ------  ------',
      '  Available      True    MinimumReplicasAvailable',
      '  Progressing    True    NewReplicaSetAvailable',
      'OldReplicaSets:  <none>',
      'NewReplicaSet:   web-6c5d8f9b7d (3/3 replicas created)',
      'Events:',
      '  Type    Reason             Age   From                   Message',
      '  ----    ------             ----  ----                   -------',
      '  Normal  ScalingReplicaSet  125m  deployment-controller  Scaled up replica set web-6c5d8f9b7d from 0 to 3',
      '',
    ].join('\n'),
  );
});

function webPod(): Pod {
  const p = pod('web-6c5d8f9b7d-abcde', { node: 'node01', ip: '10.244.1.4', labels: { app: 'web', 'pod-template-hash': '6c5d8f9b7d' } });
  p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-6c5d8f9b7d', uid: 'u', controller: true, blockOwnerDeletion: true }];
  p.spec.serviceAccountName = 'default';
  p.status!.hostIP = '192.168.122.21';
  p.spec.containers[0]!.ports = [{ containerPort: 80, protocol: 'TCP' }];
  p.spec.containers[0]!.env = [
    { name: 'MODE', value: 'prod' },
    { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-creds', key: 'password' } } },
    { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
    { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
  ];
  p.spec.containers[0]!.readinessProbe = { httpGet: { path: '/', port: 80, scheme: 'HTTP' }, initialDelaySeconds: 5, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
  p.spec.containers[0]!.livenessProbe = { tcpSocket: { port: 80 }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
  p.spec.containers[0]!.volumeMounts = [{ name: 'kube-api-access-x7k2p', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }];
  p.spec.volumes = [
    {
      name: 'kube-api-access-x7k2p',
      projected: {
        defaultMode: 420,
        sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }, { downwardAPI: { items: [] } }],
      },
    },
  ];
  p.spec.tolerations = [
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ];
  return p;
}

test('describe pod: IP block alignment, env forms, probes, tolerations', () => {
  const ev = event('web.1', { kind: 'Pod', name: 'web-6c5d8f9b7d-abcde', namespace: 'default', fieldPath: 'spec.containers{nginx}' }, 'Pulled', 'Container image "nginx:1.25" already present on machine', {
    first: '2026-01-15T10:00:02Z',
    component: 'kubelet',
    host: 'node01',
  });
  const out = describe(webPod(), { now: NOW, events: [ev] })!;
  assertGolden(goldenPath(import.meta.url, 'pod-running.txt'), out);
  for (const line of [
    'Node:             node01/192.168.122.21',
    'Start Time:       Thu, 15 Jan 2026 10:00:00 +0000',
    'IP:               10.244.1.4',
    'IPs:\n  IP:           10.244.1.4\nControlled By:  ReplicaSet/web-6c5d8f9b7d\n',
    "      DB_PASSWORD:  <set to the key 'password' in secret 'db-creds'>  Optional: false\n",
    '      POD_IP:        (v1:status.podIP)\n',
    '      POD_NAME:     web-6c5d8f9b7d-abcde (v1:metadata.name)\n',
    '    Liveness:       tcp-socket :80 delay=0s timeout=1s period=10s #success=1 #failure=3\n',
    '    Readiness:      http-get http://:80/ delay=5s timeout=1s period=10s #success=1 #failure=3\n',
    '      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-x7k2p (ro)\n',
    'Conditions:\n  Type              Status\n  Initialized       True \n',
    '    TokenExpirationSeconds:  3607\n    ConfigMapName:           kube-root-ca.crt\n    Optional:                false\n    DownwardAPI:             true\n',
    'Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n',
    '  Normal  Pulled  119m  kubelet  spec.containers{nginx}: Container image "nginx:1.25" already present on machine\n',
  ]) {
    assert.ok(out.includes(line), `missing:\n${line}\n--- in ---\n${out}`);
  }
});

test('describe pod: CrashLoopBackOff with Last State, Pending with no node', () => {
  const p = webPod();
  p.status!.containerStatuses = [
    {
      name: 'nginx',
      image: 'nginx:1.25',
      imageID: 'docker.io/library/nginx@sha256:abc',
      containerID: 'containerd://1234',
      ready: false,
      started: false,
      restartCount: 5,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-01-15T11:58:00Z', finishedAt: '2026-01-15T11:58:01Z' } },
    },
  ];
  const out = describe(p, { now: NOW, events: [] })!;
  assert.ok(
    out.includes(
      '    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1\n      Started:      Thu, 15 Jan 2026 11:58:00 +0000\n      Finished:     Thu, 15 Jan 2026 11:58:01 +0000\n    Ready:          False\n    Restart Count:  5\n',
    ),
    out,
  );
  const pending = pod('pending');
  pending.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False' }], qosClass: 'BestEffort' };
  const out2 = describe(pending, { now: NOW, events: [] })!;
  assert.ok(out2.startsWith('Name:         pending\nNamespace:    default\nNode:         <none>\nLabels:       <none>\nAnnotations:  <none>\nStatus:       Pending\nIP:           \nIPs:          <none>\n'), out2);
});

test('describe service: NodePort with endpoints from EndpointSlices', () => {
  const svc = service('web', 'net', T0, {
    type: 'NodePort',
    clusterIP: '10.111.80.136',
    clusterIPs: ['10.111.80.136'],
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    ports: [{ port: 80, protocol: 'TCP', targetPort: 80, nodePort: 31777 }],
    selector: { app: 'web' },
    externalTrafficPolicy: 'Cluster',
    internalTrafficPolicy: 'Cluster',
  }, { labels: { app: 'web' } });
  const slice = endpointSlice('web-4bnv6', 'net', T0, ['10.244.62.167', '10.244.95.170'], [{ name: '', port: 80, protocol: 'TCP' }]);
  assert.equal(
    describe(svc, { now: NOW, events: [], endpointSlices: [slice] }),
    [
      'Name:                     web',
      'Namespace:                net',
      'Labels:                   app=web',
      'Annotations:              <none>',
      'Selector:                 app=web',
      'Type:                     NodePort',
      'IP Family Policy:         SingleStack',
      'IP Families:              IPv4',
      'IP:                       10.111.80.136',
      'IPs:                      10.111.80.136',
      'Port:                     <unset>  80/TCP',
      'TargetPort:               80/TCP',
      'NodePort:                 <unset>  31777/TCP',
      'Endpoints:                10.244.62.167:80,10.244.95.170:80',
      'Session Affinity:         None',
      'External Traffic Policy:  Cluster',
      'Internal Traffic Policy:  Cluster',
      'Events:                   <none>',
      '',
    ].join('\n'),
  );
});

test('describe secret, namespace; multiple objects joined', () => {
  const s = secret('db-creds', 'default', 'Opaque', { password: Buffer.from('s3cret').toString('base64'), user: Buffer.from('admin').toString('base64') });
  const out = describe(s, { now: NOW })!;
  assert.equal(out, 'Name:         db-creds\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n\nType:  Opaque\n\nData\n====\npassword:  6 bytes\nuser:      5 bytes\n');
  const ns = describe(namespace('dev'), { now: NOW })!;
  assert.equal(ns, 'Name:         dev\nLabels:       kubernetes.io/metadata.name=dev\nAnnotations:  <none>\nStatus:       Active\n\nNo resource quota.\n\nNo LimitRange resource.\n');
  assert.equal(joinDescribed(['a\n', 'b\n']), 'a\n\n\nb\n');
});

test('describe: long and multi-line annotations', () => {
  const cm = configMap('x', 'default', {});
  cm.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': '{}', note: 'line1\nline2', z: 'v' };
  const out = describe(cm, { now: NOW })!;
  assert.ok(out.includes('Annotations:  note:\n                line1\n                line2\n              z: v\n'), out);
});
