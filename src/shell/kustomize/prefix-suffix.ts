/**
 * namePrefix and nameSuffix (api/filters/prefixsuffix; builtins PrefixTransformer,
 * SuffixTransformer): metadata/name of every object except CustomResourceDefinitions,
 * APIServices and Namespaces. References to the renamed objects are fixed at the end (nameref.ts).
 */
import { type Res, meta, nameOf } from './types.js';

const SKIP = new Set(['CustomResourceDefinition', 'APIService', 'Namespace']);

export function prefixSuffix(resources: Res[], prefix: string | undefined, suffix: string | undefined): void {
  if (!prefix && !suffix) return;
  for (const r of resources) {
    if (SKIP.has(String(r.obj['kind']))) continue;
    meta(r.obj)['name'] = `${prefix ?? ''}${nameOf(r.obj)}${suffix ?? ''}`;
  }
}
