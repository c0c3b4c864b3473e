/**
 * echo — bash's builtin (bash/builtins/echo.def): options only when every letter is n, e or E;
 * `-e` interprets backslash escapes, `\c` stops output.
 */
import type { CommandFn } from '../types.js';

/** Interpret echo -e / printf %b escapes; returns the text and whether `\c` cut it short. */
export function echoEscapes(s: string): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const n = s[++i]!;
    switch (n) {
      case 'a': out += '\x07'; break;
      case 'b': out += '\b'; break;
      case 'c': return { text: out, stop: true };
      case 'e': case 'E': out += '\x1b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '\\': out += '\\'; break;
      case '0': {
        const m = /^[0-7]{0,3}/.exec(s.slice(i + 1))![0];
        out += String.fromCharCode(m === '' ? 0 : parseInt(m, 8) & 0xff);
        i += m.length;
        break;
      }
      case 'x': {
        const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1));
        if (!m) { out += '\\x'; break; }
        out += String.fromCharCode(parseInt(m[0], 16));
        i += m[0].length;
        break;
      }
      case 'u': case 'U': {
        const m = new RegExp(`^[0-9a-fA-F]{1,${n === 'u' ? 4 : 8}}`).exec(s.slice(i + 1));
        if (!m) { out += `\\${n}`; break; }
        const cp = parseInt(m[0], 16);
        out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
        i += m[0].length;
        break;
      }
      default: out += `\\${n}`;
    }
  }
  return { text: out, stop: false };
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
  const s = rest.join(' ');
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    let e = s[++i]!;
    if (e === 'c') return out;
    if (e === '0' && /[0-7]/.test(s[i + 1] ?? '')) e = s[++i]!;
    const simple = ({ '\\': '\\', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' } as Record<string, string>)[e];
    if (simple !== undefined) out += simple;
    else if (e >= '0' && e <= '7') {
      const m = /^[0-7]{1,3}/.exec(s.slice(i))![0];
      out += String.fromCharCode(parseInt(m, 8) & 0xff);
      i += m.length - 1;
    } else out += `\\${e}`;
  }
  return newline ? `${out}\n` : out;
}
