/**
 * The status strategies' rules (validation-status.ts) as pure functions: the container state
 * transitions of ValidateContainerStateTransition / ValidateInitContainerStateTransition under each
 * restart policy, resource claim statuses, ValidateReplicaSetStatus, and which kinds have rules.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { prepareStatusUpdate, statusUpdateErrors, validatePodStatusUpdate, validateReplicaSetStatus } from './validation-status.js';
import type { ContainerStatus, KObject, Pod } from './types.js';

const status = (name: string, state: 'running' | { exitCode: number }): ContainerStatus =>
  ({ name, image: 'x', imageID: '', ready: false, restartCount: 0, lastState: {}, state: state === 'running' ? { running: {} } : { terminated: state } }) as unknown as ContainerStatus;

function pod(restartPolicy: string, statuses: ContainerStatus[], init: ContainerStatus[] = [], initSpec: object[] = []): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { restartPolicy, containers: [{ name: 'c', image: 'x' }], initContainers: initSpec },
    status: { qosClass: 'BestEffort', containerStatuses: statuses, initContainerStatuses: init },
  } as unknown as Pod;
}

const FORBIDDEN = (p: string): { field: string; body: string } => ({ field: p, body: 'Forbidden: may not be transitioned to non-terminated state' });

describe('ValidatePodStatusUpdate container state transitions', () => {
  const cases: [string, string, { exitCode: number }, { field: string; body: string }[]][] = [
    ['Always restarts anything', 'Always', { exitCode: 0 }, []],
    ['Never keeps a success terminated', 'Never', { exitCode: 0 }, [FORBIDDEN('status.containerStatuses[0].state')]],
    ['Never keeps a failure terminated', 'Never', { exitCode: 1 }, [FORBIDDEN('status.containerStatuses[0].state')]],
    ['OnFailure keeps a success terminated', 'OnFailure', { exitCode: 0 }, [FORBIDDEN('status.containerStatuses[0].state')]],
    ['OnFailure restarts a failure', 'OnFailure', { exitCode: 2 }, []],
  ];
  for (const [name, policy, terminated, want] of cases) {
    it(name, () => {
      assert.deepEqual(validatePodStatusUpdate(pod(policy, [status('c', 'running')]), pod(policy, [status('c', terminated)])), want);
    });
  }

  it('a sidecar (restartPolicy Always init container) may restart; a plain init container may not', () => {
    const spec = [{ name: 'side', image: 'x', restartPolicy: 'Always' }, { name: 'init', image: 'x' }];
    const old = pod('Never', [], [status('side', { exitCode: 0 }), status('init', { exitCode: 0 })], spec);
    const next = pod('Never', [], [status('side', 'running'), status('init', 'running')], spec);
    assert.deepEqual(validatePodStatusUpdate(next, old), [FORBIDDEN('status.initContainerStatuses[1].state')]);
  });

  it('resource claim statuses name an entry of spec.resourceClaims, once', () => {
    const p = pod('Always', []);
    (p.spec as unknown as Record<string, unknown>)['resourceClaims'] = [{ name: 'gpu' }];
    (p.status as unknown as Record<string, unknown>)['resourceClaimStatuses'] = [{ name: 'gpu' }, { name: 'gpu' }, { name: 'tpu' }];
    assert.deepEqual(validatePodStatusUpdate(p, pod('Always', [])).map((e) => `${e.field}: ${e.body}`), [
      'status.resourceClaimStatuses[1].name: Duplicate value: "gpu"',
      'status.resourceClaimStatuses[2].name: Invalid value: "tpu": must match the name of an entry in `spec.resourceClaims`',
    ]);
  });
});

describe('status strategies', () => {
  it('ValidateReplicaSetStatus', () => {
    assert.deepEqual(validateReplicaSetStatus({ replicas: 1, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1 }).map((e) => `${e.field}: ${e.body}`), [
      'status.fullyLabeledReplicas: Invalid value: 2: cannot be greater than status.replicas',
    ]);
  });

  it('kinds without status rules here fall back to whole-object validation', () => {
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' } } as KObject;
    assert.equal(statusUpdateErrors(job, job), undefined);
  });

  it('a pod status without qosClass keeps the stored one (podStatusStrategy.PrepareForUpdate)', () => {
    const next = pod('Always', []);
    delete next.status!.qosClass;
    prepareStatusUpdate(next, pod('Always', []));
    assert.equal(next.status?.qosClass, 'BestEffort');
  });
});
