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
