import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { daemonSetStrategyErrors, deploymentStrategyErrors } from './validation-rollout.js';

const text = (errs: { field: string; body: string }[]): string[] => errs.map((e) => `${e.field}: ${e.body}`);

describe('Deployment strategy (validation.go ValidateDeploymentStrategy)', () => {
  const cases: { name: string; strategy: Record<string, unknown>; want: string[] }[] = [
    { name: 'defaults are valid', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } }, want: [] },
    { name: 'Recreate alone is valid', strategy: { type: 'Recreate' }, want: [] },
    {
      name: 'Recreate keeping the defaulted rollingUpdate (a merge patch of type only)',
      strategy: { type: 'Recreate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      want: ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
    },
    { name: 'both zero', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } }, want: ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0'] },
    { name: 'zero percent counts as zero', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '0%', maxUnavailable: 0 } }, want: ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0'] },
    {
      name: 'a string that is not a percent',
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '2', maxUnavailable: '25%' } },
      want: ["spec.strategy.rollingUpdate.maxSurge: Invalid value: \"2\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"],
    },
    { name: 'negative', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: -1, maxUnavailable: 1 } }, want: ['spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0'] },
    { name: 'over 100%', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '150%' } }, want: ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%'] },
    { name: 'unknown type', strategy: { type: 'Canary' }, want: ['spec.strategy: Unsupported value: {"type":"Canary"}: supported values: "Recreate", "RollingUpdate"'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(text(deploymentStrategyErrors(c.strategy)), c.want));
});

describe('DaemonSet update strategy (validation.go ValidateDaemonSetUpdateStrategy)', () => {
  const cases: { name: string; strategy: Record<string, unknown>; want: string[] }[] = [
    { name: 'defaults are valid', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }, want: [] },
    { name: 'OnDelete', strategy: { type: 'OnDelete' }, want: [] },
    { name: 'surge instead of unavailable', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '10%', maxUnavailable: 0 } }, want: [] },
    { name: 'surge added without zeroing unavailable', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }, want: ['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero'] },
    { name: 'both zero', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } }, want: ['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'] },
    { name: 'unknown type', strategy: { type: 'Always' }, want: ['spec.updateStrategy: Unsupported value: {"type":"Always"}: supported values: "RollingUpdate", "OnDelete"'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(text(daemonSetStrategyErrors(c.strategy)), c.want));
});
