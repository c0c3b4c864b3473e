/**
 * xxd — BusyBox's applet (util-linux/hexdump_xxd.c, busybox 1.36.1, in the defconfig the busybox
 * image is built with; Ubuntu nodes have no xxd, whose package is optional). A hex dump through
 * libbb's dump engine: `%08x: ` (the address counts the -s skip, plus -o), the bytes as `%02x` in
 * groups of -g (2) with -c (16) per line, a short last line padded to the full width, then two
 * blanks and the printable bytes (`.` for the rest); -p plain hex (30 a line), -i C include style
 * (12 a line, with the `unsigned char NAME[]` frame for a file), -l LEN, -s OFS, -r reverse.
 */
import { decodeBytes, encodeBytes } from '../../../util/bytes.js';
import type { CommandFn, CommandResult } from '../../types.js';
import { busyboxOpts, busyboxUsageError } from '../busybox.js';
import { readInput, value, has } from '../util.js';

const hex2 = (b: number): string => b.toString(16).padStart(2, '0');

/** strtoull with base 0, as xstrtou_range reads -l, -s, -c, -g and -o: 0x… hex, 0… octal, else decimal. */
function num(s: string): number | undefined {
  const m = /^(-?)(0x[0-9a-f]+|0[0-7]*|[1-9][0-9]*)$/i.exec(s.trim());
  if (!m) return undefined;
  const body = m[2]!;
  const n = /^0x/i.test(body) ? parseInt(body.slice(2), 16) : body.length > 1 && body.startsWith('0') ? parseInt(body, 8) : Number(body);
  return m[1] === '-' ? -n : n;
}

/** print_C_style: the file name as a C identifier, `__` before a leading digit. */
function cName(file: string): string {
  return `${/^[0-9]/.test(file) ? '__' : ''}${file.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/**
 * One dump line: each byte's field (`xx` or `xx ` by its place in a group), a missing byte's
 * field blank at the same width (the dump engine pads a short last line), then the characters.
 */
function dumpLine(bytes: Uint8Array, addr: number, cols: number, group: number): string {
  let hex = '';
  for (let i = 1; i <= cols; i++) {
    // `-g 1` is the format `16/1 "%02x "`, whose last iteration drops its trailing blank
    // (libbb/dump.c rewrite: nospace); other groups end in a blank except at the line's end
    const spaced = i !== cols && (group === 1 || (group > 1 && group < cols && i % group === 0));
    const b = bytes[i - 1];
    hex += (b === undefined ? '  ' : hex2(b)) + (spaced ? ' ' : '');
  }
  let text = '';
  for (const b of bytes) text += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
  return `${addr.toString(16).padStart(8, '0')}: ${hex}  ${text}\n`;
}

/**
 * `-r`: hex back to bytes (reverse()): with -p every hex pair, blanks between and inside pairs
 * ignored; without it each line's leading hex address is skipped first. One stray character is
 * passed over, a second ends the line.
 */
function reverse(text: string, plain: boolean): string {
  const out: number[] = [];
  const isHex = (c: string | undefined): boolean => c !== undefined && /[0-9a-fA-F]/.test(c);
  let pending: number | undefined;
  for (const raw of text.split('\n')) {
    let p = 0;
    const line = raw;
    if (!plain) {
      const m = /^\s*[0-9a-fA-F]*:?/.exec(line);
      p = m ? m[0].length : 0;
    }
    let bad = 0;
    while (p < line.length) {
      const c = line[p]!;
      if (plain && /\s/.test(c)) {
        p++;
        continue;
      }
      if (isHex(c)) {
        bad = 0;
        if (pending === undefined) pending = parseInt(c, 16);
        else {
          out.push(pending * 16 + parseInt(c, 16));
          pending = undefined;
        }
        p++;
        continue;
      }
      if (pending !== undefined) {
        // "3<not hex>": the lone nibble is dropped
        pending = undefined;
        p++;
        continue;
      }
      if (++bad > 1) break;
      p++;
    }
    if (!plain) pending = undefined;
  }
  return decodeBytes(Uint8Array.from(out));
}

export const xxd: CommandFn = (ctx): CommandResult => {
  const p = busyboxOpts('xxd', ctx.argv.slice(1), { short: 'l:s:apirg:c:o:' });
  if (!p.ok) return p.result;
  const o = p.opts;
  if (o.operands.length > 1) return busyboxUsageError('xxd');
  const file = o.operands[0];
  const plain = has(o, 'p');
  const include = has(o, 'i');
  const numbers: Record<string, number> = {};
  for (const k of ['l', 's', 'g', 'c', 'o']) {
    const v = value(o, k);
    if (v === undefined) continue;
    const n = num(v);
    if (n === undefined || (k !== 'o' && n < 0)) return { stdout: '', stderr: `xxd: invalid number '${v}'\n`, exitCode: 1 };
    numbers[k] = n;
  }
  const r = readInput(ctx, file ?? '-');
  if (!r.ok) return { stdout: '', stderr: `xxd: ${file}: ${r.error}\n`, exitCode: 1 };
  if (has(o, 'r')) return { stdout: reverse(r.text, plain), stderr: '', exitCode: 0 };
  const skip = numbers['s'] ?? 0;
  let data = encodeBytes(r.text).subarray(skip);
  if (numbers['l'] !== undefined) data = data.subarray(0, numbers['l']);
  let cols = numbers['c'] ?? 0;
  let group = numbers['g'] ?? 2;
  if (plain) {
    if (cols === 0) cols = 30;
    group = cols;
  } else if (cols === 0) cols = include ? 12 : 16;
  if (include) group = 1;
  let out = '';
  for (let at = 0; at < data.length; at += cols) {
    const line = data.subarray(at, at + cols);
    if (plain) out += `${Array.from(line, hex2).join('')}\n`;
    else if (include) out += ` ${Array.from(line, (b) => ` 0x${hex2(b)},`).join('')}\n`;
    else out += dumpLine(line, skip + at + (numbers['o'] ?? 0), cols, group);
  }
  if (include && file !== undefined) out = `unsigned char ${cName(file)}[] = {\n${out}};\nunsigned int ${cName(file)}_len = ${data.length};\n`;
  return { stdout: out, stderr: '', exitCode: 0 };
};
