/**
 * `kubectl create poddisruptionbudget NAME --selector=SELECTOR --min-available=N|--max-unavailable=N`
 * (k8s.io/kubectl pkg/cmd/create/create_pdb.go). Validate wants a selector and exactly one of the
 * two budgets, each a non-negative integer or percentage; the selector goes through
 * metav1.ParseToLabelSelector (equality → matchLabels, the rest → matchExpressions, `!=` refused).
 * The budget is an IntOrString (intstr.Parse: digits become an int).
 */
import type { KObject, LabelSelector } from '../../../../sim/api/types.js';
import { parseLabelSelector, SelectorParseError } from '../../../../sim/api/selectors.js';
import { KubectlError } from '../../errors.js';
import { str } from '../../flags.js';
import { meta, type Generator } from './types.js';

const BUDGET = /^([0-9]+|[0-9]+%)$/;

const OPERATOR = { in: 'In', notin: 'NotIn', exists: 'Exists', '!': 'DoesNotExist' } as const;

/** metav1.ParseToLabelSelector over labels.Parse (requirements sorted by key, values as a sorted set). */
export function toLabelSelector(expr: string): LabelSelector {
  let reqs;
  try {
    reqs = parseLabelSelector(expr);
  } catch (e) {
    if (e instanceof SelectorParseError) throw new KubectlError(e.message);
    throw e;
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const matchLabels: Record<string, string> = {};
  const matchExpressions: { key: string; operator: string; values?: string[] }[] = [];
  for (const r of reqs) {
    if (r.op === '=') matchLabels[r.key] = r.values[0]!;
    else if (r.op === '!=') throw new KubectlError('"!=" is not a valid label selector operator');
    else if (r.op === 'gt' || r.op === 'lt') throw new KubectlError(`"${r.op}" isn't supported in label selectors`);
    else matchExpressions.push({ key: r.key, operator: OPERATOR[r.op], ...(r.values.length ? { values: [...new Set(r.values)].sort() } : {}) });
  }
  return {
    ...(Object.keys(matchLabels).length ? { matchLabels } : {}),
    ...(matchExpressions.length ? { matchExpressions } : {}),
  } as LabelSelector;
}

const intOrString = (v: string): number | string => (/^[0-9]+$/.test(v) ? Number(v) : v);

export const podDisruptionBudgetGenerator: Generator = {
  name: 'poddisruptionbudget',
  aliases: ['pdb'],
  path: 'create poddisruptionbudget',
  errorPrefix: 'failed to create poddisruptionbudgets: ',
  build(ctx) {
    const selector = str(ctx.p.flags, 'selector') ?? '';
    const min = str(ctx.p.flags, 'min-available') ?? '';
    const max = str(ctx.p.flags, 'max-unavailable') ?? '';
    if (selector === '') throw new KubectlError('a selector must be specified');
    if (min === '' && max === '') throw new KubectlError('one of min-available or max-unavailable must be specified');
    if (min !== '' && max !== '') throw new KubectlError('min-available and max-unavailable cannot be both specified');
    if (min !== '' && !BUDGET.test(min)) throw new KubectlError('invalid format specified for min-available');
    if (max !== '' && !BUDGET.test(max)) throw new KubectlError('invalid format specified for max-unavailable');
    return {
      kind: 'PodDisruptionBudget',
      apiVersion: 'policy/v1',
      metadata: meta(ctx),
      spec: {
        ...(min !== '' ? { minAvailable: intOrString(min) } : {}),
        selector: toLabelSelector(selector),
        ...(max !== '' ? { maxUnavailable: intOrString(max) } : {}),
      },
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    } as KObject;
  },
};
