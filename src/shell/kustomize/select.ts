/**
 * Choosing resources for a patch or replacement (api/types/selector.go): kind, group, version,
 * namespace and name are anchored regular expressions; labelSelector and annotationSelector use
 * Kubernetes selector syntax (`app=web,tier!=db`, `env in (a,b)`, `!key`).
 */
import { groupOf } from './fieldpath.js';
import { type Obj, type Res, type Target, isObj, kindOf, meta, nameOf, nsOf } from './types.js';
import { LinearRegExp } from '../../util/regex/index.js';

const anchored = (pattern: string, value: string): boolean => {
  try {
    return new LinearRegExp(`^(?:${pattern})$`, '', 're2').test(value);
  } catch {
    return pattern === value;
  }
};

/** One requirement of a label selector against a map. */
function matchesSelector(selector: string, labels: Record<string, unknown>): boolean {
  const reqs = selector.match(/(?:[^,(]|\([^)]*\))+/g) ?? [];
  return reqs.every((raw) => {
    const req = raw.trim();
    let m = /^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(req);
    if (m) {
      const vals = m[3]!.split(',').map((s) => s.trim());
      const has = m[1]! in labels && vals.includes(String(labels[m[1]!]));
      return m[2] === 'in' ? has : !has;
    }
    if (req.startsWith('!')) return !(req.slice(1).trim() in labels);
    m = /^([^!=]+?)\s*(==|=|!=)\s*(.*)$/.exec(req);
    if (m) {
      const eq = m[1]! in labels && String(labels[m[1]!]) === m[3]!.trim();
      return m[2] === '!=' ? !eq : eq;
    }
    return req in labels;
  });
}

export function matchesTarget(o: Obj, t: Target): boolean {
  if (t.kind && !anchored(t.kind, kindOf(o))) return false;
  if (t.name && !anchored(t.name, nameOf(o))) return false;
  if (t.namespace && !anchored(t.namespace, nsOf(o) ?? '')) return false;
  if (t.group !== undefined && t.group !== '' && !anchored(t.group, groupOf(o))) return false;
  if (t.version) {
    const av = String(o['apiVersion'] ?? '');
    if (!anchored(t.version, av.includes('/') ? av.split('/')[1]! : av)) return false;
  }
  const m = meta(o);
  if (t.labelSelector && !matchesSelector(t.labelSelector, isObj(m['labels']) ? m['labels'] : {})) return false;
  if (t.annotationSelector && !matchesSelector(t.annotationSelector, isObj(m['annotations']) ? m['annotations'] : {})) return false;
  return true;
}

export function selectTargets(resources: Res[], t: Target): Res[] {
  return resources.filter((r) => matchesTarget(r.obj, t));
}
