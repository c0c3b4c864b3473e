/**
 * Raw bytes in the shell's text. The shell's output and files are JavaScript strings, which hold
 * characters; bash's `printf '\xff'`, `echo -e '\0777'` and `$'\377'` write one byte, 0xff, that
 * is no character of UTF-8 text. Such a byte (0x80–0xff outside a valid UTF-8 sequence) is kept
 * as the lone surrogate U+DC80–U+DCFF, as Python's `surrogateescape` does, and becomes that one
 * byte again wherever text turns into bytes (the terminal, od, wc -c, base64, checksums). A valid
 * UTF-8 sequence written byte by byte (`printf '\xc3\xa9'`) is the character it encodes.
 */

const RAW = /[\udc80-\udcff]/;

/** One byte as the shell's text: ASCII as itself, 0x80–0xff as its escape character. */
export function byteChar(b: number): string {
  return String.fromCharCode(b < 0x80 ? b : 0xdc00 + (b & 0xff));
}

/** Whether `s` holds a raw byte. */
export function hasRawBytes(s: string): boolean {
  return RAW.test(s);
}

/** The bytes of `s`: UTF-8, each raw-byte character its one byte. */
export function encodeBytes(s: string): Uint8Array {
  if (!RAW.test(s)) return Buffer.from(s, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc80 || c > 0xdcff) continue;
    // a low surrogate after a high one is half of a pair, not a byte
    if (i > 0 && s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff) continue;
    parts.push(Buffer.from(s.slice(from, i), 'utf8'), Buffer.from([c - 0xdc00]));
    from = i + 1;
  }
  parts.push(Buffer.from(s.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/** The length of one valid UTF-8 sequence at `i`, or 0 (RFC 3629: no overlongs, surrogates or values past U+10FFFF). */
function utf8Length(b: Uint8Array, i: number): number {
  const x = b[i]!;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => b[i + k] !== undefined && b[i + k]! >= lo && b[i + k]! <= hi;
  if (x >= 0xc2 && x <= 0xdf) return cont(1) ? 2 : 0;
  if (x >= 0xe0 && x <= 0xef) {
    const ok1 = x === 0xe0 ? cont(1, 0xa0) : x === 0xed ? cont(1, 0x80, 0x9f) : cont(1);
    return ok1 && cont(2) ? 3 : 0;
  }
  if (x >= 0xf0 && x <= 0xf4) {
    const ok1 = x === 0xf0 ? cont(1, 0x90) : x === 0xf4 ? cont(1, 0x80, 0x8f) : cont(1);
    return ok1 && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Text from bytes: valid UTF-8 as its characters, any other byte ≥ 0x80 as its escape character. */
export function decodeBytes(b: Uint8Array): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < b.length; ) {
    if (b[i]! < 0x80) {
      i++;
      continue;
    }
    const n = utf8Length(b, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += Buffer.from(b.subarray(from, i)).toString('utf8') + byteChar(b[i]!);
    from = ++i;
  }
  return out + Buffer.from(b.subarray(from)).toString('utf8');
}

/** `s` with runs of raw bytes that spell UTF-8 turned into their characters (`\xc3\xa9` is é). */
export function normalizeBytes(s: string): string {
  return RAW.test(s) ? decodeBytes(encodeBytes(s)) : s;
}

/** The number of bytes `s` is. */
export function byteLength(s: string): number {
  return RAW.test(s) ? encodeBytes(s).length : Buffer.byteLength(s, 'utf8');
}

/**
 * The bytes `start` to `end` of `s` (negative counts from the end, as Uint8Array.subarray) as
 * text: what `head -c`, `tail -c` and `cut -b` keep, which may split a UTF-8 sequence into raw
 * bytes.
 */
export function sliceBytes(s: string, start: number, end?: number): string {
  if (!/[^\x00-\x7f]/.test(s)) return s.slice(start, end);
  return decodeBytes(encodeBytes(s).subarray(start, end));
}

/** The bytes of `s`, each as its own one-byte text (byteChar): what `cut -b` picks from. */
export function byteChars(s: string): string[] {
  return Array.from(encodeBytes(s), byteChar);
}
