/**
 * The jq evaluator (jqlang/jq src/execute.c semantics, builtins from src/builtin.c and
 * src/builtin.jq): every expression is a generator of outputs; errors are jq's texts
 * (`Cannot index number with "b"`, `null (null) and number (1) cannot be added`). Ordering and
 * equality follow jq (null < false < true < numbers < strings < arrays < objects). Every output
 * charges a step to the line's budget, so `repeat(1)` or `def f: f; f` stop there.
 */
import type { Ast, Pattern } from './parse.js';
import { compilePosix } from '../../../util/posix-regex.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export class JqError extends Error {
  constructor(readonly value: Json) {
    super(typeof value === 'string' ? value : JSON.stringify(value));
  }
}


export interface Env {
  vars: Map<string, Json>;
  funcs: Map<string, { params: string[]; body: Ast; env: Env }>;
  step: () => void;
  now: () => number;
  envVars: Record<string, string>;
  inputs: Json[];
}

const typeOf = (v: Json): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v);

/** jq's short rendering of a value in error messages: `number (1)`, `object ({"a":1})`. */
function desc(v: Json): string {
  let s = JSON.stringify(v);
  if (s.length > 11) s = `${s.slice(0, 10)}...`;
  return `${typeOf(v)} (${s})`;
}

const ORDER = ['null', 'boolean', 'number', 'string', 'array', 'object'];

export function compare(a: Json, b: Json): number {
  const ta = typeOf(a);
  const tb = typeOf(b);
  if (ta !== tb) {
    if (ta === 'boolean' && tb === 'boolean') return 0;
    return ORDER.indexOf(ta) - ORDER.indexOf(tb) || (ta === 'boolean' ? 0 : 0);
  }
  switch (ta) {
    case 'null':
      return 0;
    case 'boolean':
      return a === b ? 0 : a === false ? -1 : 1;
    case 'number':
      return (a as number) - (b as number);
    case 'string':
      return a! < b! ? -1 : a! > b! ? 1 : 0;
    case 'array': {
      const x = a as Json[];
      const y = b as Json[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compare(x[i]!, y[i]!);
        if (c) return c;
      }
      return x.length - y.length;
    }
    default: {
      const x = a as Record<string, Json>;
      const y = b as Record<string, Json>;
      const kc = compare(Object.keys(x).sort(), Object.keys(y).sort());
      if (kc) return kc;
      for (const k of Object.keys(x).sort()) {
        const c = compare(x[k]!, y[k]!);
        if (c) return c;
      }
      return 0;
    }
  }
}

/** A boolean's order: false before true (compare above puts booleans by value). */
const truthy = (v: Json): boolean => v !== null && v !== false;

function index(v: Json, k: Json): Json {
  if (v === null) return null;
  if (typeof k === 'string') {
    if (typeof v === 'object' && !Array.isArray(v)) return v[k] ?? null;
    throw new JqError(`Cannot index ${typeOf(v)} with string "${k}"`);
  }
  if (typeof k === 'number') {
    if (Array.isArray(v)) {
      const i = Math.floor(k) < 0 ? v.length + Math.floor(k) : Math.floor(k);
      return v[i] ?? null;
    }
    throw new JqError(`Cannot index ${typeOf(v)} with number`);
  }
  if (k !== null && typeof k === 'object' && !Array.isArray(k) && Array.isArray(v)) return slice(v, k['start'] ?? null, k['end'] ?? null);
  throw new JqError(`Cannot index ${typeOf(v)} with ${typeOf(k)}`);
}

function slice(v: Json, from: Json, to: Json): Json {
  if (v === null) return null;
  if (typeof v !== 'string' && !Array.isArray(v)) throw new JqError(`Cannot index ${typeOf(v)} with object`);
  const len = v.length;
  const norm = (x: Json, dflt: number): number => {
    if (x === null) return dflt;
    if (typeof x !== 'number') throw new JqError('Start and end indices of an array slice must be numbers');
    const i = Math.floor(x);
    return Math.max(0, Math.min(len, i < 0 ? len + i : i));
  };
  const a = norm(from, 0);
  const b = Math.max(a, norm(to, len));
  return v.slice(a, b) as Json;
}

function add(a: Json, b: Json): Json {
  if (a === null) return b;
  if (b === null) return a;
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) return { ...a, ...b };
  throw new JqError(`${desc(a)} and ${desc(b)} cannot be added`);
}

function deepMerge(a: Record<string, Json>, b: Record<string, Json>): Record<string, Json> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const o = out[k];
    out[k] = o && typeof o === 'object' && !Array.isArray(o) && v && typeof v === 'object' && !Array.isArray(v) ? deepMerge(o, v) : v;
  }
  return out;
}

function arith(op: string, a: Json, b: Json): Json {
  switch (op) {
    case '+':
      return add(a, b);
    case '-':
      if (typeof a === 'number' && typeof b === 'number') return a - b;
      if (Array.isArray(a) && Array.isArray(b)) return a.filter((x) => !b.some((y) => compare(x, y) === 0));
      throw new JqError(`${desc(a)} and ${desc(b)} cannot be subtracted`);
    case '*':
      if (typeof a === 'number' && typeof b === 'number') return a * b;
      if (typeof a === 'string' && typeof b === 'number') return b > 0 ? a.repeat(Math.ceil(b)) : null;
      if (typeof b === 'string' && typeof a === 'number') return a > 0 ? b.repeat(Math.ceil(a)) : null;
      if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) return deepMerge(a, b);
      throw new JqError(`${desc(a)} and ${desc(b)} cannot be multiplied`);
    case '/':
      if (typeof a === 'number' && typeof b === 'number') {
        if (b === 0) throw new JqError(`${desc(a)} and ${desc(b)} cannot be divided because the divisor is zero`);
        return a / b;
      }
      if (typeof a === 'string' && typeof b === 'string') return a.split(b);
      throw new JqError(`${desc(a)} and ${desc(b)} cannot be divided`);
    case '%':
      if (typeof a === 'number' && typeof b === 'number') {
        if (Math.trunc(b) === 0) throw new JqError(`${desc(a)} and ${desc(b)} cannot be divided because the divisor is zero`);
        return Math.trunc(a) % Math.trunc(b);
      }
      throw new JqError(`${desc(a)} and ${desc(b)} cannot be divided`);
    case '==':
      return compare(a, b) === 0;
    case '!=':
      return compare(a, b) !== 0;
    case '<':
      return compare(a, b) < 0;
    case '<=':
      return compare(a, b) <= 0;
    case '>':
      return compare(a, b) > 0;
    case '>=':
      return compare(a, b) >= 0;
  }
  throw new JqError(`unknown operator ${op}`);
}

/** tojson: jq's compact JSON. */
export function toJsonText(v: Json): string {
  return JSON.stringify(v, (_k, x: unknown) => x) ?? 'null';
}

function toStringValue(v: Json): string {
  return typeof v === 'string' ? v : toJsonText(v);
}

/** @csv, @tsv, @sh, @base64, @base64d, @uri, @html, @json, @text (builtin.c f_format). */
function format(name: string, v: Json): string {
  switch (name) {
    case 'text':
      return toStringValue(v);
    case 'json':
      return toJsonText(v);
    case 'csv':
    case 'tsv': {
      if (!Array.isArray(v)) throw new JqError(`${desc(v)} cannot be ${name}-formatted, only an array can be`);
      return v
        .map((x) => {
          if (typeof x === 'number') return String(x);
          if (typeof x === 'boolean') return String(x);
          if (x === null) return '';
          if (typeof x === 'string') return name === 'csv' ? `"${x.replace(/"/g, '""')}"` : x.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
          throw new JqError(`${desc(x)} is not valid in a csv row`);
        })
        .join(name === 'csv' ? ',' : '\t');
    }
    case 'sh': {
      const q = (x: Json): string => {
        if (typeof x === 'string') return `'${x.replace(/'/g, "'\\''")}'`;
        if (x === null || typeof x !== 'object') return String(x);
        throw new JqError(`${desc(x)} can not be escaped for shell`);
      };
      return Array.isArray(v) ? v.map(q).join(' ') : q(v);
    }
    case 'base64':
      return Buffer.from(toStringValue(v), 'utf8').toString('base64');
    case 'base64d':
      return Buffer.from(toStringValue(v), 'base64').toString('utf8');
    case 'uri':
      return toStringValue(v).replace(/[^A-Za-z0-9\-_.~]/g, (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
    case 'html':
      return toStringValue(v).replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c]!);
  }
  throw new JqError(`${name} is not a valid format`);
}

type Gen = Generator<Json, void, undefined>;

/** Paths a path expression selects (for `path()`, `del`, assignments). */
function* paths(ast: Ast, input: Json, env: Env, root: Json[]): Generator<Array<string | number>, void, undefined> {
  switch (ast.t) {
    case 'identity':
      yield [];
      return;
    case 'recurse':
      yield* recursePaths(input, []);
      return;
    case 'field':
      for (const p of paths(ast.target, input, env, root)) {
        const v = getPath(input, p);
        try {
          index(v, ast.name);
          yield [...p, ast.name];
        } catch (e) {
          if (!ast.opt) throw e;
        }
      }
      return;
    case 'index':
      for (const p of paths(ast.target, input, env, root))
        for (const k of run(ast.index, input, env)) {
          if (typeof k !== 'string' && typeof k !== 'number') throw new JqError(`Cannot index ${typeOf(getPath(input, p))} with ${typeOf(k)}`);
          yield [...p, k];
        }
      return;
    case 'iterate':
      for (const p of paths(ast.target, input, env, root)) {
        const v = getPath(input, p);
        if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield [...p, i];
        else if (v && typeof v === 'object') for (const k of Object.keys(v)) yield [...p, k];
        else if (v !== null && !ast.opt) throw new JqError(`Cannot iterate over ${desc(v)}`);
      }
      return;
    case 'pipe':
      for (const p of paths(ast.left, input, env, root)) for (const q of paths(ast.right, getPath(input, p), env, root)) yield [...p, ...q];
      return;
    case 'comma':
      yield* paths(ast.left, input, env, root);
      yield* paths(ast.right, input, env, root);
      return;
    case 'call':
      if (ast.name === 'select' && ast.args.length === 1) {
        for (const c of run(ast.args[0]!, input, env)) if (truthy(c)) yield [];
        return;
      }
      if (ast.name === 'empty') return;
      if (ast.name === 'first' && ast.args.length === 1) {
        for (const p of paths(ast.args[0]!, input, env, root)) {
          yield p;
          return;
        }
        return;
      }
      if (ast.name === 'getpath' && ast.args.length === 1) {
        for (const p of run(ast.args[0]!, input, env)) yield p as Array<string | number>;
        return;
      }
      {
        const f = env.funcs.get(`${ast.name}/${ast.args.length}`);
        if (f && f.params.length === 0) {
          yield* paths(f.body, input, { ...f.env, funcs: new Map([...f.env.funcs, [`${ast.name}/0`, f]]) }, root);
          return;
        }
      }
      break;
    case 'try':
      try {
        yield* paths(ast.body, input, env, root);
      } catch (e) {
        if (!(e instanceof JqError)) throw e;
      }
      return;
    case 'if':
      for (const c of run(ast.cond, input, env)) yield* truthy(c) ? paths(ast.then, input, env, root) : ast.else ? paths(ast.else, input, env, root) : [[]];
      return;
    case 'alt': {
      let any = false;
      for (const p of paths(ast.left, input, env, root)) {
        if (truthy(getPath(input, p))) {
          any = true;
          yield p;
        }
      }
      if (!any) yield* paths(ast.right, input, env, root);
      return;
    }
    default:
      break;
  }
  throw new JqError(`Invalid path expression with result ${desc([...run(ast, input, env)][0] ?? null)}`);
}

function* recursePaths(v: Json, p: Array<string | number>): Generator<Array<string | number>, void, undefined> {
  yield p;
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* recursePaths(v[i]!, [...p, i]);
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) yield* recursePaths(v[k]!, [...p, k]);
}

export function getPath(v: Json, p: ReadonlyArray<string | number | Json>): Json {
  let cur = v;
  for (const k of p) {
    if (cur === null) return null;
    cur = index(cur, k as Json);
  }
  return cur;
}

export function setPath(v: Json, p: ReadonlyArray<string | number | Json>, value: Json): Json {
  if (p.length === 0) return value;
  const [k, ...rest] = p;
  if (typeof k === 'string') {
    if (v !== null && (typeof v !== 'object' || Array.isArray(v))) throw new JqError(`Cannot index ${typeOf(v)} with string "${k}"`);
    const o = { ...(v ?? {}) } as Record<string, Json>;
    o[k] = setPath(o[k] ?? null, rest, value);
    return o;
  }
  if (typeof k === 'number') {
    if (v !== null && !Array.isArray(v)) throw new JqError(`Cannot index ${typeOf(v)} with number`);
    const a = [...((v as Json[] | null) ?? [])];
    const i = k < 0 ? a.length + k : k;
    if (i < 0) throw new JqError('Out of bounds negative array index');
    while (a.length < i) a.push(null);
    a[i] = setPath(a[i] ?? null, rest, value);
    return a;
  }
  throw new JqError(`Cannot update field at object index of ${typeOf(v)}`);
}

function delPaths(v: Json, ps: Array<Array<string | number>>): Json {
  // longest and last paths first, so earlier deletions do not shift later indices
  const sorted = [...ps].sort((a, b) => compare(b as Json, a as Json));
  let out = v;
  for (const p of sorted) out = delPath(out, p);
  return out;
}

function delPath(v: Json, p: Array<string | number>): Json {
  if (p.length === 0) return null;
  if (v === null) return null;
  const [k, ...rest] = p;
  if (rest.length === 0) {
    if (Array.isArray(v) && typeof k === 'number') return v.filter((_, i) => i !== (k < 0 ? v.length + k : k));
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof k === 'string') {
      const o = { ...v };
      delete o[k];
      return o;
    }
    throw new JqError(`Cannot delete field at index of ${typeOf(v)}`);
  }
  return setPath(v, [k!], delPath(index(v, k as Json), rest));
}

function bindPattern(pattern: Pattern, v: Json, env: Env): Env {
  const vars = new Map(env.vars);
  const bind = (p: Pattern, x: Json): void => {
    if (p.t === 'var') vars.set(p.name, x);
    else if (p.t === 'array') p.items.forEach((q, i) => bind(q, x === null ? null : index(x, i)));
    else
      for (const e of p.entries) {
        const key = typeof e.key === 'string' ? e.key : [...run(e.key, v, env)][0];
        if (typeof e.key === 'string' && e.value.t === 'var' && e.value.name === e.key) vars.set(e.key, x === null ? null : index(x, e.key));
        bind(e.value, x === null ? null : index(x, key as Json));
      }
  };
  bind(pattern, v);
  return { ...env, vars };
}

/** Nesting of running expressions past which a program is stopped (JavaScript's stack is not jq's). */
const MAX_DEPTH = 200;
let depth = 0;

/** A new program starts at depth 0 (an earlier one may have been abandoned mid-run). */
export function resetDepth(): void {
  depth = 0;
}

/** Evaluate an expression against one input; every output is a step of the line's budget. */
export function* run(ast: Ast, input: Json, env: Env): Gen {
  env.step();
  if (depth >= MAX_DEPTH) throw new JqError(`recursion deeper than ${MAX_DEPTH} levels (cka-lab stops the program here)`);
  depth++;
  try {
    for (const v of evalNode(ast, input, env)) {
      env.step();
      yield v;
    }
  } finally {
    depth--;
  }
}

function* evalNode(ast: Ast, input: Json, env: Env): Gen {
  switch (ast.t) {
    case 'identity':
      yield input;
      return;
    case 'recurse':
      for (const p of recursePaths(input, [])) yield getPath(input, p);
      return;
    case 'literal':
      yield ast.v as Json;
      return;
    case 'str': {
      // the cartesian product of the interpolations, last varying fastest (jq order)
      const parts = ast.parts;
      const build = function* (i: number, acc: string): Gen {
        if (i === parts.length) {
          yield acc;
          return;
        }
        const p = parts[i]!;
        if (typeof p === 'string') yield* build(i + 1, acc + p);
        else for (const v of run(p, input, env)) yield* build(i + 1, acc + (ast.format ? format(ast.format, v) : toStringValue(v)));
      };
      yield* build(0, '');
      return;
    }
    case 'format':
      yield format(ast.name, input);
      return;
    case 'field':
      for (const v of run(ast.target, input, env)) {
        try {
          yield index(v, ast.name);
        } catch (e) {
          if (!ast.opt || !(e instanceof JqError)) throw e;
        }
      }
      return;
    case 'index':
      for (const v of run(ast.target, input, env))
        for (const k of run(ast.index, input, env)) {
          try {
            yield index(v, k);
          } catch (e) {
            if (!ast.opt || !(e instanceof JqError)) throw e;
          }
        }
      return;
    case 'slice':
      for (const v of run(ast.target, input, env))
        for (const to of ast.to ? run(ast.to, input, env) : [null])
          for (const from of ast.from ? run(ast.from, input, env) : [null]) {
            try {
              yield slice(v, from, to);
            } catch (e) {
              if (!ast.opt || !(e instanceof JqError)) throw e;
            }
          }
      return;
    case 'iterate':
      for (const v of run(ast.target, input, env)) {
        if (Array.isArray(v)) yield* v;
        else if (v && typeof v === 'object') yield* Object.values(v);
        else if (!ast.opt) throw new JqError(`Cannot iterate over ${v === null ? 'null' : desc(v)}`);
      }
      return;
    case 'try':
      try {
        yield* run(ast.body, input, env);
      } catch (e) {
        if (!(e instanceof JqError)) throw e;
        if (ast.handler) yield* run(ast.handler, e.value, env);
      }
      return;
    case 'pipe':
      for (const v of run(ast.left, input, env)) yield* run(ast.right, v, env);
      return;
    case 'comma':
      yield* run(ast.left, input, env);
      yield* run(ast.right, input, env);
      return;
    case 'alt': {
      let any = false;
      try {
        for (const v of run(ast.left, input, env)) {
          if (truthy(v)) {
            any = true;
            yield v;
          }
        }
      } catch (e) {
        if (!(e instanceof JqError)) throw e;
      }
      if (!any) yield* run(ast.right, input, env);
      return;
    }
    case 'and':
      for (const a of run(ast.left, input, env)) {
        if (!truthy(a)) yield false;
        else for (const b of run(ast.right, input, env)) yield truthy(b);
      }
      return;
    case 'or':
      for (const a of run(ast.left, input, env)) {
        if (truthy(a)) yield true;
        else for (const b of run(ast.right, input, env)) yield truthy(b);
      }
      return;
    case 'neg':
      for (const v of run(ast.body, input, env)) {
        if (typeof v !== 'number') throw new JqError(`${desc(v)} cannot be negated`);
        yield -v;
      }
      return;
    case 'binop':
      for (const b of run(ast.right, input, env)) for (const a of run(ast.left, input, env)) yield arith(ast.op, a, b);
      return;
    case 'array':
      yield ast.body ? [...run(ast.body, input, env)] : [];
      return;
    case 'object': {
      const build = function* (i: number, acc: Record<string, Json>): Gen {
        if (i === ast.entries.length) {
          yield acc;
          return;
        }
        const e = ast.entries[i]!;
        for (const k of run(e.key, input, env)) {
          if (typeof k !== 'string') throw new JqError(`Object keys must be strings`);
          const values = e.value ? run(e.value, input, env) : [index(input, k)];
          for (const v of values) yield* build(i + 1, { ...acc, [k]: v });
        }
      };
      yield* build(0, {});
      return;
    }
    case 'var':
      if (ast.name === '__loc__') {
        yield { file: '<top-level>', line: 1 };
        return;
      }
      if (ast.name === 'ENV') {
        yield { ...env.envVars };
        return;
      }
      if (!env.vars.has(ast.name)) throw new JqError(`$${ast.name} is not defined`);
      yield env.vars.get(ast.name)!;
      return;
    case 'bind':
      for (const v of run(ast.source, input, env)) yield* run(ast.body, input, bindPattern(ast.pattern, v, env));
      return;
    case 'reduce':
      for (const init of run(ast.init, input, env)) {
        let acc: Json = init;
        for (const v of run(ast.source, input, env)) {
          const outs = [...run(ast.update, acc, bindPattern(ast.pattern, v, env))];
          acc = outs.length ? outs[outs.length - 1]! : null;
        }
        yield acc;
      }
      return;
    case 'foreach':
      for (const init of run(ast.init, input, env)) {
        let acc: Json = init;
        for (const v of run(ast.source, input, env)) {
          const e2 = bindPattern(ast.pattern, v, env);
          for (const next of run(ast.update, acc, e2)) {
            acc = next;
            if (ast.extract) yield* run(ast.extract, next, e2);
            else yield next;
          }
        }
      }
      return;
    case 'if':
      for (const c of run(ast.cond, input, env)) {
        if (truthy(c)) yield* run(ast.then, input, env);
        else if (ast.else) yield* run(ast.else, input, env);
        else yield input;
      }
      return;
    case 'def': {
      const funcs = new Map(env.funcs);
      const self = { params: ast.params, body: ast.body, env: { ...env, funcs } };
      funcs.set(`${ast.name}/${ast.params.length}`, self);
      yield* run(ast.rest, input, { ...env, funcs });
      return;
    }
    case 'assign':
      yield* assign(ast, input, env);
      return;
    case 'call':
      yield* call(ast.name, ast.args, input, env);
      return;
  }
}

function* assign(ast: Extract<Ast, { t: 'assign' }>, input: Json, env: Env): Gen {
  const ps = [...paths(ast.left, input, env, [])];
  if (ast.op === '|=') {
    let out = input;
    for (const p of ps) {
      const first = run(ast.right, getPath(out, p), env).next();
      out = first.done ? delPaths(out, [p]) : setPath(out, p, first.value);
    }
    yield out;
    return;
  }
  for (const rhs of run(ast.right, input, env)) {
    let out = input;
    for (const p of ps) {
      if (ast.op === '=') out = setPath(out, p, rhs);
      else if (ast.op === '//=') out = setPath(out, p, truthy(getPath(out, p)) ? getPath(out, p) : rhs);
      else out = setPath(out, p, arith(ast.op.slice(0, -1), getPath(out, p), rhs));
    }
    yield out;
  }
}

function keysOf(v: Json, sorted: boolean): string[] | number[] {
  if (Array.isArray(v)) return v.map((_, i) => i);
  if (v && typeof v === 'object') return sorted ? Object.keys(v).sort() : Object.keys(v);
  throw new JqError(`${desc(v)} has no keys`);
}

function lengthOf(v: Json): number {
  if (v === null) return 0;
  if (typeof v === 'boolean') throw new JqError(`boolean (${v}) has no length`);
  if (typeof v === 'number') return Math.abs(v);
  if (typeof v === 'string') return [...v].length;
  return Array.isArray(v) ? v.length : Object.keys(v).length;
}

function regexOf(re: Json, flags: Json): { re: RegExp; global: boolean } {
  if (typeof re !== 'string') throw new JqError(`${desc(re)} cannot be matched, as it is not a string`);
  const f = typeof flags === 'string' ? flags : '';
  // Oniguruma syntax is close to ERE for the patterns used here; linear-time engine
  return { re: compilePosix(re, 'ere', `${f.includes('i') ? 'i' : ''}${f.includes('x') ? '' : ''}g`), global: f.includes('g') };
}

function matches(s: Json, re: Json, flags: Json): Json[] {
  if (typeof s !== 'string') throw new JqError(`${desc(s)} cannot be matched, as it is not a string`);
  const { re: r, global } = regexOf(re, flags);
  const out: Json[] = [];
  r.lastIndex = 0;
  for (let m = r.exec(s); m; m = r.exec(s)) {
    out.push({ offset: m.index, length: m[0].length, string: m[0], captures: m.slice(1).map((c) => ({ offset: c === undefined ? -1 : s.indexOf(c, m!.index), length: c?.length ?? 0, string: c ?? null, name: null })) });
    if (!global) break;
    if (m[0] === '') r.lastIndex++;
  }
  return out;
}

/** The builtins (builtin.c and builtin.jq), by name/arity; args are closures over the caller. */
function* call(name: string, args: Ast[], input: Json, env: Env): Gen {
  const user = env.funcs.get(`${name}/${args.length}`);
  if (user) {
    const funcs = new Map(user.env.funcs);
    funcs.set(`${name}/${args.length}`, user);
    const vars = new Map(user.env.vars);
    const fenv: Env = { ...user.env, funcs, vars };
    user.params.forEach((p, i) => {
      if (p.startsWith('$')) return;
      funcs.set(`${p}/0`, { params: [], body: args[i]!, env });
    });
    const dollar = user.params.map((p, i) => [p, i] as const).filter(([p]) => p.startsWith('$'));
    if (dollar.length === 0) {
      yield* run(user.body, input, fenv);
      return;
    }
    const bindAll = function* (k: number, vs: Map<string, Json>): Gen {
      if (k === dollar.length) {
        const fs = new Map(funcs);
        for (const [p] of dollar) fs.set(`${p.slice(1)}/0`, { params: [], body: { t: 'var', name: p.slice(1) }, env: { ...fenv, vars: vs } });
        yield* run(user.body, input, { ...fenv, funcs: fs, vars: vs });
        return;
      }
      const [p, i] = dollar[k]!;
      for (const v of run(args[i]!, input, env)) yield* bindAll(k + 1, new Map([...vs, [p.slice(1), v]]));
    };
    yield* bindAll(0, vars);
    return;
  }
  const arg = (i: number): Gen => run(args[i]!, input, env);
  const one = (i: number): Json => {
    for (const v of arg(i)) return v;
    throw new JqError('empty argument');
  };
  const key = `${name}/${args.length}`;
  switch (key) {
    case 'empty/0':
      return;
    case 'not/0':
      yield !truthy(input);
      return;
    case 'length/0':
      yield lengthOf(input);
      return;
    case 'utf8bytelength/0':
      yield Buffer.byteLength(String(input));
      return;
    case 'keys/0':
    case 'keys_unsorted/0':
      yield keysOf(input, name === 'keys');
      return;
    case 'values/0':
      if (input !== null) yield input;
      return;
    case 'has/1':
      for (const k of arg(0)) {
        if (Array.isArray(input) && typeof k === 'number') yield k >= 0 && k < input.length;
        else if (input && typeof input === 'object' && !Array.isArray(input) && typeof k === 'string') yield Object.prototype.hasOwnProperty.call(input, k);
        else throw new JqError(`Cannot check whether ${typeOf(input)} has a ${typeOf(k)} key`);
      }
      return;
    case 'in/1':
      for (const o of arg(0)) yield* call('has', [{ t: 'literal', v: input }], o, env);
      return;
    case 'map/1':
      if (!Array.isArray(input) && !(input && typeof input === 'object')) throw new JqError(`Cannot iterate over ${desc(input)}`);
      yield (Array.isArray(input) ? input : Object.values(input)).flatMap((v) => [...run(args[0]!, v, env)]);
      return;
    case 'map_values/1': {
      if (Array.isArray(input)) yield input.flatMap((v) => [...run(args[0]!, v, env)].slice(0, 1));
      else if (input && typeof input === 'object') {
        const o: Record<string, Json> = {};
        for (const [k, v] of Object.entries(input)) {
          const r = [...run(args[0]!, v, env)];
          if (r.length) o[k] = r[0]!;
        }
        yield o;
      } else throw new JqError(`Cannot iterate over ${desc(input)}`);
      return;
    }
    case 'select/1':
      for (const c of arg(0)) if (truthy(c)) yield input;
      return;
    case 'recurse/0':
      for (const p of recursePaths(input, [])) yield getPath(input, p);
      return;
    case 'recurse/1': {
      const rec = function* (v: Json): Gen {
        yield v;
        for (const x of run(args[0]!, v, env)) yield* rec(x);
      };
      yield* rec(input);
      return;
    }
    case 'error/0':
      throw new JqError(input);
    case 'error/1':
      throw new JqError(one(0));
    case 'add/0':
      if (!Array.isArray(input) && !(input && typeof input === 'object')) throw new JqError(`Cannot iterate over ${desc(input)}`);
      yield (Array.isArray(input) ? input : Object.values(input)).reduce<Json>((a, b) => add(a, b), null);
      return;
    case 'any/0':
    case 'all/0':
      if (!Array.isArray(input)) throw new JqError(`Cannot iterate over ${desc(input)}`);
      yield name === 'any' ? input.some(truthy) : input.every(truthy);
      return;
    case 'any/1':
    case 'all/1':
      if (!Array.isArray(input)) throw new JqError(`Cannot iterate over ${desc(input)}`);
      yield name === 'any' ? input.some((v) => [...run(args[0]!, v, env)].some(truthy)) : input.every((v) => [...run(args[0]!, v, env)].every(truthy));
      return;
    case 'any/2':
    case 'all/2': {
      // jq 1.6 builtin.jq: over every output of generator|condition, stopping at the first that decides
      const want = name === 'any';
      for (const g of run(args[0]!, input, env)) {
        for (const r of run(args[1]!, g, env)) {
          if (truthy(r) === want) {
            yield want;
            return;
          }
        }
      }
      yield !want;
      return;
    }
    case 'range/1':
      for (const n of arg(0)) for (let i = 0; i < (n as number); i++) yield i;
      return;
    case 'range/2':
      for (const from of arg(0)) for (const to of arg(1)) for (let i = from as number; i < (to as number); i++) yield i;
      return;
    case 'floor/0':
    case 'ceil/0':
    case 'round/0':
    case 'sqrt/0':
    case 'fabs/0':
    case 'log/0':
    case 'exp/0':
      if (typeof input !== 'number') throw new JqError(`${desc(input)} number required`);
      yield (Math as unknown as Record<string, (x: number) => number>)[name === 'fabs' ? 'abs' : name]!(input);
      return;
    case 'abs/0':
      if (typeof input !== 'number') throw new JqError(`${desc(input)} has no absolute value`);
      yield Math.abs(input);
      return;
    case 'tostring/0':
      yield toStringValue(input);
      return;
    case 'tonumber/0':
      if (typeof input === 'number') yield input;
      else if (typeof input === 'string' && input.trim() !== '' && !Number.isNaN(Number(input))) yield Number(input);
      else throw new JqError(`Cannot parse '${String(input)}' as JSON`);
      return;
    case 'type/0':
      yield typeOf(input);
      return;
    case 'infinite/0':
      yield Number.MAX_VALUE;
      return;
    case 'nan/0':
      yield null;
      return;
    case 'sort/0':
      if (!Array.isArray(input)) throw new JqError(`${desc(input)} cannot be sorted, as it is not an array`);
      yield [...input].sort(compare);
      return;
    case 'sort_by/1':
    case 'group_by/1':
    case 'unique_by/1':
    case 'min_by/1':
    case 'max_by/1': {
      if (!Array.isArray(input)) throw new JqError(`Cannot index ${typeOf(input)} with number`);
      const keyed = input.map((v) => ({ v, k: [...run(args[0]!, v, env)] as Json }));
      const sorted = [...keyed].sort((a, b) => compare(a.k, b.k));
      if (name === 'sort_by') yield sorted.map((x) => x.v);
      else if (name === 'min_by') yield sorted[0]?.v ?? null;
      else if (name === 'max_by') yield sorted.length ? keyed.reduce((a, b) => (compare(b.k, a.k) >= 0 ? b : a)).v : null;
      else {
        const groups: Json[][] = [];
        let last: Json | undefined;
        for (const x of sorted) {
          if (last !== undefined && compare(last, x.k) === 0) groups[groups.length - 1]!.push(x.v);
          else groups.push([x.v]);
          last = x.k;
        }
        yield name === 'group_by' ? groups : groups.map((g) => g[0]!);
      }
      return;
    }
    case 'unique/0':
      yield* call('unique_by', [{ t: 'identity' }], input, env);
      return;
    case 'min/0':
    case 'max/0':
      yield* call(`${name}_by`, [{ t: 'identity' }], input, env);
      return;
    case 'reverse/0':
      yield Array.isArray(input) ? [...input].reverse() : typeof input === 'string' ? [...input].reverse().join('') : input === null ? [] : (() => { throw new JqError(`Cannot reverse ${desc(input)}`); })();
      return;
    case 'contains/1':
      for (const b of arg(0)) yield contains(input, b);
      return;
    case 'inside/1':
      for (const b of arg(0)) yield contains(b, input);
      return;
    case 'startswith/1':
    case 'endswith/1':
      for (const s of arg(0)) {
        if (typeof input !== 'string' || typeof s !== 'string') throw new JqError(`${name}() requires string inputs`);
        yield name === 'startswith' ? input.startsWith(s) : input.endsWith(s);
      }
      return;
    case 'ltrimstr/1':
    case 'rtrimstr/1':
      for (const s of arg(0)) {
        if (typeof input === 'string' && typeof s === 'string') yield name === 'ltrimstr' ? (input.startsWith(s) ? input.slice(s.length) : input) : input.endsWith(s) && s ? input.slice(0, -s.length) : input;
        else yield input;
      }
      return;
    case 'split/1':
      for (const s of arg(0)) {
        if (typeof input !== 'string' || typeof s !== 'string') throw new JqError('split input and separator must be strings');
        yield input === '' ? [] : input.split(s);
      }
      return;
    case 'join/1':
      for (const s of arg(0)) {
        if (!Array.isArray(input)) throw new JqError(`Cannot iterate over ${desc(input)}`);
        yield input.map((x) => (x === null ? '' : typeof x === 'object' ? (() => { throw new JqError(`Cannot join with ${typeOf(x)}`); })() : String(x))).join(String(s));
      }
      return;
    case 'ascii_downcase/0':
    case 'ascii_upcase/0':
      if (typeof input !== 'string') throw new JqError(`${name} input must be a string`);
      yield name === 'ascii_downcase' ? input.replace(/[A-Z]/g, (c) => c.toLowerCase()) : input.replace(/[a-z]/g, (c) => c.toUpperCase());
      return;
    case 'explode/0':
      yield [...String(input)].map((c) => c.codePointAt(0)!);
      return;
    case 'implode/0':
      yield String.fromCodePoint(...(input as number[]));
      return;
    case 'to_entries/0':
      // builtin.jq: [keys_unsorted[] as $k | {key: $k, value: .[$k]}] (an array's keys are numbers)
      yield (keysOf(input, false) as Array<string | number>).map((k) => ({ key: k, value: index(input, k) }));
      return;
    case 'from_entries/0': {
      const o: Record<string, Json> = {};
      for (const e of input as Array<Record<string, Json>>) {
        const k = e['key'] ?? e['k'] ?? e['name'] ?? e['Name'] ?? e['Key'] ?? e['K'] ?? null;
        o[typeof k === 'string' ? k : toStringValue(k)] = e['value'] ?? e['v'] ?? e['Value'] ?? e['V'] ?? null;
      }
      yield o;
      return;
    }
    case 'with_entries/1':
      yield* run({ t: 'pipe', left: { t: 'call', name: 'to_entries', args: [] }, right: { t: 'pipe', left: { t: 'call', name: 'map', args: [args[0]!] }, right: { t: 'call', name: 'from_entries', args: [] } } }, input, env);
      return;
    case 'paths/0':
      for (const p of recursePaths(input, [])) if (p.length) yield p;
      return;
    case 'paths/1':
      for (const p of recursePaths(input, [])) if (p.length && [...run(args[0]!, getPath(input, p), env)].some(truthy)) yield p;
      return;
    case 'leaf_paths/0':
      for (const p of recursePaths(input, [])) {
        const v = getPath(input, p);
        if (p.length && (v === null || typeof v !== 'object')) yield p;
      }
      return;
    case 'path/1':
      for (const p of paths(args[0]!, input, env, [])) yield p;
      return;
    case 'getpath/1':
      for (const p of arg(0)) {
        try {
          yield getPath(input, p as Json[]);
        } catch {
          yield null;
        }
      }
      return;
    case 'setpath/2':
      for (const v of arg(1)) for (const p of arg(0)) yield setPath(input, p as Json[], v);
      return;
    case 'delpaths/1':
      for (const ps of arg(0)) yield delPaths(input, ps as Array<Array<string | number>>);
      return;
    case 'del/1':
      yield delPaths(input, [...paths(args[0]!, input, env, [])]);
      return;
    case 'tojson/0':
      yield toJsonText(input);
      return;
    case 'fromjson/0':
      try {
        yield JSON.parse(String(input)) as Json;
      } catch {
        throw new JqError(`${String(input)} (while parsing '${String(input)}')`);
      }
      return;
    case 'test/1':
    case 'test/2':
      yield matches(input, one(0), args[1] ? one(1) : null).length > 0;
      return;
    case 'match/1':
    case 'match/2':
      yield* matches(input, one(0), args[1] ? one(1) : null);
      return;
    case 'capture/1':
    case 'capture/2':
      for (const m of matches(input, one(0), args[1] ? one(1) : null)) {
        const caps = (m as { captures: Array<{ string: Json; name: Json }> }).captures;
        yield Object.fromEntries(caps.filter((c) => c.name).map((c) => [c.name as string, c.string]));
      }
      return;
    case 'sub/2':
    case 'gsub/2':
    case 'sub/3':
    case 'gsub/3': {
      if (typeof input !== 'string') throw new JqError(`${desc(input)} cannot be matched, as it is not a string`);
      const flags = `${name === 'gsub' ? 'g' : ''}${args[2] ? String(one(2)) : ''}`;
      const ms = matches(input, one(0), flags) as Array<{ offset: number; length: number; string: string }>;
      let out = '';
      let at = 0;
      for (const m of ms) {
        out += input.slice(at, m.offset);
        for (const r of run(args[1]!, { ...m } as unknown as Json, env)) out += toStringValue(r);
        at = m.offset + m.length;
      }
      yield out + input.slice(at);
      return;
    }
    case 'splits/1':
      for (const s of String(input).split(compilePosix(String(one(0)), 'ere'))) yield s;
      return;
    case 'ascii/0':
      yield String.fromCharCode(input as number);
      return;
    case 'first/0':
      yield index(input, 0);
      return;
    case 'last/0':
      yield index(input, -1);
      return;
    case 'first/1':
      for (const v of arg(0)) {
        yield v;
        return;
      }
      return;
    case 'last/1': {
      let last: Json | undefined;
      for (const v of arg(0)) last = v;
      if (last !== undefined) yield last;
      return;
    }
    case 'nth/1':
      yield index(input, one(0));
      return;
    case 'nth/2': {
      const n = one(0) as number;
      let i = 0;
      for (const v of arg(1)) {
        if (i++ === n) {
          yield v;
          return;
        }
      }
      return;
    }
    case 'limit/2': {
      const n = one(0) as number;
      if (n <= 0) return;
      let i = 0;
      for (const v of arg(1)) {
        yield v;
        if (++i >= n) return;
      }
      return;
    }
    case 'until/2': {
      let v = input;
      while (![...run(args[0]!, v, env)].some(truthy)) v = [...run(args[1]!, v, env)][0] ?? null;
      yield v;
      return;
    }
    case 'while/2': {
      let v = input;
      while ([...run(args[0]!, v, env)].some(truthy)) {
        yield v;
        v = [...run(args[1]!, v, env)][0] ?? null;
      }
      return;
    }
    case 'repeat/1': {
      let v = input;
      for (;;) {
        env.step();
        yield v;
        v = [...run(args[0]!, v, env)][0] ?? null;
      }
    }
    case 'isempty/1':
      yield arg(0).next().done === true;
      return;
    case 'indices/1':
    case 'index/1':
    case 'rindex/1':
      for (const s of arg(0)) {
        let idx: number[] = [];
        if (typeof input === 'string' && typeof s === 'string' && s !== '') for (let i = input.indexOf(s); i >= 0; i = input.indexOf(s, i + 1)) idx.push(i);
        else if (Array.isArray(input)) idx = input.map((_, i) => i).filter((i) => compare(input[i]!, Array.isArray(s) ? s[0] ?? null : s) === 0 && (!Array.isArray(s) || s.every((x, j) => compare(input[i + j] ?? null, x) === 0)));
        yield name === 'indices' ? idx : name === 'index' ? (idx[0] ?? null) : (idx[idx.length - 1] ?? null);
      }
      return;
    case 'tostream/0':
      for (const p of recursePaths(input, [])) {
        const v = getPath(input, p);
        if (v === null || typeof v !== 'object' || lengthOf(v) === 0) yield [p, v];
      }
      return;
    case 'env/0':
      yield { ...env.envVars };
      return;
    case 'input/0':
      if (!env.inputs.length) throw new JqError('No more inputs');
      yield env.inputs.shift()!;
      return;
    case 'inputs/0':
      while (env.inputs.length) yield env.inputs.shift()!;
      return;
    case 'now/0':
      yield env.now() / 1000;
      return;
    case 'halt/0':
      throw new Halt(0, undefined);
    case 'halt_error/0':
    case 'halt_error/1':
      throw new Halt(args[0] ? (one(0) as number) : 5, input);
    case 'debug/0':
      debugLines.push(`["DEBUG:",${toJsonText(input)}]`);
      yield input;
      return;
    case 'objects/0':
    case 'arrays/0':
    case 'strings/0':
    case 'numbers/0':
    case 'booleans/0':
    case 'nulls/0':
    case 'iterables/0':
    case 'scalars/0': {
      const t = typeOf(input);
      const ok = name === 'iterables' ? t === 'array' || t === 'object' : name === 'scalars' ? t !== 'array' && t !== 'object' : `${t}s` === name || (name === 'booleans' && t === 'boolean');
      if (ok) yield input;
      return;
    }
    case 'input_filename/0':
      yield null;
      return;
    case 'builtins/0':
      yield [];
      return;
    case 'pick/1': {
      let out: Json = null;
      for (const p of paths(args[0]!, input, env, [])) out = setPath(out, p, getPath(input, p));
      yield out;
      return;
    }
    case 'toarray/0':
      yield Array.isArray(input) ? input : [input];
      return;
    case 'flatten/0':
    case 'flatten/1': {
      const d = args[0] ? (one(0) as number) : 1e9;
      if (d < 0) throw new JqError('flatten depth must not be negative');
      if (!Array.isArray(input)) throw new JqError(`Cannot iterate over ${desc(input)}`);
      const flat = (a: Json[], n: number): Json[] => a.flatMap((x) => (Array.isArray(x) && n > 0 ? flat(x, n - 1) : [x]));
      yield flat(input, d);
      return;
    }
  }
  throw new JqUndefined(`${name}/${args.length}`);
}

function contains(a: Json, b: Json): boolean {
  if (typeof a !== typeOf(b) && !(a === null && b === null)) {
    if (typeOf(a) !== typeOf(b)) throw new JqError(`${desc(a)} and ${desc(b)} cannot have their containment checked`);
  }
  if (typeof a === 'string') return a.includes(b as string);
  if (Array.isArray(a)) return (b as Json[]).every((x) => a.some((y) => contains(y, x)));
  if (a && typeof a === 'object') return Object.entries(b as Record<string, Json>).every(([k, v]) => k in a && contains(a[k]!, v));
  return compare(a, b) === 0;
}

/** `halt`/`halt_error`: the program ends with this status. */
export class Halt {
  constructor(
    readonly code: number,
    readonly value: Json | undefined,
  ) {}
}

/** A call to a function jq does not have: a compile error in jq, found here when reached. */
export class JqUndefined extends Error {}

/** `debug` messages for stderr, collected per run by the command. */
export const debugLines: string[] = [];

/** Every function name/arity the evaluator knows (for jq's compile-time check). */
export const KNOWN = new Set(
  'empty/0 not/0 length/0 utf8bytelength/0 keys/0 keys_unsorted/0 values/0 has/1 in/1 map/1 map_values/1 select/1 recurse/0 recurse/1 error/0 error/1 add/0 any/0 all/0 any/1 all/1 any/2 all/2 range/1 range/2 floor/0 ceil/0 round/0 sqrt/0 fabs/0 log/0 exp/0 abs/0 tostring/0 tonumber/0 type/0 infinite/0 nan/0 sort/0 sort_by/1 group_by/1 unique_by/1 min_by/1 max_by/1 unique/0 min/0 max/0 reverse/0 contains/1 inside/1 startswith/1 endswith/1 ltrimstr/1 rtrimstr/1 split/1 join/1 ascii_downcase/0 ascii_upcase/0 explode/0 implode/0 to_entries/0 from_entries/0 with_entries/1 paths/0 paths/1 leaf_paths/0 path/1 getpath/1 setpath/2 delpaths/1 del/1 tojson/0 fromjson/0 test/1 test/2 match/1 match/2 capture/1 capture/2 sub/2 gsub/2 sub/3 gsub/3 splits/1 ascii/0 first/0 last/0 first/1 last/1 nth/1 nth/2 limit/2 until/2 while/2 repeat/1 isempty/1 indices/1 index/1 rindex/1 tostream/0 env/0 input/0 inputs/0 now/0 halt/0 halt_error/0 halt_error/1 debug/0 objects/0 arrays/0 strings/0 numbers/0 booleans/0 nulls/0 iterables/0 scalars/0 flatten/0 flatten/1 input_filename/0 builtins/0 pick/1 toarray/0'.split(' '),
);

