/**
 * The rest of Sprig v3's function map (github.com/Masterminds/sprig/v3 functions.go genericMap)
 * beyond what sprig.ts holds: goutils' string helpers (abbrev, initials, wrap, swapcase), the
 * decimal float arithmetic (numeric.go execDecimalOp over shopspring/decimal), the `must*` list
 * functions and their errors (list.go), dig and chunk, base32, sha512, path and url helpers,
 * regexQuoteMeta and the must-regex family with Go's regexp errors, toRawJson and the
 * reflect helpers. Their results and error texts are recorded from the real helm v4.1.4
 * (scripts/record-sprig.mjs, src/shell/helm/testdata/sprig/).
 * A function that panics in Go is a FuncError here: text/template reports both as
 * `error calling NAME: MESSAGE`.
 */
import { goStringBytes, goStringFromBytes } from '../../util/go-bytes.js';
import { createHash } from 'node:crypto';
import { GoRegexpError, compileGoRegexp } from '../../util/go-regexp.js';
import type { LinearRegExp } from '../../util/regex/index.js';
import { sprint } from './fmt.js';
import { FuncError, type FuncDef, type FuncMap } from './funcs.js';
import { GoNum, GoStruct, GoTime, type GoValue, isMap, typeName } from './value.js';

const V = 'value' as const;
const A = 'any' as const;
const S = 'string' as const;
const f = (params: FuncDef['params'], call: FuncDef['call'], variadic?: FuncDef['variadic']): FuncDef => (variadic ? { params, call, variadic } : { params, call });
const int = (v: number): GoNum => new GoNum('int', v);
const i64 = (v: number): GoNum => new GoNum('int64', v);
const f64 = (v: number): GoNum => new GoNum('float64', v);

/** A Go slice of a named element type ([]string): typeOf reports it. */
export function typedSlice<T extends GoValue[]>(arr: T, goType: string): T {
  Object.defineProperty(arr, 'goType', { value: goType, enumerable: false });
  return arr;
}

/** reflect.Kind's name (`kindOf`, and sprig's `Cannot … on type %s` errors); nil's is `invalid`. */
export function kindOf(v: GoValue): string {
  if (v === null || v === undefined) return 'invalid';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof GoNum) return v.t;
  if (Array.isArray(v)) return 'slice';
  if (isMap(v)) return 'map';
  if (v instanceof GoTime || v instanceof GoStruct) return 'struct';
  return 'func';
}

/** The list argument of a list.go function, or its `Cannot … on type` error. */
export function listArg(v: GoValue | undefined, what: string): GoValue[] {
  const x = v ?? null;
  if (Array.isArray(x)) return x;
  throw new FuncError(`Cannot ${what} on type ${kindOf(x)}`);
}

/** cast.ToInt / ToFloat64 as sprig calls them. */
function castInt(v: GoValue): number {
  if (v instanceof GoNum) return Math.trunc(v.v);
  if (typeof v === 'string') return /^[-+]?\d+$/.test(v) ? Number(v) : 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return 0;
}
function castFloat(v: GoValue): number {
  if (v instanceof GoNum) return v.v;
  if (typeof v === 'string') return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v) ? Number(v) : 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return 0;
}

/** goutils.isDelimiter without delimiters: unicode.IsSpace. */
const isSpace = (c: string): boolean => /^[\s\u0085]$/u.test(c);

/** goutils.AbbreviateFull (maxWidth ≥ 4 checked by the caller as sprig does). */
function abbreviateFull(s: string, offset: number, maxWidth: number): string {
  if (s === '' || maxWidth < 4) return s;
  if (s.length <= maxWidth) return s;
  let off = Math.min(offset, s.length);
  if (s.length - off < maxWidth - 3) off = s.length - (maxWidth - 3);
  if (off <= 4) return `${s.slice(0, maxWidth - 3)}...`;
  if (maxWidth < 7) return s;
  if (off + maxWidth - 3 < s.length) return `...${abbreviateFull(s.slice(off), 0, maxWidth - 3)}`;
  return `...${s.slice(s.length - (maxWidth - 3))}`;
}

/** goutils.WrapCustom. */
export function wrapCustom(s: string, width: number, nl: string, wrapLong: boolean): string {
  if (s === '') return '';
  const sep = nl || '\n';
  const w = Math.max(1, width);
  let offset = 0;
  let out = '';
  while (s.length - offset > w) {
    if (s[offset] === ' ') {
      offset++;
      continue;
    }
    const at = s.slice(offset, w + offset + 1).lastIndexOf(' ') + offset;
    if (at >= offset) {
      out += s.slice(offset, at) + sep;
      offset = at + 1;
    } else if (wrapLong) {
      out += s.slice(offset, offset + w) + sep;
      offset += w;
    } else {
      const end = w + offset;
      const idx = s.slice(end).indexOf(' ');
      if (idx === -1) {
        out += s.slice(offset);
        offset = s.length;
      } else {
        out += s.slice(offset, idx + end) + sep;
        offset = idx + end + 1;
      }
    }
  }
  return out + s.slice(offset);
}

/** goutils.SwapCase (its title-casing after whitespace is upper-casing for these letters). */
function swapCase(s: string): string {
  let out = '';
  for (const ch of s) {
    const low = ch.toLowerCase();
    out += ch !== low ? low : ch.toUpperCase();
  }
  return out;
}

/** A shopspring decimal: coefficient × 10^exp. */
interface Dec {
  c: bigint;
  e: number;
}
/** decimal.NewFromFloat: the shortest decimal that round-trips the float64. */
function decOf(x: number): Dec {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([-+]\d+))?$/.exec(String(x));
  if (!m) return { c: 0n, e: 0 };
  const frac = m[3] ?? '';
  return { c: BigInt(`${m[1]}${m[2]}${frac}`), e: Number(m[4] ?? 0) - frac.length };
}
const align = (a: Dec, b: Dec): [bigint, bigint, number] => {
  const e = Math.min(a.e, b.e);
  return [a.c * 10n ** BigInt(a.e - e), b.c * 10n ** BigInt(b.e - e), e];
};
const decToFloat = (d: Dec): number => Number(`${d.c}e${d.e}`);
/** decimal.Div: DivRound to DivisionPrecision (16) places, half away from zero. */
function decDiv(a: Dec, b: Dec): Dec {
  if (b.c === 0n) throw new FuncError('decimal division by 0');
  const shift = a.e - b.e + 16;
  let num = a.c * (shift > 0 ? 10n ** BigInt(shift) : 1n);
  let den = b.c * (shift < 0 ? 10n ** BigInt(-shift) : 1n);
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const q = num / den;
  const r = num % den;
  const twice = (r < 0n ? -r : r) * 2n;
  const rounded = twice >= den ? q + (num < 0n ? -1n : 1n) : q;
  return { c: rounded, e: -16 };
}
type DecOp = (a: Dec, b: Dec) => Dec;
const decAdd: DecOp = (a, b) => {
  const [x, y, e] = align(a, b);
  return { c: x + y, e };
};
const decSub: DecOp = (a, b) => {
  const [x, y, e] = align(a, b);
  return { c: x - y, e };
};
const decMul: DecOp = (a, b) => ({ c: a.c * b.c, e: a.e + b.e });
/** numeric.go execDecimalOp. */
function decimalOp(first: GoValue, rest: GoValue[], op: DecOp): GoNum {
  let acc = decOf(castFloat(first ?? null));
  for (const x of rest) acc = op(acc, decOf(castFloat(x ?? null)));
  return f64(decToFloat(acc));
}

/** Go's path.Clean. */
export function pathClean(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
    } else out.push(part);
  }
  const joined = out.join('/');
  return rooted ? `/${joined}` : joined || '.';
}
function pathBase(p: string): string {
  if (p === '') return '.';
  const s = p.replace(/\/+$/, '');
  if (s === '') return '/';
  return s.slice(s.lastIndexOf('/') + 1);
}
function pathDir(p: string): string {
  const i = p.lastIndexOf('/');
  return pathClean(p.slice(0, i + 1));
}
function pathExt(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
function b32enc(s: string): string {
  const bytes = goStringBytes(s);
  let out = '';
  for (let i = 0; i < bytes.length; i += 5) {
    const chunk = [...bytes.subarray(i, i + 5)];
    const n = chunk.length;
    while (chunk.length < 5) chunk.push(0);
    let bits = 0n;
    for (const b of chunk) bits = (bits << 8n) | BigInt(b);
    const chars = Math.ceil((n * 8) / 5);
    for (let j = 0; j < 8; j++) out += j < chars ? B32[Number((bits >> BigInt(35 - j * 5)) & 31n)] : '=';
  }
  return out;
}
/** base32.StdEncoding.DecodeString, its CorruptInputError as the text sprig returns. */
function b32dec(s: string): string {
  const clean = s.replace(/[\r\n]/g, '');
  const bad = (i: number): string => `illegal base32 data at input byte ${i}`;
  if (clean.length % 8 !== 0) return bad(clean.length - (clean.length % 8));
  const bytes: number[] = [];
  for (let i = 0; i < clean.length; i += 8) {
    const block = clean.slice(i, i + 8);
    const pad = block.indexOf('=');
    const data = pad < 0 ? block : block.slice(0, pad);
    for (let j = 0; j < data.length; j++) if (!B32.includes(data[j]!)) return bad(i + j);
    if (pad >= 0 && (!/^=+$/.test(block.slice(pad)) || ![2, 4, 5, 7].includes(pad) || i + 8 < clean.length)) return bad(i + pad);
    let bits = 0n;
    for (let j = 0; j < 8; j++) bits = (bits << 5n) | BigInt(j < data.length ? B32.indexOf(data[j]!) : 0);
    const n = Math.floor((data.length * 5) / 8);
    for (let j = 0; j < n; j++) bytes.push(Number((bits >> BigInt(32 - j * 8)) & 255n));
  }
  return goStringFromBytes(Buffer.from(bytes));
}

/**
 * regexp.Compile for a must* function (its error as is) or regexp.MustCompile for the others
 * (the panic `regexp: Compile(QUOTED): ERR`, QUOTED backquoted when strconv.CanBackquote).
 */
function re(pattern: string, global: boolean, must = true): LinearRegExp | undefined {
  try {
    return compileGoRegexp(pattern, global ? 'g' : '').re;
  } catch (e) {
    if (!(e instanceof GoRegexpError)) throw e;
    if (must) throw new FuncError(e.message);
    const quoted = /^[^`\x00-\x08\x0a-\x1f\x7f]*$/.test(pattern) ? `\`${pattern}\`` : JSON.stringify(pattern);
    throw new FuncError(`regexp: Compile(${quoted}): ${e.message}`);
  }
}

/** regexp.Expand's template: `$$`, `$name`/`${name}` (a number is a group index; unknown is empty). */
export function goExpand(template: string, m: RegExpExecArray | RegExpMatchArray): string {
  return template.replace(/\$(?:\$|\{(\w+)\}|(\w+))/g, (all, braced: string | undefined, bare: string | undefined) => {
    if (all === '$$') return '$';
    const name = (braced ?? bare)!;
    if (/^\d+$/.test(name)) return m[Number(name)] ?? '';
    return m.groups?.[name] ?? '';
  });
}

/** encoding/json without HTML escaping (sprig's toRawJson: Encoder.SetEscapeHTML(false), newline trimmed). */
function rawJson(v: unknown): string {
  return JSON.stringify(v).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** encoding/json's HTML-safe escapes of <, > and & (and the line separators). */
export function htmlSafe(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The parts of a URL sprig's urlParse returns (net/url Parse of an absolute or relative reference). */
function urlParse(raw: string): Record<string, GoValue> {
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(raw)!;
  const auth = m[2] ?? '';
  const at = auth.lastIndexOf('@');
  const host = at >= 0 ? auth.slice(at + 1) : auth;
  const hostname = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  const scheme = (m[1] ?? '').toLowerCase();
  const rest = m[3] ?? '';
  const opaque = scheme && m[2] === undefined && !rest.startsWith('/') ? rest : '';
  return { scheme, host, hostname, path: opaque ? '' : decodeURIComponent(rest), query: m[4] ?? '', opaque, fragment: m[5] !== undefined ? decodeURIComponent(m[5]) : '', userinfo: at >= 0 ? auth.slice(0, at) : '' };
}

/** url.URL.String for the fields urlJoin sets. */
function urlJoin(d: Record<string, GoValue>): string {
  const g = (k: string): string => (typeof d[k] === 'string' ? (d[k] as string) : '');
  const [scheme, host, path, query, opaque, fragment, user] = ['scheme', 'host', 'path', 'query', 'opaque', 'fragment', 'userinfo'].map(g) as [string, string, string, string, string, string, string];
  let out = scheme ? `${scheme}:` : '';
  if (opaque) out += opaque;
  else {
    if (scheme || host || user) {
      if (host || path || user) out += '//';
      if (user) out += `${user}@`;
      out += host;
    }
    if (path && !path.startsWith('/') && host) out += '/';
    out += encodeURI(path).replace(/%25/g, '%');
  }
  if (query) out += `?${query}`;
  if (fragment) out += `#${encodeURIComponent(fragment).replace(/%2F/g, '/')}`;
  return out;
}

/** Sprig's remaining functions; `random` is the seeded source the rand* family draws from. */
export function sprigMore(random: () => number): FuncMap {
  const pick = (alphabet: string, n: number): string => Array.from({ length: Math.max(0, n) }, () => alphabet[Math.floor(random() * alphabet.length)]!).join('');
  const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
  const regexFns = (must: boolean): Record<string, FuncDef> => {
    const p = must ? 'must' : '';
    const R = (name: string): string => (must ? `${p}${name[0]!.toUpperCase()}${name.slice(1)}` : name);
    return {
      [R('regexMatch')]: f([S, S], ([r, s]) => {
        if (!must) {
          try {
            return re(r as string, false)?.test(s as string) ?? false;
          } catch {
            return false;
          }
        }
        return re(r as string, false)?.test(s as string) ?? false;
      }),
      [R('regexFind')]: f([S, S], ([r, s]) => re(r as string, false, must)?.exec(s as string)?.[0] ?? ''),
      [R('regexFindAll')]: f([S, S, V], ([r, s, n]) => {
        const rx = re(r as string, true, must);
        const all = rx ? [...(s as string).matchAll(rx)].map((m) => m[0]) : [];
        const c = castInt(n ?? null);
        return typedSlice(c < 0 ? all : all.slice(0, c), '[]string');
      }),
      [R('regexReplaceAll')]: f([S, S, S], ([r, s, repl]) => {
        const rx = re(r as string, true, must);
        return rx ? [...(s as string).matchAll(rx)].reduceRight((acc, m) => acc.slice(0, m.index) + goExpand(repl as string, m) + acc.slice(m.index + m[0].length), s as string) : (s as string);
      }),
      [R('regexReplaceAllLiteral')]: f([S, S, S], ([r, s, repl]) => {
        const rx = re(r as string, true, must);
        return rx ? (s as string).replace(rx, () => repl as string) : (s as string);
      }),
      [R('regexSplit')]: f([S, S, V], ([r, s, n]) => {
        const rx = re(r as string, true, must);
        const c = castInt(n ?? null);
        if (!rx || c === 0) return typedSlice([], '[]string');
        return typedSlice(goSplit(s as string, rx, c), '[]string');
      }),
    };
  };
  const mustList = (name: string, what: string, fn: (l: GoValue[], rest: GoValue[]) => GoValue, params: FuncDef['params'] = [A], variadic?: FuncDef['variadic']): Record<string, FuncDef> => {
    const def = f(params, ([l, ...rest]) => fn(listArg(l, what), rest), variadic);
    return { [name]: def, [`must${name[0]!.toUpperCase()}${name.slice(1)}`]: def };
  };
  const push = f([A, A], ([l, v]) => [...listArg(l, 'push'), v ?? null]);
  return {
    hello: f([], () => 'Hello!'),
    // strings.go and goutils
    abbrev: f([V, S], ([w, s]) => (castInt(w ?? null) < 4 ? (s as string) : abbreviateFull(s as string, 0, castInt(w ?? null)))),
    abbrevboth: f([V, V, S], ([l, r, s]) => {
      const left = castInt(l ?? null);
      const right = castInt(r ?? null);
      if (right < 4 || (left > 0 && right < 7)) return s as string;
      return abbreviateFull(s as string, left, right);
    }),
    initials: f([S], ([s]) => {
      let gap = true;
      let out = '';
      for (const ch of s as string) {
        if (isSpace(ch)) gap = true;
        else if (gap) {
          out += ch;
          gap = false;
        }
      }
      return out;
    }),
    // goutils.Uncapitalize: the first letter of every whitespace-separated word lowered
    untitle: f([S], ([s]) => {
      let gap = true;
      let out = '';
      for (const ch of s as string) {
        out += gap ? ch.toLowerCase() : ch;
        gap = isSpace(ch);
      }
      return out;
    }),
    swapcase: f([S], ([s]) => swapCase(s as string)),
    nospace: f([S], ([s]) => [...(s as string)].filter((c) => !isSpace(c)).join('')),
    wrap: f([V, S], ([n, s]) => wrapCustom(s as string, castInt(n ?? null), '', false)),
    wrapWith: f([V, S, S], ([n, sep, s]) => wrapCustom(s as string, castInt(n ?? null), sep as string, true)),
    plural: f([S, S, V], ([one, many, n]) => (castInt(n ?? null) === 1 ? one! : many!)),
    splitn: f([S, V, S], ([sep, n, s]) => {
      const c = castInt(n ?? null);
      const all = (s as string).split(sep as string);
      const parts = c < 0 ? all : c === 0 ? [] : all.length > c ? [...all.slice(0, c - 1), all.slice(c - 1).join(sep as string)] : all;
      return Object.fromEntries(parts.map((p, i) => [`_${i}`, p]));
    }),
    trimall: f([S, S], ([c, s]) => trimCut(s as string, c as string)),
    randAscii: f([V], ([n]) => pick(ascii, castInt(n ?? null))),
    randInt: f([V, V], ([lo, hi]) => {
      const a = castInt(lo ?? null);
      const span = castInt(hi ?? null) - a;
      if (span <= 0) throw new FuncError('invalid argument to Intn');
      return int(a + Math.floor(random() * span));
    }),
    randBytes: f([V], ([n]) => Buffer.from(Array.from({ length: Math.max(0, castInt(n ?? null)) }, () => Math.floor(random() * 256))).toString('base64')),
    shuffle: f([S], ([s]) => {
      const chars = [...(s as string)];
      for (let i = chars.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [chars[i], chars[j]] = [chars[j]!, chars[i]!];
      }
      return chars.join('');
    }),
    uuidv4: f([], () => {
      const b = Array.from({ length: 16 }, () => Math.floor(random() * 256));
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      const h = b.map((x) => x.toString(16).padStart(2, '0')).join('');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }),
    // numeric.go
    biggest: f([A], ([a, ...r]) => i64(Math.max(castInt(a ?? null), ...r.map((x) => castInt(x ?? null)))), A),
    add1f: f([A], ([a]) => decimalOp(a ?? null, [int(1)], decAdd)),
    addf: f([], (args) => decimalOp(f64(0), args, decAdd), A),
    subf: f([A], ([a, ...r]) => decimalOp(a ?? null, r, decSub), A),
    mulf: f([A], ([a, ...r]) => decimalOp(a ?? null, r, decMul), A),
    divf: f([A], ([a, ...r]) => decimalOp(a ?? null, r, decDiv), A),
    maxf: f([A], ([a, ...r]) => f64(r.reduce<number>((m, x) => Math.max(m, castFloat(x ?? null)), castFloat(a ?? null))), A),
    minf: f([A], ([a, ...r]) => f64(r.reduce<number>((m, x) => Math.min(m, castFloat(x ?? null)), castFloat(a ?? null))), A),
    ceil: f([A], ([a]) => f64(Math.ceil(castFloat(a ?? null)))),
    floor: f([A], ([a]) => f64(Math.floor(castFloat(a ?? null)))),
    round: f([A, V], ([a, p, ...opt]) => {
      const on = opt.length > 0 ? castFloat(opt[0] ?? null) : 0.5;
      const pow = 10 ** castInt(p ?? null);
      const digit = pow * castFloat(a ?? null);
      const frac = digit - Math.trunc(digit);
      return f64((frac >= on ? Math.ceil(digit) : Math.floor(digit)) / pow);
    }, A),
    toDecimal: f([A], ([v]) => {
      const s = v instanceof GoNum ? String(v.v) : typeof v === 'string' ? v : '';
      return i64(/^[-+]?[0-7]+$/.test(s) ? Number.parseInt(s, 8) : 0);
    }),
    // defaults.go
    all: f([], (args) => args.every((x) => !emptyish(x ?? null)), A),
    any: f([], (args) => args.some((x) => !emptyish(x ?? null)), A),
    // list.go
    tuple: f([], (args) => args.map((a) => a ?? null), A),
    push,
    append: push,
    mustPush: push,
    mustAppend: push,
    ...mustList('prepend', 'prepend', (l, [v]) => [v ?? null, ...l], [A, A]),
    ...mustList('first', 'find first', (l) => l[0] ?? null),
    ...mustList('last', 'find last', (l) => l[l.length - 1] ?? null),
    ...mustList('rest', 'find rest', (l) => (l.length === 0 ? null : l.slice(1))),
    ...mustList('initial', 'find initial', (l) => (l.length === 0 ? null : l.slice(0, -1))),
    ...mustList('reverse', 'find reverse', (l) => [...l].reverse()),
    ...mustList('compact', 'compact', (l) => l.filter((x) => !emptyish(x))),
    ...mustList('uniq', 'find uniq', (l) => l.filter((x, i) => l.findIndex((y) => deepEq(x, y)) === i)),
    ...mustList('without', 'find without', (l, omit) => l.filter((x) => !omit.some((o) => deepEq(x, o ?? null))), [A], A),
    has: f([A, A], ([needle, l]) => (l === null || l === undefined ? false : listArg(l, 'find has').some((x) => deepEq(x, needle ?? null)))),
    mustHas: f([A, A], ([needle, l]) => (l === null || l === undefined ? false : listArg(l, 'find has').some((x) => deepEq(x, needle ?? null)))),
    ...Object.fromEntries(
      ['chunk', 'mustChunk'].map((n) => [
        n,
        f([V, A], ([size, l]) => {
          const arr = l ?? null;
          if (!Array.isArray(arr)) throw new FuncError(`Cannot chunk type ${kindOf(arr)}`);
          const sz = castInt(size ?? null);
          const out: GoValue[] = [];
          for (let i = 0; i < arr.length; i += sz) out.push(arr.slice(i, i + sz));
          return out;
        }),
      ]),
    ),
    ...Object.fromEntries(
      ['slice', 'mustSlice'].map((n) => [
        n,
        f([A], ([l, ...ix]) => {
          const arr = l ?? null;
          if (!Array.isArray(arr)) throw new FuncError(`list should be type of slice or array but ${kindOf(arr)}`);
          if (arr.length === 0) return null;
          const start = ix.length > 0 ? castInt(ix[0] ?? null) : 0;
          const end = ix.length < 2 ? arr.length : castInt(ix[1] ?? null);
          if (start < 0 || end > arr.length || start > end) throw new FuncError(`runtime error: slice bounds out of range [${start}:${end}]`);
          return arr.slice(start, end);
        }, A),
      ]),
    ),
    concat: f([], (args) => {
      const out: GoValue[] = [];
      for (const a of args) {
        const x = a ?? null;
        if (!Array.isArray(x)) throw new FuncError(`Cannot concat type ${kindOf(x)} as list`);
        out.push(...x);
      }
      return out.length === 0 ? null : out;
    }, A),
    dig: f([], (args) => {
      if (args.length < 3) throw new FuncError('dig needs at least three arguments');
      let cur = args[args.length - 1] ?? null;
      const dflt = args[args.length - 2] ?? null;
      const keys = args.slice(0, -2);
      for (let i = 0; i < keys.length; i++) {
        if (!isMap(cur)) throw new FuncError(`interface conversion: interface {} is ${typeName(cur)}, not map[string]interface {}`);
        const k = keys[i];
        if (typeof k !== 'string') throw new FuncError(`interface conversion: interface {} is ${typeName(k ?? null)}, not string`);
        if (!(k in cur)) return dflt;
        cur = cur[k] ?? null;
      }
      return cur;
    }, A),
    toStrings: f([A], ([v]) => typedSlice(strslice(v ?? null), '[]string')),
    // dict.go
    mustMerge: f([A], ([d, ...srcs]) => mergeAll(d ?? null, srcs, false), A),
    mustMergeOverwrite: f([A], ([d, ...srcs]) => mergeAll(d ?? null, srcs, true), A),
    mustDeepCopy: f([A], ([v]) => {
      if (v === null || v === undefined) throw new FuncError('mustDeepCopy: nil');
      return clone(v);
    }),
    // encoding and crypto
    b32enc: f([S], ([s]) => b32enc(s as string)),
    b32dec: f([S], ([s]) => b32dec(s as string)),
    sha512sum: f([S], ([s]) => createHash('sha512').update(s as string, 'utf8').digest('hex')),
    // path
    base: f([S], ([s]) => pathBase(s as string)),
    dir: f([S], ([s]) => pathDir(s as string)),
    clean: f([S], ([s]) => pathClean(s as string)),
    ext: f([S], ([s]) => pathExt(s as string)),
    isAbs: f([S], ([s]) => (s as string).startsWith('/')),
    osBase: f([S], ([s]) => pathBase(s as string)),
    osDir: f([S], ([s]) => pathDir(s as string)),
    osClean: f([S], ([s]) => pathClean(s as string)),
    osExt: f([S], ([s]) => pathExt(s as string)),
    osIsAbs: f([S], ([s]) => (s as string).startsWith('/')),
    // regex.go
    ...regexFns(false),
    ...regexFns(true),
    regexQuoteMeta: f([S], ([s]) => (s as string).replace(/[\\.+*?()|[\]{}^$]/g, '\\$&')),
    // url.go
    urlParse: f([S], ([s]) => urlParse(s as string)),
    urlJoin: f([A], ([d]) => urlJoin(isMap(d ?? null) ? (d as Record<string, GoValue>) : {})),
    // defaults.go json
    toRawJson: f([A], ([v]) => rawJson(toPlain(v ?? null))),
    mustToJson: f([A], ([v]) => htmlSafe(JSON.stringify(toPlain(v ?? null)))),
    mustToPrettyJson: f([A], ([v]) => htmlSafe(JSON.stringify(toPlain(v ?? null), null, 2))),
    mustToRawJson: f([A], ([v]) => rawJson(toPlain(v ?? null))),
    // reflect.go
    typeIsLike: f([S, A], ([t, v]) => {
      const n = typeName(v ?? null);
      return t === n || t === `*${n}`;
    }),
  };
}

/** strings.Trim(s, cutset). */
function trimCut(s: string, cut: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && cut.includes(s[a]!)) a++;
  while (b > a && cut.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}

/** regexp.Split(s, n). */
function goSplit(s: string, rx: LinearRegExp, n: number): string[] {
  if (s === '') return [''];
  const matches = [...s.matchAll(rx)].filter((m) => !(m[0] === '' && m.index === 0 && s.length > 0));
  const out: string[] = [];
  let beg = 0;
  for (const m of matches) {
    if (n > 0 && out.length === n - 1) break;
    const end = m.index;
    if (m[0] === '' && end === beg) continue;
    out.push(s.slice(beg, end));
    beg = end + m[0].length;
  }
  out.push(s.slice(beg));
  return out;
}

/** sprig's empty. */
function emptyish(v: GoValue): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string') return v === '';
  if (typeof v === 'boolean') return !v;
  if (v instanceof GoNum) return v.v === 0;
  if (Array.isArray(v)) return v.length === 0;
  if (isMap(v)) return Object.keys(v).length === 0;
  return false;
}

function deepEq(a: GoValue, b: GoValue): boolean {
  if (a instanceof GoNum && b instanceof GoNum) return a.t === b.t && a.v === b.v;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEq(x, b[i] ?? null));
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEq(a[k] ?? null, b[k] ?? null));
  }
  return a === b;
}

function clone(v: GoValue): GoValue {
  if (Array.isArray(v)) return v.map(clone);
  if (isMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)]));
  return v;
}

/** mergo.Merge (WithOverride): what dst lacks, or every non-empty value, from each source. */
function mergeAll(d: GoValue, srcs: GoValue[], override: boolean): GoValue {
  if (!isMap(d)) throw new FuncError(`wrong type for value; expected map[string]interface {}; got ${typeName(d)}`);
  const into = (dst: Record<string, GoValue>, src: Record<string, GoValue>): void => {
    for (const [k, sv] of Object.entries(src)) {
      const dv = dst[k];
      if (isMap(dv ?? null) && isMap(sv ?? null)) into(dv as Record<string, GoValue>, sv as Record<string, GoValue>);
      else if (override ? !emptyish(sv ?? null) : !(k in dst) || emptyish(dv ?? null)) dst[k] = clone(sv ?? null);
    }
  };
  for (const s of srcs) if (isMap(s ?? null)) into(d, s as Record<string, GoValue>);
  return d;
}

/** strings.go strslice. */
function strslice(v: GoValue): string[] {
  if (Array.isArray(v)) return v.filter((x) => x !== null && x !== undefined).map(str);
  if (v === null || v === undefined) return [];
  return [str(v)];
}
function str(v: GoValue): string {
  return typeof v === 'string' ? v : sprint([v]);
}

/** Go values → plain JSON for encoding (sigs.k8s.io/yaml marshals through encoding/json). */
export function toPlain(v: GoValue): unknown {
  if (v === undefined || v === null) return null;
  if (v instanceof GoNum) return v.v;
  // Time.MarshalJSON: RFC 3339 with nanoseconds
  if (v instanceof GoTime) return v.format('2006-01-02T15:04:05.999999999Z07:00');
  // a struct marshals its exported fields in declaration order
  if (v instanceof GoStruct) return Object.fromEntries(Object.entries(v.fields).map(([k, x]) => [k, toPlain(x)]));
  if (Array.isArray(v)) return v.map(toPlain);
  if (isMap(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = toPlain(v[k]);
    return out;
  }
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  return null;
}
