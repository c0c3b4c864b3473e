import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDefaults } from './defaults.js';
import type { Container, Deployment, KObject, Pod } from './types.js';

function pod(resources: Container['resources']): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }] } };
}

// SetDefaults_Pod (pkg/apis/core/v1/defaults.go): requests default to limits, per resource
const requestCases: { name: string; resources: Container['resources']; want: Container['resources'] }[] = [
  { name: 'limits only', resources: { limits: { memory: '128Mi', cpu: '500m' } }, want: { limits: { memory: '128Mi', cpu: '500m' }, requests: { cpu: '500m', memory: '128Mi' } } },
  { name: 'a request is kept, the missing one copied', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m' } }, want: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m', memory: '1Gi' } } },
  { name: 'requests only stay as they are', resources: { requests: { cpu: '100m' } }, want: { requests: { cpu: '100m' } } },
  { name: 'no resources', resources: undefined, want: {} },
];

for (const tc of requestCases) {
  test(`pod requests default to limits: ${tc.name}`, () => {
    const p = pod(tc.resources);
    applyDefaults(p);
    assert.deepEqual(p.spec.containers[0]!.resources, tc.want);
  });
}

test('init containers get requests from limits too', () => {
  const p = pod(undefined);
  p.spec.initContainers = [{ name: 'i', image: 'busybox', resources: { limits: { cpu: '200m' } } }];
  applyDefaults(p);
  assert.deepEqual(p.spec.initContainers[0]!.resources, { limits: { cpu: '200m' }, requests: { cpu: '200m' } });
});

test('pod templates keep limits without requests (only Pods are defaulted so)', () => {
  const d: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'default' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '1' } } }] } } },
  };
  applyDefaults(d);
  assert.deepEqual(d.spec.template.spec.containers[0]!.resources, { limits: { cpu: '1' } });
});

// the Priority admission plugin: a pod's priority is its class's value
const priorityCases: { name: string; className?: string; want: number | undefined }[] = [
  { name: 'no class', want: 0 },
  { name: 'system-node-critical', className: 'system-node-critical', want: 2000001000 },
  { name: 'system-cluster-critical', className: 'system-cluster-critical', want: 2000000000 },
  { name: 'a user class', className: 'high', want: 1000 },
  { name: 'an unknown class is left to the API server', className: 'nope', want: undefined },
];

for (const tc of priorityCases) {
  test(`pod priority: ${tc.name}`, () => {
    const p = pod(undefined);
    if (tc.className) p.spec.priorityClassName = tc.className;
    applyDefaults(p, (n) => (n === 'high' ? 1000 : undefined));
    assert.equal(p.spec.priority, tc.want);
  });
}

test('Secret: stringData is merged into data (base64) and never stored', () => {
  const s = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'eA==', b: 'eQ==' }, stringData: { b: 'über', c: 'z' } } as unknown as KObject;
  applyDefaults(s);
  assert.deepEqual(s, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', data: { a: 'eA==', b: Buffer.from('über').toString('base64'), c: 'eg==' } });
});

test('Pod: a fieldRef (env, downward API volume, projection) defaults apiVersion to v1 (SetDefaults_ObjectFieldSelector)', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: {
      containers: [{ name: 'c', image: 'nginx', env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'K', valueFrom: { fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } } }] }],
      volumes: [
        { name: 'd', downwardAPI: { items: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels' } }] } },
        { name: 'p', projected: { sources: [{ downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } }] } },
      ],
    },
  } as unknown as Pod;
  applyDefaults(pod);
  const env = pod.spec.containers[0]!.env!;
  assert.deepEqual(env[0]!.valueFrom, { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } });
  assert.deepEqual(env[1]!.valueFrom, { fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } });
  const vols = pod.spec.volumes as unknown as { downwardAPI?: { items: { fieldRef: unknown }[] }; projected?: { sources: { downwardAPI: { items: { fieldRef: unknown }[] } }[] } }[];
  assert.deepEqual(vols[0]!.downwardAPI!.items[0]!.fieldRef, { apiVersion: 'v1', fieldPath: 'metadata.labels' });
  assert.deepEqual(vols[1]!.projected!.sources[0]!.downwardAPI.items[0]!.fieldRef, { apiVersion: 'v1', fieldPath: 'metadata.name' });
});
