/**
 * `endpoints`: how many ready endpoints a Service has, counted the way kube-proxy does from its
 * EndpointSlices (label kubernetes.io/service-name; an endpoint with `ready` unset counts as
 * ready, per discovery.k8s.io/v1 EndpointConditions). This is the state behind `kubectl get endpoints`.
 */
import { z } from 'zod/v4';
import { BASE_FIELDS, defineCheck } from './types.js';
import type { EndpointSlice, Service } from '../../sim/api/types.js';

export const endpointsCheck = defineCheck({
  kind: 'endpoints',
  schema: z
    .strictObject({
      ...BASE_FIELDS,
      kind: z.literal('endpoints'),
      service: z.strictObject({ name: z.string(), namespace: z.string().default('default') }),
      /** Exactly this many ready endpoints. */
      ready: z.number().int().min(0).optional(),
      /** At least this many ready endpoints. */
      minReady: z.number().int().min(0).optional(),
    })
    .refine((c) => (c.ready === undefined) !== (c.minReady === undefined), { message: 'give exactly one of ready, minReady' }),
  evaluate(spec, ctx) {
    const { name, namespace } = spec.service;
    const want = spec.ready !== undefined ? `${spec.ready} ready endpoint(s)` : `at least ${spec.minReady} ready endpoint(s)`;
    const svc = ctx.cluster.store.get<Service>('Service', namespace, name);
    if (!svc)
      return { ok: false, expected: `service ${namespace}/${name} with ${want}`, actual: 'the service does not exist', problem: { code: 'missing', what: `Service ${namespace}/${name}` }, evidence: [] };
    const slices = ctx.cluster.store
      .list<EndpointSlice>('EndpointSlice', namespace)
      .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === name);
    const ready = new Set<string>();
    const notReady = new Set<string>();
    for (const s of slices)
      for (const ep of s.endpoints ?? [])
        for (const a of ep.addresses) (ep.conditions?.ready === false ? notReady : ready).add(a);
    const n = ready.size;
    const ok = spec.ready !== undefined ? n === spec.ready : n >= (spec.minReady ?? 0);
    const evidence = [
      `EndpointSlices for ${namespace}/${name}: ${slices.map((s) => s.metadata.name).join(', ') || '(none)'}`,
      `ready: ${[...ready].sort().join(', ') || '(none)'}`,
      ...(notReady.size > 0 ? [`not ready: ${[...notReady].sort().join(', ')}`] : []),
    ];
    return { ok, expected: want, actual: `${n} ready endpoint(s)`, problem: { code: 'endpoints', service: `${namespace}/${name}`, ready: n }, evidence };
  },
});
