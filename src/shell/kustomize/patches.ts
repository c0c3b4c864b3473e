/**
 * `patches:`, `patchesStrategicMerge:` and `patchesJson6902:` (builtin PatchTransformer,
 * PatchStrategicMergeTransformer, PatchJson6902Transformer): a patch is inline text or a file;
 * a YAML list is a JSON 6902 patch (needs a target), anything else strategic merge. Without a
 * target a strategic-merge patch applies to the resource its own kind and name identify.
 */
import { parseAllDocuments } from 'yaml';
import { type JsonValue, strategicMerge } from '../kubectl/merge.js';
import { jsonPatch, JsonPatchError } from '../kubectl/json-patch.js';
import { resIdString } from './resid.js';
import { selectTargets } from './select.js';
import { KustomizeError, type Obj, type Patch, type Res, type Target, isObj, kindOf, meta, nameOf, nsOf } from './types.js';

export interface PatchContext {
  read(path: string): string | undefined;
  abs(path: string): string;
}

function docs(text: string, where: string): JsonValue[] {
  const out: JsonValue[] = [];
  for (const d of parseAllDocuments(text)) {
    if (d.errors.length > 0) throw new KustomizeError(`${where}: ${d.errors[0]!.message}`);
    const v = d.toJS() as JsonValue;
    if (v !== null && v !== undefined) out.push(v);
  }
  return out;
}

function patchText(p: Patch, ctx: PatchContext): string {
  if (p.patch !== undefined && p.path !== undefined) throw new KustomizeError('patch and path can\'t be set at the same time');
  if (p.patch !== undefined) return p.patch;
  if (p.path !== undefined) {
    const text = ctx.read(p.path);
    if (text === undefined) throw new KustomizeError(`trouble configuring builtin PatchTransformer with config: \`\npath: ${p.path}\n\`: evalsymlink failure on '${ctx.abs(p.path)}' : lstat ${ctx.abs(p.path)}: no such file or directory`);
    return text;
  }
  throw new KustomizeError('must specify one of patch and path');
}

/** Strategic merge of one patch document into a resource; the resource keeps its name and kind. */
function applySmp(r: Res, patch: Obj): void {
  const name = nameOf(r.obj);
  const kind = kindOf(r.obj);
  const ns = nsOf(r.obj);
  const p = structuredClone(patch);
  if (isObj(p['metadata'])) {
    delete p['metadata']['name'];
    if (ns !== undefined) delete p['metadata']['namespace'];
  }
  delete p['kind'];
  delete p['apiVersion'];
  const merged = strategicMerge(r.obj, p) as Obj;
  for (const k of Object.keys(r.obj)) delete r.obj[k];
  Object.assign(r.obj, merged);
  meta(r.obj)['name'] = name;
  r.obj['kind'] = kind;
}

function applyJson(r: Res, ops: JsonValue): void {
  // patchjson6902.Filter returns the library's error as it is (kubectl kustomize v5.7.1 prints
  // `error: testing value /data/a failed: test failed`)
  let out: Obj;
  try {
    out = jsonPatch(r.obj, ops) as Obj;
  } catch (e) {
    if (e instanceof JsonPatchError) throw new KustomizeError(e.message);
    throw e;
  }
  for (const k of Object.keys(r.obj)) delete r.obj[k];
  Object.assign(r.obj, out);
}

/** Resources a target-less strategic merge patch names (by current or original name). */
function byOwnId(resources: Res[], patch: Obj): Res[] {
  const kind = kindOf(patch);
  const name = typeof meta(patch)['name'] === 'string' ? (meta(patch)['name'] as string) : '';
  const ns = nsOf(patch);
  return resources.filter((r) => kindOf(r.obj) === kind && (nameOf(r.obj) === name || r.origName === name) && (ns === undefined || nsOf(r.obj) === ns || r.origNs === ns));
}

export function applyPatch(resources: Res[], p: Patch, ctx: PatchContext, forceJson = false): void {
  const text = patchText(p, ctx);
  const parsed = docs(text, 'patch');
  const isJson = forceJson || (parsed.length === 1 && Array.isArray(parsed[0]));
  if (isJson) {
    if (!p.target) throw new KustomizeError('must specify a target for patch ' + text);
    for (const r of selectTargets(resources, p.target)) applyJson(r, parsed[0] ?? []);
    return;
  }
  for (const doc of parsed) {
    if (!isObj(doc)) continue;
    if (p.target) {
      for (const r of selectTargets(resources, p.target as Target)) applySmp(r, doc);
      continue;
    }
    const targets = byOwnId(resources, doc);
    if (targets.length === 0) {
      const id = resIdString(doc);
      throw new KustomizeError(`no resource matches strategic merge patch "${id}": no matches for Id ${id}; failed to find unique target for patch ${id}`);
    }
    for (const r of targets) applySmp(r, doc);
  }
}

export function applyPatches(resources: Res[], patches: Patch[] | undefined, ctx: PatchContext): void {
  for (const p of patches ?? []) applyPatch(resources, p, ctx);
}

export function applyStrategicMergeFiles(resources: Res[], files: string[] | undefined, ctx: PatchContext): void {
  for (const f of files ?? []) {
    // an entry is a file path, or (kustomize allows it) an inline patch
    const isInline = f.includes('\n');
    applyPatch(resources, isInline ? { patch: f } : { path: f }, ctx);
  }
}

export function applyJson6902(resources: Res[], patches: Patch[] | undefined, ctx: PatchContext): void {
  for (const p of patches ?? []) applyPatch(resources, p, ctx, true);
}
