/**
 * echo — bash's builtin (bash/builtins/echo.def): options only when every letter is n, e or E;
 * `-e` interprets backslash escapes, `\c` stops output.
 */
import { byteChar, normalizeBytes } from '../../util/bytes.js';
import type { CommandFn } from '../types.js';

/**
 * Where bash's and dash's echo escapes differ; everything else (`\\ \a \b \e \f \n \r \t \v`,
 * `\0` and up to three octal digits, `\c` ending the output, any other `\X` kept as written) they
 * share. bash: builtins/echo.def with lib/sh/strtrans.c ansicstr (echo -e, printf %b); dash 0.5.12:
 * bltin/printf.c conv_escape_str (its echo always reads escapes).
 */
export interface EscapeRules {
  /** `\E` is ESC as `\e` is (bash). */
  upperE: boolean;
  /** `\xHH`, `\uHHHH` and `\UHHHHHHHH` (bash). */
  hex: boolean;
  /** `\NNN` is octal without a leading 0 too (dash: `\101` is A; bash prints it as written). */
  bareOctal: boolean;
}

export const BASH_ESCAPES: EscapeRules = { upperE: true, hex: true, bareOctal: false };
export const DASH_ESCAPES: EscapeRules = { upperE: false, hex: false, bareOctal: true };
/** bash's `printf %b` reads `\NNN` as octal too, unlike `echo -e` (builtins/printf.def tescape with sawbslash). */
export const PRINTF_B_ESCAPES: EscapeRules = { upperE: true, hex: true, bareOctal: true };

const SIMPLE: Readonly<Record<string, string>> = { '\\': '\\', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** Interpret echo's backslash escapes by `rules`; returns the text and whether `\c` cut it short. */
export function echoEscapes(s: string, rules: EscapeRules = BASH_ESCAPES): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const n = s[++i]!;
    if (n === 'c') return { text: normalizeBytes(out), stop: true };
    const simple = SIMPLE[n] ?? (n === 'E' && rules.upperE ? '\x1b' : undefined);
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    if (n === '0' || (rules.bareOctal && n >= '1' && n <= '7')) {
      // `\0` takes up to three more digits (`\0101` is A), dash's `\NNN` one to three with the first
      const m = /^[0-7]{0,3}/.exec(s.slice(n === '0' ? i + 1 : i))![0];
      out += byteChar(m === '' ? 0 : parseInt(m, 8) & 0xff);
      i += n === '0' ? m.length : m.length - 1;
      continue;
    }
    if (rules.hex && n === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1));
      if (!m) {
        out += '\\x';
        continue;
      }
      out += byteChar(parseInt(m[0], 16));
      i += m[0].length;
      continue;
    }
    if (rules.hex && (n === 'u' || n === 'U')) {
      const m = new RegExp(`^[0-9a-fA-F]{1,${n === 'u' ? 4 : 8}}`).exec(s.slice(i + 1));
      if (!m) {
        out += `\\${n}`;
        continue;
      }
      const cp = parseInt(m[0], 16);
      out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
      i += m[0].length;
      continue;
    }
    out += `\\${n}`;
  }
  return { text: normalizeBytes(out), stop: false };
}

export const echo: CommandFn = (ctx) => {
  const args = ctx.argv.slice(1);
  let newline = true;
  let escapes = false;
  while (args.length > 0 && /^-[neE]+$/.test(args[0]!)) {
    for (const f of args.shift()!.slice(1)) {
      if (f === 'n') newline = false;
      else if (f === 'e') escapes = true;
      else escapes = false;
    }
  }
  let text = args.join(' ');
  if (escapes) {
    const r = echoEscapes(text);
    if (r.stop) return { stdout: r.text, stderr: '', exitCode: 0 };
    text = r.text;
  }
  return { stdout: newline ? `${text}\n` : text, stderr: '', exitCode: 0 };
};

/**
 * dash's builtin echo (0.5.12 bltin/printf.c echocmd, conv_escape_str): the one option is a
 * first argument of exactly `-n`; escapes are always on: \\ \a \b \e \f \n \r \t \v, an octal
 * value of one to three digits after `\` or `\0`, and `\c`, which ends all output. Anything
 * else (`\E`, `\x41`, `-e`) is printed as written. Verified against dash 0.5.12 (Debian 12).
 */
export function dashEcho(args: readonly string[]): string {
  let rest = args;
  let newline = true;
  if (rest[0] === '-n') {
    newline = false;
    rest = rest.slice(1);
  }
  const r = echoEscapes(rest.join(' '), DASH_ESCAPES);
  return newline && !r.stop ? `${r.text}\n` : r.text;
}
