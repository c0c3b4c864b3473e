/**
 * Label and field selectors, as k8s.io/apimachinery pkg/labels and pkg/fields parse and match them.
 */
import type { KObject, LabelSelector, Labels } from './types.js';
import { parseSelector, selectorMatches, SelectorError, type Op as LabelOp } from './label-selector.js';

/** A parsed label requirement; `==` is read as `=` (the same selection.Operator to every caller here). */
export type Requirement = { key: string; op: Exclude<LabelOp, '=='>; values: string[] };

/** labels.Parse's errors (label-selector.ts), as the callers here know them. */
export { SelectorError as SelectorParseError };

/** labels.Parse of `app=web,tier!=db,env in (a,b),!legacy,release,replicas>1`: sorted by key. Throws SelectorParseError. */
export function parseLabelSelector(s: string): Requirement[] {
  return parseSelector(s).map((r) => ({ ...r, op: r.op === '==' ? '=' : r.op }));
}

/** Requirement.Matches for each: every requirement must hold. */
export function matchRequirements(reqs: readonly Requirement[], labels: Labels | undefined): boolean {
  return selectorMatches(reqs, labels ?? {});
}

/** A Service-style selector map: every pair must match. An empty map matches nothing here (callers decide). */
export function matchMap(selector: Labels, labels: Labels | undefined): boolean {
  const l = labels ?? {};
  return Object.entries(selector).every(([k, v]) => l[k] === v);
}

/** metav1.LabelSelector: matchLabels AND matchExpressions; an empty selector matches everything. */
export function matchLabelSelector(sel: LabelSelector | undefined, labels: Labels | undefined): boolean {
  if (!sel) return false;
  const l = labels ?? {};
  if (sel.matchLabels && !matchMap(sel.matchLabels, l)) return false;
  for (const e of sel.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(l, e.key);
    const v = l[e.key] ?? '';
    const vals = e.values ?? [];
    if (e.operator === 'In' && !(has && vals.includes(v))) return false;
    if (e.operator === 'NotIn' && has && vals.includes(v)) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** `labels.FormatLabels`: `k=v` sorted by key, `<none>` when empty. */
export function formatLabels(labels: Labels | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels![k]}`).join(',');
}

/** `metav1.FormatLabelSelector`. */
export function formatLabelSelector(sel: LabelSelector | undefined): string {
  if (!sel) return '<none>';
  const parts: string[] = [];
  for (const k of Object.keys(sel.matchLabels ?? {}).sort()) parts.push(`${k}=${sel.matchLabels![k]}`);
  for (const e of sel.matchExpressions ?? []) {
    const op = { In: 'in', NotIn: 'notin', Exists: '', DoesNotExist: '!' }[e.operator];
    if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
    else parts.push(`${e.key} ${op} (${(e.values ?? []).join(',')})`);
  }
  return parts.length === 0 ? '<none>' : parts.join(',');
}

export interface FieldRequirement {
  path: string;
  op: '=' | '!=';
  value: string;
}

/** Parse `--field-selector status.phase=Running,metadata.name!=x`. */
export function parseFieldSelector(s: string): FieldRequirement[] {
  if (s.trim() === '') return [];
  return s.split(',').map((p) => {
    const m = p.trim().match(/^([A-Za-z0-9._]+)\s*(==|=|!=)\s*(.*)$/);
    if (!m) throw new SelectorError(`invalid selector: '${p}'; can't understand '${p}'`);
    return { path: m[1]!, op: m[2] === '!=' ? '!=' : '=', value: m[3]! };
  });
}

export function fieldValue(obj: KObject, path: string): string {
  let cur: unknown = obj;
  for (const seg of path.split('.')) {
    if (cur && typeof cur === 'object') cur = (cur as Record<string, unknown>)[seg];
    else return '';
  }
  return cur === undefined || cur === null ? '' : String(cur);
}

export function matchFields(reqs: FieldRequirement[], obj: KObject): boolean {
  return reqs.every((r) => (fieldValue(obj, r.path) === r.value) === (r.op === '='));
}

/** Field selectors each kind's registry strategy accepts (each pkg/registry/<group>/<kind>/strategy.go GetAttrs, AddFieldLabelConversionFunc). */
export const FIELD_LABELS: Readonly<Record<string, readonly string[]>> = {
  Pod: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName'],
  Node: ['spec.unschedulable'],
  Event: [
    'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion',
    'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type',
  ],
  Secret: ['type'],
  Namespace: ['status.phase'],
  ReplicaSet: ['status.replicas'],
  ReplicationController: ['status.replicas'],
  Job: ['status.successful'],
  Service: ['spec.clusterIP', 'spec.type'],
  CertificateSigningRequest: ['spec.signerName'],
};
