/** kstatus as `helm --wait` reads it (kstatus.ts), rule by rule from cli-utils' core.go and generic.go. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KObject } from '../../sim/api/types.js';
import { computeStatus, notReadyText } from './kstatus.js';

const obj = (kind: string, spec: unknown, status: unknown, meta: Record<string, unknown> = {}): KObject => ({ apiVersion: 'v1', kind, metadata: { name: 'x', namespace: 'ns', ...meta }, spec, status }) as unknown as KObject;
const NOW = Date.parse('2026-12-02T10:00:00Z');

test('computeStatus: generic rules first, then the kind, then Ready, else current', () => {
  const cases: [KObject | undefined, string, string][] = [
    [undefined, 'NotFound', 'Resource not found'],
    [obj('ConfigMap', {}, {}, { deletionTimestamp: '2026-12-02T10:00:00Z' }), 'Terminating', 'Resource scheduled for deletion'],
    [obj('Deployment', {}, { observedGeneration: 1 }, { generation: 2 }), 'InProgress', 'Deployment generation is 2, but latest observed generation is 1'],
    [obj('Deployment', { replicas: 2 }, { replicas: 1 }), 'InProgress', 'Replicas: 1/2'],
    [obj('Deployment', { replicas: 1 }, { replicas: 1, updatedReplicas: 1, availableReplicas: 0 }), 'InProgress', 'Available: 0/1'],
    [obj('Deployment', { replicas: 1 }, { replicas: 2, updatedReplicas: 1 }), 'InProgress', 'Pending termination: 1'],
    [obj('Deployment', { replicas: 1, progressDeadlineSeconds: 600 }, { replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1, conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' }] }), 'InProgress', 'ReplicaSet not Available'],
    [obj('Deployment', { replicas: 1, progressDeadlineSeconds: 600 }, { replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1, conditions: [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }, { type: 'Available', status: 'True' }] }), 'Current', 'Deployment is available. Replicas: 1'],
    [obj('Deployment', {}, { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] }), 'Failed', 'Progress deadline exceeded'],
    [obj('Pod', {}, { phase: 'Pending' }), 'InProgress', 'Pod is in the Pending phase'],
    [obj('Pod', {}, { phase: 'Running', containerStatuses: [{ name: 'a', state: { waiting: { reason: 'CrashLoopBackOff' } } }] }), 'Failed', 'Containers in CrashLoop state: a'],
    [obj('Pod', {}, { phase: 'Failed' }), 'Current', 'Pod has completed, but not successfully'],
    [obj('Job', {}, {}), 'InProgress', 'Job not started'],
    [obj('Job', {}, { startTime: 't', active: 1 }), 'Current', 'Job in progress. success:0, active: 1, failed: 0'],
    [obj('Service', { type: 'LoadBalancer' }, {}), 'InProgress', 'ClusterIP not set. Service type: LoadBalancer'],
    [obj('Service', { clusterIP: '10.96.0.9' }, {}), 'Current', 'Service is ready'],
    [obj('PersistentVolumeClaim', {}, { phase: 'Pending' }), 'InProgress', 'PVC is not Bound. phase: Pending'],
    [obj('Secret', {}, undefined), 'Current', 'Resource is always ready'],
    [obj('Widget', {}, { conditions: [{ type: 'Ready', status: 'False', message: 'warming up' }] }), 'InProgress', 'warming up'],
    [obj('Widget', {}, {}), 'Current', 'Resource is current'],
  ];
  for (const [o, status, message] of cases) assert.deepEqual(computeStatus(o, NOW), { status, message }, `${o?.kind} ${JSON.stringify(o?.status)}`);
  assert.equal(notReadyText(obj('Deployment', {}, {}), { status: 'InProgress', message: 'Available: 0/1' }), 'resource Deployment/ns/x not ready. status: InProgress, message: Available: 0/1');
});
