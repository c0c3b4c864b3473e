/**
 * bash's ANSI-C quoting, `$'…'` (bash manual 3.1.2.4 "ANSI-C Quoting"; lib/sh/strtrans.c
 * ansicstr, called with flags 2 for `$'…'`, bash 5.2): the text between the quotes with backslash
 * escapes replaced, then single-quoted. dash 0.5.12 has no such quoting (`$` stays a literal).
 *
 * Bytes above 0x7f from `\nnn` and `\xHH` are raw bytes (util/bytes.ts: bash writes the byte,
 * and a run of them that spells UTF-8 is that character), as printf's and echo's escapes are;
 * `\u`/`\U` give the character itself (a UTF-8 locale).
 */
import { byteChar, normalizeBytes } from '../../util/bytes.js';

const SIMPLE: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * The index of the `'` that closes a `$'` whose opening quote is at `open`, or -1 when it is not
 * closed: a backslash escapes the next character, so `\'` does not close it (parse.y
 * parse_matched_pair with P_ALLOWESC).
 */
export function ansiCEnd(src: string, open: number): number {
  for (let i = open + 1; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === "'") return i;
  }
  return -1;
}

/** A code point as UTF-8 bytes (bash's u32cconv), for the code points JS strings cannot hold. */
function utf8Bytes(v: number): string {
  if (v <= 0x10ffff && (v < 0xd800 || v > 0xdfff)) return String.fromCodePoint(v);
  // surrogates and values past U+10FFFF: the bytes bash writes, as byte characters
  const bytes: number[] = [];
  if (v <= 0xffff) bytes.push(0xe0 | (v >> 12), 0x80 | ((v >> 6) & 0x3f), 0x80 | (v & 0x3f));
  else if (v <= 0x1fffff) bytes.push(0xf0 | (v >> 18), 0x80 | ((v >> 12) & 0x3f), 0x80 | ((v >> 6) & 0x3f), 0x80 | (v & 0x3f));
  else return '';
  return bytes.map(byteChar).join('');
}

function hexValue(c: string | undefined): number {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c) ? parseInt(c, 16) : -1;
}

/**
 * Translate the inside of `$'…'`. A NUL (`\0`, `\x00`, `\c@`) ends the string, as it ends bash's
 * C string; an unknown escape keeps its backslash.
 */
export function ansiC(body: string): string {
  let out = '';
  let i = 0;
  const end = (): string => normalizeBytes(out);
  while (i < body.length) {
    const c = body[i++]!;
    if (c !== '\\' || i >= body.length) {
      out += c;
      continue;
    }
    const e = body[i++]!;
    const simple = SIMPLE[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    if (e >= '0' && e <= '7') {
      // one to three octal digits, the value cut to a byte
      let v = Number(e);
      for (let n = 0; n < 2 && body[i] !== undefined && body[i]! >= '0' && body[i]! <= '7'; n++) v = v * 8 + Number(body[i++]);
      v &= 0xff;
      if (v === 0) return end();
      out += byteChar(v);
      continue;
    }
    if (e === 'x') {
      // `\xHH` (one or two digits) or ksh's `\x{H…}` (any number, `}` optional); the value cut to a byte
      let v = 0;
      let digits = 0;
      if (body[i] === '{') {
        i++;
        for (; hexValue(body[i]) >= 0; i++, digits++) v = (v * 16 + hexValue(body[i])) & 0xffff;
        if (body[i] === '}') i++;
      } else {
        for (; digits < 2 && hexValue(body[i]) >= 0; i++, digits++) v = v * 16 + hexValue(body[i]);
        if (digits === 0) {
          out += '\\x';
          continue;
        }
      }
      v &= 0xff;
      if (v === 0) return end();
      out += byteChar(v);
      continue;
    }
    if (e === 'u' || e === 'U') {
      // one to four (`\u`) or eight (`\U`) hex digits: the character
      let v = 0;
      let digits = 0;
      for (const max = e === 'u' ? 4 : 8; digits < max && hexValue(body[i]) >= 0; i++, digits++) v = v * 16 + hexValue(body[i]);
      if (digits === 0) {
        out += `\\${e}`;
        continue;
      }
      if (v === 0) return end();
      out += utf8Bytes(v >>> 0);
      continue;
    }
    if (e === 'c') {
      // `\cx`: control-x; `\c\\` is control-backslash; a bare `\c` at the end stays
      if (i >= body.length) {
        out += '\\c';
        continue;
      }
      if (body[i] === '\\' && body[i + 1] === '\\') i++;
      const x = body[i++]!;
      const v = x === '?' ? 0x7f : x.toUpperCase().charCodeAt(0) & 0x1f;
      if (v === 0) return end();
      out += String.fromCharCode(v);
      continue;
    }
    out += `\\${e}`;
  }
  return end();
}
