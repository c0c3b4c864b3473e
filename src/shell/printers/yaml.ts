/**
 * `-o yaml`: sigs.k8s.io/yaml → go-yaml v2 encoding of the JSON document (cli-runtime
 * pkg/printers/yaml.go). The scalar rules are ported from go-yaml v2 rather than configured on a
 * YAML 1.2 library, because they follow YAML 1.1 resolution: a string that would read back as
 * another type (`"9153"`, `"true"`, `"yes"`, `""`, timestamps) is double-quoted, while a string that
 * merely cannot be plain (`'*'`, `': x'`, leading spaces) is single-quoted; multi-line strings are
 * literal blocks (`|`, `|-`, `|+`); sequences sit at their key's column. A long plain or quoted
 * value is folded at a space once its line passes 80 columns, continuing two columns deeper than
 * its key (`k: … character\n    limit of …`), as the emitter's best_width does.
 *
 * Upstream: go-yaml v2 encode.go (stringv), resolve.go (resolve, isBase60Float),
 * emitterc.go (yaml_emitter_analyze_scalar, select_scalar_style, write_block_scalar_hints,
 * write_plain_scalar / write_single_quoted_scalar / write_double_quoted_scalar with allow_breaks,
 * yaml_emitter_emit_scalar's increase_indent).
 */
import type { KObject } from '../../sim/api/types.js';
import { documentFor, type Json, type SerializeOptions } from './serialize.js';

const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const BOOLS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'true', 'True', 'TRUE', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF', 'false', 'False', 'FALSE']);
const SPECIAL_FLOATS = new Set(['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '.nan', '.NaN', '.NAN']);
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMP = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2}))|(?: [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?))?$/;

/** strconv.ParseInt(s, 0, 64) / ParseUint accept forms (after go-yaml removed `_`). */
function isGoInt(s: string): boolean {
  return /^[-+]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[1-9][0-9]*|0)$/.test(s);
}

/** go-yaml v2 resolve("", s) != !!str, or a base-60 float: the string must be double-quoted. */
export function resolvesToNonString(s: string): boolean {
  if (NULLS.has(s) || BOOLS.has(s) || SPECIAL_FLOATS.has(s) || s === '<<') return true;
  const c = s[0] ?? '';
  if (/[0-9+\-.]/.test(c)) {
    const plain = s.replace(/_/g, '');
    if (isGoInt(plain) || YAML_FLOAT.test(plain)) return true;
    if (/^-?0b[01]+$/.test(plain)) return true;
    if (TIMESTAMP.test(s)) return true;
  }
  return BASE60_FLOAT.test(s);
}

function isPrintable(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  return c === 0x0a || (c >= 0x20 && c <= 0x7e) || c === 0x85 || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff) || (c >= 0x10000 && c <= 0x10ffff);
}

const isBlank = (ch: string | undefined): boolean => ch === ' ' || ch === '\t';
const isBreak = (ch: string | undefined): boolean => ch === '\n' || ch === '\r';

interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

/** yaml_emitter_analyze_scalar, block context. */
function analyze(s: string): Analysis {
  if (s === '') return { multiline: false, blockPlain: false, singleQuoted: true, block: false };
  let blockIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  if (s.startsWith('---') || s.startsWith('...')) blockIndicators = true;
  const chars = [...s];
  let precededByWhitespace = true;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const next = chars[i + 1];
    const followedByWhitespace = next === undefined || isBlank(next) || isBreak(next);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) blockIndicators = true;
      else if ((ch === '?' || ch === ':' || ch === '-') && followedByWhitespace) blockIndicators = true;
    } else if (ch === ':' && followedByWhitespace) blockIndicators = true;
    else if (ch === '#' && precededByWhitespace) blockIndicators = true;
    if (!isPrintable(ch)) specialCharacters = true;
    if (isBreak(ch)) lineBreaks = true;
    if (ch === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === chars.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(ch)) {
      if (i === 0) leadingBreak = true;
      if (i === chars.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlank(ch) || isBreak(ch);
  }
  let blockPlain = true;
  let singleQuoted = true;
  let block = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlain = false;
  if (trailingSpace) block = false;
  if (breakSpace) {
    blockPlain = false;
    singleQuoted = false;
  }
  if (spaceBreak || specialCharacters) {
    blockPlain = false;
    singleQuoted = false;
    block = false;
  }
  if (lineBreaks) blockPlain = false;
  if (blockIndicators) blockPlain = false;
  return { multiline: lineBreaks, blockPlain, singleQuoted, block };
}

/** emitterc.go best_width: past this column a space becomes a line break. */
const BEST_WIDTH = 80;

/** How one character of a double-quoted scalar is written (write_double_quoted_scalar's escapes). */
function doubleQuotedChar(ch: string): string {
  const c = ch.codePointAt(0)!;
  if (ch === '"') return '\\"';
  if (ch === '\\') return '\\\\';
  if (!isPrintable(ch) || ch === '\n') {
    const named: Record<string, string> = { '\0': '0', '\x07': 'a', '\b': 'b', '\t': 't', '\n': 'n', '\v': 'v', '\f': 'f', '\r': 'r', '\x1b': 'e', '\x85': 'N', '\u00a0': '_', '\u2028': 'L', '\u2029': 'P' };
    const n = named[ch];
    if (n !== undefined) return `\\${n}`;
    if (c <= 0xff) return `\\x${c.toString(16).toUpperCase().padStart(2, '0')}`;
    if (c <= 0xffff) return `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;
    return `\\U${c.toString(16).toUpperCase().padStart(8, '0')}`;
  }
  return ch;
}

/**
 * A scalar's characters written from column `col`, breaking at a space (not a run of them) once
 * the column passes BEST_WIDTH: the line continues at column `indent`. Quoted styles never break
 * at the first or last character; a double-quoted break keeps a following space with `\\`.
 * `indent` undefined: no breaks (a key, a simple-key context).
 */
function folded(s: string, style: 'plain' | 'single' | 'double', col: number, indent: number | undefined): string {
  const quote = style === 'single' ? "'" : style === 'double' ? '"' : '';
  let out = quote;
  let column = col + quote.length;
  let spaces = false;
  const chars = [...s];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === ' ') {
      const inner = style === 'plain' || (i > 0 && i < chars.length - 1);
      const nextSpace = chars[i + 1] === ' ';
      if (indent !== undefined && !spaces && column > BEST_WIDTH && inner && (style === 'double' || !nextSpace)) {
        out += `\n${' '.repeat(indent)}`;
        column = indent;
        if (style === 'double' && nextSpace) {
          out += '\\';
          column++;
        }
      } else {
        out += ' ';
        column++;
      }
      spaces = true;
      continue;
    }
    const w = style === 'double' ? doubleQuotedChar(ch) : style === 'single' && ch === "'" ? "''" : ch;
    out += w;
    column += [...w].length;
    spaces = false;
  }
  return out + quote;
}

type Style = 'plain' | 'single' | 'double' | 'literal';

function styleFor(s: string, key: boolean): Style {
  const a = analyze(s);
  if (!key && s.includes('\n') && !resolvesToNonString(s)) {
    // stringv requests the literal style for multi-line strings
    return a.block ? 'literal' : 'double';
  }
  if (resolvesToNonString(s)) return 'double';
  if (a.blockPlain && !(key && a.multiline)) return 'plain';
  if (a.singleQuoted && !(key && a.multiline)) return 'single';
  return 'double';
}

/**
 * A scalar on the current line; `indent` is the column of the owning key (literal blocks and
 * folded lines continue two deeper), `col` the column the scalar starts at (undefined for a key:
 * keys never fold).
 */
function scalar(s: string, indent: number, key = false, col?: number): string {
  const fold = key || col === undefined ? undefined : indent + 2;
  switch (styleFor(s, key)) {
    case 'plain':
      return folded(s, 'plain', col ?? 0, fold);
    case 'single':
      return folded(s, 'single', col ?? 0, fold);
    case 'double':
      return folded(s, 'double', col ?? 0, fold);
    case 'literal': {
      let hints = '|';
      if (s[0] === ' ' || s[0] === '\n') hints += '2';
      if (!s.endsWith('\n')) hints += '-';
      else if (s === '\n' || s.endsWith('\n\n')) hints += '+';
      const body = s.endsWith('\n') ? s.slice(0, -1) : s;
      const pad = ' '.repeat(indent + 2);
      return `${hints}\n${body
        .split('\n')
        .map((l) => (l === '' ? '' : pad + l))
        .join('\n')}`;
    }
  }
}

function leaf(v: Json, indent: number, col?: number): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v);
  if (typeof v === 'string') return scalar(v, indent, false, col);
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (!Array.isArray(v) && Object.keys(v).length === 0) return '{}';
  return undefined;
}

/** Lines of a block node whose first line starts at column `indent` (caller writes the prefix). */
function block(v: Json, indent: number, seqIndent = false): string {
  const pad = ' '.repeat(indent);
  if (Array.isArray(v)) {
    return v
      .map((item) => {
        const l = leaf(item, indent, indent + 2);
        if (l !== undefined) return `${pad}- ${l}\n`;
        // nested collection: first line follows "- ", the rest is indented by 2
        const inner = block(item, indent + 2, seqIndent);
        return `${pad}- ${inner.slice(indent + 2)}`;
      })
      .join('');
  }
  if (v !== null && typeof v === 'object') {
    return Object.keys(v)
      .map((k) => {
        const child = v[k]!;
        const key = scalar(k, indent, true);
        const l = leaf(child, indent, indent + [...key].length + 2);
        if (l !== undefined) return `${pad}${key}: ${l}\n`;
        // sequences are not indented under their key (go-yaml v2; v3 with SetIndent(2) does); mappings are by 2
        const childIndent = Array.isArray(child) && !seqIndent ? indent : indent + 2;
        return `${pad}${key}:\n${block(child, childIndent, seqIndent)}`;
      })
      .join('');
  }
  return `${pad}${leaf(v, indent) ?? ''}\n`;
}

/**
 * Serialize one JSON document as go-yaml v2 does; `seqIndent` indents a mapping's block sequences
 * by two as go-yaml v3's Encoder with SetIndent(2) does (helm's toYamlPretty).
 */
export function toYaml(doc: Json, seqIndent = false): string {
  const l = leaf(doc, 0);
  if (l !== undefined) return `${l}\n`;
  return block(doc, 0, seqIndent);
}

/** `kubectl get … -o yaml`. */
export function printYaml(objs: readonly KObject[], asList: boolean, o: SerializeOptions = {}): string {
  return toYaml(documentFor(objs, asList, o));
}
