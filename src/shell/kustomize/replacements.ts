/**
 * `replacements:` (api/filters/replacement): copy the value at a source's fieldPath into the
 * fieldPaths of the selected targets (dotted paths, `[name=value]` list selectors, `*` for every
 * element), optionally one part of a delimited value, creating missing fields when told.
 */
import { parse as parseYaml } from 'yaml';
import type { JsonValue } from '../kubectl/merge.js';
import { matchesTarget } from './select.js';
import { KustomizeError, type Obj, type Replacement, type Res, isObj, kindOf, nameOf } from './types.js';
import type { PatchContext } from './patches.js';

function splitPath(path: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of path) {
    if (ch === '[') depth++;
    if (ch === ']') depth--;
    if (ch === '.' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

function getAt(o: JsonValue, steps: string[]): JsonValue | undefined {
  let cur: JsonValue | undefined = o;
  for (const s of steps) {
    if (cur === undefined) return undefined;
    const sel = /^\[(.+?)=(.*)\]$/.exec(s);
    if (sel) {
      if (!Array.isArray(cur)) return undefined;
      cur = cur.find((e) => isObj(e) && String(e[sel[1]!]) === sel[2]);
    } else if (Array.isArray(cur) && /^\d+$/.test(s)) cur = cur[Number(s)];
    else if (isObj(cur)) cur = cur[s];
    else return undefined;
  }
  return cur;
}

function setAt(o: JsonValue, steps: string[], value: (old: JsonValue | undefined) => JsonValue, create: boolean): void {
  const [s, ...rest] = steps;
  if (s === undefined) return;
  const sel = /^\[(.+?)=(.*)\]$/.exec(s);
  const children: { parent: Obj | JsonValue[]; key: string | number }[] = [];
  if (s === '*' && Array.isArray(o)) o.forEach((_, i) => children.push({ parent: o, key: i }));
  else if (sel && Array.isArray(o)) o.forEach((e, i) => isObj(e) && String(e[sel[1]!]) === sel[2] && children.push({ parent: o, key: i }));
  else if (Array.isArray(o) && /^\d+$/.test(s)) children.push({ parent: o, key: Number(s) });
  else if (isObj(o)) {
    if (!(s in o)) {
      if (!create) return;
      o[s] = rest.length === 0 ? null : {};
    }
    children.push({ parent: o, key: s });
  }
  for (const c of children) {
    const parent = c.parent as Record<string | number, JsonValue>;
    if (rest.length === 0) parent[c.key] = value(parent[c.key]);
    else setAt(parent[c.key]!, rest, value, create);
  }
}

export function applyReplacements(resources: Res[], list: Replacement[] | undefined, ctx: PatchContext): void {
  for (let rep of list ?? []) {
    if (rep.path) {
      const text = ctx.read(rep.path);
      if (text === undefined) throw new KustomizeError(`evalsymlink failure on '${ctx.abs(rep.path)}' : lstat ${ctx.abs(rep.path)}: no such file or directory`);
      rep = parseYaml(text) as Replacement;
    }
    const src = rep.source ?? {};
    const sources = resources.filter((r) => (!src.kind || kindOf(r.obj) === src.kind) && (!src.name || nameOf(r.obj) === src.name || r.origName === src.name));
    if (sources.length === 0) throw new KustomizeError(`nothing selected by ${src.kind ?? ''}.[noVer].[noGrp]/${src.name ?? ''}.[noNs]`);
    if (sources.length > 1) throw new KustomizeError(`more than one match for source ${src.kind ?? ''}.[noVer].[noGrp]/${src.name ?? ''}.[noNs]`);
    const value = getAt(sources[0]!.obj, splitPath(src.fieldPath ?? 'metadata.name'));
    if (value === undefined) throw new KustomizeError(`fieldPath \`${src.fieldPath}\` is missing for replacement source ${kindOf(sources[0]!.obj)}.[noVer].[noGrp]/${src.name ?? ''}.[noNs]`);
    for (const t of rep.targets ?? []) {
      for (const r of resources) {
        if (!t.select || !matchesTarget(r.obj, t.select)) continue;
        if ((t.reject ?? []).some((rj) => matchesTarget(r.obj, rj))) continue;
        for (const fp of t.fieldPaths ?? ['metadata.name']) {
          setAt(
            r.obj,
            splitPath(fp),
            (old) => {
              const o = t.options;
              if (o?.delimiter !== undefined && typeof old === 'string') {
                const parts = old.split(o.delimiter);
                const i = o.index ?? 0;
                if (i >= parts.length) parts.push(String(value));
                else if (i < 0) parts.unshift(String(value));
                else parts[i] = String(value);
                return parts.join(o.delimiter);
              }
              return structuredClone(value);
            },
            t.options?.create ?? false,
          );
        }
      }
    }
  }
}
