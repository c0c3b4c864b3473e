/**
 * `-o kyaml` (kubectl 1.34+): KYAML, the explicit YAML dialect of sigs.k8s.io/yaml/kyaml
 * (kyaml.go Encoder.FromObject). Every document starts with `---`; maps are `{ … }` with one
 * `key: value,` line each (keys bare unless they need quotes), lists are `[ … ]` with one
 * item per line, or "cuddled" (`[{`, `}, {`, `}]`) when every item is a map or a list; strings
 * are always double-quoted, multi-line strings folded with `\` line continuations. The
 * document is the object as JSON would order it (kyaml marshals to JSON first).
 */
import type { Json } from './serialize.js';

const IND = '  ';
const ind = (n: number): string => IND.repeat(n);

/** strconv.ParseBool's accepted spellings. */
const GO_BOOLS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False']);

/** strconv.ParseInt(s, 0, 64) succeeds. */
function goInt(s: string): boolean {
  const m = /^[+-]?(.*)$/.exec(s)![1]!;
  if (/^0[xX][0-9a-fA-F]+$/.test(m) || /^0[bB][01]+$/.test(m) || /^0[oO]?[0-7]+$/.test(m) || /^(0|[1-9][0-9]*)$/.test(m)) {
    try {
      const v = BigInt(s.startsWith('+') ? s.slice(1) : s.replace(/^(-?)0[oO]/, '$10o').replace(/^(-?)0([0-7]+)$/, '$10o$2'));
      return v >= -(2n ** 63n) && v < 2n ** 63n;
    } catch {
      return false;
    }
  }
  return false;
}

/** strconv.ParseFloat(s, 64) succeeds (decimal, hex with p-exponent, inf/infinity/nan). */
function goFloat(s: string): boolean {
  if (/^[+-]?(inf|infinity)$/i.test(s) || /^nan$/i.test(s)) return true;
  if (/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(s)) return true;
  return /^[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+$/.test(s);
}

const SEXAGESIMAL = /^[+-]?[1-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/;
const TIMESTAMP = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(([Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2}))|( [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]+)?))?$/;

/** yamlGuessesWrong: text a YAML parser would read as something other than a string. */
function yamlGuessesWrong(s: string): boolean {
  const lower = s.toLowerCase();
  if (s.length <= 5 && ['null', '~', ''].includes(lower)) return true;
  if (GO_BOOLS.has(s)) return true;
  if (s.length <= 5 && ['true', 'y', 'yes', 'on', 'false', 'n', 'no', 'off'].includes(lower)) return true;
  const bare = s.replaceAll('_', '');
  if (goInt(bare) || goFloat(bare)) return true;
  if (SEXAGESIMAL.test(s)) return true;
  if (s.length <= 5 && ['.inf', '-.inf', '+.inf', '.nan'].includes(lower)) return true;
  return TIMESTAMP.test(s);
}

/** needsQuotes: letters, digits and `_` anywhere, `-` `.` `/` inside; anything else is quoted. */
function needsQuotes(s: string): boolean {
  if (s === '' || yamlGuessesWrong(s)) return true;
  const runes = [...s];
  return runes.some((r, i) => !(/[\p{L}\p{N}_]/u.test(r) || (i > 0 && i < runes.length - 1 && /[-./]/.test(r))));
}

/**
 * unicode.IsPrint (letters, marks, numbers, punctuation, symbols, the ASCII space) plus the tab:
 * the encoder vendored in kubectl v1.35.2 writes tabs raw (recorded: kyaml-cm-quoting).
 */
const isPrint = (r: string): boolean => r === ' ' || r === '\t' || /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(r);

const ESCAPES: Record<string, string> = {
  '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\0': '\\0', '\x1b': '\\e',
  '\x85': '\\N', '\xa0': '\\_', '\u2028': '\\L', '\u2029': '\\P',
};

const FOLD = '\\\n';

/** renderString: a double-quoted scalar; keys are compact and quoted only when needed. */
function renderString(val: string, indent: number, key: boolean): string {
  const multi = val.includes('\n');
  if (key && !multi && !needsQuotes(val)) return val;
  const folded = multi && !key;
  const newline = folded ? `\\n${FOLD}` : '\\n';
  let buf = folded ? `"${FOLD}` : '"';
  for (const r of val) {
    if (buf.endsWith('\n')) buf += ind(indent) + (/\s/u.test(r) && r !== '\n' ? '\\' : ' ');
    if (r === '"' || r === '\\') buf += `\\${r}`;
    else if (isPrint(r)) buf += r;
    else if (r === '\n') buf += newline;
    else if (ESCAPES[r] !== undefined) buf += ESCAPES[r];
    else {
      const cp = r.codePointAt(0)!;
      buf += cp < 0x20 || cp === 0x7f ? `\\x${cp.toString(16).padStart(2, '0')}` : cp < 0x10000 ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`;
    }
  }
  if (folded) {
    if (!buf.endsWith('\n')) buf += FOLD;
    buf += ind(indent);
  }
  return `${buf}"`;
}

const isCollection = (v: Json): boolean => v !== null && typeof v === 'object';

function renderNode(v: Json, indent: number): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return renderString(v, indent + 1, false);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    if (v.every(isCollection)) return `[${v.map((c) => renderNode(c, indent)).join(', ')}]`;
    return `[\n${v.map((c) => `${ind(indent + 1)}${renderNode(c, indent + 1)},\n`).join('')}${ind(indent)}]`;
  }
  const entries = Object.entries(v);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([k, c]) => `${ind(indent + 1)}${renderString(k, indent + 1, true)}: ${renderNode(c, indent + 1)},\n`);
  return `{\n${lines.join('')}${ind(indent)}}`;
}

/** One KYAML document (FromObject): `---`, the value, a newline. */
export function toKyaml(doc: Json): string {
  return `---\n${renderNode(doc, 0)}\n`;
}
