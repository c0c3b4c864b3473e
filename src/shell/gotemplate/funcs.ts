/**
 * text/template's builtin functions (golang src/text/template/funcs.go) with their error texts:
 * `index out of range: 5`, `index of untyped nil`, `incompatible types for comparison: int and
 * string`, `invalid type for comparison`, `len of type bool`, …. A function declares how each
 * argument is passed (as exec.go's evalArg would convert it) and returns a value or throws
 * FuncError, which exec reports as `error calling NAME: MESSAGE`.
 */
import { goByteLength } from '../../util/go-bytes.js';
import { sprint, sprintf, sprintln } from './fmt.js';
import { GoFunc, GoNum, type GoValue, int, isMap, isTrue, typeName } from './value.js';

/** How exec passes an argument: reflect.Value (invalid allowed), interface{} (invalid → nil), a typed Go string, or a struct type (time.Time, sprig.certificate). */
export type ParamKind = 'value' | 'any' | 'string' | 'time' | 'sprig.certificate';

export class FuncError extends Error {}

export interface FuncDef {
  params: readonly ParamKind[];
  /** Type of the variadic tail, if any. */
  variadic?: ParamKind;
  call(args: GoValue[]): GoValue;
}

export type FuncMap = Readonly<Record<string, FuncDef>>;

/** indirectInterface: a nil interface is an invalid value. */
const ind = (v: GoValue): GoValue => (v === null ? undefined : v);

/** The growth of a Go slice built by append (encoding/json decodes arrays that way): its capacity. */
function sliceCap(len: number): number {
  if (len === 0) return 0;
  let c = 1;
  while (c < len) c *= 2;
  return c;
}

function indexArg(index: GoValue, cap: number): number {
  const i = ind(index);
  if (i === undefined) throw new FuncError('cannot index slice/array with nil');
  if (!(i instanceof GoNum) || !i.isInt) throw new FuncError(`cannot index slice/array with type ${typeName(i)}`);
  if (i.v < 0 || i.v > cap) throw new FuncError(`index out of range: ${i.v}`);
  return i.v;
}

function index(item: GoValue, ...indexes: GoValue[]): GoValue {
  let cur = ind(item);
  if (cur === undefined) throw new FuncError('index of untyped nil');
  for (const ix of indexes) {
    if (cur === null || cur === undefined) throw new FuncError('index of nil pointer');
    if (typeof cur === 'string') {
      const bytes: Buffer = Buffer.from(cur, "utf8");
      const x = indexArg(ix, bytes.length);
      if (x === bytes.length) throw new FuncError(`index out of range: ${x}`);
      cur = new GoNum('int', bytes[x]!);
      continue;
    }
    if (Array.isArray(cur)) {
      const x = indexArg(ix, cur.length);
      if (x === cur.length) throw new FuncError(`index out of range: ${x}`);
      cur = cur[x];
      continue;
    }
    if (isMap(cur)) {
      const k = ind(ix);
      if (k === undefined) throw new FuncError('value is nil; should be of type string');
      if (typeof k !== 'string') throw new FuncError(`value has type ${typeName(k)}; should be string`);
      cur = k in cur ? cur[k] : null;
      continue;
    }
    throw new FuncError(`can't index item of type ${typeName(cur)}`);
  }
  return cur;
}

function slice(item: GoValue, ...indexes: GoValue[]): GoValue {
  const v = ind(item);
  if (v === undefined) throw new FuncError('slice of untyped nil');
  if (indexes.length > 3) throw new FuncError(`too many slice indexes: ${indexes.length}`);
  let len: number;
  let cap: number;
  if (typeof v === 'string') {
    if (indexes.length === 3) throw new FuncError('cannot 3-index slice a string');
    len = cap = Buffer.byteLength(v, 'utf8');
  } else if (Array.isArray(v)) {
    len = v.length;
    cap = sliceCap(v.length);
  } else throw new FuncError(`can't slice item of type ${typeName(v)}`);
  const idx = [0, len, cap];
  indexes.forEach((x, i) => (idx[i] = indexArg(x, cap)));
  if (idx[0]! > idx[1]!) throw new FuncError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (indexes.length === 3 && idx[1]! > idx[2]!) throw new FuncError(`invalid slice index: ${idx[1]} > ${idx[2]}`);
  if (typeof v === 'string') return Buffer.from(v, 'utf8').subarray(idx[0], idx[1]).toString('utf8');
  const out: GoValue[] = [];
  for (let i = idx[0]!; i < idx[1]!; i++) out.push(i < v.length ? v[i] : null);
  return out;
}

function len(item: GoValue): GoValue {
  if (item === undefined) throw new FuncError('reflect: call of reflect.Value.Type on zero Value');
  if (item === null) throw new FuncError('len of nil pointer');
  if (typeof item === 'string') return int(goByteLength(item));
  if (Array.isArray(item)) return int(item.length);
  if (isMap(item)) return int(Object.keys(item).length);
  throw new FuncError(`len of type ${typeName(item)}`);
}

type Kind = 'bool' | 'int' | 'float' | 'string' | 'invalid';

function basicKind(v: GoValue): Kind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof GoNum) return v.isInt ? 'int' : 'float';
  return 'invalid';
}

const BAD_TYPE = 'invalid type for comparison';
const incompatible = (a: GoValue, b: GoValue): FuncError => new FuncError(`incompatible types for comparison: ${typeName(a)} and ${typeName(b)}`);

function prim(v: GoValue): string | number | boolean {
  return v instanceof GoNum ? v.v : (v as string | boolean);
}

function eq(arg1: GoValue, ...arg2: GoValue[]): GoValue {
  const a = ind(arg1);
  if (arg2.length === 0) throw new FuncError('missing argument for comparison');
  const k1 = basicKind(a);
  for (const raw of arg2) {
    const b = ind(raw);
    const k2 = basicKind(b);
    let truth = false;
    if (k1 !== k2) {
      if (a !== undefined && b !== undefined) throw incompatible(a, b);
    } else if (k1 !== 'invalid') {
      truth = prim(a) === prim(b);
    } else {
      const nil1 = a === undefined;
      const nil2 = b === undefined;
      if (nil1 || nil2) truth = nil1 === nil2;
      else throw new FuncError(`non-comparable type ${sprint([b])}: ${typeName(b)}`);
    }
    if (truth) return true;
  }
  return false;
}

function lt(arg1: GoValue, arg2: GoValue): boolean {
  const a = ind(arg1);
  const b = ind(arg2);
  const k1 = basicKind(a);
  if (k1 === 'invalid') throw new FuncError(BAD_TYPE);
  const k2 = basicKind(b);
  if (k2 === 'invalid') throw new FuncError(BAD_TYPE);
  if (k1 !== k2) throw incompatible(a, b);
  if (k1 === 'bool') throw new FuncError(BAD_TYPE);
  return prim(a) < prim(b);
}

/** template.HTMLEscapeString. */
export function htmlEscape(s: string): string {
  return s.replace(/[\0"'&<>]/g, (c) => ({ '\0': '\uFFFD', '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

/** template.JSEscapeString. */
export function jsEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const map: Record<string, string> = { '\\': '\\\\', "'": "\\'", '"': '\\"', '<': '\\u003C', '>': '\\u003E', '&': '\\u0026', '=': '\\u003D' };
    if (map[ch]) out += map[ch];
    else if (c < 0x20) out += `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;
    else if (c >= 0x7f && /[\p{C}]/u.test(ch)) out += `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/** url.QueryEscape. */
export function queryEscape(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(ch)) out += ch;
    else if (ch === ' ') out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** evalArgs: one string argument as is, anything else through fmt.Sprint. */
const evalArgs = (args: GoValue[]): string => (args.length === 1 && typeof args[0] === 'string' ? args[0] : sprint(args));

export const BUILTINS: FuncMap = {
  and: { params: ['value'], variadic: 'value', call: () => undefined },
  or: { params: ['value'], variadic: 'value', call: () => undefined },
  not: { params: ['value'], call: ([a]) => !isTrue(ind(a)) },
  call: {
    params: ['value'],
    variadic: 'value',
    call: ([fn, ...rest]) => {
      const f = ind(fn);
      if (f === undefined) throw new FuncError('call of nil');
      if (!(f instanceof GoFunc)) throw new FuncError(`non-function of type ${typeName(f)}`);
      return f.fn(...rest);
    },
  },
  html: { params: [], variadic: 'any', call: (args) => htmlEscape(evalArgs(args)) },
  index: { params: ['value'], variadic: 'value', call: ([item, ...ix]) => index(item, ...ix) },
  slice: { params: ['value'], variadic: 'value', call: ([item, ...ix]) => slice(item, ...ix) },
  js: { params: [], variadic: 'any', call: (args) => jsEscape(evalArgs(args)) },
  len: { params: ['value'], call: ([a]) => len(a === null ? null : a) },
  print: { params: [], variadic: 'any', call: (args) => sprint(args) },
  printf: { params: ['string'], variadic: 'any', call: ([f, ...args]) => sprintf(f as string, args) },
  println: { params: [], variadic: 'any', call: (args) => sprintln(args) },
  urlquery: { params: [], variadic: 'any', call: (args) => queryEscape(evalArgs(args)) },
  eq: { params: ['value'], variadic: 'value', call: ([a, ...b]) => eq(a, ...b) },
  ge: { params: ['value', 'value'], call: ([a, b]) => !lt(a, b) },
  gt: { params: ['value', 'value'], call: ([a, b]) => !lt(a, b) && !eq(a, b) },
  le: { params: ['value', 'value'], call: ([a, b]) => lt(a, b) || eq(a, b) === true },
  lt: { params: ['value', 'value'], call: ([a, b]) => lt(a, b) },
  ne: { params: ['value', 'value'], call: ([a, b]) => !eq(a, b) },
};
