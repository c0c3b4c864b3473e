/**
 * printf — bash's builtin (bash/builtins/printf.def): the format is reused while arguments
 * remain; %b expands backslash escapes in its argument; escapes in the format are interpreted;
 * a non-numeric argument to a numeric conversion prints `bash: printf: x: invalid number`, uses
 * its numeric prefix and sets exit status 1.
 */
import { byteChar, normalizeBytes } from '../../util/bytes.js';
import type { CommandFn } from '../types.js';
import { PRINTF_B_ESCAPES, echoEscapes } from './echo.js';
import { formatC, type FormatArg } from './format.js';
import type { ShellResult } from './types.js';

/** Interpret escapes in the format string (not %b-only ones like \c, which stops output). */
function formatEscapes(s: string): string {
  // `\NNN` and `\xHH` are bytes (a run of them spelling UTF-8 is its character)
  const text = s.replace(/\\(\\|a|b|e|f|n|r|t|v|"|'|[0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8})/g, (m, c: string) => {
    if (c.startsWith('u') || c.startsWith('U')) {
      // `\uHHHH` / `\UHHHHHHHH`: the character, in UTF-8 (printf.def tescape)
      const cp = parseInt(c.slice(1), 16);
      return cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : m;
    }
    if (/^[0-7]/.test(c)) return byteChar(parseInt(c, 8) & 0xff);
    if (c.startsWith('x')) return byteChar(parseInt(c.slice(1), 16));
    return { '\\': '\\', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '"': '"', "'": "'" }[c] ?? m;
  });
  return normalizeBytes(text);
}

export const printf: CommandFn = (ctx) => {
  let args = ctx.argv.slice(1);
  if (args[0] === '--') args = args.slice(1);
  if (args.length === 0) return { stdout: '', stderr: 'printf: usage: printf [-v var] format [arguments]\n', exitCode: 2 };
  // %b is handled here: replace each %b with %s of its escaped argument.
  const fmt = formatEscapes(args[0]!);
  const rest = args.slice(1);
  let stderr = '';
  let status = 0;
  const toNum = (s: string): number => {
    if (/^'./.test(s) || /^"./.test(s)) return s.codePointAt(1) ?? 0;
    const m = /^[ \t]*([-+]?(0x[0-9a-fA-F]+|\d+\.?\d*(e[-+]?\d+)?|\.\d+))/i.exec(s);
    if (!m || m[0].length !== s.length) {
      stderr += `bash: printf: ${s}: invalid number\n`;
      status = 1;
    }
    if (!m) return 0;
    return m[2]!.toLowerCase().startsWith('0x') ? parseInt(m[2]!, 16) * (m[1]!.startsWith('-') ? -1 : 1) : Number(m[1]);
  };
  /**
   * printf.def getintmax: strtoimax(s, &ep, 0) (0x hex, leading-0 octal); text left over is
   * `invalid number` (the value read so far is used), a value past 64 bits is a warning and
   * saturates. `*` widths go through getint, which saturates at INT_MAX the same way.
   */
  const toInt = (s: string): bigint => {
    if (/^['"]./.test(s)) return BigInt(s.codePointAt(1) ?? 0);
    const m = /^[ \t\n]*([-+]?)(?:0[xX]([0-9a-fA-F]+)|(0[0-7]*)|([1-9][0-9]*))?/.exec(s)!;
    const digits = m[2] ?? m[3] ?? m[4];
    let v = digits === undefined ? 0n : m[2] !== undefined ? BigInt(`0x${m[2]}`) : m[3] !== undefined ? BigInt(`0o${m[3].slice(1) || '0'}`) : BigInt(m[4]!);
    if (m[1] === '-') v = -v;
    if (m[0].length !== s.length || (digits === undefined && s !== '')) {
      stderr += `bash: printf: ${s}: ${m[3] !== undefined && /^[89]/.test(s.slice(m[0].length)) ? 'invalid octal number' : 'invalid number'}\n`;
      status = 1;
    } else if (v > (1n << 63n) - 1n || v < -(1n << 63n)) {
      stderr += `bash: printf: warning: ${s}: Numerical result out of range\n`;
      v = v < 0n ? -(1n << 63n) : (1n << 63n) - 1n;
    }
    return v;
  };
  const toWidth = (s: string): number => {
    const v = toInt(s);
    if (v > 2147483647n || v < -2147483648n) {
      stderr += `bash: printf: warning: ${s}: Numerical result out of range\n`;
      return v < 0n ? -2147483648 : 2147483647;
    }
    return Number(v);
  };
  const arg = (s: string | undefined): FormatArg => ({ num: () => toNum(s ?? '0'), str: () => s ?? '', int: () => (s === undefined ? 0n : toInt(s)), width: () => (s === undefined ? 0 : toWidth(s)) });
  // Split the format at %b conversions so their arguments get escape processing.
  const bParts = fmt.split(/(%b)/);
  const hasB = bParts.length > 1;
  const convCount = (fmt.replace(/%%/g, '').match(/%[-+ #0]*(\*|\d+)?(\.(\*|\d*))?[a-zA-Z]/g) ?? []).length;
  let out = '';
  let idx = 0;
  let stop = false;
  do {
    if (hasB) {
      for (const part of bParts) {
        if (part === '%b') {
          const r = echoEscapes(rest[idx++] ?? '', PRINTF_B_ESCAPES);
          out += r.text;
          if (r.stop) {
            stop = true;
            break;
          }
          continue;
        }
        const r = formatC(part, rest.map((s) => arg(s)), idx);
        out += r.text;
        idx += r.used;
      }
    } else {
      const r = formatC(fmt, rest.map((s) => arg(s)), idx);
      out += r.text;
      idx += r.used;
    }
  } while (!stop && convCount > 0 && idx < rest.length);
  // bash reports bad numbers as it formats but flushes its output buffer at the end.
  const chunks: Array<{ stream: 'stdout' | 'stderr'; text: string }> = [];
  if (stderr) chunks.push({ stream: 'stderr', text: stderr });
  if (out) chunks.push({ stream: 'stdout', text: out });
  return { stdout: out, stderr, exitCode: status, chunks } as ShellResult;
};
