/**
 * Walking kustomize field specs (api/types/fieldspec.go, kyaml PathGetter): a `/`-separated path
 * whose list-valued steps visit every element (`spec/ingress/from/podSelector`, or written with
 * `[]` as in `spec/volumeClaimTemplates[]/metadata/labels`), creating missing maps when the spec
 * says `create: true`.
 */
import type { JsonValue } from '../kubectl/merge.js';
import { type Obj, isObj } from './types.js';

/** Call `fn` on the map at `path` in `o` (every match when lists are crossed). */
export function visitMaps(o: Obj, path: string, create: boolean, fn: (m: Obj) => void): void {
  const steps = path.split('/').map((s) => s.replace(/\[\]$/, ''));
  const walk = (cur: Obj, i: number): void => {
    if (i === steps.length) {
      fn(cur);
      return;
    }
    const key = steps[i]!;
    let next = cur[key];
    if (Array.isArray(next)) {
      for (const el of next) if (isObj(el)) walk(el, i + 1);
      return;
    }
    if (!isObj(next)) {
      if (!create || (next !== undefined && next !== null)) return;
      next = {};
      cur[key] = next;
    }
    walk(next as Obj, i + 1);
  };
  walk(o, 0);
}

/** Call `fn` with the parent map and key of every scalar at `path` (lists crossed). */
export function visitScalars(o: Obj, path: string, fn: (parent: Obj, key: string, value: JsonValue) => void): void {
  const steps = path.split('/');
  const last = steps.pop()!;
  visitMaps(o, steps.join('/'), false, (m) => {
    if (last in m && m[last] !== null && typeof m[last] !== 'object') fn(m, last, m[last]!);
  });
}

/** A field spec of the builtin configurations. */
export interface FieldSpec {
  kind?: string;
  group?: string;
  path: string;
  create: boolean;
}

export function groupOf(o: Obj): string {
  const av = typeof o['apiVersion'] === 'string' ? o['apiVersion'] : '';
  return av.includes('/') ? av.split('/')[0]! : '';
}

export function applies(spec: FieldSpec, o: Obj): boolean {
  if (spec.kind !== undefined && spec.kind !== o['kind']) return false;
  if (spec.group !== undefined && spec.group !== groupOf(o)) return false;
  return true;
}

/** Kinds whose objects hold a pod template at spec/template. */
export const POD_TEMPLATE_KINDS = ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'ReplicationController'];

/** The pod specs inside an object (a Pod's own, a workload's template, a CronJob's job template). */
export function podSpecs(o: Obj): Obj[] {
  const out: Obj[] = [];
  const kind = o['kind'];
  const at = (path: string): void => visitMaps(o, path, false, (m) => out.push(m));
  if (kind === 'Pod') at('spec');
  else if (kind === 'CronJob') at('spec/jobTemplate/spec/template/spec');
  else if (typeof kind === 'string' && POD_TEMPLATE_KINDS.includes(kind)) at('spec/template/spec');
  else if (kind === 'PodTemplate') at('template/spec');
  return out;
}
