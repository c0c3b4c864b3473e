/**
 * POSIX regular expressions (BRE and ERE, with the GNU extensions grep and sed accept: `\|`, `\+`,
 * `\?`, `\<`, `\>`, `\b`, `\w`, `\s`) translated to JavaScript RegExp source. Bracket expressions
 * follow POSIX: a backslash inside `[...]` is literal (except in awk), `]` first is literal, and
 * `[:class:]` names map to ASCII sets. Matching is leftmost-first rather than POSIX
 * leftmost-longest, which differs only for alternations whose branches share a prefix.
 *
 * The translated source runs on the simulator's linear-time engine (util/regex), never on V8's
 * backtracking one: `grep -E '(a+)+$'` on a long line of a's answers at once instead of hanging.
 */
import { LinearRegExp, RegexBudgetError, RegexSyntaxError, type Meter } from './regex/index.js';

export { withFlags } from './regex/index.js';

export type RegexFlavor = 'bre' | 'ere' | 'awk';

const CLASSES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: '0-9A-Za-z',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
  xdigit: '0-9A-Fa-f',
};

export class RegexError extends Error {}

/** Translate a bracket expression starting at p[i] === '['; returns [jsSource, nextIndex]. */
function bracket(p: string, i: number, flavor: RegexFlavor): [string, number] {
  let j = i + 1;
  let neg = false;
  if (p[j] === '^') {
    neg = true;
    j++;
  }
  let body = '';
  let first = true;
  for (;;) {
    if (j >= p.length) throw new RegexError('Unmatched [, [^, [:, [., or [=');
    const c = p[j]!;
    if (c === ']' && !first) break;
    first = false;
    if (c === '[' && (p[j + 1] === ':' || p[j + 1] === '=' || p[j + 1] === '.')) {
      const kind = p[j + 1]!;
      const end = p.indexOf(`${kind}]`, j + 2);
      if (end < 0) throw new RegexError('Unmatched [, [^, [:, [., or [=');
      const name = p.slice(j + 2, end);
      if (kind === ':') {
        const cls = CLASSES[name];
        if (cls === undefined) throw new RegexError('Invalid character class name');
        body += cls;
      } else body += name.replace(/[\\\]^-]/g, '\\$&');
      j = end + 2;
      continue;
    }
    if (c === '\\') {
      if (flavor === 'awk' && j + 1 < p.length) {
        const n = p[j + 1]!;
        const esc: Record<string, string> = { n: '\\n', t: '\\t', r: '\\r', '\\': '\\\\', ']': '\\]', '/': '\\/', '-': '\\-', '^': '\\^' };
        body += esc[n] ?? n.replace(/[\\\]^-]/g, '\\$&');
        j += 2;
        continue;
      }
      body += '\\\\';
      j++;
      continue;
    }
    if (c === '-' ) {
      body += (p[j + 1] === ']' || body === '') ? '\\-' : '-';
      j++;
      continue;
    }
    body += c === ']' || c === '^' || c === '[' ? `\\${c}` : c;
    j++;
  }
  return [`[${neg ? '^' : ''}${body}]`, j + 1];
}

/** Translate a POSIX pattern to JavaScript RegExp source. Throws RegexError with GNU's wording. */
export function posixToJs(p: string, flavor: RegexFlavor): string {
  const ere = flavor !== 'bre';
  let out = '';
  let depth = 0;
  // Whether the previous item can take a quantifier (for `*` at the start being literal).
  let atStart = true;
  for (let i = 0; i < p.length; ) {
    const c = p[i]!;
    if (c === '[') {
      const [src, next] = bracket(p, i, flavor);
      out += src;
      i = next;
      atStart = false;
      continue;
    }
    if (c === '\\') {
      const n = p[i + 1];
      i += 2;
      if (n === undefined) throw new RegexError('Trailing backslash');
      if (!ere && n === '(') {
        out += '(';
        depth++;
        atStart = true;
        continue;
      }
      if (!ere && n === ')') {
        if (depth === 0) throw new RegexError('Unmatched ) or \\)');
        out += ')';
        depth--;
        atStart = false;
        continue;
      }
      if (!ere && n === '|') {
        out += '|';
        atStart = true;
        continue;
      }
      if (!ere && (n === '+' || n === '?')) {
        out += atStart ? `\\${n}` : n;
        continue;
      }
      if (!ere && n === '{') {
        const end = p.indexOf('\\}', i);
        if (end < 0) throw new RegexError('Unmatched \\{');
        const body = p.slice(i, end);
        if (!/^\d*(,\d*)?$/.test(body)) throw new RegexError('Invalid content of \\{\\}');
        out += `{${body.startsWith(',') ? `0${body}` : body}}`;
        i = end + 2;
        continue;
      }
      if (n === '<') {
        out += '\\b(?=\\w)';
        continue;
      }
      if (n === '>') {
        out += '\\b(?<=\\w)';
        continue;
      }
      if ('bBwWsS'.includes(n)) {
        out += `\\${n}`;
        atStart = false;
        continue;
      }
      if (/[1-9]/.test(n)) {
        out += `\\${n}`;
        atStart = false;
        continue;
      }
      if (flavor === 'awk') {
        const esc: Record<string, string> = { n: '\\n', t: '\\t', r: '\\r', '/': '\\/', '"': '"' };
        if (esc[n] !== undefined) {
          out += esc[n];
          atStart = false;
          continue;
        }
      }
      if (n === 'n' || n === 't') {
        out += `\\${n}`;
        atStart = false;
        continue;
      }
      out += /[A-Za-z0-9]/.test(n) ? n : `\\${n}`;
      atStart = false;
      continue;
    }
    if (c === '*') {
      out += atStart ? '\\*' : '*';
      i++;
      continue;
    }
    if (ere && (c === '+' || c === '?')) {
      out += atStart ? `\\${c}` : c;
      i++;
      continue;
    }
    if (ere && c === '{') {
      const m = /^\{(\d*)(,(\d*))?\}/.exec(p.slice(i));
      if (m && !atStart && (m[1] !== '' || m[2] !== undefined)) {
        out += `{${m[1] === '' ? '0' : m[1]}${m[2] ?? ''}}`;
        i += m[0].length;
        continue;
      }
      out += '\\{';
      i++;
      atStart = false;
      continue;
    }
    if (ere && c === '(') {
      out += '(';
      depth++;
      i++;
      atStart = true;
      continue;
    }
    if (ere && c === ')') {
      if (depth === 0) {
        out += '\\)';
        i++;
        continue;
      }
      out += ')';
      depth--;
      i++;
      atStart = false;
      continue;
    }
    if (ere && c === '|') {
      out += '|';
      i++;
      atStart = true;
      continue;
    }
    if (c === '^') {
      // In a BRE `^` is an anchor only at the start of the pattern or a group.
      out += ere || atStart ? '^' : '\\^';
      i++;
      continue;
    }
    if (c === '$') {
      const end = i === p.length - 1 || (!ere && p.startsWith('\\)', i + 1)) || (!ere && p.startsWith('\\|', i + 1)) || (ere && (p[i + 1] === ')' || p[i + 1] === '|'));
      out += ere || end ? '$' : '\\$';
      i++;
      atStart = false;
      continue;
    }
    out += /[.]/.test(c) ? c : c.replace(/[+?(){}|/\]]/g, '\\$&');
    i++;
    atStart = false;
  }
  if (depth > 0) throw new RegexError(ere ? 'Unmatched ( or \\(' : 'Unmatched ( or \\(');
  return out;
}

/**
 * Compile a POSIX pattern; flags are JavaScript's (g, i, m). Matching is linear in the text, and
 * its work goes to `meter` (the line's budget, LineBudget.regexMeter) when given.
 */
export function compilePosix(p: string, flavor: RegexFlavor, flags = '', meter?: Meter): RegExp {
  return compileTranslated(posixToJs(p, flavor), flags, meter);
}

/** Compile JavaScript source made by posixToJs (or put together from such sources, as grep does). */
export function compileTranslated(src: string, flags = '', meter?: Meter): RegExp {
  try {
    return new LinearRegExp(src, flags, 'js', meter);
  } catch (e) {
    if (e instanceof RegexSyntaxError) throw new RegexError(/too big/.test(e.message) ? 'Regular expression too big' : 'Invalid regular expression');
    throw e;
  }
}

/** A match that gave up (back-references past the step budget) in the command's words. */
export function isRegexBudget(e: unknown): e is RegexBudgetError {
  return e instanceof RegexBudgetError;
}
