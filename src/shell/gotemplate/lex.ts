/**
 * The lexer of Go's text/template (golang src/text/template/parse/lex.go): text outside actions,
 * `{{- ` / ` -}}` trim markers that eat the adjacent white space, comments, and the tokens inside
 * actions. Errors become an `error` item whose text is lex.go's own (`unclosed action`,
 * `bad character U+0023 '#'`, `unterminated quoted string`, …); the parser reports them.
 */
import { goQuote } from '../../util/go-quote.js';

export type ItemType =
  | 'error'
  | 'bool'
  | 'char'
  | 'charConstant'
  | 'comment'
  | 'assign'
  | 'declare'
  | 'EOF'
  | 'field'
  | 'identifier'
  | 'leftDelim'
  | 'leftParen'
  | 'number'
  | 'pipe'
  | 'rawString'
  | 'rightDelim'
  | 'rightParen'
  | 'space'
  | 'string'
  | 'text'
  | 'variable'
  // keywords
  | 'block'
  | 'break'
  | 'continue'
  | 'dot'
  | 'define'
  | 'else'
  | 'end'
  | 'if'
  | 'range'
  | 'nil'
  | 'template'
  | 'with';

export interface Item {
  typ: ItemType;
  pos: number;
  val: string;
  line: number;
}

const KEYWORDS: Readonly<Record<string, ItemType>> = {
  '.': 'dot',
  block: 'block',
  break: 'break',
  continue: 'continue',
  define: 'define',
  else: 'else',
  end: 'end',
  if: 'if',
  range: 'range',
  nil: 'nil',
  template: 'template',
  with: 'with',
};

const isKeyword = (t: ItemType): boolean => ['block', 'break', 'continue', 'dot', 'define', 'else', 'end', 'if', 'range', 'nil', 'template', 'with'].includes(t);

/** Go's %q of a string, short form used by item.String (`%.10q...` for long values). */
function quoteShort(s: string, max?: number): string {
  const cut = max !== undefined ? [...s].slice(0, max).join('') : s;
  return goQuote(cut);
}

/** item.String() in lex.go. */
export function itemString(i: Item): string {
  if (i.typ === 'EOF') return 'EOF';
  if (i.typ === 'error') return i.val;
  if (isKeyword(i.typ)) return `<${i.val}>`;
  if ([...i.val].length > 10) return `${quoteShort(i.val, 10)}...`;
  return quoteShort(i.val);
}

/** %#U of a rune: `U+0023 '#'`. */
export function runeU(ch: string): string {
  const c = ch.codePointAt(0)!;
  const hex = c.toString(16).toUpperCase().padStart(4, '0');
  const printable = c >= 0x20 && c !== 0x7f && !(c >= 0x80 && c < 0xa0);
  return printable ? `U+${hex} '${ch}'` : `U+${hex}`;
}

const isSpace = (r: string): boolean => r === ' ' || r === '\t' || r === '\r' || r === '\n';
const isAlphaNumeric = (r: string): boolean => r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
const EOF = '';

/** Tokenise a whole template (the parser pulls items from the returned list). */
export function lex(input: string, leftDelim = '{{', rightDelim = '}}'): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let start = 0;
  const nl: number[] = [];
  for (let i = 0; i < input.length; i++) if (input[i] === '\n') nl.push(i);
  /** 1-based line of a byte offset (binary search over the newline offsets). */
  const lineAt = (at: number): number => {
    let lo = 0;
    let hi = nl.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (nl[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
  let parenDepth = 0;
  let insideAction = false;
  let done = false;

  const emit = (typ: ItemType): void => {
    items.push({ typ, pos: start, val: input.slice(start, pos), line: lineAt(start) });
    start = pos;
  };
  const ignore = (): void => {
    start = pos;
  };
  const errorf = (msg: string): void => {
    items.push({ typ: 'error', pos: start, val: msg, line: lineAt(start) });
    done = true;
  };
  const next = (): string => {
    if (pos >= input.length) {
      pos = input.length + 1;
      return EOF;
    }
    const ch = String.fromCodePoint(input.codePointAt(pos)!);
    pos += ch.length;
    return ch;
  };
  const backup = (ch: string): void => {
    if (ch === EOF) {
      pos = input.length;
      return;
    }
    pos -= ch.length;
  };
  const peek = (): string => {
    const ch = next();
    backup(ch);
    return ch;
  };
  const atTerminator = (): boolean => {
    const r = peek();
    if (r === EOF || isSpace(r)) return true;
    if ('.,|:)('.includes(r)) return true;
    return input.startsWith(rightDelim, pos);
  };
  const hasLeftTrim = (at: number): boolean => input[at] === '-' && at + 1 < input.length && isSpace(input[at + 1]!);
  const hasRightTrim = (at: number): boolean => isSpace(input[at] ?? 'x') && input[at + 1] === '-';
  const atRightDelim = (): { delim: boolean; trim: boolean } => {
    if (hasRightTrim(pos) && input.startsWith(rightDelim, pos + 2)) return { delim: true, trim: true };
    if (input.startsWith(rightDelim, pos)) return { delim: true, trim: false };
    return { delim: false, trim: false };
  };
  const trimLeftSpaces = (): void => {
    let p = pos;
    while (p < input.length && isSpace(input[p]!)) p++;
    pos = p;
    start = pos;
  };

  const lexComment = (): void => {
    pos += 2; // "/*"
    const x = input.indexOf('*/', pos);
    if (x < 0) {
      errorf('unclosed comment');
      return;
    }
    pos = x + 2;
    const d = atRightDelim();
    if (!d.delim) {
      errorf('comment ends before closing delimiter');
      return;
    }
    pos += (d.trim ? 2 : 0) + rightDelim.length;
    ignore();
    if (d.trim) trimLeftSpaces();
  };

  const lexText = (): void => {
    const x = input.indexOf(leftDelim, pos);
    if (x < 0) {
      pos = input.length;
      if (pos > start) emit('text');
      items.push({ typ: 'EOF', pos, val: '', line: lineAt(pos) });
      done = true;
      return;
    }
    const ldn = x;
    pos = x;
    let trimLen = 0;
    const trim = hasLeftTrim(x + leftDelim.length);
    let textEnd = pos;
    if (trim) {
      trimLen = 2;
      textEnd = rightTrimLen(input.slice(start, pos)) + start;
    }
    if (textEnd > start) {
      const savePos = pos;
      pos = textEnd;
      emit('text');
      pos = savePos;
    }
    start = pos;
    pos = ldn + leftDelim.length;
    // comment?
    if (input.startsWith('/*', pos + trimLen)) {
      pos += trimLen;
      start = pos;
      lexComment();
      return;
    }
    start = ldn;
    emit('leftDelim');
    pos += trimLen;
    ignore();
    insideAction = true;
    parenDepth = 0;
  };

  const lexSpace = (): void => {
    let numSpaces = 0;
    for (;;) {
      const r = peek();
      if (!isSpace(r)) break;
      next();
      numSpaces++;
    }
    if (hasRightTrim(pos - 1) && input.startsWith(rightDelim, pos - 1 + 2)) {
      backup(input[pos - 1]!);
      if (numSpaces === 1) return;
    }
    emit('space');
  };

  const lexQuote = (): void => {
    for (;;) {
      let r = next();
      if (r === '\\') {
        r = next();
        if (r !== EOF && r !== '\n') continue;
      }
      if (r === EOF || r === '\n') {
        errorf('unterminated quoted string');
        return;
      }
      if (r === '"') break;
    }
    emit('string');
  };

  const lexRawQuote = (): void => {
    const x = input.indexOf('`', pos);
    if (x < 0) {
      errorf('unterminated raw quoted string');
      return;
    }
    pos = x + 1;
    emit('rawString');
  };

  const lexChar = (): void => {
    for (;;) {
      let r = next();
      if (r === '\\') {
        r = next();
        if (r !== EOF && r !== '\n') continue;
      }
      if (r === EOF || r === '\n') {
        errorf('unterminated character constant');
        return;
      }
      if (r === "'") break;
    }
    emit('charConstant');
  };

  const scanNumber = (): boolean => {
    const accept = (valid: string): boolean => {
      const r = next();
      if (r !== EOF && valid.includes(r)) return true;
      backup(r);
      return false;
    };
    const acceptRun = (valid: string): void => {
      for (;;) {
        const r = next();
        if (r === EOF || !valid.includes(r)) {
          backup(r);
          return;
        }
      }
    };
    accept('+-');
    let digits = '0123456789_';
    if (accept('0')) {
      if (accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (accept('oO')) digits = '01234567_';
      else if (accept('bB')) digits = '01_';
    }
    acceptRun(digits);
    if (accept('.')) acceptRun(digits);
    if (digits.length === 11 && accept('eE')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    if (digits.length === 23 && accept('pP')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    accept('i');
    const r = peek();
    if (r !== EOF && isAlphaNumeric(r)) {
      next();
      return false;
    }
    return true;
  };

  const lexNumber = (): void => {
    if (!scanNumber()) {
      errorf(`bad number syntax: ${goQuote(input.slice(start, pos))}`);
      return;
    }
    emit('number');
  };

  const lexFieldOrVariable = (typ: 'field' | 'variable'): void => {
    if (atTerminator()) {
      emit(typ === 'variable' ? 'variable' : 'dot');
      return;
    }
    let r: string;
    for (;;) {
      r = next();
      if (r === EOF || !isAlphaNumeric(r)) {
        backup(r);
        break;
      }
    }
    if (!atTerminator()) {
      errorf(`bad character ${runeU(r)}`);
      return;
    }
    emit(typ);
  };

  const lexIdentifier = (): void => {
    let r: string;
    for (;;) {
      r = next();
      if (r === EOF || !isAlphaNumeric(r)) {
        backup(r);
        break;
      }
    }
    if (!atTerminator()) {
      errorf(`bad character ${runeU(r)}`);
      return;
    }
    const word = input.slice(start, pos);
    const kw = Object.hasOwn(KEYWORDS, word) ? KEYWORDS[word] : undefined;
    if (kw && kw !== 'dot') emit(kw);
    else if (word[0] === '.') emit('field');
    else if (word === 'true' || word === 'false') emit('bool');
    else emit('identifier');
  };

  const lexInsideAction = (): void => {
    const d = atRightDelim();
    if (d.delim) {
      if (parenDepth !== 0) {
        errorf('unclosed left paren');
        return;
      }
      if (d.trim) {
        pos += 2;
        ignore();
      }
      pos += rightDelim.length;
      emit('rightDelim');
      if (d.trim) trimLeftSpaces();
      insideAction = false;
      return;
    }
    const r = next();
    if (r === EOF) {
      errorf('unclosed action');
    } else if (isSpace(r)) {
      backup(r);
      lexSpace();
    } else if (r === '=') {
      emit('assign');
    } else if (r === ':') {
      if (next() !== '=') {
        errorf('expected :=');
        return;
      }
      emit('declare');
    } else if (r === '|') {
      emit('pipe');
    } else if (r === '"') {
      lexQuote();
    } else if (r === '`') {
      lexRawQuote();
    } else if (r === '$') {
      lexFieldOrVariable('variable');
    } else if (r === "'") {
      lexChar();
    } else if (r === '.') {
      if (pos < input.length) {
        const r2 = input[pos]!;
        if (r2 < '0' || r2 > '9') {
          lexFieldOrVariable('field');
          return;
        }
      }
      backup(r);
      lexNumber();
    } else if (r === '+' || r === '-' || (r >= '0' && r <= '9')) {
      backup(r);
      lexNumber();
    } else if (isAlphaNumeric(r)) {
      backup(r);
      lexIdentifier();
    } else if (r === '(') {
      emit('leftParen');
      parenDepth++;
    } else if (r === ')') {
      parenDepth--;
      if (parenDepth < 0) errorf('unexpected right paren');
      else emit('rightParen');
    } else if (r.codePointAt(0)! <= 0x7f && r.codePointAt(0)! >= 0x20 && r !== '\x7f') {
      emit('char');
    } else {
      errorf(`unrecognized character in action: ${runeU(r)}`);
    }
  };

  while (!done) {
    if (insideAction) lexInsideAction();
    else lexText();
  }
  return items;
}

function rightTrimLen(s: string): number {
  let i = s.length;
  while (i > 0 && isSpace(s[i - 1]!)) i--;
  return i;
}
