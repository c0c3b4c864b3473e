/**
 * The lexical layer of the exam shell: turns a (possibly multi-line) command text into words,
 * operators, IO numbers and here-document bodies, following bash's token recognition rules
 * (bash/parse.y `read_token`, POSIX XCU 2.3 "Token Recognition").
 *
 * Why not a shell-words library such as `shell-quote`: it loses what bash needs downstream — whether `2` in
 * `2>&1` touches the operator (IO number) or is an argument, whether a word was quoted (no glob,
 * no alias, no word splitting), where `$VAR` sits (expansion must happen at run time, after an
 * earlier `export` in the same line), unclosed quotes (the REPL must ask for more lines), quoted
 * here-document delimiters, and `#` in the middle of a word (a literal in bash, a comment there).
 */

/** One piece of a word; expansion joins the pieces at run time. */
export type WordPart =
  | { kind: 'text'; value: string; quoted: boolean }
  | { kind: 'var'; name: string; quoted: boolean }
  | { kind: 'cmdsub'; source: string; quoted: boolean }
  | { kind: 'arith'; source: string; quoted: boolean }
  /** `<(LIST)` / `>(LIST)`: replaced at run time by a /dev/fd path holding the list's output. */
  | { kind: 'procsub'; source: string; dir: '<' | '>'; quoted: false }
  | { kind: 'tilde' };

export interface Word {
  parts: WordPart[];
  /** The word as typed, for error messages and alias lookups. */
  raw: string;
  /** The source line the word starts on (1-based), for a script's `FILE: line N:` errors. */
  line?: number;
}

export interface HereDoc {
  /** Body with the trailing newline of each line, delimiter line excluded. */
  body: string;
  /** False when any part of the delimiter was quoted: then `$` stays literal. */
  expand: boolean;
}

export type Token =
  | { type: 'word'; word: Word }
  | { type: 'op'; op: string }
  | { type: 'io'; fd: number }
  | { type: 'heredoc'; op: '<<' | '<<-'; delimiter: Word; doc?: HereDoc }
  /** `(( EXPR ))`: an arithmetic command, or the header of `for (( A; B; C ))` (bash/parse.y parse_dparen). */
  | { type: 'arith'; source: string; line?: number };

export type LexResult =
  | { ok: true; tokens: Token[] }
  | { ok: false; incomplete: true; reason: string; dash?: string }
  /** `dash`: dash's wording of the error where it is not derived from the token (see ast.ts ParseResult). */
  | { ok: false; incomplete: false; error: string; dash?: string };

/** Longest operators first so `>>` wins over `>`. */
const OPERATORS = ['<<<', '<<-', '&>>', ';;&', '&&', '||', ';;', ';&', '|&', '>>', '<<', '>&', '<&', '&>', '>|', '|', '&', ';', '<', '>', '(', ')', '\n'];

/** The operators bash has and dash 0.5.12 has not. */
const DASH_NO_OP: ReadonlySet<string> = new Set(['<<<', '&>>', '&>', '|&', ';;&', ';&']);

const META = new Set([' ', '\t', '\n', '|', '&', ';', '<', '>', '(', ')']);

import { ansiC, ansiCEnd } from './ansi-c.js';

/**
 * Which shell reads the text. bash (the default) has `$'…'` (ANSI-C quoting) and `$"…"` (locale
 * translation, a plain double-quoted string in C and C.UTF-8); dash 0.5.12 has neither, so there
 * `$` is a literal before the quote (parser.c readtoken1).
 */
export interface LexOptions {
  dash?: boolean;
  /**
   * BusyBox ash (busybox and Alpine images): bash's quoting, but no `for ((…))` and no arrays
   * (shell/ash.c parse_command's `bad for loop variable`; `a=(1 2)` is `a=` before a `(`).
   */
  ash?: boolean;
  /**
   * The text is a bash `-c` string, read whole: a `((` that falls back to nested subshells whose
   * parenthesised text closes right before a newline or the end is a syntax error near the line's
   * last word (parse.y parse_dparen / parse_arith_cmd: bash 5.2.15 `bash -c '(( (1 + 2 ))'` says
   * ``syntax error near `))'``, where an interactive bash reads on).
   */
  cString?: boolean;
}

/**
 * Whether `$'…'` is ANSI-C quoting: in bash and in BusyBox ash, also when ash runs as a child `sh`
 * (shell/ash.c readtoken1's `$'` under ENABLE_ASH_BASH_COMPAT; busybox 1.35.0's `sh -c` prints
 * `a<TAB>b` for `printf '%s\n' $'a\tb'`), not in dash.
 */
function hasAnsiC(opts: LexOptions): boolean {
  return !opts.dash || opts.ash === true;
}

class Incomplete {
  constructor(
    readonly reason: string,
    /** dash's (and ash's) wording at end of file where it is not derived from `reason` (parser.c readtoken1). */
    readonly dash?: string,
  ) {}
}

/** dash's and ash's error for an open `$((` at end of file (dash parser.c, BusyBox ash.c readtoken1: "Missing '))'"). */
const MISSING_DPAREN = "Syntax error: Missing '))'";
class BadSyntax {
  constructor(
    readonly error: string,
    readonly dash?: string,
  ) {}
}

function isNameStart(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z_]/.test(c);
}
function isNameChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_]/.test(c);
}

/**
 * Find the `)` closing a `$(` that starts at `start` (just after the paren). Quotes and nested
 * parens are skipped. Returns the index of the closing paren.
 */
function findCmdSubEnd(src: string, start: number, ansi: boolean): number {
  let depth = 1;
  let i = start;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (ansi && c === '$' && src[i + 1] === "'") {
      i = skipAnsiC(src, i + 1) + 1;
      continue;
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1);
      if (j < 0) throw new Incomplete("'");
      i = j + 1;
      continue;
    }
    if (c === '"') {
      i = findDoubleQuoteEnd(src, i + 1, ansi) + 1;
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') {
      depth--;
      if (depth === 0) return i;
    }
    i++;
  }
  throw new Incomplete(')');
}

/** The closing quote of a `$'…'` opened at `open`; an unclosed one asks for more input. */
function skipAnsiC(src: string, open: number): number {
  const end = ansiCEnd(src, open);
  if (end < 0) throw new Incomplete("'");
  return end;
}

function findDoubleQuoteEnd(src: string, start: number, ansi: boolean): number {
  let i = start;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '"') return i;
    if (c === '$' && src[i + 1] === '(') {
      i = findCmdSubEnd(src, i + 2, ansi) + 1;
      continue;
    }
    i++;
  }
  throw new Incomplete('"');
}

/**
 * Find the `}` closing a `${` whose inside starts at `start`: nested `${…}`, `$(…)`, quotes and
 * backslashes are skipped (bash/subst.c extract_dollar_brace_string). Inside double quotes a single
 * quote is an ordinary character.
 */
function findParamEnd(src: string, start: number, quoted: boolean, ansi: boolean): number {
  let depth = 1;
  let i = start;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (ansi && c === '$' && src[i + 1] === "'") {
      // `$'…'` is ANSI-C quoting inside `${…}`, in double quotes too (shopt extquote, on by default)
      i = skipAnsiC(src, i + 1) + 1;
      continue;
    }
    if (c === "'" && !quoted) {
      const j = src.indexOf("'", i + 1);
      if (j < 0) throw new Incomplete("'");
      i = j + 1;
      continue;
    }
    if (c === '"') {
      i = findDoubleQuoteEnd(src, i + 1, ansi) + 1;
      continue;
    }
    if (c === '$' && src[i + 1] === '(') {
      i = findCmdSubEnd(src, i + 2, ansi) + 1;
      continue;
    }
    if (c === '$' && src[i + 1] === '{') {
      depth++;
      i += 2;
      continue;
    }
    if (c === '`') {
      const j = src.indexOf('`', i + 1);
      if (j < 0) throw new Incomplete('`');
      i = j + 1;
      continue;
    }
    if (c === '}' && --depth === 0) return i;
    i++;
  }
  throw new Incomplete('}');
}

/**
 * The word bash's report_syntax_error names when it has no token to name: the last one on the
 * line, delimited by blanks and `;|&` (parse.y).
 */
function lastWord(text: string): string {
  const line = text.slice(text.lastIndexOf('\n') + 1).replace(/[ \t]+$/, '');
  const m = /[^ \t;|&]*$/.exec(line);
  return m ? m[0] : '';
}

/**
 * `((` at a command's start: the index of the `))` that closes it at parenthesis depth zero, or -1
 * when a `)` at depth zero is not doubled, which makes it two nested subshells (`((cd a) && ls)`),
 * as bash/parse.y parse_dparen decides.
 */
function arithCommandEnd(src: string, start: number, ansi: boolean): number {
  const close = arithCommandClose(src, start, ansi);
  return src[close + 1] === ')' ? close : -1;
}

/** The `)` at parenthesis depth zero after `((` (the one that closes its second parenthesis). */
function arithCommandClose(src: string, start: number, ansi: boolean): number {
  let depth = 0;
  for (let i = start; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') i++;
    else if (ansi && c === '$' && src[i + 1] === "'") i = skipAnsiC(src, i + 1);
    else if (c === "'") {
      const j = src.indexOf("'", i + 1);
      if (j < 0) throw new Incomplete("'");
      i = j;
    } else if (c === '"') i = findDoubleQuoteEnd(src, i + 1, ansi);
    else if (c === '(') depth++;
    else if (c === ')') {
      if (depth > 0) depth--;
      else return i;
    }
  }
  throw new Incomplete('((');
}

/**
 * Read a `$...` expansion at src[i] === '$'. Returns the part (or literal `$`) and the next index.
 * `quoted` is whether we are inside double quotes.
 */
function readDollar(src: string, i: number, quoted: boolean, ansi: boolean): [WordPart, number] {
  const n = src[i + 1];
  if (n === '(' && src[i + 2] === '(') {
    // $(( expr )): the matching `))` at paren depth zero.
    let depth = 0;
    for (let j = i + 3; j < src.length; j++) {
      const c = src[j];
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) {
          if (src[j + 1] !== ')') break;
          return [{ kind: 'arith', source: src.slice(i + 3, j), quoted }, j + 2];
        }
        depth--;
      }
    }
    if (src.indexOf('))', i + 3) < 0 && src.indexOf(')', i + 3) < 0) throw new Incomplete(')', MISSING_DPAREN);
    // bash may still read it as `$(` and a subshell; dash and ash only as arithmetic, so an open
    // one is their "Missing '))'"
    try {
      const end = findCmdSubEnd(src, i + 2, ansi);
      return [{ kind: 'cmdsub', source: src.slice(i + 2, end), quoted }, end + 1];
    } catch (e) {
      if (e instanceof Incomplete) throw new Incomplete(e.reason, MISSING_DPAREN);
      throw e;
    }
  }
  if (n === '(') {
    const end = findCmdSubEnd(src, i + 2, ansi);
    return [{ kind: 'cmdsub', source: src.slice(i + 2, end), quoted }, end + 1];
  }
  if (n === '{') {
    const end = findParamEnd(src, i + 2, quoted, ansi);
    const inner = src.slice(i + 2, end);
    if (!PARAM.test(inner)) {
      // bash reports this at expansion time; we keep the token and fail when it runs.
      return [{ kind: 'var', name: `\0bad:${src.slice(i, end + 1)}`, quoted }, end + 1];
    }
    return [{ kind: 'var', name: inner, quoted }, end + 1];
  }
  if (isNameStart(n)) {
    let j = i + 1;
    while (isNameChar(src[j])) j++;
    return [{ kind: 'var', name: src.slice(i + 1, j), quoted }, j];
  }
  if (n !== undefined && /[0-9?$#@*!-]/.test(n)) return [{ kind: 'var', name: n, quoted }, i + 2];
  return [{ kind: 'text', value: '$', quoted }, i + 1];
}

/**
 * What may stand between `${` and `}` (bash manual 3.5.3): a name, positional or special
 * parameter, an array element `a[i]`, a length `#x`, and the operators `:-` `-` `:=` `:+` `:?`
 * `#` `##` `%` `%%` `/` `//` followed by a word. The interpreter takes the text apart.
 */
const SUBSCRIPT = String.raw`\[(?:[^\[\]]|\[[^\]]*\])+\]`;
const PARAM = new RegExp(
  String.raw`^(?:[!#]?(?:[A-Za-z_][A-Za-z0-9_]*(?:${SUBSCRIPT})?|[0-9]+|[?$#@*!-])|(?:[A-Za-z_][A-Za-z0-9_]*(?:${SUBSCRIPT})?|[0-9]+|[@*])(?::?[-+=?]|##?|%%?|\/\/?|:|\^\^?|,,?)[^]*)$`,
);

/** Append text to the last part when it is text of the same quoting, else push a new part. */
function pushText(parts: WordPart[], value: string, quoted: boolean): void {
  const last = parts[parts.length - 1];
  if (last && last.kind === 'text' && last.quoted === quoted) last.value += value;
  else parts.push({ kind: 'text', value, quoted });
}

/**
 * Scan the inside of double quotes (or an unquoted here-document body when `heredoc` is set, where
 * `"` is an ordinary character). Backslash only escapes $ ` " \ and newline (bash manual 3.1.2.3).
 */
/**
 * A `$…` expansion or a backquoted command substitution at src[i], inside double quotes or not
 * (the only difference is whether the result is word-split and globbed later). Returns the index
 * after it.
 */
function scanSubstitution(src: string, i: number, parts: WordPart[], quoted: boolean, ansi: boolean): number {
  if (src[i] === '$') {
    const [part, next] = readDollar(src, i, quoted, ansi);
    if (part.kind === 'text') pushText(parts, part.value, quoted);
    else parts.push(part);
    return next;
  }
  const end = src.indexOf('`', i + 1);
  if (end < 0) throw new Incomplete('`');
  parts.push({ kind: 'cmdsub', source: src.slice(i + 1, end), quoted });
  return end + 1;
}

function scanDoubleQuoted(src: string, i: number, parts: WordPart[], heredoc: boolean, ansi: boolean): number {
  while (i < src.length) {
    const c = src[i]!;
    if (c === '"' && !heredoc) return i + 1;
    if (c === '\\') {
      const n = src[i + 1];
      if (n === undefined) {
        if (heredoc) {
          pushText(parts, '\\', true);
          return i + 1;
        }
        throw new Incomplete('"');
      }
      if (n === '\n') {
        i += 2;
        continue;
      }
      if (n === '$' || n === '`' || n === '\\' || (n === '"' && !heredoc)) {
        pushText(parts, n, true);
        i += 2;
        continue;
      }
      pushText(parts, '\\', true);
      i++;
      continue;
    }
    if (c === '$' || c === '`') {
      // `$'` stays literal here: ANSI-C quoting does not happen inside double quotes
      try {
        i = scanSubstitution(src, i, parts, true, ansi);
      } catch (e) {
        // dash and ash read an open `${` in double quotes as the open quote (readtoken1 checks the
        // quote before the `${` nesting): "Unterminated quoted string"
        if (e instanceof Incomplete && e.reason === '}' && e.dash === undefined) throw new Incomplete('}', 'Syntax error: Unterminated quoted string');
        throw e;
      }
      continue;
    }
    pushText(parts, c, true);
    i++;
  }
  if (heredoc) return i;
  throw new Incomplete('"');
}

/**
 * Parse the body of an unquoted here-document into expandable parts (`$'` is literal in it, but a
 * `$(…)` in it is read by the shell's own rules: `dash`).
 */
export function heredocParts(body: string, opts: LexOptions = {}): WordPart[] {
  const parts: WordPart[] = [];
  try {
    scanDoubleQuoted(body, 0, parts, true, !opts.dash);
  } catch {
    return [{ kind: 'text', value: body, quoted: true }];
  }
  return parts;
}

/**
 * The word after the operator in `${x:-word}` or the pattern in `${x#pat}`: quotes, backslashes and
 * expansions work as in a word, blanks are ordinary (bash/subst.c parameter_brace_expand_word).
 * When the whole `${…}` stands in double quotes (`quoted`), a single quote is an ordinary character
 * and a backslash before anything but $ ` " \ stays; the pattern characters keep their meaning.
 */
export function paramWordParts(src: string, quoted: boolean, opts: LexOptions = {}): WordPart[] {
  const parts: WordPart[] = [];
  const ansi = hasAnsiC(opts);
  try {
    let i = 0;
    while (i < src.length) {
      const c = src[i]!;
      if (ansi && c === '$' && src[i + 1] === "'") {
        // bash's extquote (on by default): `$'…'` is translated in "${…}" too
        const j = skipAnsiC(src, i + 1);
        pushText(parts, ansiC(src.slice(i + 2, j)), true);
        i = j + 1;
      } else if (c === '\\' && i + 1 < src.length) {
        if (quoted && !'$`"\\'.includes(src[i + 1]!)) pushText(parts, '\\', true);
        pushText(parts, src[i + 1]!, true);
        i += 2;
      } else if (c === "'" && !quoted) {
        const j = src.indexOf("'", i + 1);
        if (j < 0) throw new Incomplete("'");
        pushText(parts, src.slice(i + 1, j), true);
        i = j + 1;
      } else if (c === '"') {
        // an empty "" is still a quoted (null) piece: `${u:-""}` makes an empty word
        const before = parts.length;
        i = scanDoubleQuoted(src, i + 1, parts, false, ansi);
        if (parts.length === before) pushText(parts, '', true);
      } else if (c === '$' || c === '`') i = scanSubstitution(src, i, parts, false, ansi);
      else {
        pushText(parts, c, false);
        i++;
      }
    }
  } catch {
    return [{ kind: 'text', value: src, quoted: true }];
  }
  return parts;
}

/**
 * A leading unquoted `~` (alone, or before `/`) made a tilde part, as scanWord does for a typed
 * word: for the words brace expansion makes (`~{,/x}`; bash expands tildes after braces) and the
 * word of an unquoted `${u:-~}`.
 */
export function withTilde(parts: WordPart[]): WordPart[] {
  const first = parts[0];
  if (first?.kind !== 'text' || first.quoted || !(first.value === '~' ? parts.length === 1 : first.value.startsWith('~/'))) return parts;
  const rest = first.value.slice(1);
  return [{ kind: 'tilde' }, ...(rest === '' ? [] : [{ kind: 'text' as const, value: rest, quoted: false }]), ...parts.slice(1)];
}

/** Scan one word starting at src[i]. Returns the word and the index after it. */
function scanWord(src: string, i: number, ansi: boolean): [Word, number] {
  const start = i;
  const parts: WordPart[] = [];
  if (src[i] === '~') {
    const n = src[i + 1];
    if (n === undefined || n === '/' || META.has(n)) {
      parts.push({ kind: 'tilde' });
      i++;
    }
  }
  while (i < src.length) {
    const c = src[i]!;
    if (META.has(c)) break;
    if (c === '\\') {
      const n = src[i + 1];
      if (n === undefined) throw new Incomplete('\\');
      if (n === '\n') {
        i += 2;
        continue;
      }
      pushText(parts, n, true);
      i += 2;
      continue;
    }
    if (ansi && c === '$' && src[i + 1] === "'") {
      // `$'…'`: the escapes translated, then single-quoted (an empty one still makes the word exist)
      const end = skipAnsiC(src, i + 1);
      pushText(parts, ansiC(src.slice(i + 2, end)), true);
      i = end + 1;
      continue;
    }
    if (ansi && c === '$' && src[i + 1] === '"') {
      // `$"…"`: translated by the locale's message catalog, which C and C.UTF-8 do not have
      i++;
      continue;
    }
    if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) throw new Incomplete("'");
      // An empty '' still makes the word exist: pushText keeps an empty quoted part.
      pushText(parts, src.slice(i + 1, end), true);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      const before = parts.length;
      i = scanDoubleQuoted(src, i + 1, parts, false, ansi);
      if (parts.length === before) parts.push({ kind: 'text', value: '', quoted: true });
      continue;
    }
    if (c === '$' || c === '`') {
      i = scanSubstitution(src, i, parts, false, ansi);
      continue;
    }
    pushText(parts, c, false);
    i++;
  }
  return [{ parts, raw: src.slice(start, i) }, i];
}

/**
 * The right side of `=~` in `[[ ]]`: bash reads it up to a blank at parenthesis depth zero, with
 * `(`, `)` and `|` as ordinary characters (parse.y, parse_cond_command / cond_regexp).
 */
function scanRegex(src: string, i: number, ansi: boolean): [Word, number] {
  const start = i;
  const parts: WordPart[] = [];
  let depth = 0;
  while (i < src.length) {
    const c = src[i]!;
    if ((c === ' ' || c === '\t' || c === '\n') && depth === 0) break;
    if (c === '(' || c === ')' || c === '|' || c === '<' || c === '>' || c === '&' || c === ';' || c === ' ' || c === '\t') {
      if (c === '(') depth++;
      if (c === ')') depth--;
      pushText(parts, c, false);
      i++;
      continue;
    }
    const [w, next] = scanWord(src, i, ansi);
    for (const p of w.parts) {
      if (p.kind === 'text') pushText(parts, p.value, p.quoted);
      else parts.push(p);
    }
    i = next;
  }
  return [{ parts, raw: src.slice(start, i) }, i];
}

/** The text of a word with quotes removed and no expansion (here-doc delimiters, alias names). */
export function literalText(w: Word): string {
  return w.parts
    .map((p) =>
      p.kind === 'text'
        ? p.value
        : p.kind === 'tilde'
          ? '~'
          : p.kind === 'var'
            ? `$${p.name}`
            : p.kind === 'arith'
              ? `$((${p.source}))`
              : p.kind === 'procsub'
                ? `${p.dir}(${p.source})`
                : `$(${p.source})`,
    )
    .join('');
}

/** True when the word contains no quoting, escapes or expansions: a candidate for alias lookup. */
export function isPlainWord(w: Word): boolean {
  return w.parts.length === 1 && w.parts[0]!.kind === 'text' && !w.parts[0]!.quoted;
}

function isQuotedWord(w: Word): boolean {
  return w.parts.some((p) => p.kind === 'text' && p.quoted) || /['"\\]/.test(w.raw);
}

/** Tokenize a whole command text. Here-document bodies are read after the newline that ends their line. */
export function tokenize(src: string, opts: LexOptions = {}): LexResult {
  const ansi = hasAnsiC(opts);
  const tokens: Token[] = [];
  const pending: Array<Extract<Token, { type: 'heredoc' }>> = [];
  let i = 0;
  // the line of an offset, counted forward as the scan only moves forward
  let counted = 0;
  let line = 1;
  const lineAt = (pos: number): number => {
    for (; counted < pos; counted++) if (src.charCodeAt(counted) === 10) line++;
    return line;
  };
  /** Inside `[[ … ]]`, where the word after `=~` is read as a regular expression. */
  let condDepth = 0;
  try {
    while (i < src.length) {
      const c = src[i]!;
      if (c === ' ' || c === '\t') {
        i++;
        continue;
      }
      if (c === '#') {
        while (i < src.length && src[i] !== '\n') i++;
        continue;
      }
      if (c === '\\' && src[i + 1] === '\n') {
        i += 2;
        continue;
      }
      if ((c === '<' || c === '>') && src[i + 1] === '(' && !opts.dash) {
        // process substitution: a word of its own (bash/subst.c process_substitute)
        const end = findCmdSubEnd(src, i + 2, ansi);
        tokens.push({ type: 'word', word: { parts: [{ kind: 'procsub', source: src.slice(i + 2, end), dir: c, quoted: false }], raw: src.slice(i, end + 1), line: lineAt(i) } });
        i = end + 1;
        continue;
      }
      if (c === '(' && src[i + 1] === '(') {
        const end = arithCommandEnd(src, i + 2, ansi);
        if (end >= 0) {
          tokens.push({ type: 'arith', source: src.slice(i + 2, end), line: lineAt(i) });
          i = end + 2;
          continue;
        }
        const close = arithCommandClose(src, i + 2, ansi);
        if (opts.cString && (src[close + 1] === undefined || src[close + 1] === '\n')) throw new BadSyntax(`bash: syntax error near \`${lastWord(src.slice(0, close + 1))}'`);
      }
      // dash has no here-strings (`<<<`), nor `&>`/`&>>`, `|&`, `;&`, `;;&` (parser.c xxreadtoken)
      const op = OPERATORS.find((o) => src.startsWith(o, i) && !(opts.dash && DASH_NO_OP.has(o)));
      if (op) {
        i += op.length;
        if (op === '<<' || op === '<<-') {
          while (src[i] === ' ' || src[i] === '\t') i++;
          if (i >= src.length || META.has(src[i]!)) {
            const next = src[i] === undefined || src[i] === '\n' ? 'newline' : (OPERATORS.find((o) => src.startsWith(o, i)) ?? src[i]!);
            // dash names a redirection operator by its class (parser.c tokname: `cat <<< x` is
            // `Syntax error: redirection unexpected`, recorded from dash 0.5.12)
            throw new BadSyntax(`bash: syntax error near unexpected token \`${next}'`, /^[<>]/.test(next) ? 'Syntax error: redirection unexpected' : undefined);
          }
          const [delim, next] = scanWord(src, i, ansi);
          i = next;
          const tok: Extract<Token, { type: 'heredoc' }> = { type: 'heredoc', op, delimiter: delim };
          tokens.push(tok);
          pending.push(tok);
          continue;
        }
        tokens.push({ type: 'op', op });
        if (op === '\n' && pending.length > 0) i = readHeredocs(src, i, pending.splice(0));
        continue;
      }
      // IO number: digits immediately followed by < or >.
      const m = /^[0-9]+(?=[<>])/.exec(src.slice(i, i + 12));
      if (m) {
        tokens.push({ type: 'io', fd: Number(m[0]) });
        i += m[0].length;
        continue;
      }
      const prev = tokens[tokens.length - 1];
      if (condDepth > 0 && prev?.type === 'word' && prev.word.raw === '=~') {
        const [word, next] = scanRegex(src, i, ansi);
        tokens.push({ type: 'word', word: { ...word, line: lineAt(i) } });
        i = next;
        continue;
      }
      const [word, next] = scanWord(src, i, ansi);
      tokens.push({ type: 'word', word: { ...word, line: lineAt(i) } });
      if (isPlainWord(word) && word.raw === '[[' && !opts.dash) condDepth++;
      else if (isPlainWord(word) && word.raw === ']]' && condDepth > 0) condDepth--;
      i = next;
    }
    if (pending.length > 0) throw new Incomplete('heredoc');
  } catch (e) {
    if (e instanceof Incomplete) return { ok: false, incomplete: true, reason: e.reason, ...(e.dash !== undefined ? { dash: e.dash } : {}) };
    if (e instanceof BadSyntax) return { ok: false, incomplete: false, error: e.error, ...(e.dash !== undefined ? { dash: e.dash } : {}) };
    throw e;
  }
  return { ok: true, tokens };
}

/** Read the bodies of pending here-documents starting at line start `i`; returns the index after them. */
function readHeredocs(src: string, i: number, docs: Array<Extract<Token, { type: 'heredoc' }>>): number {
  for (const doc of docs) {
    const delim = literalText(doc.delimiter);
    const strip = doc.op === '<<-';
    let body = '';
    for (;;) {
      if (i >= src.length) throw new Incomplete('heredoc');
      const nl = src.indexOf('\n', i);
      let line = nl < 0 ? src.slice(i) : src.slice(i, nl);
      i = nl < 0 ? src.length : nl + 1;
      if (strip) line = line.replace(/^\t+/, '');
      if (line === delim) break;
      if (nl < 0) throw new Incomplete('heredoc');
      body += `${line}\n`;
    }
    doc.doc = { body, expand: !isQuotedWord(doc.delimiter) };
  }
  return i;
}
