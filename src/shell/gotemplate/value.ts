/**
 * Go values as templates see them. kubectl hands the template the object decoded by
 * apimachinery's util/json: objects are `map[string]interface {}`, arrays `[]interface {}`,
 * integral numbers `int64`, other numbers `float64`. Template literals add `int` and `float64`.
 * In TypeScript: `undefined` is an invalid reflect.Value (a missing key), `null` a nil interface,
 * numbers are always wrapped in GoNum so their Go type survives (`%T`, `%!d(float64=1.5)`).
 */

import { GoTime } from './go-time.js';

export { GoTime };

export type NumType = 'int' | 'int64' | 'float64';

export class GoNum {
  constructor(
    readonly t: NumType,
    readonly v: number,
  ) {}
  get isInt(): boolean {
    return this.t !== 'float64';
  }
}

/** A Go function value (only reachable through `call`; data never holds one). */
export class GoFunc {
  constructor(
    readonly name: string,
    readonly fn: (...args: GoValue[]) => GoValue,
  ) {}
}

/** A Go struct value with exported fields (Sprig's `certificate{Cert, Key string}`): `.Cert` reads a field. */
export class GoStruct {
  constructor(
    /** reflect.Type.String(): `sprig.certificate`. */
    readonly type: string,
    readonly fields: Readonly<Record<string, GoValue>>,
  ) {}
}

/** A time.Time (Sprig's now, toDate, dateModify) is a GoTime. */
export type GoValue = undefined | null | string | boolean | GoNum | GoFunc | GoTime | GoStruct | GoValue[] | { [k: string]: GoValue };

export const int = (v: number): GoNum => new GoNum('int', v);

/** Convert decoded JSON into Go values the way apimachinery's json.Unmarshal types them. */
export function fromJson(v: unknown): GoValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return new GoNum(Number.isInteger(v) ? 'int64' : 'float64', v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(fromJson);
  if (typeof v === 'object') {
    const out: Record<string, GoValue> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = fromJson(x);
    return out;
  }
  return String(v);
}

export const isMap = (v: GoValue): v is { [k: string]: GoValue } =>
  v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) && !(v instanceof GoNum) && !(v instanceof GoFunc) && !(v instanceof GoTime) && !(v instanceof GoStruct);

/** reflect.Type.String() of a value's dynamic type. */
export function typeName(v: GoValue): string {
  if (v === undefined || v === null) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof GoNum) return v.t;
  if (v instanceof GoFunc) return 'func(...interface {}) interface {}';
  if (v instanceof GoTime) return 'time.Time';
  if (v instanceof GoStruct) return v.type;
  // a slice a function made with a named element type (sprig's toStrings: []string) carries it
  if (Array.isArray(v)) return (v as { goType?: string }).goType ?? '[]interface {}';
  return 'map[string]interface {}';
}

/** template.IsTrue: zero values and empty containers are false. */
export function isTrue(v: GoValue): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.length > 0;
  if (typeof v === 'boolean') return v;
  if (v instanceof GoNum) return v.v !== 0;
  if (v instanceof GoFunc || v instanceof GoTime || v instanceof GoStruct) return true;
  if (Array.isArray(v)) return v.length > 0;
  return Object.keys(v).length > 0;
}

/** Map keys in fmt's sorted order (strings byte-wise). */
export function sortedKeys(m: { [k: string]: GoValue }): string[] {
  return Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
