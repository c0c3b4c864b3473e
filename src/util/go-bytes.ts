/**
 * Go strings are byte strings; a template can hold bytes that are not UTF-8 (b64dec of binary
 * data). They are carried in a JS string as Python's "surrogateescape" does: each byte of an
 * invalid sequence becomes the lone surrogate U+DC80 + (byte - 0x80), so `len` still counts
 * bytes and the bytes come back out unchanged. Validity follows Go's utf8.DecodeRune (no overlong
 * forms, no surrogates, nothing above U+10FFFF).
 */

/** The bytes as a Go string. */
export function goStringFromBytes(b: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      out += String.fromCharCode(c);
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    let ok = n > 0 && i + n <= b.length;
    for (let k = 1; ok && k < n; k++) if ((b[i + k]! & 0xc0) !== 0x80) ok = false;
    if (ok) {
      const c1 = b[i + 1]!;
      if (c === 0xe0 && c1 < 0xa0) ok = false;
      if (c === 0xed && c1 > 0x9f) ok = false;
      if (c === 0xf0 && c1 < 0x90) ok = false;
      if (c === 0xf4 && c1 > 0x8f) ok = false;
    }
    if (!ok) {
      out += String.fromCharCode(0xdc00 + c);
      i++;
      continue;
    }
    out += Buffer.from(b.subarray(i, i + n)).toString('utf8');
    i += n;
  }
  return out;
}

const ESCAPED = /[\udc80-\udcff]/;

/** The bytes of a Go string (escaped bytes restored). */
export function goStringBytes(s: string): Buffer {
  if (!ESCAPED.test(s)) return Buffer.from(s, 'utf8');
  const parts: Buffer[] = [];
  let run = '';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xdc80 && c <= 0xdcff) {
      parts.push(Buffer.from(run, 'utf8'), Buffer.from([c - 0xdc00]));
      run = '';
    } else run += ch;
  }
  parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/** len(s) in Go: its byte count. */
export function goByteLength(s: string): number {
  return ESCAPED.test(s) ? goStringBytes(s).length : Buffer.byteLength(s, 'utf8');
}
