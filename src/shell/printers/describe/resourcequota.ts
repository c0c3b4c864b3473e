/**
 * ResourceQuota and LimitRange: describe.go describeQuota (with the scope help texts) and
 * describeLimitRange/describeLimitRangeSpec. Upstream walks a LimitRange item's resources in Go
 * map order (random); they are printed here sorted by name.
 */
import type { KObject } from '../../../sim/api/types.js';
import { formatQuantity, parseQuantity } from '../../../sim/api/quantity.js';
import { arr, rec, str } from '../columns/cells.js';
import { LEVEL_0, tabbedString, type DescribeContext, type PrefixWriter } from './writer.js';

const SCOPE_HELP: Record<string, string> = {
  Terminating: 'Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.',
  NotTerminating: 'Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.',
  BestEffort: 'Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.',
  NotBestEffort: 'Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.',
};

/**
 * describeQuota prints the used quantity in the hard one's format when they differ
 * (`resource.NewQuantity(used.Value(), hard.Format)`): 0 used of 1Gi prints `0`, 64Mi of 1G
 * prints `67108864`.
 */
export function usedInHardFormat(used: string | undefined, hard: string): string {
  try {
    const u = parseQuantity(used ?? '0');
    const h = parseQuantity(hard);
    if (u.format === h.format) return formatQuantity(u);
    const whole = u.nano >= 0n ? (u.nano + 999_999_999n) / 1_000_000_000n : u.nano / 1_000_000_000n;
    return formatQuantity({ nano: whole * 1_000_000_000n, format: h.format });
  } catch {
    return used ?? '0';
  }
}

export function describeResourceQuota(q: KObject, _ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${q.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${q.metadata.namespace ?? ''}\n`);
    const scopes = (arr(q, 'spec', 'scopes') as string[]).slice().sort();
    if (scopes.length > 0) {
      w.write(LEVEL_0, `Scopes:\t${scopes.join(', ')}\n`);
      for (const s of scopes) if (SCOPE_HELP[s]) w.write(LEVEL_0, ` * ${SCOPE_HELP[s]}\n`);
    }
    w.write(LEVEL_0, 'Resource\tUsed\tHard\n');
    w.write(LEVEL_0, '--------\t----\t----\n');
    const hard = rec(q, 'status', 'hard');
    const used = rec(q, 'status', 'used');
    for (const r of Object.keys(hard).sort()) {
      const h = String(hard[r]);
      w.write(LEVEL_0, `${r}\t${usedInHardFormat(typeof used[r] === 'string' ? used[r] : undefined, h)}\t${h}\n`);
    }
  });
}

/**
 * describeLimitRangeSpec (k8s.io/kubectl pkg/describe/describe.go v1.35): one row per (item,
 * resource), `-` where a field does not name it. kubectl ranges over a Go map of an item's
 * resources, so their order varies from run to run; here they are sorted.
 */
export function describeLimitRangeSpec(lr: KObject, prefix: string, w: PrefixWriter): void {
  for (const item of arr(lr, 'spec', 'limits')) {
    const names = new Set<string>();
    for (const f of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) for (const k of Object.keys(rec(item, f))) names.add(k);
    const get = (f: string, k: string): string => {
      const v = rec(item, f)[k];
      return typeof v === 'string' ? v : '-';
    };
    for (const k of [...names].sort()) {
      w.write(LEVEL_0, `${prefix}${str(item, 'type')}\t${k}\t${get('min', k)}\t${get('max', k)}\t${get('defaultRequest', k)}\t${get('default', k)}\t${get('maxLimitRequestRatio', k)}\n`);
    }
  }
}

export function describeLimitRange(lr: KObject, _ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${lr.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${lr.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, 'Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
    w.write(LEVEL_0, '----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
    describeLimitRangeSpec(lr, '', w);
  });
}
