/**
 * Values: `--set`/`--set-string` parsing (helm pkg/strvals/parser.go, with its error wording) and
 * coalescing (pkg/chart/common/util/coalesce.go): chart defaults < -f files (in order) < --set;
 * a null from the user deletes a default; each subchart sees `parent.Values.<name>` over its own
 * defaults, and the parent's `global` over the subchart's.
 */
import { GoNum, type GoValue, isMap } from '../gotemplate/value.js';
import { fromPlain } from '../gotemplate/sprig.js';
import { structuredCloneGo } from '../gotemplate/sprig.js';
import type { Chart } from './chart.js';

export type Values = Record<string, GoValue>;

export class ValuesError extends Error {}

/** strvals typedVal: --set turns true/false/null and int64-looking words into those types. */
function typed(v: string, asString: boolean): GoValue {
  if (asString) return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (/^[-+]?(0|[1-9][0-9]*)$/.test(v) && Math.abs(Number(v)) <= Number.MAX_SAFE_INTEGER) return new GoNum('int64', Number(v));
  return v;
}

/** Split on a separator that is not escaped with a backslash. */
function splitUnescaped(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      cur += s[i]! + s[i + 1]!;
      i++;
    } else if (s[i] === sep) {
      out.push(cur);
      cur = '';
    } else cur += s[i];
  }
  out.push(cur);
  return out;
}

const unescape = (s: string): string => s.replace(/\\(.)/g, '$1');

function setPath(target: Values, key: string, value: GoValue): void {
  const parts = splitUnescaped(key, '.');
  let cur: Values = target;
  for (let i = 0; i < parts.length; i++) {
    const raw = parts[i]!;
    const m = /^(.*)\[(\d+)\]$/.exec(raw);
    const name = unescape(m ? m[1]! : raw);
    const last = i === parts.length - 1;
    if (m) {
      const idx = Number(m[2]);
      const arr = Array.isArray(cur[name]) ? (cur[name] as GoValue[]) : [];
      while (arr.length <= idx) arr.push(null);
      cur[name] = arr;
      if (last) arr[idx] = value;
      else {
        if (!isMap(arr[idx])) arr[idx] = {};
        cur = arr[idx] as Values;
      }
      continue;
    }
    if (last) cur[name] = value;
    else {
      if (!isMap(cur[name])) cur[name] = {};
      cur = cur[name] as Values;
    }
  }
}

/** strvals.ParseInto / ParseIntoString for one --set argument. */
export function parseSet(expr: string, into: Values, asString: boolean): void {
  for (const pair of splitUnescaped(expr, ',')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    if (eq < 0) throw new ValuesError(`failed parsing --set${asString ? '-string' : ''} data: key "${pair}" has no value`);
    const key = pair.slice(0, eq);
    let val = pair.slice(eq + 1);
    if (val.startsWith('{') && val.endsWith('}')) {
      setPath(into, key, val.slice(1, -1).split(',').filter((x) => x !== '').map((x) => typed(x, asString)));
      continue;
    }
    val = unescape(val);
    setPath(into, key, typed(val, asString));
  }
}

/**
 * `--set-file key=path,…` (strvals.ParseIntoFile): each value is the named file's text, read by
 * `read` (undefined: `open PATH: no such file or directory`).
 */
export function parseSetFile(expr: string, into: Values, read: (path: string) => string | undefined): void {
  for (const pair of splitUnescaped(expr, ',')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    if (eq < 0) throw new ValuesError(`failed parsing --set-file data: key "${pair}" has no value`);
    const path = pair.slice(eq + 1);
    const text = read(path);
    if (text === undefined) throw new ValuesError(`failed parsing --set-file data: open ${path}: no such file or directory`);
    setPath(into, pair.slice(0, eq), text);
  }
}

/**
 * `--set-json` (pkg/cli/values/options.go MergeValues): a JSON object merged over the values, or
 * `key=JSON` (strvals.ParseJSON) for one key, numbers as encoding/json decodes them (float64);
 * anything that does not parse is refused with the whole flag value in helm's words.
 */
export function parseSetJson(expr: string, into: Values): Values {
  const trimmed = expr.trim();
  if (trimmed.startsWith('{')) {
    let obj: unknown;
    try {
      obj = JSON.parse(trimmed);
    } catch {
      throw new ValuesError(`failed parsing --set-json data JSON: ${expr}`);
    }
    if (!isMap(obj as GoValue)) throw new ValuesError(`failed parsing --set-json data JSON: ${expr}`);
    return mergeValues(into, fromPlain(obj) as Values);
  }
  const eq = expr.indexOf('=');
  let value: unknown;
  try {
    if (eq < 0) throw new Error('no value');
    value = JSON.parse(expr.slice(eq + 1));
  } catch {
    throw new ValuesError(`failed parsing --set-json data ${expr}`);
  }
  setPath(into, expr.slice(0, eq), fromPlain(value));
  return into;
}

/** `--set-literal key=value` (strvals.ParseLiteralInto): everything after the first `=` is the string, commas and backslashes included. */
export function parseSetLiteral(expr: string, into: Values): void {
  const eq = expr.indexOf('=');
  if (eq < 0) throw new ValuesError(`failed parsing --set-literal data: key "${expr}" has no value`);
  setPath(into, expr.slice(0, eq), expr.slice(eq + 1));
}

/** Merge user values over a base, recursively (later wins); used for -f files and --set. */
export function mergeValues(base: Values, over: Values): Values {
  const out: Values = structuredCloneGo(base) as Values;
  for (const [k, v] of Object.entries(over)) {
    if (isMap(v) && isMap(out[k])) out[k] = mergeValues(out[k] as Values, v);
    else out[k] = structuredCloneGo(v);
  }
  return out;
}

/** coalesceTables: dst (user) wins, src (defaults) fills, a user null deletes. */
function coalesceTables(dst: Values, src: Values): Values {
  for (const [k, sv] of Object.entries(src)) {
    if (!(k in dst)) dst[k] = structuredCloneGo(sv);
    else if (dst[k] === null) delete dst[k];
    else if (isMap(dst[k]) && isMap(sv)) coalesceTables(dst[k] as Values, sv);
  }
  for (const [k, v] of Object.entries(dst)) if (v === null && !(k in src)) delete dst[k];
  return dst;
}

/** chartutil.CoalesceValues: the values every template of the chart tree sees. */
export function coalesceValues(chart: Chart, user: Values): Values {
  const v = coalesceTables(structuredCloneGo(user) as Values, chart.values);
  for (const sub of chart.dependencies) {
    const name = sub.metadata.name;
    const mine = isMap(v[name]) ? (v[name] as Values) : {};
    const parentGlobal = isMap(v['global']) ? (v['global'] as Values) : {};
    const subGlobal = isMap(mine['global']) ? (mine['global'] as Values) : {};
    mine['global'] = mergeValues(subGlobal, parentGlobal);
    v[name] = coalesceValues(sub, mine);
  }
  if (!isMap(v['global'])) v['global'] = {};
  return v;
}
