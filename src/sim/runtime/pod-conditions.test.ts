/**
 * pod-conditions.ts against kubernetes v1.35 pkg/kubelet/status/generate.go
 * GeneratePodReadyCondition (the readiness gate messages) and status_manager.go mergePodStatus
 * (the conditions the kubelet does not own first, in their order, then its own).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PodCondition } from '../api/types.js';
import { conditionByKubelet, readinessGatesMessage, withForeignConditions } from './pod-conditions.js';

const pod = (...gates: string[]): Pod =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [], readinessGates: gates.map((conditionType) => ({ conditionType })) } }) as unknown as Pod;
const c = (type: string, status: PodCondition['status']): PodCondition => ({ type, status });

describe('readiness gates', () => {
  it('no gates: nothing holds Ready', () => {
    assert.equal(readinessGatesMessage(pod(), []), undefined);
  });
  it('a missing condition, then one not True, in spec order, joined with ", "', () => {
    assert.equal(
      readinessGatesMessage(pod('a.io/x', 'b.io/y', 'c.io/z'), [c('b.io/y', 'Unknown'), c('c.io/z', 'True')]),
      'corresponding condition of pod readiness gate "a.io/x" does not exist., the status of pod readiness gate "b.io/y" is not "True", but Unknown',
    );
  });
  it('every gate True: Ready may be True', () => {
    assert.equal(readinessGatesMessage(pod('a.io/x'), [c('a.io/x', 'True')]), undefined);
  });
  it('a malformed spec.readinessGates is no gate', () => {
    const p = pod();
    p.spec.readinessGates = 'x';
    assert.equal(readinessGatesMessage(p, []), undefined);
  });
});

describe('conditions the kubelet does not own', () => {
  it('PodConditionByKubelet', () => {
    for (const t of ['PodScheduled', 'Ready', 'Initialized', 'ContainersReady', 'PodReadyToStartContainers', 'PodResizePending', 'PodResizeInProgress']) assert.ok(conditionByKubelet(t), t);
    for (const t of ['DisruptionTarget', 'example.com/lb-ready']) assert.ok(!conditionByKubelet(t), t);
  });
  it('kept first, in their order; the kubelet replaces its own', () => {
    const old = [c('Ready', 'False'), c('x.io/a', 'True'), c('PodScheduled', 'True'), c('DisruptionTarget', 'True')];
    const mine = [c('Initialized', 'True'), c('Ready', 'True'), c('PodScheduled', 'True')];
    assert.deepEqual(withForeignConditions(old, mine), [c('x.io/a', 'True'), c('DisruptionTarget', 'True'), ...mine]);
  });
});
