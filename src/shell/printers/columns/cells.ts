/**
 * Small cell helpers shared by the per-kind printers (printers.go helpers: layoutContainerCells,
 * listWithMoreString, label selector formatting) plus typed readers for kinds whose interfaces are
 * not in sim/api/types.ts (objects are plain JSON: read fields as unknown and narrow).
 */
import type { Container, LabelSelector, Labels } from '../../../sim/api/types.js';

export const NAME: { name: string; nameFormat: true } = { name: 'Name', nameFormat: true };
export const AGE = { name: 'Age' } as const;

/** Walk plain JSON by keys; undefined when a step is missing or not an object. */
export function at(obj: unknown, ...path: (string | number)[]): unknown {
  let cur: unknown = obj;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[k];
  }
  return cur;
}

export function str(obj: unknown, ...path: (string | number)[]): string {
  const v = at(obj, ...path);
  return typeof v === 'string' ? v : '';
}

export function optStr(obj: unknown, ...path: (string | number)[]): string | undefined {
  const v = at(obj, ...path);
  return typeof v === 'string' ? v : undefined;
}

export function num(obj: unknown, ...path: (string | number)[]): number {
  const v = at(obj, ...path);
  return typeof v === 'number' ? v : 0;
}

export function optNum(obj: unknown, ...path: (string | number)[]): number | undefined {
  const v = at(obj, ...path);
  return typeof v === 'number' ? v : undefined;
}

export function arr(obj: unknown, ...path: (string | number)[]): unknown[] {
  const v = at(obj, ...path);
  return Array.isArray(v) ? v : [];
}

export function rec(obj: unknown, ...path: (string | number)[]): Record<string, unknown> {
  const v = at(obj, ...path);
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function strMap(obj: unknown, ...path: (string | number)[]): Labels {
  const out: Labels = {};
  for (const [k, v] of Object.entries(rec(obj, ...path))) if (typeof v === 'string') out[k] = v;
  return out;
}

/** printers.go layoutContainerCells: names and images joined by `,`. */
export function containerCells(containers: readonly Container[] | undefined): [string, string] {
  const cs = containers ?? [];
  return [cs.map((c) => c.name).join(','), cs.map((c) => c.image).join(',')];
}

/** printers.go listWithMoreString. */
export function listWithMore(list: string[], more: boolean, count: number, max: number): string {
  const ret = list.join(',');
  if (more) return `${ret} + ${count - max} more...`;
  return ret === '' ? '<unset>' : ret;
}

/**
 * metav1.LabelSelectorAsSelector(sel).String(): requirements sorted by key, `in`/`notin` values
 * sorted, `''` for an empty selector (labels.Everything()); nil selector → labels.Nothing() → `''`.
 */
export function selectorString(sel: LabelSelector | undefined): string {
  if (!sel) return '';
  const reqs: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) reqs.push({ key: k, text: `${k}=${v}` });
  for (const e of sel.matchExpressions ?? []) {
    const vals = [...new Set(e.values ?? [])].sort();
    switch (e.operator) {
      case 'In':
        reqs.push({ key: e.key, text: `${e.key} in (${vals.join(',')})` });
        break;
      case 'NotIn':
        reqs.push({ key: e.key, text: `${e.key} notin (${vals.join(',')})` });
        break;
      case 'Exists':
        reqs.push({ key: e.key, text: e.key });
        break;
      case 'DoesNotExist':
        reqs.push({ key: e.key, text: `!${e.key}` });
        break;
    }
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.map((r) => r.text).join(',');
}

/** metav1.FormatLabelSelector: the selector string, `<none>` when it is empty. */
export function formatLabelSelector(sel: LabelSelector | undefined): string {
  const s = selectorString(sel ?? {});
  return s === '' ? '<none>' : s;
}

/** labels.FormatLabels: `k=v` sorted by key, `<none>` when empty. */
export function formatLabels(labels: Labels | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels![k]}`).join(',');
}

/** helper.GetAccessModesAsString: fixed order RWO, ROX, RWX, RWOP. */
export function accessModes(modes: unknown[]): string {
  const has = (m: string): boolean => modes.includes(m);
  const out: string[] = [];
  if (has('ReadWriteOnce')) out.push('RWO');
  if (has('ReadOnlyMany')) out.push('ROX');
  if (has('ReadWriteMany')) out.push('RWX');
  if (has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

/** A resource.Quantity as the server prints it; the simulation stores canonical strings. */
export function quantity(v: unknown): string {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number') return String(v);
  return '0';
}
