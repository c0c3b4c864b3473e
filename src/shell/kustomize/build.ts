/**
 * `kustomize build` as kubectl v1.35 embeds it (kustomize v5.7.1, api/internal/target/
 * kusttarget.go): accumulate `resources` (files and kustomization directories), read `crds`, run
 * the generators (merge/replace meet what the bases generated), then `components`, then the
 * builtin transformers in kustomize's fixed order — patchesStrategicMerge, patches, namespace,
 * prefix, suffix, labels, annotations, patchesJson6902, replicas, images, replacements. At the
 * top the content-hash suffixes are added, references follow renamed objects, and the result is
 * sorted in the legacy kind order.
 */
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import type { Vfs } from '../../sim/node/vfs.js';

/** The files a build reads: a host's filesystem (the simulated one, or the user's own for `cka-lab kubectl`). */
export type BuildFiles = Pick<Vfs, 'isDir' | 'isFile' | 'read'>;
import { commonAnnotations } from './annotations.js';
import { generate, mergeOptions, type GenContext } from './generators.js';
import { contentHash } from './hash.js';
import { crdRefs, type CrdRef } from './crds.js';
import { checkFields } from './strict.js';
import { setImages } from './images.js';
import { commonLabels, labelEntries } from './labels.js';
import { fixNameReferences } from './nameref.js';
import { setNamespace } from './namespace.js';
import { legacyOrder } from './order.js';
import { applyJson6902, applyPatches, applyStrategicMergeFiles } from './patches.js';
import { prefixSuffix } from './prefix-suffix.js';
import { applyReplacements } from './replacements.js';
import { setReplicas } from './replicas.js';
import { resIdString } from './resid.js';
import { KustomizeError, type Kustomization, type Obj, type Res, isObj, kindOf, meta, nameOf, nsOf } from './types.js';

export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

const join = (dir: string, p: string): string => {
  if (p.startsWith('/')) return normalize(p);
  return normalize(`${dir.replace(/\/$/, '')}/${p}`);
};

function normalize(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

function loadKustomization(fs: BuildFiles, dir: string): Kustomization {
  const file = KUSTOMIZATION_FILES.find((f) => fs.isFile(join(dir, f)));
  if (!file) throw new KustomizeError(`unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '${dir}'`);
  const text = fs.read(join(dir, file));
  let k: unknown;
  try {
    k = parseYaml(text);
  } catch (e) {
    throw new KustomizeError(`invalid Kustomization: ${(e as Error).message}`);
  }
  if (k === null || k === undefined) return {};
  if (!isObj(k)) throw new KustomizeError(`invalid Kustomization: json: cannot unmarshal string into Go value of type types.Kustomization`);
  return checkFields(k);
}

/** Go's %v of the typed metadata kustomize shows for a nameless object: `{{v1 ConfigMap} {{ } map[] map[]}}`. */
function goMetaString(obj: Obj): string {
  const m = isObj(obj['metadata']) ? obj['metadata'] : {};
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const map = (v: unknown): string =>
    `map[${isObj(v) ? Object.keys(v).sort().map((k) => `${k}:${String(v[k])}`).join(' ') : ''}]`;
  return `{{${str(obj['apiVersion'])} ${str(obj['kind'])}} {{${str(m['name'])} ${str(m['namespace'])}} ${map(m['labels'])} ${map(m['annotations'])}}}`;
}

function readResources(text: string, path: string, abs: string): Res[] {
  const out: Res[] = [];
  for (const d of parseAllDocuments(text)) {
    if (d.errors.length > 0) throw new KustomizeError(`accumulating resources: accumulation err='accumulating resources from '${path}': MalformedYAMLError: ${d.errors[0]!.message}'`);
    const v: unknown = d.toJS();
    if (v === null || v === undefined) continue;
    if (!isObj(v)) continue;
    const items = v['kind'] === 'List' && Array.isArray(v['items']) ? v['items'].filter(isObj) : [v];
    for (const obj of items) {
      if (!isObj(obj['metadata']) || typeof obj['metadata']['name'] !== 'string' || obj['metadata']['name'] === '') {
        throw new KustomizeError(`accumulating resources: accumulation err='accumulating resources from '${path}': missing metadata.name in object ${goMetaString(obj)}': must build at directory: '${abs}': file is not directory`);
      }
      out.push({ obj, origName: nameOf(obj), origNs: nsOf(obj), hashSuffix: false, generated: false });
    }
  }
  return out;
}

function sameId(a: Obj, b: Obj): boolean {
  return kindOf(a) === kindOf(b) && nameOf(a) === nameOf(b) && (nsOf(a) ?? '') === (nsOf(b) ?? '');
}

function addResource(into: Res[], r: Res, from: string): void {
  const clash = into.find((x) => sameId(x.obj, r.obj));
  if (clash) throw new KustomizeError(`accumulating resources: accumulation err='merging resources from '${from}': may not add resource with an already registered id: ${resIdString(r.obj)}'`);
  into.push(r);
}

function accumulate(fs: BuildFiles, dir: string, paths: string[], into: Res[], components: boolean, refs: CrdRef[]): void {
  for (const p of paths) {
    const abs = join(dir, p);
    if (fs.isDir(abs)) {
      const k = loadKustomization(fs, abs);
      if (components) {
        if (k.kind !== 'Component') throw new KustomizeError(`accumulating components: accumulation err='accumulating components from '${p}': expected kind 'Component' for path '${abs}' but got 'Kustomization'`);
        runKustomization(fs, abs, k, into, refs);
        continue;
      }
      if (k.kind === 'Component') throw new KustomizeError(`accumulating resources: accumulation err='accumulating resources from '${p}': expected kind != 'Component' for path '${abs}'`);
      for (const r of runKustomization(fs, abs, k, [], refs)) addResource(into, r, p);
      continue;
    }
    if (!fs.isFile(abs)) {
      const what = components ? 'components' : 'resources';
      throw new KustomizeError(
        `accumulating ${what}: accumulation err='accumulating ${what} from '${p}': evalsymlink failure on '${abs}' : lstat ${abs}: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on '${abs}' : lstat ${abs}: no such file or directory`,
      );
    }
    for (const r of readResources(fs.read(abs), p, abs)) addResource(into, r, p);
  }
}

/**
 * The name references the kustomization's `crds:` files declare (kusttarget.go accumulateTarget:
 * after the resources, before the generators; a file that cannot be read fails the build with
 * `loading CRDs [a.json b.json]: …`). They hold for the whole build, as the accumulator's merged
 * transformer config does.
 */
function loadCrds(fs: BuildFiles, dir: string, paths: string[], refs: CrdRef[]): void {
  for (const p of paths) {
    const abs = join(dir, p);
    if (!fs.isFile(abs)) {
      const why = fs.isDir(abs) ? `'${abs}' is a directory` : `evalsymlink failure on '${abs}' : lstat ${abs}: no such file or directory`;
      throw new KustomizeError(`loading CRDs [${paths.join(' ')}]: ${why}`);
    }
    try {
      refs.push(...crdRefs(fs.read(abs), p));
    } catch (e) {
      throw e instanceof KustomizeError ? new KustomizeError(`loading CRDs [${paths.join(' ')}]: ${e.message}`) : e;
    }
  }
}

function runGenerators(k: Kustomization, ctx: GenContext, resources: Res[]): void {
  const gens: ['ConfigMap' | 'Secret', NonNullable<Kustomization['configMapGenerator']>][] = [
    ['ConfigMap', k.configMapGenerator ?? []],
    ['Secret', k.secretGenerator ?? []],
  ];
  for (const [kind, list] of gens) {
    for (const g of list) {
      const opts = mergeOptions(k.generatorOptions, g.options);
      const obj = generate(kind, g, opts, ctx);
      const behavior = g.behavior ?? 'create';
      const existing = resources.find((r) => kindOf(r.obj) === kind && r.origName === (g.name ?? '') && (g.namespace === undefined || r.origNs === g.namespace));
      if (behavior === 'create') {
        if (existing) throw new KustomizeError(`merging from generator ${JSON.stringify(obj)}: id ${resIdString(obj)} exists; behavior must be merge or replace`);
        resources.push({ obj, origName: g.name ?? '', origNs: g.namespace, hashSuffix: !opts.disableNameSuffixHash, generated: true });
        continue;
      }
      if (behavior !== 'merge' && behavior !== 'replace') throw new KustomizeError(`unknown generator behavior '${behavior}'`);
      if (!existing) throw new KustomizeError(`merging from generator ${JSON.stringify(obj)}: id ${resIdString(obj)} does not exist; cannot merge or replace`);
      const m = meta(existing.obj);
      const nm = meta(obj);
      if (behavior === 'merge') {
        for (const f of ['data', 'binaryData']) {
          if (isObj(obj[f])) existing.obj[f] = { ...(isObj(existing.obj[f]) ? existing.obj[f] : {}), ...obj[f] };
        }
        if (isObj(nm['labels'])) m['labels'] = { ...(isObj(m['labels']) ? m['labels'] : {}), ...nm['labels'] };
        if (isObj(nm['annotations'])) m['annotations'] = { ...(isObj(m['annotations']) ? m['annotations'] : {}), ...nm['annotations'] };
      } else {
        for (const f of ['data', 'binaryData']) {
          if (obj[f] !== undefined) existing.obj[f] = obj[f]!;
          else delete existing.obj[f];
        }
        // the replacing object keeps the old one's labels and annotations under its own (reswrangler.go
        // appendReplaceOrMerge → CopyMergeMetaDataFieldsFrom)
        if (isObj(nm['labels'])) m['labels'] = { ...(isObj(m['labels']) ? m['labels'] : {}), ...nm['labels'] };
        if (isObj(nm['annotations'])) m['annotations'] = { ...(isObj(m['annotations']) ? m['annotations'] : {}), ...nm['annotations'] };
      }
      if (g.options?.disableNameSuffixHash !== undefined || k.generatorOptions?.disableNameSuffixHash !== undefined) existing.hashSuffix = !opts.disableNameSuffixHash;
    }
  }
}

/** Build one kustomization directory on top of `resources` (empty unless it is a component). */
function runKustomization(fs: BuildFiles, dir: string, k: Kustomization, resources: Res[], refs: CrdRef[]): Res[] {
  const ctx = {
    read: (p: string): string | undefined => (fs.isFile(join(dir, p)) ? fs.read(join(dir, p)) : undefined),
    abs: (p: string): string => join(dir, p),
  };
  accumulate(fs, dir, [...(k.bases ?? []), ...(k.resources ?? [])], resources, false, refs);
  loadCrds(fs, dir, k.crds ?? [], refs);
  // generators before components (kusttarget.go accumulateTarget), so a component's generator can
  // merge into or replace what this kustomization generated
  runGenerators(k, ctx, resources);
  accumulate(fs, dir, k.components ?? [], resources, true, refs);
  applyStrategicMergeFiles(resources, k.patchesStrategicMerge, ctx);
  applyPatches(resources, k.patches, ctx);
  setNamespace(resources, k.namespace);
  prefixSuffix(resources, k.namePrefix, k.nameSuffix);
  commonLabels(resources, k.commonLabels);
  labelEntries(resources, k.labels);
  commonAnnotations(resources, k.commonAnnotations);
  applyJson6902(resources, k.patchesJson6902, ctx);
  setReplicas(resources, k.replicas);
  setImages(resources, k.images);
  applyReplacements(resources, k.replacements, ctx);
  return resources;
}

export interface BuildResult {
  objects: Obj[];
  /** Deprecation notes kustomize prints on stderr (`# Warning: 'commonLabels' is deprecated…`). */
  warnings: string[];
}

const DEPRECATED: [keyof Kustomization, string][] = [
  ['bases', "# Warning: 'bases' is deprecated. Please use 'resources' instead. Run 'kustomize edit fix' to update your Kustomization automatically."],
  ['commonLabels', "# Warning: 'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize edit fix' to update your Kustomization automatically."],
  ['patchesJson6902', "# Warning: 'patchesJson6902' is deprecated. Please use 'patches' instead. Run 'kustomize edit fix' to update your Kustomization automatically."],
  ['patchesStrategicMerge', "# Warning: 'patchesStrategicMerge' is deprecated. Please use 'patches' instead. Run 'kustomize edit fix' to update your Kustomization automatically."],
];

function collectWarnings(fs: BuildFiles, dir: string, seen: Set<string>, out: string[]): void {
  const k = loadKustomization(fs, dir);
  for (const [field, text] of DEPRECATED) if (k[field] !== undefined && !seen.has(text)) {
    seen.add(text);
    out.push(text);
  }
  for (const p of [...(k.bases ?? []), ...(k.resources ?? []), ...(k.components ?? [])]) {
    const abs = join(dir, p);
    if (fs.isDir(abs)) collectWarnings(fs, abs, seen, out);
  }
}

/** Build the kustomization in `dir` (absolute; `shown` is the path as the user typed it, for errors). */
export function build(fs: BuildFiles, dir: string, shown: string = dir): BuildResult {
  const abs = normalize(dir);
  if (fs.isFile(abs)) throw new KustomizeError(`must build at directory: '${shown}': file is not directory`);
  if (!fs.isDir(abs)) {
    throw new KustomizeError(`must build at directory: not a valid directory: evalsymlink failure on '${shown}' : lstat ${abs}: no such file or directory`);
  }
  const k = loadKustomization(fs, abs);
  if (k.kind === 'Component') throw new KustomizeError(`'${abs}' is a Component, not a Kustomization; components can't be built on their own`);
  const refs: CrdRef[] = [];
  const resources = runKustomization(fs, abs, k, [], refs);
  for (const r of resources) if (r.hashSuffix) meta(r.obj)['name'] = `${nameOf(r.obj)}-${contentHash(r.obj)}`;
  fixNameReferences(resources, refs);
  const warnings: string[] = [];
  collectWarnings(fs, abs, new Set(), warnings);
  return { objects: legacyOrder(resources).map((r) => r.obj), warnings };
}
