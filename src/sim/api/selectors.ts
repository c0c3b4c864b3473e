/**
 * Label and field selectors, as k8s.io/apimachinery pkg/labels and pkg/fields parse and match them.
 */
import type { KObject, LabelSelector, Labels } from './types.js';

export type Requirement =
  | { key: string; op: '=' | '!='; values: [string] }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | '!'; values: [] };

export class SelectorParseError extends Error {}

/** Parse `app=web,tier!=db,env in (a,b),!legacy,release`. Throws SelectorParseError. */
export function parseLabelSelector(s: string): Requirement[] {
  const reqs: Requirement[] = [];
  const src = s.trim();
  if (src === '') return reqs;
  let i = 0;
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (; i < src.length; i++) {
    const c = src[i];
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  for (const raw of parts) {
    const p = raw.trim();
    let m: RegExpMatchArray | null;
    if ((m = p.match(/^!\s*([A-Za-z0-9._/-]+)$/))) reqs.push({ key: m[1]!, op: '!', values: [] });
    else if ((m = p.match(/^([A-Za-z0-9._/-]+)\s+(in|notin)\s+\(([^)]*)\)$/)))
      reqs.push({ key: m[1]!, op: m[2] as 'in' | 'notin', values: m[3]!.split(',').map((v) => v.trim()).filter((v) => v !== '') });
    else if ((m = p.match(/^([A-Za-z0-9._/-]+)\s*(==|=|!=)\s*([A-Za-z0-9._-]*)$/)))
      reqs.push({ key: m[1]!, op: m[2] === '!=' ? '!=' : '=', values: [m[3]!] });
    else if ((m = p.match(/^([A-Za-z0-9._/-]+)$/))) reqs.push({ key: m[1]!, op: 'exists', values: [] });
    else throw new SelectorParseError(`unable to parse requirement: ${p === '' ? 'found \'\', expected: identifier' : `found '${p}'`}`);
  }
  return reqs;
}

export function matchRequirements(reqs: Requirement[], labels: Labels | undefined): boolean {
  const l = labels ?? {};
  return reqs.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case '=':
        return has && v === r.values[0];
      case '!=':
        return !has || v !== r.values[0];
      case 'in':
        return has && r.values.includes(v ?? '');
      case 'notin':
        return !has || !r.values.includes(v ?? '');
      case 'exists':
        return has;
      case '!':
        return !has;
    }
    return false;
  });
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
    if (!m) throw new SelectorParseError(`invalid selector: '${p}'; can't understand '${p}'`);
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
