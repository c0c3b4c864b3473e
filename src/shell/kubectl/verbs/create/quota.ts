/**
 * `kubectl create quota NAME [--hard=key1=value1,key2=value2] [--scopes=Scope1,Scope2]`
 * (k8s.io/kubectl pkg/cmd/create/create_quota.go): `--hard` is split on commas, each pair must be
 * exactly `resource=quantity` (the quantity as resource.ParseQuantity prints it back); `--scopes`
 * is split on commas and an empty scope is rejected. Unknown scope names pass client-side (the
 * server validates them).
 */
import type { KObject } from '../../../../sim/api/types.js';
import { canonicalQuantity } from '../../../../sim/api/quantity.js';
import { KubectlError } from '../../errors.js';
import { str } from '../../flags.js';
import { meta, type Generator } from './types.js';

/** populateResourceListV1: `a=b,c=d` → {a: b, c: d}; anything but exactly one `=` is an error. */
function hardLimits(spec: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of spec.split(',')) {
    const parts = pair.split('=');
    if (parts.length !== 2) throw new KubectlError(`Invalid argument syntax ${pair}, expected <resource>=<value>`);
    let q: string;
    try {
      q = canonicalQuantity(parts[1]!);
    } catch (e) {
      throw new KubectlError((e as Error).message);
    }
    out[parts[0]!] = q;
  }
  return out;
}

function scopes(spec: string): string[] {
  return spec.split(',').map((s) => {
    if (s === '') throw new KubectlError('invalid resource quota scope ""');
    return s;
  });
}

export const quotaGenerator: Generator = {
  name: 'quota',
  aliases: ['resourcequota'],
  path: 'create quota',
  errorPrefix: 'failed to create quota: ',
  build(ctx) {
    const hard = str(ctx.p.flags, 'hard') ?? '';
    const scope = str(ctx.p.flags, 'scopes') ?? '';
    const spec: Record<string, unknown> = {};
    if (hard !== '') spec.hard = hardLimits(hard);
    if (scope !== '') spec.scopes = scopes(scope);
    return { kind: 'ResourceQuota', apiVersion: 'v1', metadata: meta(ctx), spec, status: {} } as KObject;
  },
};
