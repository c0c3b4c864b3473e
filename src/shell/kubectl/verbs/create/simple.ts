/**
 * The small generators: `create namespace` (create_namespace.go), `create serviceaccount`
 * (create_serviceaccount.go), `create priorityclass` (create_priorityclass.go).
 */
import type { KObject } from '../../../../sim/api/types.js';
import { KubectlError } from '../../errors.js';
import { bool, int, str } from '../../flags.js';
import { meta, type Generator } from './types.js';

export const namespaceGenerator: Generator = {
  name: 'namespace',
  aliases: ['ns'],
  path: 'create namespace',
  build(ctx) {
    return { kind: 'Namespace', apiVersion: 'v1', metadata: { name: ctx.name }, spec: {}, status: {} } as KObject;
  },
};

export const serviceAccountGenerator: Generator = {
  name: 'serviceaccount',
  aliases: ['sa'],
  path: 'create serviceaccount',
  errorPrefix: 'failed to create serviceaccount: ',
  build(ctx) {
    return { kind: 'ServiceAccount', apiVersion: 'v1', metadata: meta(ctx) } as KObject;
  },
};

export const priorityClassGenerator: Generator = {
  name: 'priorityclass',
  aliases: ['pc'],
  path: 'create priorityclass',
  errorPrefix: 'failed to create priorityclass: ',
  build(ctx) {
    const policy = str(ctx.p.flags, 'preemption-policy')!;
    if (policy !== 'PreemptLowerPriority' && policy !== 'Never') throw new KubectlError(`invalid preemption policy: ${policy}`);
    const description = str(ctx.p.flags, 'description') ?? '';
    return {
      kind: 'PriorityClass',
      apiVersion: 'scheduling.k8s.io/v1',
      metadata: { name: ctx.name },
      value: int(ctx.p.flags, 'value') ?? 0,
      ...(bool(ctx.p.flags, 'global-default') ? { globalDefault: true } : {}),
      ...(description ? { description } : {}),
      preemptionPolicy: policy,
    } as KObject;
  },
};
