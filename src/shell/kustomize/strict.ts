/**
 * kustomize decodes a kustomization strictly (api/types/kustomization.go Unmarshal: YAMLToJSON, then
 * encoding/json with DisallowUnknownFields): a key that names no field is
 * `invalid Kustomization: json: unknown field "KEY"`. YAMLToJSON writes each map's keys sorted, and
 * encoding/json keeps the first error it meets, so the key reported is the first unknown one in that
 * order, depth first. Field names match case-insensitively (encoding/json's fallback), so a key in
 * another case is renamed to the field's own spelling here. Nested types checked: the generators and
 * their options (the fields a learner mistypes most); other nested values are taken as written.
 */
import { KustomizeError, isObj, type Kustomization, type Obj } from './types.js';

/** types.Kustomization's JSON names (with the inlined TypeMeta). */
const KUSTOMIZATION = [
  'apiVersion', 'kind', 'metadata', 'openapi', 'namePrefix', 'nameSuffix', 'namespace', 'commonLabels', 'labels', 'commonAnnotations',
  'patchesStrategicMerge', 'patchesJson6902', 'patches', 'images', 'imageTags', 'replacements', 'replicas', 'vars', 'sortOptions',
  'resources', 'components', 'crds', 'bases', 'configMapGenerator', 'secretGenerator', 'helmGlobals', 'helmCharts',
  'helmChartInflationGenerator', 'generatorOptions', 'configurations', 'generators', 'transformers', 'validators', 'buildMetadata',
];
/** types.GeneratorArgs with the inlined KvPairSources (ConfigMapArgs); SecretArgs adds `type`. */
const GENERATOR = ['namespace', 'name', 'behavior', 'literals', 'files', 'envs', 'env', 'options'];
const OPTIONS = ['labels', 'annotations', 'disableNameSuffixHash', 'immutable'];

type Shape = { fields: readonly string[]; nested?: Record<string, { list: boolean; shape: Shape }> };
const OPTIONS_SHAPE: Shape = { fields: OPTIONS };
const generatorShape = (extra: string[]): Shape => ({ fields: [...GENERATOR, ...extra], nested: { options: { list: false, shape: OPTIONS_SHAPE } } });
const ROOT: Shape = {
  fields: KUSTOMIZATION,
  nested: {
    configMapGenerator: { list: true, shape: generatorShape([]) },
    secretGenerator: { list: true, shape: generatorShape(['type']) },
    generatorOptions: { list: false, shape: OPTIONS_SHAPE },
  },
};

const goSort = (keys: string[]): string[] => [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The first unknown key (Go order), renaming case-insensitive matches in place; undefined when none. */
function check(o: Obj, shape: Shape): string | undefined {
  let first: string | undefined;
  for (const key of goSort(Object.keys(o))) {
    const field = shape.fields.find((f) => f === key) ?? shape.fields.find((f) => f.toLowerCase() === key.toLowerCase());
    if (field === undefined) {
      first ??= key;
      continue;
    }
    if (field !== key) {
      o[field] = o[key]!;
      delete o[key];
    }
    const nested = shape.nested?.[field];
    const v = o[field];
    if (!nested || first !== undefined) continue;
    const items = nested.list ? (Array.isArray(v) ? v : []) : [v];
    for (const item of items) if (isObj(item)) first ??= check(item, nested.shape);
  }
  return first;
}

/** A parsed kustomization file, checked as kustomize's strict decoding does. */
export function checkFields(k: Obj): Kustomization {
  const unknown = check(k, ROOT);
  if (unknown !== undefined) throw new KustomizeError(`invalid Kustomization: json: unknown field ${JSON.stringify(unknown)}`);
  return k as Kustomization;
}
