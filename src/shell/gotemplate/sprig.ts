/**
 * The Sprig functions charts use (github.com/Masterminds/sprig/v3: strings.go, defaults.go,
 * dict.go, list.go, numeric.go, crypto.go, regex.go, semver.go), as Helm v4 registers them
 * (helm pkg/engine/funcs.go: toYaml/fromYaml/toJson through sigs.k8s.io/yaml, `required`,
 * `include`, `tpl`, `lookup` are added by the Helm engine itself, src/shell/helm/engine.ts).
 * Pure: hashes come from node:crypto, `randAlphaNum` from a seeded generator the caller injects,
 * `now` from the caller's clock.
 */
import { createHash } from 'node:crypto';
import { toYaml as goYaml } from '../printers/yaml.js';
import { sprint } from './fmt.js';
import { FuncError, type FuncDef, type FuncMap } from './funcs.js';
import { GoNum, type GoValue, isMap, isTrue, typeName } from './value.js';
import { LinearRegExp } from '../../util/regex/index.js';
import { htmlSafe, kindOf, sprigMore, toPlain } from './sprig-more.js';
import { helmFuncs } from './helm-funcs.js';
import { goStringBytes } from '../../util/go-bytes.js';
import { sprigDates } from './sprig-date.js';
import { sprigCrypto } from './sprig-crypto.js';

export { toPlain };

const V = 'value' as const;
const A = 'any' as const;
const S = 'string' as const;

const f = (params: FuncDef['params'], call: FuncDef['call'], variadic?: FuncDef['variadic']): FuncDef => (variadic ? { params, call, variadic } : { params, call });

/** Sprig's `empty`: the zero value of its type (reflect based). */
export function empty(v: GoValue): boolean {
  return !isTrue(v === null ? undefined : v);
}

/** fmt.Sprint of one value, as sprig's strval/toString does. */
export function strval(v: GoValue): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '<nil>';
  return sprint([v]);
}

/** Plain JSON → Go values as encoding/json decodes into interface{} (every number a float64). */
export function fromPlain(v: unknown): GoValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return new GoNum('float64', v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return new GoNum('float64', Number(v));
  if (Array.isArray(v)) return v.map(fromPlain);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    const out: Record<string, GoValue> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = fromPlain(x);
    return out;
  }
  return String(v);
}

/** Go's encoding/json Marshal: sorted keys, HTML-escaped <, >, &. */
export function goJson(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** helm's toYaml: sigs.k8s.io/yaml.Marshal with the trailing newline trimmed. */
export function helmToYaml(v: GoValue): string {
  const plain = toPlain(v);
  if (plain === null) return 'null';
  return goYaml(plain as never).replace(/\n$/, '');
}

function toInt(v: GoValue): number {
  if (v instanceof GoNum) return Math.trunc(v.v);
  if (typeof v === 'string') {
    const n = Number.parseFloat(v);
    return /^[-+]?\d/.test(v.trim()) && Number.isFinite(n) ? Math.trunc(n) : 0;
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  return 0;
}

function toFloat(v: GoValue): number {
  if (v instanceof GoNum) return v.v;
  if (typeof v === 'string') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : 0;
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  return 0;
}

function list(v: GoValue, fn: string): GoValue[] {
  if (Array.isArray(v)) return v;
  throw new FuncError(`Cannot ${fn} on type ${typeName(v)}`);
}

function dict(v: GoValue): Record<string, GoValue> {
  if (isMap(v)) return v;
  throw new FuncError(`wrong type for value; expected map[string]interface {}; got ${typeName(v)}`);
}

/** reflect.DeepEqual over Go values. */
function deepEqual(a: GoValue, b: GoValue): boolean {
  if (a instanceof GoNum && b instanceof GoNum) return a.t === b.t && a.v === b.v;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return a === b;
}

/** mergo.Merge without override: fill what dst lacks from src, recursively through maps. */
export function mergeInto(dst: Record<string, GoValue>, src: Record<string, GoValue>, override: boolean): void {
  for (const [k, sv] of Object.entries(src)) {
    const dv = dst[k];
    if (isMap(dv) && isMap(sv)) mergeInto(dv, sv, override);
    else if (override ? !empty(sv) : !(k in dst) || empty(dv)) dst[k] = structuredCloneGo(sv);
  }
}

export function structuredCloneGo(v: GoValue): GoValue {
  if (Array.isArray(v)) return v.map(structuredCloneGo);
  if (isMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, structuredCloneGo(x)]));
  return v;
}

/** A semantic version (Masterminds/semver v3), tolerant like NewVersion: `v1.2`, `1.2.3-rc.1`. */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  pre: string;
}

export function parseSemver(s: string): SemVer | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(s.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0), pre: m[4] ?? '' };
}

export function compareSemver(a: SemVer, b: SemVer): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (a.pre === b.pre) return 0;
  if (!a.pre) return 1;
  if (!b.pre) return -1;
  const pa = a.pre.split('.');
  const pb = b.pre.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Number(x) < Number(y) ? -1 : 1;
    if (nx !== ny) return nx ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * A Masterminds/semver constraint: comma (AND) and `||` (OR) of `=`, `!=`, `>`, `<`, `>=`, `<=`,
 * `~` (patch-level, or minor when only major given), `^` (same major; same minor below 1.0), `x`
 * wildcards and `A - B` ranges. Prereleases match only when the constraint names one.
 */
export function semverSatisfies(constraint: string, version: string): boolean {
  const v = parseSemver(version);
  if (!v) return false;
  return constraint.split('||').some((alt) => {
    const parts = alt.trim().replace(/\s*-\s+/, ' - ').split(/\s*,\s*|\s+(?![^<>=~^!]*\s-)/).filter(Boolean);
    const range = /^(\S+)\s+-\s+(\S+)$/.exec(alt.trim());
    if (range) return checkOne('>=', range[1]!, v) && checkOne('<=', range[2]!, v);
    return parts.every((p) => {
      const m = /^(=|!=|>=|<=|>|<|~>?|\^)?\s*v?(.+)$/.exec(p.trim());
      return m ? checkOne(m[1] ?? '=', m[2]!, v) : false;
    });
  });
}

function checkOne(op: string, raw: string, v: SemVer): boolean {
  const fields = raw.split(/[-+]/)[0]!.split('.');
  const wild = (x: string | undefined): boolean => x === undefined || x === 'x' || x === 'X' || x === '*';
  const c = parseSemver(raw.replace(/[xX*]/g, '0'));
  if (!c) return false;
  if (v.pre && !c.pre) return false;
  const cmp = compareSemver(v, c);
  const given = fields.filter((x) => !wild(x)).length;
  switch (op) {
    case '=':
      if (given < 3) return v.major === c.major && (given < 2 || v.minor === c.minor);
      return cmp === 0;
    case '!=':
      return cmp !== 0;
    case '>':
      if (given === 1) return v.major > c.major;
      if (given === 2) return v.major > c.major || (v.major === c.major && v.minor > c.minor);
      return cmp > 0;
    case '<':
      return cmp < 0;
    case '>=':
      return cmp >= 0;
    case '<=':
      if (given === 1) return v.major <= c.major;
      if (given === 2) return v.major < c.major || (v.major === c.major && v.minor <= c.minor);
      return cmp <= 0;
    case '~':
    case '~>':
      if (cmp < 0) return false;
      return given === 1 ? v.major === c.major : v.major === c.major && v.minor === c.minor;
    case '^':
      if (cmp < 0) return false;
      if (c.major > 0 || given === 1) return v.major === c.major;
      return v.major === 0 && v.minor === c.minor;
    default:
      return false;
  }
}

/** Go's regexp syntax as far as charts use it, translated to JavaScript (`(?i)` prefix, `$1`/`${1}`). */
function goRegex(re: string, flags = ''): RegExp {
  // Go's regexp is RE2: parsed as such, matched in linear time (a chart's pattern cannot hang)
  try {
    return new LinearRegExp(re, flags, 're2');
  } catch {
    throw new FuncError(`error parsing regexp: invalid or unsupported Perl syntax: \`${re}\``);
  }
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Sprig's functions, with a random source for the rand* family and the clock (ms) for now/ago. */
export function sprigFuncs(random: () => number, now: () => number): FuncMap {
  const indent = (n: number, s: string): string => {
    const pad = ' '.repeat(Math.max(0, n));
    return pad + s.replaceAll('\n', `\n${pad}`);
  };
  const num = (v: number, t: 'int' | 'int64' | 'float64' = 'int64'): GoNum => new GoNum(t, v);
  return {
    // strings.go
    upper: f([S], ([s]) => (s as string).toUpperCase()),
    lower: f([S], ([s]) => (s as string).toLowerCase()),
    title: f([S], ([s]) => (s as string).replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase())),
    trim: f([S], ([s]) => (s as string).trim()),
    trimAll: f([S, S], ([c, s]) => trimChars(s as string, c as string)),
    trimSuffix: f([S, S], ([a, s]) => ((s as string).endsWith(a as string) && a ? (s as string).slice(0, -(a as string).length) : (s as string))),
    trimPrefix: f([S, S], ([a, s]) => ((s as string).startsWith(a as string) ? (s as string).slice((a as string).length) : (s as string))),
    contains: f([S, S], ([a, s]) => (s as string).includes(a as string)),
    hasPrefix: f([S, S], ([a, s]) => (s as string).startsWith(a as string)),
    hasSuffix: f([S, S], ([a, s]) => (s as string).endsWith(a as string)),
    replace: f([S, S, S], ([o, n, s]) => (s as string).replaceAll(o as string, n as string)),
    repeat: f([V, S], ([c, s]) => (s as string).repeat(Math.max(0, toInt(c)))),
    indent: f([V, S], ([n, s]) => indent(toInt(n), s as string)),
    nindent: f([V, S], ([n, s]) => `\n${indent(toInt(n), s as string)}`),
    trunc: f([V, S], ([n, s]) => {
      const c = toInt(n);
      const str = s as string;
      if (c < 0 && str.length + c > 0) return str.slice(str.length + c);
      if (c >= 0 && str.length > c) return str.slice(0, c);
      return str;
    }),
    substr: f([V, V, S], ([a, b, s]) => {
      const str = s as string;
      const start = toInt(a);
      const end = toInt(b);
      if (start < 0) return str.slice(0, end);
      if (end < 0 || end > str.length) return str.slice(start);
      return str.slice(start, end);
    }),
    quote: f([], (args) => args.filter((a) => a !== null && a !== undefined).map((a) => JSON.stringify(strval(a))).join(' '), A),
    squote: f([], (args) => args.filter((a) => a !== null && a !== undefined).map((a) => `'${strval(a)}'`).join(' '), A),
    cat: f([], (args) => args.filter((a) => a !== null && a !== undefined).map(strval).join(' '), A),
    toString: f([A], ([v]) => strval(v)),
    join: f([S, A], ([sep, v]) => (Array.isArray(v) ? v.map(strval).join(sep as string) : strval(v))),
    split: f([S, S], ([sep, s]) => Object.fromEntries((s as string).split(sep as string).map((p, i) => [`_${i}`, p]))),
    splitList: f([S, S], ([sep, s]) => (s as string).split(sep as string)),
    camelcase: f([S], ([s]) => (s as string).split(/[_\s-]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')),
    kebabcase: f([S], ([s]) => (s as string).replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/[_\s]+/g, '-').toLowerCase()),
    snakecase: f([S], ([s]) => (s as string).replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[-\s]+/g, '_').toLowerCase()),
    // defaults.go
    default: f([A], ([d, v]) => (v === undefined || empty(v ?? null) ? d ?? null : v), A),
    empty: f([A], ([v]) => empty(v ?? null)),
    coalesce: f([], (args) => args.find((a) => !empty(a ?? null)) ?? null, A),
    ternary: f([A, A, V], ([t, e, c]) => (c === true ? t ?? null : e ?? null)),
    required: f([S, A], ([msg, v]) => {
      if (v === null || v === undefined || v === '') throw new FuncError(msg as string);
      return v;
    }),
    fail: f([S], ([msg]) => {
      throw new FuncError(msg as string);
    }),
    // encoding
    b64enc: f([S], ([s]) => goStringBytes(s as string).toString('base64')),
    toJson: f([A], ([v]) => goJson(toPlain(v ?? null))),
    // json.MarshalIndent escapes <, > and & as Marshal does
    toPrettyJson: f([A], ([v]) => htmlSafe(JSON.stringify(toPlain(v ?? null), null, 2))),
    toYaml: f([A], ([v]) => helmToYaml(v ?? null)),
    int: f([A], ([v]) => num(toInt(v ?? null), 'int')),
    int64: f([A], ([v]) => num(toInt(v ?? null), 'int64')),
    float64: f([A], ([v]) => num(toFloat(v ?? null), 'float64')),
    atoi: f([S], ([s]) => num(/^[-+]?\d+$/.test(s as string) ? Number(s) : 0, 'int')),
    // numeric.go
    add: f([], (args) => num(args.reduce<number>((a, b) => a + toInt(b ?? null), 0)), A),
    add1: f([A], ([v]) => num(toInt(v ?? null) + 1)),
    sub: f([A, A], ([a, b]) => num(toInt(a ?? null) - toInt(b ?? null))),
    mul: f([A], ([a, ...r]) => num(r.reduce<number>((x, y) => x * toInt(y ?? null), toInt(a ?? null))), A),
    div: f([A, A], ([a, b]) => {
      const d = toInt(b ?? null);
      if (d === 0) throw new FuncError('runtime error: integer divide by zero');
      return num(Math.trunc(toInt(a ?? null) / d));
    }),
    mod: f([A, A], ([a, b]) => num(toInt(a ?? null) % toInt(b ?? null))),
    max: f([A], (args) => num(Math.max(...args.map((a) => toInt(a ?? null)))), A),
    min: f([A], (args) => num(Math.min(...args.map((a) => toInt(a ?? null)))), A),
    until: f([V], ([n]) => Array.from({ length: Math.abs(toInt(n)) }, (_, i) => num(toInt(n) < 0 ? -i : i, 'int'))),
    untilStep: f([V, V, V], ([a, b, s]) => {
      const out: GoValue[] = [];
      const step = toInt(s);
      if (step === 0) return out;
      for (let i = toInt(a); step > 0 ? i < toInt(b) : i > toInt(b); i += step) out.push(num(i, 'int'));
      return out;
    }),
    seq: f([], (args) => {
      const n = args.map((a) => toInt(a ?? null));
      const [start, step, end] = n.length === 1 ? [1, 1, n[0]!] : n.length === 2 ? [n[0]!, n[0]! <= n[1]! ? 1 : -1, n[1]!] : [n[0]!, n[1]!, n[2]!];
      const out: number[] = [];
      if (step === 0) return '';
      for (let i = start; step > 0 ? i <= end : i >= end; i += step) out.push(i);
      return out.join(' ');
    }, A),
    // lists
    list: f([], (args) => args.map((a) => a ?? null), A),
    first: f([A], ([l]) => (Array.isArray(l) ? (l[0] ?? null) : null)),
    last: f([A], ([l]) => (Array.isArray(l) ? (l[l.length - 1] ?? null) : null)),
    rest: f([A], ([l]) => (Array.isArray(l) ? l.slice(1) : null)),
    initial: f([A], ([l]) => (Array.isArray(l) ? l.slice(0, -1) : null)),
    append: f([A, A], ([l, v]) => [...list(l ?? null, 'append'), v ?? null]),
    prepend: f([A, A], ([l, v]) => [v ?? null, ...list(l ?? null, 'prepend')]),
    concat: f([], (args) => args.flatMap((a) => (Array.isArray(a) ? a : [])), A),
    reverse: f([A], ([l]) => [...list(l ?? null, 'reverse')].reverse()),
    uniq: f([A], ([l]) => list(l ?? null, 'uniq').filter((x, i, arr) => arr.findIndex((y) => deepEqual(x, y)) === i)),
    without: f([A], ([l, ...omit]) => list(l ?? null, 'without').filter((x) => !omit.some((o) => deepEqual(x, o ?? null))), A),
    has: f([A, A], ([needle, l]) => (Array.isArray(l) ? l.some((x) => deepEqual(x, needle ?? null)) : false)),
    compact: f([A], ([l]) => list(l ?? null, 'compact').filter((x) => !empty(x))),
    sortAlpha: f([A], ([l]) => (Array.isArray(l) ? l.map(strval).sort() : [strval(l ?? null)])),
    // dicts
    dict: f([], (args) => {
      const out: Record<string, GoValue> = {};
      for (let i = 0; i < args.length; i += 2) out[strval(args[i] ?? null)] = i + 1 < args.length ? (args[i + 1] ?? null) : '';
      return out;
    }, A),
    get: f([A, S], ([d, k]) => (isMap(d) && (k as string) in d ? (d[k as string] ?? null) : '')),
    set: f([A, S, A], ([d, k, v]) => {
      const m = dict(d ?? null);
      m[k as string] = v ?? null;
      return m;
    }),
    unset: f([A, S], ([d, k]) => {
      const m = dict(d ?? null);
      delete m[k as string];
      return m;
    }),
    hasKey: f([A, S], ([d, k]) => isMap(d) && (k as string) in d),
    keys: f([], (args) => args.flatMap((d) => (isMap(d) ? Object.keys(d) : [])), A),
    values: f([A], ([d]) => Object.values(dict(d ?? null))),
    pluck: f([S], ([k, ...ds]) => ds.filter((d) => isMap(d) && (k as string) in d).map((d) => (d as Record<string, GoValue>)[k as string] ?? null), A),
    pick: f([A], ([d, ...ks]) => Object.fromEntries(Object.entries(dict(d ?? null)).filter(([k]) => ks.includes(k))), S),
    omit: f([A], ([d, ...ks]) => Object.fromEntries(Object.entries(dict(d ?? null)).filter(([k]) => !ks.includes(k))), S),
    merge: f([A], ([d, ...srcs]) => {
      const dst = dict(d ?? null);
      for (const s of srcs) if (isMap(s)) mergeInto(dst, s, false);
      return dst;
    }, A),
    mergeOverwrite: f([A], ([d, ...srcs]) => {
      const dst = dict(d ?? null);
      for (const s of srcs) if (isMap(s)) mergeInto(dst, s, true);
      return dst;
    }, A),
    deepCopy: f([A], ([v]) => structuredCloneGo(v ?? null)),
    // crypto.go
    sha256sum: f([S], ([s]) => createHash('sha256').update(s as string, 'utf8').digest('hex')),
    sha1sum: f([S], ([s]) => createHash('sha1').update(s as string, 'utf8').digest('hex')),
    adler32sum: f([S], ([s]) => String(adler32(s as string))),
    randAlphaNum: f([V], ([n]) => Array.from({ length: Math.max(0, toInt(n)) }, () => ALNUM[Math.floor(random() * ALNUM.length)]!).join('')),
    randAlpha: f([V], ([n]) => Array.from({ length: Math.max(0, toInt(n)) }, () => ALNUM[Math.floor(random() * 52)]!).join('')),
    randNumeric: f([V], ([n]) => Array.from({ length: Math.max(0, toInt(n)) }, () => ALNUM[52 + Math.floor(random() * 10)]!).join('')),
    // regex.go
    regexMatch: f([S, S], ([re, s]) => goRegex(re as string).test(s as string)),
    regexFind: f([S, S], ([re, s]) => goRegex(re as string).exec(s as string)?.[0] ?? ''),
    regexFindAll: f([S, S, V], ([re, s, n]) => {
      const all = [...(s as string).matchAll(goRegex(re as string, 'g'))].map((m) => m[0]);
      const c = toInt(n);
      return c < 0 ? all : all.slice(0, c);
    }),
    regexReplaceAll: f([S, S, S], ([re, s, repl]) => (s as string).replace(goRegex(re as string, 'g'), (repl as string).replace(/\$\{(\d+)\}/g, '$$$1').replace(/\$(\d+)/g, '$$$1'))),
    regexReplaceAllLiteral: f([S, S, S], ([re, s, repl]) => (s as string).replace(goRegex(re as string, 'g'), () => repl as string)),
    regexSplit: f([S, S, V], ([re, s, n]) => {
      const parts = (s as string).split(goRegex(re as string, 'g'));
      const c = toInt(n);
      return c < 0 ? parts : parts.slice(0, c);
    }),
    // semver.go
    semverCompare: f([S, S], ([c, v]) => {
      if (!parseSemver(v as string)) throw new FuncError('Invalid Semantic Version');
      return semverSatisfies(c as string, v as string);
    }),
    semver: f([S], ([v]) => {
      const p = parseSemver(v as string);
      if (!p) throw new FuncError('Invalid Semantic Version');
      return { Major: num(p.major), Minor: num(p.minor), Patch: num(p.patch), Prerelease: p.pre, Metadata: /\+([0-9A-Za-z.-]+)$/.exec((v as string).trim())?.[1] ?? '', Original: v as string };
    }),
    // reflect.go / types
    kindOf: f([A], ([v]) => kindOf(v ?? null)),
    kindIs: f([S, A], ([k, v]) => kindOf(v ?? null) === k),
    typeOf: f([A], ([v]) => typeName(v ?? null)),
    typeIs: f([S, A], ([t, v]) => typeName(v ?? null) === t),
    deepEqual: f([A, A], ([a, b]) => deepEqual(a ?? null, b ?? null)),
    ...sprigMore(random),
    ...helmFuncs(fromPlain),
    ...sprigDates(now),
    ...sprigCrypto(random, now),
  };
}

function trimChars(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a]!)) a++;
  while (b > a && chars.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}

function adler32(s: string): number {
  let a = 1;
  let b = 0;
  for (const byte of Buffer.from(s, 'utf8')) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}
