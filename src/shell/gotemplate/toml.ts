/**
 * TOML for Helm's toToml/fromToml (helm pkg/engine/funcs.go, github.com/BurntSushi/toml v1).
 *
 * Encoder (encode.go): a map's plain keys first, sorted, as `key = value`; then its tables
 * (maps, and arrays of maps as `[[key]]`), sorted, each `[dotted.key]` header preceded by a blank
 * line at the top level, and every line inside a table indented by two spaces per level
 * (indentStr). Floats print with `strconv.FormatFloat(f, 'f', -1, 64)` plus `.0` when integral;
 * strings double-quoted with dblQuotedReplacer's escapes; nil map values skipped. A top-level
 * scalar is written as a bare value.
 *
 * Decoder (lex.go/parse.go): key/value pairs, [tables], [[arrays of tables]], bare/quoted/dotted
 * keys, basic/literal/multi-line strings, integers (int64, with _ and 0x/0o/0b), floats, booleans,
 * arrays, inline tables; datetimes are kept as their text. Errors are ParseError's
 * `toml: line N (last key "K"): MSG` for the messages charts meet: a blank key, a missing value,
 * a redefined key, an unterminated table name or string.
 */
import { GoNum, type GoValue, isMap } from './value.js';

const BARE = /^[A-Za-z0-9_-]+$/;

function quoted(s: string): string {
  const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };
  return `"${s.replace(/["\\\u0000-\u001f\u007f]/g, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
const quoteKey = (k: string): string => (BARE.test(k) ? k : quoted(k));

function floatText(f: number): string {
  if (Number.isNaN(f)) return 'nan';
  if (!Number.isFinite(f)) return f > 0 ? 'inf' : '-inf';
  const s = Number.isInteger(f) ? BigInt(f).toString() : Math.abs(f) < 1e-6 ? f.toFixed(20).replace(/0+$/, '') : String(f);
  return s.includes('.') ? s : `${s}.0`;
}

class EncodeError extends Error {}

const isTable = (v: GoValue): boolean => isMap(v ?? null);
const isTableArray = (v: GoValue): boolean => Array.isArray(v) && v.length > 0 && v.every((x) => isMap(x ?? null));

function inline(v: GoValue): string {
  if (v === null || v === undefined) throw new EncodeError('toml: cannot encode array with nil element');
  if (typeof v === 'string') return quoted(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof GoNum) return v.isInt ? String(v.v) : floatText(v.v);
  if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v).sort().filter((k) => v[k] !== null && v[k] !== undefined);
    return `{${keys.map((k) => `${quoteKey(k)} = ${inline(v[k])}`).join(', ')}}`;
  }
  return quoted(String(v));
}

/** BurntSushi's Encoder.Encode(v): the TOML text, or the encoder's error text. */
export function toTomlText(v: GoValue): string {
  let out = '';
  const newline = (): void => {
    if (out !== '') out += '\n';
  };
  const indent = (key: string[]): string => '  '.repeat(Math.max(0, key.length - 1));
  const table = (key: string[], m: Record<string, GoValue>): void => {
    const keys = Object.keys(m).sort();
    for (const k of keys) {
      const x = m[k];
      if (x === null || x === undefined || isTable(x) || isTableArray(x)) continue;
      out += `${indent([...key, k])}${quoteKey(k)} = ${inline(x)}\n`;
    }
    for (const k of keys) {
      const x = m[k];
      const sub = [...key, k];
      const name = sub.map(quoteKey).join('.');
      if (isTableArray(x)) {
        for (const item of x as GoValue[]) {
          newline();
          out += `${indent(sub)}[[${name}]]\n`;
          table(sub, item as Record<string, GoValue>);
        }
      } else if (isTable(x)) {
        if (sub.length === 1) newline();
        out += `${indent(sub)}[${name}]\n`;
        table(sub, x as Record<string, GoValue>);
      }
    }
  };
  try {
    if (isMap(v)) table([], v);
    else if (v !== null && v !== undefined) out = inline(v);
    return out;
  } catch (e) {
    if (e instanceof EncodeError) return e.message;
    throw e;
  }
}

class ParseError extends Error {}

/** toml.Unmarshal into map[string]interface{}: the table, or the ParseError text. */
export function fromTomlText(text: string): { value?: Record<string, GoValue>; error?: string } {
  let i = 0;
  let line = 1;
  let lastKey = '';
  const root: Record<string, GoValue> = {};
  const defined = new Set<string>();
  let cur = root;
  let curPath: string[] = [];
  const fail = (msg: string): never => {
    throw new ParseError(`toml: line ${line}${lastKey ? ` (last key ${JSON.stringify(lastKey)})` : ''}: ${msg}`);
  };
  const peek = (): string | undefined => text[i];
  const goQuoteRune = (c: string | undefined): string => (c === undefined ? 'EOF' : c === '\n' ? "'\\n'" : c === '\t' ? "'\\t'" : `'${c}'`);
  const skipWs = (): void => {
    while (peek() === ' ' || peek() === '\t') i++;
  };
  const skipComment = (): void => {
    if (peek() === '#') while (i < text.length && peek() !== '\n') i++;
  };
  const skipBlank = (): void => {
    for (;;) {
      skipWs();
      skipComment();
      if (peek() === '\n' || peek() === '\r') {
        if (peek() === '\n') line++;
        i++;
      } else return;
    }
  };
  const str = (): string => {
    const q = text[i]!;
    const multi = text.startsWith(q.repeat(3), i);
    i += multi ? 3 : 1;
    if (multi && peek() === '\n') {
      i++;
      line++;
    }
    let out = '';
    for (;;) {
      if (i >= text.length) fail(`unexpected EOF; expected '${q}'`);
      if (multi ? text.startsWith(q.repeat(3), i) : text[i] === q) {
        i += multi ? 3 : 1;
        return out;
      }
      const c = text[i++]!;
      if (c === '\n') {
        if (!multi) fail(`strings cannot contain newlines`);
        line++;
      }
      if (c === '\\' && q === '"') {
        const e = text[i++];
        const esc: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
        if (e !== undefined && esc[e] !== undefined) out += esc[e];
        else if (e === 'u' || e === 'U') {
          const n = e === 'u' ? 4 : 8;
          out += String.fromCodePoint(parseInt(text.slice(i, i + n), 16));
          i += n;
        } else if (multi && (e === '\n' || e === ' ' || e === '\t' || e === '\r')) {
          i--;
          while (/[ \t\r\n]/.test(peek() ?? '')) if (text[i++] === '\n') line++;
        } else fail(`invalid escape in string '\\${e ?? ''}'`);
      } else out += c;
    }
  };
  const key = (): string[] => {
    const parts: string[] = [];
    for (;;) {
      skipWs();
      const c = peek();
      if (c === '"' || c === "'") parts.push(str());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
        if (!m) fail(c === '=' ? "unexpected '=': key name appears blank" : c === undefined || c === '\n' ? 'unexpected key name end' : `bare keys cannot contain ${goQuoteRune(c)}`);
        parts.push(m![0]);
        i += m![0].length;
      }
      skipWs();
      if (peek() !== '.') return parts;
      i++;
    }
  };
  const value = (): GoValue => {
    skipWs();
    const c = peek();
    if (c === undefined || c === '\n' || c === '#') fail(c === undefined ? 'unexpected EOF; expected value' : `expected value but found ${goQuoteRune(c)} instead`);
    if (c === '"' || c === "'") return str();
    if (c === '[') {
      i++;
      const arr: GoValue[] = [];
      for (;;) {
        skipBlank();
        if (peek() === ']') {
          i++;
          return arr;
        }
        arr.push(value());
        skipBlank();
        if (peek() === ',') i++;
        else if (peek() !== ']') fail(`expected a comma (',') or array terminator (']'), but got ${goQuoteRune(peek())}`);
      }
    }
    if (c === '{') {
      i++;
      const t: Record<string, GoValue> = {};
      skipWs();
      if (peek() === '}') {
        i++;
        return t;
      }
      for (;;) {
        const k = key();
        if (peek() !== '=') fail(`expected key separator '=', but got ${goQuoteRune(peek())} instead`);
        i++;
        setPath(t, k, value());
        skipWs();
        if (peek() === '}') {
          i++;
          return t;
        }
        if (peek() !== ',') fail(`expected a comma or an inline table terminator '}', but got ${goQuoteRune(peek())} instead`);
        i++;
      }
    }
    const m = /^[^\s,\]}#]+(?: \d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?/.exec(text.slice(i))!;
    const tok = m[0];
    i += tok.length;
    if (tok === 'true' || tok === 'false') return tok === 'true';
    if (/^[+-]?(inf|nan)$/.test(tok)) return new GoNum('float64', tok.endsWith('nan') ? Number.NaN : tok.startsWith('-') ? -Infinity : Infinity);
    const clean = tok.replace(/_/g, '');
    if (/^0x[0-9A-Fa-f]+$|^0o[0-7]+$|^0b[01]+$/.test(clean)) return new GoNum('int64', Number(clean));
    if (/^[+-]?(0|[1-9]\d*)$/.test(clean)) return new GoNum('int64', Number(clean));
    if (/^[+-]?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(clean)) return new GoNum('float64', Number(clean));
    if (/^\d{4}-\d{2}-\d{2}|^\d{2}:\d{2}/.test(tok)) return tok;
    return fail(`expected value but found ${JSON.stringify(tok)} instead`);
  };
  const setPath = (t: Record<string, GoValue>, k: string[], v: GoValue): void => {
    let m = t;
    for (const p of k.slice(0, -1)) {
      if (!isMap(m[p] ?? null)) m[p] = {};
      m = m[p] as Record<string, GoValue>;
    }
    const last = k[k.length - 1]!;
    lastKey = [...(t === cur ? curPath : []), ...k].join('.');
    if (last in m) fail(`Key '${lastKey}' has already been defined.`);
    m[last] = v;
  };
  try {
    for (;;) {
      skipBlank();
      if (i >= text.length) break;
      if (peek() === '[') {
        const arr = text[i + 1] === '[';
        i += arr ? 2 : 1;
        const k = key();
        // the lexer has already counted a newline it stops at
        if (peek() === '\n') line++;
        if (!text.startsWith(arr ? ']]' : ']', i)) fail(`expected '.' or '${arr ? ']]' : ']'}' to end table name, but got ${goQuoteRune(peek())} instead`);
        i += arr ? 2 : 1;
        let m = root;
        for (const p of k.slice(0, -1)) {
          const x = m[p];
          if (Array.isArray(x)) m = x[x.length - 1] as Record<string, GoValue>;
          else {
            if (!isMap(x ?? null)) m[p] = {};
            m = m[p] as Record<string, GoValue>;
          }
        }
        const last = k[k.length - 1]!;
        lastKey = k.join('.');
        if (arr) {
          if (!Array.isArray(m[last])) m[last] = [];
          const t: Record<string, GoValue> = {};
          (m[last] as GoValue[]).push(t);
          cur = t;
        } else {
          if (defined.has(`[${lastKey}]`)) fail(`Key '${lastKey}' has already been defined.`);
          defined.add(`[${lastKey}]`);
          if (!isMap(m[last] ?? null)) m[last] = {};
          cur = m[last] as Record<string, GoValue>;
        }
        curPath = k;
      } else {
        const k = key();
        if (peek() !== '=') fail(`expected key separator '=', but got ${goQuoteRune(peek())} instead`);
        i++;
        lastKey = [...curPath, ...k].join('.');
        setPath(cur, k, value());
      }
      skipWs();
      skipComment();
      if (i < text.length && peek() !== '\n' && peek() !== '\r') fail(`expected a top-level item to end with a newline, comment, or EOF, but got ${goQuoteRune(peek())} instead`);
    }
    return { value: root };
  } catch (e) {
    if (e instanceof ParseError) return { error: e.message };
    throw e;
  }
}
