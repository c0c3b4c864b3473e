/**
 * The grammar layer: tokens → a small AST of lists, and-or chains, pipelines and simple commands,
 * after bash's parse.y (simple_list / pipeline_command / simple_command), with alias expansion
 * of the first word done while parsing, as bash does when it reads a line (so an alias defined
 * earlier on the same line is not yet in effect, exactly like bash).
 */
import { remember } from '../../util/bounded-map.js';
import { deepFreeze } from '../../util/json-copy.js';
import { isPlainWord, literalText, tokenize, type HereDoc, type LexOptions, type Token, type Word } from './tokenize.js';

export type RedirectOp = '>' | '>>' | '>|' | '<' | '>&' | '<&' | '&>' | '&>>' | '<<' | '<<-' | '<<<';

export interface Redirect {
  /** The fd written before the operator (`2>`), or undefined for the operator's default. */
  fd: number | undefined;
  op: RedirectOp;
  target: Word;
  heredoc?: HereDoc;
}

export interface Assignment {
  name: string;
  value: Word;
  /** `a[i]=v`: the subscript as typed. */
  index?: string;
  /** `a=(x y)`: the elements (value is then empty). */
  array?: Word[];
  /** `a+=v`, `a+=(x)`, `a[i]+=v`: append to the value or the elements. */
  append?: boolean;
}

export interface SimpleCommand {
  type: 'simple';
  assigns: Assignment[];
  words: Word[];
  redirects: Redirect[];
  /** The line its first word is on, for a script's `FILE: line N:` errors. */
  line?: number;
  /**
   * Compound assignments given to a declaration builtin (`local a=(x y)`, `declare -a b=(…)`):
   * the word's index in `words` and its elements; the word itself reads `a=`.
   */
  compound?: Array<{ index: number; elements: Word[] }>;
}

export interface Subshell {
  type: 'subshell';
  body: Script;
  redirects: Redirect[];
}

/** `for NAME [in WORDS]; do BODY; done` */
export interface ForCommand {
  type: 'for';
  name: string;
  /** undefined when `in` is omitted (iterates the positional parameters). */
  words: Word[] | undefined;
  body: Script;
  redirects: Redirect[];
  /** `for (( INIT; TEST; STEP ))`: the three arithmetic expressions (name is then empty). */
  arith?: [string, string, string];
}

/** `case WORD in PATTERN|PATTERN) LIST ;; … esac` (bash manual 3.2.5.2). */
export interface CaseCommand {
  type: 'case';
  word: Word;
  /** Each clause's patterns, body and terminator: `;;` stops, `;&` runs the next body, `;;&` tests the next clause. */
  clauses: Array<{ patterns: Word[]; body: Script; end: ';;' | ';&' | ';;&' }>;
  redirects: Redirect[];
}

/** `(( EXPR ))`: status 0 when EXPR is not zero. */
export interface ArithCommand {
  type: 'arith';
  source: string;
  line?: number;
  redirects: Redirect[];
}

/** `while LIST; do BODY; done` and `until …` */
export interface WhileCommand {
  type: 'while';
  until: boolean;
  cond: Script;
  body: Script;
  redirects: Redirect[];
}

/** `if LIST; then LIST; [elif LIST; then LIST;]… [else LIST;] fi` */
export interface IfCommand {
  type: 'if';
  clauses: Array<{ cond: Script; body: Script }>;
  elseBody: Script | undefined;
  redirects: Redirect[];
}

/** `{ LIST; }` — runs in the current shell. */
export interface GroupCommand {
  type: 'group';
  body: Script;
  redirects: Redirect[];
}

/** `NAME () COMMAND` or `function NAME [()] COMMAND`: defines NAME when run. */
export interface FunctionDef {
  type: 'function';
  name: string;
  body: Command;
  redirects: Redirect[];
}

/** A `[[ … ]]` expression (bash manual 3.2.5.2 and 6.4). */
export type CondExpr =
  | { kind: 'and' | 'or'; left: CondExpr; right: CondExpr }
  | { kind: 'not'; expr: CondExpr }
  | { kind: 'unary'; op: string; arg: Word }
  | { kind: 'binary'; op: string; left: Word; right: Word }
  | { kind: 'word'; word: Word };

export interface CondCommand {
  type: 'cond';
  expr: CondExpr;
  redirects: Redirect[];
}

export type Command = SimpleCommand | Subshell | ForCommand | WhileCommand | IfCommand | GroupCommand | FunctionDef | CondCommand | ArithCommand | CaseCommand;

export interface Pipeline {
  negate: boolean;
  commands: Command[];
  /** pipeStderr[i] is true when command i is joined to i+1 by `|&`. */
  pipeStderr: boolean[];
}

export interface AndOr {
  first: Pipeline;
  rest: Array<{ op: '&&' | '||'; pipeline: Pipeline }>;
  /** Ended by `&`: the list runs as a background job in a subshell. */
  background?: true;
}

export interface Script {
  items: AndOr[];
}

export type ParseResult =
  | { ok: true; script: Script }
  /** More input is needed: an open quote, a trailing `|`/`&&`/`\`, or an unfinished here-document. */
  /** `dash`: dash's wording at end of file where `reason` does not give it (tokenize.ts). */
  | { ok: false; incomplete: true; reason: string; expecting?: string; dash?: string }
  /**
   * A syntax error, already worded like bash (`bash: syntax error near unexpected token `|'`);
   * `dash` is dash's wording where it says more than the token (parser.c synexpect's
   * `(expecting "then")`, `Bad for loop variable`). `eof`: the token bash calls `newline` was the
   * end of the text, which dash and ash call `end of file` when no newline ends it (a `-c` string).
   */
  | { ok: false; incomplete: false; error: string; dash?: string; eof?: true };

export interface ParseOptions extends LexOptions {
  aliases?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
}

class SyntaxErr {
  constructor(
    readonly error: string,
    readonly dash?: string,
    readonly eof?: true,
  ) {}
}
class NeedMore {
  constructor(
    readonly reason: string,
    /** The reserved word or `)` the open construct waits for, which dash names at end of file. */
    readonly expecting?: string,
  ) {}
}

/** Reserved words that close a compound command; unexpected elsewhere in command position. */
const CLOSERS = new Set(['do', 'done', 'then', 'fi', 'elif', 'else', 'esac', 'in', '}']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const REDIRECT_OPS = new Set(['>', '>>', '>|', '<', '>&', '<&', '&>', '&>>', '<<<']);
/** The operators that end a `case` clause's list. */
const CASE_ENDS: ReadonlySet<string> = new Set([';;', ';&', ';;&']);

/** Builtins whose `NAME=(…)` arguments are compound assignments. */
const DECLARATION = new Set(['local', 'declare', 'typeset', 'export', 'readonly']);

/** `for (( A; B; C ))`: the three expressions, split at the two `;` outside parentheses. */
function splitArithFor(src: string): [string, string, string] | undefined {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ';' && depth === 0) {
      out.push(src.slice(start, i));
      start = i + 1;
    }
  }
  out.push(src.slice(start));
  return out.length === 3 ? (out as [string, string, string]) : undefined;
}

const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[([^\]]*)\])?(\+)?=/;
/** Function names bash accepts in its default mode: anything without quoting or `$` that is not a number. */
const FUNC_NAME = /^[A-Za-z_][A-Za-z0-9_.:+-]*$/;
const COND_UNARY = new Set(['-e', '-f', '-d', '-s', '-r', '-w', '-x', '-z', '-n', '-L', '-h', '-a', '-b', '-c', '-p', '-S', '-v']);
const COND_BINARY = new Set(['==', '=', '!=', '=~', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef']);

type CondItem = { op: string } | { word: Word };

/** dash's error for a `for` not followed by a name (parser.c: `Bad for loop variable`). */
const BAD_FOR = 'Syntax error: Bad for loop variable';

function tokenText(t: Token | undefined): string {
  if (!t) return 'newline';
  if (t.type === 'op') return t.op === '\n' ? 'newline' : t.op;
  if (t.type === 'io') return String(t.fd);
  if (t.type === 'heredoc') return t.op;
  if (t.type === 'arith') return `((${t.source}))`;
  return t.word.raw;
}

/**
 * A token out of place. `expecting` is the one reserved word the grammar wanted there, which dash
 * names (parser.c synexpect: `Syntax error: "fi" unexpected (expecting "then")`, a word that is
 * not a reserved word being `word`); bash names only the token.
 */
function unexpected(t: Token | undefined, expecting?: string): SyntaxErr {
  const bash = `bash: syntax error near unexpected token \`${tokenText(t)}'`;
  if (expecting === undefined) return t === undefined ? new SyntaxErr(bash, undefined, true) : new SyntaxErr(bash);
  const tok = t === undefined ? 'end of file' : t.type === 'op' && t.op === '\n' ? 'newline' : t.type === 'word' && !DASH_KEYWORDS.has(t.word.raw) ? 'word' : `"${tokenText(t)}"`;
  // tokname quotes a token's name but not the classes end of file, newline, redirection and word
  return new SyntaxErr(bash, `Syntax error: ${tok} unexpected (expecting ${expecting === 'word' ? expecting : `"${expecting}"`})`);
}

/** dash's reserved words (parser.c's token table), named in quotes by synexpect; other words are `word`. */
const DASH_KEYWORDS: ReadonlySet<string> = new Set(['!', 'case', 'do', 'done', 'elif', 'else', 'esac', 'fi', 'for', 'if', 'in', 'then', 'until', 'while', '{', '}']);

function aliasLookup(aliases: ParseOptions['aliases'], name: string): string | undefined {
  if (!aliases) return undefined;
  if (aliases instanceof Map) return aliases.get(name);
  const rec = aliases as Readonly<Record<string, string>>;
  return Object.prototype.hasOwnProperty.call(rec, name) ? rec[name] : undefined;
}

class Parser {
  private pos = 0;
  /** The reserved word each open list waits for (`then`, `fi`, `done`, `}`), innermost last, for dash's `(expecting "…")`. */
  private readonly awaited: Array<string | undefined> = [];
  constructor(
    private readonly toks: Token[],
    /** The alias table's value of a name (the parser's only question about the outside). */
    private readonly alias: (name: string) => string | undefined,
    private readonly lex: LexOptions = {},
  ) {}

  private peek(): Token | undefined {
    return this.toks[this.pos];
  }
  private isOp(op: string): boolean {
    const t = this.peek();
    return t !== undefined && t.type === 'op' && t.op === op;
  }
  private skipNewlines(): void {
    while (this.isOp('\n')) this.pos++;
  }

  /** A reserved word at the cursor (only plain words count). */
  private reserved(): string | undefined {
    const t = this.peek();
    return t?.type === 'word' && isPlainWord(t.word) ? t.word.raw : undefined;
  }

  script(endOp?: string | ReadonlySet<string>, endWords?: ReadonlySet<string>): Script {
    const isEnd = (op: string): boolean => (typeof endOp === 'string' ? op === endOp : endOp?.has(op) === true);
    const items: AndOr[] = [];
    for (;;) {
      this.skipNewlines();
      const t = this.peek();
      if (t === undefined) break;
      if (t.type === 'op' && isEnd(t.op)) break;
      const rw = this.reserved();
      if (endWords && rw !== undefined && endWords.has(rw)) break;
      items.push(this.andOr());
      const sep = this.peek();
      if (sep === undefined) break;
      if (sep.type === 'op' && (sep.op === ';' || sep.op === '\n' || sep.op === '&')) {
        if (sep.op === '&') items[items.length - 1]!.background = true;
        this.pos++;
        continue;
      }
      if (sep.type === 'op' && isEnd(sep.op)) break;
      const rw2 = this.reserved();
      if (endWords && rw2 !== undefined && endWords.has(rw2)) break;
      throw unexpected(sep);
    }
    return { items };
  }

  private andOr(): AndOr {
    const first = this.pipeline();
    const rest: AndOr['rest'] = [];
    while (this.isOp('&&') || this.isOp('||')) {
      const op = (this.peek() as { op: '&&' | '||' }).op;
      this.pos++;
      this.skipNewlines();
      if (this.peek() === undefined) throw new NeedMore(op);
      rest.push({ op, pipeline: this.pipeline() });
    }
    return { first, rest };
  }

  private pipeline(): Pipeline {
    let negate = false;
    const t = this.peek();
    if (t?.type === 'word' && isPlainWord(t.word) && t.word.raw === '!') {
      negate = true;
      this.pos++;
    }
    const commands: Command[] = [this.command()];
    const pipeStderr: boolean[] = [];
    while (this.isOp('|') || this.isOp('|&')) {
      pipeStderr.push(this.isOp('|&'));
      this.pos++;
      this.skipNewlines();
      if (this.peek() === undefined) throw new NeedMore('|');
      commands.push(this.command());
    }
    return { negate, commands, pipeStderr };
  }

  /** A list up to one of `ends`; more input is needed when the text stops first. */
  private listUntil(ends: ReadonlySet<string>, opener: string): Script {
    const only = ends.size === 1 ? [...ends][0] : undefined;
    this.awaited.push(ends.has('fi') ? 'fi' : only);
    let body: Script;
    try {
      body = this.script(undefined, ends);
    } finally {
      this.awaited.pop();
    }
    const rw = this.reserved();
    if (this.peek() === undefined) throw new NeedMore(opener, ends.has('fi') ? 'fi' : only);
    if (rw === undefined || !ends.has(rw)) throw unexpected(this.peek(), only);
    if (body.items.length === 0) throw unexpected(this.peek());
    return body;
  }

  private expectWord(w: string, opener: string): void {
    if (this.peek() === undefined) throw new NeedMore(opener, w);
    if (this.reserved() !== w) throw unexpected(this.peek(), w);
    this.pos++;
  }

  private trailingRedirects(): Redirect[] {
    const redirects: Redirect[] = [];
    for (;;) {
      const r = this.redirect();
      if (!r) break;
      redirects.push(r);
    }
    const n = this.peek();
    if (n?.type === 'word') throw unexpected(n);
    return redirects;
  }

  /**
   * A for loop's `[;] do LIST done` and its redirections. `afterWords`: the text ended in the
   * `in` word list, where dash names no expected word (parser.c: synexpect(-1)).
   */
  private forBody(afterWords = false): { body: Script; redirects: Redirect[] } {
    const sep = this.peek();
    if (sep === undefined) throw afterWords ? new NeedMore('for') : new NeedMore('for', 'do');
    if (sep.type === 'op' && (sep.op === ';' || sep.op === '\n')) this.pos++;
    this.skipNewlines();
    this.expectWord('do', 'for');
    const body = this.listUntil(new Set(['done']), 'for');
    this.pos++;
    return { body, redirects: this.trailingRedirects() };
  }

  private compound(rw: string): Command {
    this.pos++;
    if (rw === 'for') {
      const nameTok = this.peek();
      // the name must be on the `for` line: the newline after a bare `for` is unexpected (parse.y)
      if (nameTok === undefined || (nameTok.type === 'op' && nameTok.op === '\n')) throw new SyntaxErr("bash: syntax error near unexpected token `newline'", BAD_FOR);
      // dash and ash have no `for ((…))` (dash parser.c, BusyBox shell/ash.c parse_command: the
      // name after `for` must be a word; `(` is not)
      if (nameTok.type === 'arith' && (this.lex.dash || this.lex.ash)) throw new SyntaxErr('bash: syntax error: arithmetic expression required', BAD_FOR);
      if (nameTok.type === 'arith') {
        // for (( INIT; TEST; STEP )): exactly two `;` at parenthesis depth zero (parse.y parse_arith_for)
        const parts = splitArithFor(nameTok.source);
        if (!parts) throw new SyntaxErr('bash: syntax error: arithmetic expression required');
        this.pos++;
        return { type: 'for', name: '', words: undefined, arith: parts, ...this.forBody() };
      }
      if (nameTok.type !== 'word' || !NAME.test(nameTok.word.raw)) {
        throw new SyntaxErr(`bash: \`${tokenText(nameTok)}': not a valid identifier`, BAD_FOR);
      }
      this.pos++;
      let words: Word[] | undefined;
      if (this.reserved() === 'in') {
        this.pos++;
        words = [];
        for (;;) {
          const t = this.peek();
          if (t?.type !== 'word') break;
          words.push(t.word);
          this.pos++;
        }
      }
      return { type: 'for', name: nameTok.word.raw, words, ...this.forBody(words !== undefined) };
    }
    if (rw === 'while' || rw === 'until') {
      const cond = this.listUntil(new Set(['do']), rw);
      this.pos++;
      const body = this.listUntil(new Set(['done']), rw);
      this.pos++;
      return { type: 'while', until: rw === 'until', cond, body, redirects: this.trailingRedirects() };
    }
    // if
    const clauses: IfCommand['clauses'] = [];
    let elseBody: Script | undefined;
    for (;;) {
      const cond = this.listUntil(new Set(['then']), 'if');
      this.pos++;
      const body = this.listUntil(new Set(['elif', 'else', 'fi']), 'if');
      clauses.push({ cond, body });
      const rw2 = this.reserved();
      this.pos++;
      if (rw2 === 'elif') continue;
      if (rw2 === 'else') {
        elseBody = this.listUntil(new Set(['fi']), 'if');
        this.pos++;
      }
      break;
    }
    return { type: 'if', clauses, elseBody, redirects: this.trailingRedirects() };
  }

  /** `[[ … ]]`: its words and operators up to `]]`, then the expression grammar. */
  private cond(): CondCommand {
    this.pos++;
    const items: CondItem[] = [];
    for (;;) {
      const t = this.peek();
      if (t === undefined) throw new NeedMore('[[');
      this.pos++;
      if (t.type === 'word') {
        if (isPlainWord(t.word) && t.word.raw === ']]') break;
        items.push({ word: t.word });
      } else if (t.type === 'op' && ['&&', '||', '(', ')', '<', '>'].includes(t.op)) items.push({ op: t.op });
      else if (t.type === 'op' && t.op === '\n') continue;
      else throw unexpected(t);
    }
    let i = 0;
    const isOp = (op: string): boolean => {
      const it = items[i];
      return it !== undefined && (('op' in it && it.op === op) || ('word' in it && isPlainWord(it.word) && it.word.raw === op));
    };
    const text = (it: CondItem | undefined): string => (it === undefined ? ']]' : 'op' in it ? it.op : it.word.raw);
    const fail = (): SyntaxErr => new SyntaxErr(`bash: syntax error in conditional expression: unexpected token \`${text(items[i])}'`);
    const word = (): Word => {
      const it = items[i];
      if (it === undefined || !('word' in it)) throw fail();
      i++;
      return it.word;
    };
    const primary = (): CondExpr => {
      if (isOp('!')) {
        i++;
        return { kind: 'not', expr: primary() };
      }
      if (isOp('(')) {
        i++;
        const e = or();
        if (!isOp(')')) throw fail();
        i++;
        return e;
      }
      const first = items[i];
      if (first && 'word' in first && COND_UNARY.has(first.word.raw) && items[i + 1] && 'word' in items[i + 1]! && !COND_BINARY.has(text(items[i + 2]))) {
        i++;
        return { kind: 'unary', op: first.word.raw, arg: word() };
      }
      const left = word();
      const op = items[i];
      if (op && COND_BINARY.has(text(op))) {
        i++;
        return { kind: 'binary', op: text(op), left, right: word() };
      }
      return { kind: 'word', word: left };
    };
    const and = (): CondExpr => {
      let e = primary();
      while (isOp('&&')) {
        i++;
        e = { kind: 'and', left: e, right: primary() };
      }
      return e;
    };
    const or = (): CondExpr => {
      let e = and();
      while (isOp('||')) {
        i++;
        e = { kind: 'or', left: e, right: and() };
      }
      return e;
    };
    if (items.length === 0) throw new SyntaxErr("bash: syntax error near unexpected token `]]'");
    const expr = or();
    if (i < items.length) throw fail();
    return { type: 'cond', expr, redirects: this.trailingRedirects() };
  }

  /** The body of a function definition: a compound command, possibly after newlines. */
  private functionBody(name: string): FunctionDef {
    this.skipNewlines();
    if (this.peek() === undefined) throw new NeedMore('function');
    const rw = this.reserved();
    const t = this.peek();
    if (!(rw === '{' || rw === 'for' || rw === 'while' || rw === 'until' || rw === 'if' || (rw === '[[' && !this.lex.dash) || (t?.type === 'op' && t.op === '('))) throw unexpected(t);
    const body = this.command();
    return { type: 'function', name, body, redirects: [] };
  }

  private command(): Command {
    const at = this.peek();
    if (at?.type === 'arith') {
      this.pos++;
      const cmd: ArithCommand = { type: 'arith', source: at.source, redirects: this.trailingRedirects() };
      if (at.line !== undefined) cmd.line = at.line;
      return cmd;
    }
    const rw = this.reserved();
    if (rw === 'for' || rw === 'while' || rw === 'until' || rw === 'if') return this.compound(rw);
    if (rw === 'case') return this.caseCommand();
    // dash has neither `[[` nor `function` (parser.c's token table): they are ordinary command
    // names there, `[[ 1 = 1 ]]` runs the command `[[` (`sh: 1: [[: not found`)
    if (rw === '[[' && !this.lex.dash) return this.cond();
    if (rw === '{') {
      this.pos++;
      const body = this.listUntil(new Set(['}']), '{');
      this.pos++;
      return { type: 'group', body, redirects: this.trailingRedirects() };
    }
    if (rw === 'function' && !this.lex.dash) {
      this.pos++;
      const n = this.peek();
      if (n === undefined) throw new NeedMore('function');
      if (n.type !== 'word') throw unexpected(n);
      this.pos++;
      const a = this.peek();
      const b = this.toks[this.pos + 1];
      if (a?.type === 'op' && a.op === '(' && b?.type === 'op' && b.op === ')') this.pos += 2;
      return this.functionBody(n.word.raw);
    }
    if (rw !== undefined && FUNC_NAME.test(rw)) {
      const a = this.toks[this.pos + 1];
      const b = this.toks[this.pos + 2];
      if (a?.type === 'op' && a.op === '(' && b?.type === 'op' && b.op === ')' && this.alias(rw) === undefined) {
        this.pos += 3;
        return this.functionBody(rw);
      }
    }
    if (rw !== undefined && CLOSERS.has(rw) && rw !== 'in') throw unexpected(this.peek(), this.awaited[this.awaited.length - 1]);
    const t = this.peek();
    if (t?.type === 'op' && t.op === '(') {
      this.pos++;
      const body = this.script(')');
      if (this.peek() === undefined) throw new NeedMore('(', ')');
      if (body.items.length === 0) throw unexpected(this.peek());
      this.pos++;
      const redirects: Redirect[] = [];
      for (;;) {
        const r = this.redirect();
        if (!r) break;
        redirects.push(r);
      }
      const n = this.peek();
      if (n?.type === 'word') throw unexpected(n);
      return { type: 'subshell', body, redirects };
    }
    return this.simple();
  }

  /** Parse a redirect at the cursor, or return undefined when the next token is not one. */
  private redirect(): Redirect | undefined {
    let t = this.peek();
    let fd: number | undefined;
    if (t?.type === 'io') {
      fd = t.fd;
      this.pos++;
      t = this.peek();
    }
    if (t?.type === 'heredoc') {
      this.pos++;
      const r: Redirect = { fd, op: t.op, target: t.delimiter };
      if (t.doc) r.heredoc = t.doc;
      return r;
    }
    if (t?.type === 'op' && REDIRECT_OPS.has(t.op)) {
      this.pos++;
      const target = this.peek();
      if (target?.type !== 'word') {
        // dash names another redirection operator by its class (parser.c tokname), `echo > >`
        const err = unexpected(target);
        if (this.lex.dash && (target?.type === 'heredoc' || (target?.type === 'op' && REDIRECT_OPS.has(target.op)))) throw new SyntaxErr(err.error, 'Syntax error: redirection unexpected');
        throw err;
      }
      this.pos++;
      return { fd, op: t.op as RedirectOp, target: target.word };
    }
    if (fd !== undefined) throw unexpected(t);
    return undefined;
  }

  /**
   * The end of a line where `case` wants its word or a pattern list its next pattern or `)`: bash's
   * grammar has no newline there (parse.y case_command, pattern_list), so the newline that ends the
   * line is the unexpected token (bash 5.2.15: `bash -c 'case x in a|'` and a typed `case`); dash
   * and ash read on and name what they expected at end of file.
   */
  private caseWantsWord(expecting: string): SyntaxErr | NeedMore {
    if (this.lex.dash || this.lex.ash) return new NeedMore('case', expecting);
    return new SyntaxErr("bash: syntax error near unexpected token `newline'");
  }

  /** `case WORD in … esac` (parse.y case_clause / pattern_list). */
  private caseCommand(): CaseCommand {
    this.pos++;
    const w = this.peek();
    // what dash and ash name at end of file (parser.c, ash.c: synexpect(TWORD), then `)` for a
    // pattern list and `;;` for a clause's commands)
    if (w === undefined) throw this.caseWantsWord('word');
    if (w.type !== 'word') throw unexpected(w);
    this.pos++;
    this.skipNewlines();
    this.expectWord('in', 'case');
    const clauses: CaseCommand['clauses'] = [];
    for (;;) {
      this.skipNewlines();
      if (this.peek() === undefined) throw new NeedMore('case', ')');
      if (this.reserved() === 'esac') {
        this.pos++;
        break;
      }
      if (this.isOp('(')) this.pos++;
      const patterns: Word[] = [];
      for (;;) {
        const p = this.peek();
        if (p === undefined) throw patterns.length === 0 ? new NeedMore('case', ')') : this.caseWantsWord(')');
        if (p.type !== 'word') throw unexpected(p);
        patterns.push(p.word);
        this.pos++;
        if (this.isOp('|')) {
          this.pos++;
          continue;
        }
        if (this.isOp(')')) {
          this.pos++;
          break;
        }
        if (this.peek() === undefined) throw this.caseWantsWord(')');
        throw unexpected(this.peek(), ')');
      }
      const body = this.script(CASE_ENDS, new Set(['esac']));
      const t = this.peek();
      if (t === undefined) throw new NeedMore('case', ';;');
      let end: ';;' | ';&' | ';;&' = ';;';
      if (t.type === 'op' && CASE_ENDS.has(t.op)) {
        end = t.op as typeof end;
        this.pos++;
      } else if (this.reserved() !== 'esac') throw unexpected(t);
      clauses.push({ patterns, body, end });
    }
    return { type: 'case', word: w.word, clauses, redirects: this.trailingRedirects() };
  }

  /** At `(` of `a=(x y z)`: the elements up to `)`, newlines allowed between them. */
  private arrayElements(): Word[] {
    this.pos++;
    const out: Word[] = [];
    for (;;) {
      this.skipNewlines();
      const e = this.peek();
      if (e === undefined) throw new NeedMore('(');
      this.pos++;
      if (e.type === 'op' && e.op === ')') return out;
      if (e.type !== 'word') throw unexpected(e);
      out.push(e.word);
    }
  }

  private simple(): SimpleCommand {
    const cmd: SimpleCommand = { type: 'simple', assigns: [], words: [], redirects: [] };
    const expanded = new Set<string>();
    // Token index of a word that follows an alias ending in a blank (also alias-checked).
    let aliasCheckAt = -1;
    for (;;) {
      const r = this.redirect();
      if (r) {
        cmd.redirects.push(r);
        continue;
      }
      const t = this.peek();
      if (t?.type !== 'word') break;
      if (cmd.line === undefined && t.word.line !== undefined) cmd.line = t.word.line;
      const raw = t.word.raw;
      if (cmd.words.length === 0) {
        const m = ASSIGN.exec(raw);
        if (m) {
          this.pos++;
          const a: Assignment = { name: m[1]!, value: stripPrefix(t.word, m[0].length, this.lex) };
          if (m[2] !== undefined) a.index = m[2];
          if (m[3] !== undefined) a.append = true;
          const open = this.peek();
          // dash and ash have no arrays: `a=(1 2)` is the assignment `a=` before a `(` they reject
          if (m[0].length === raw.length && m[2] === undefined && open?.type === 'op' && open.op === '(' && !this.lex.dash && !this.lex.ash) {
            a.array = this.arrayElements();
          }
          cmd.assigns.push(a);
          continue;
        }
      }
      if ((cmd.words.length === 0 || this.pos === aliasCheckAt) && isPlainWord(t.word) && !expanded.has(raw)) {
        const value = this.alias(raw);
        if (value !== undefined) {
          const lexed = tokenize(value, this.lex);
          if (lexed.ok) {
            expanded.add(raw);
            this.toks.splice(this.pos, 1, ...lexed.tokens);
            aliasCheckAt = /[ \t]$/.test(value) ? this.pos + lexed.tokens.length : -1;
            continue;
          }
        }
      }
      this.pos++;
      cmd.words.push(t.word);
      const open = this.peek();
      if (cmd.words.length > 1 && open?.type === 'op' && open.op === '(' && DECLARATION.has(cmd.words[0]!.raw) && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(raw)) {
        // local a=(x y): a declaration builtin takes compound assignments as words (parse.y, assignment_acceptable)
        (cmd.compound ??= []).push({ index: cmd.words.length - 1, elements: this.arrayElements() });
      }
    }
    if (cmd.words.length === 0 && cmd.assigns.length === 0 && cmd.redirects.length === 0) {
      throw unexpected(this.peek());
    }
    return cmd;
  }
}

/**
 * Remove the `NAME=` prefix from an assignment word, keeping the value's quoting. A prefix with
 * quotes or expansions in its subscript (`a[$k]=v`, `a["x y"]=v`) is not plain text to cut, so
 * the value's own text is read again as a word.
 */
function stripPrefix(w: Word, n: number, lex: LexOptions): Word {
  let plain = 0;
  for (const p of w.parts) {
    if (p.kind !== 'text' || p.quoted || plain >= n) break;
    plain += p.value.length;
  }
  if (plain < n && w.raw.slice(0, n) !== literalPrefix(w, n)) {
    const rest = w.raw.slice(n);
    const lexed = rest === '' ? undefined : tokenize(rest, lex);
    const tok = lexed?.ok && lexed.tokens.length === 1 ? lexed.tokens[0] : undefined;
    if (tok?.type === 'word') return { ...tok.word, raw: rest };
    if (rest === '') return { parts: [], raw: '' };
  }
  const parts = w.parts.map((p) => ({ ...p }));
  let left = n;
  while (left > 0 && parts.length > 0) {
    const p = parts[0]!;
    if (p.kind !== 'text') break;
    if (p.value.length <= left) {
      left -= p.value.length;
      parts.shift();
    } else {
      parts[0] = { ...p, value: p.value.slice(left) };
      left = 0;
    }
  }
  return { parts, raw: w.raw.slice(n) };
}

/** The leading unquoted text of a word, up to `n` characters. */
function literalPrefix(w: Word, n: number): string {
  let out = '';
  for (const p of w.parts) {
    if (p.kind !== 'text' || p.quoted) break;
    out += p.value;
  }
  return out.slice(0, n);
}

const MAX_PARSES = 1024;
/** Per dialect and text: the parses made so far, each with the alias lookups it made. */
const parses = new Map<string, { lookups: ReadonlyArray<readonly [string, string | undefined]>; parsed: ParseResult }[]>();
/** Alias tables a text was parsed with, at most: one more replaces the oldest. */
const MAX_VARIANTS = 4;

/**
 * Parse a command text (one line, or several when a quote, pipe or here-document continues).
 * Memoised: every run of a task types the same lines, and a script's `$(…)` and loop bodies are
 * parsed again each time they run. Parsing is a pure function of the text, the dialect flags and
 * the answers of the alias table to the names the parser asks about (aliasLookup: the only
 * outside state it reads). So a parse is kept under its text and flags with the lookups it made
 * and their answers, and reused when the current table answers each of them the same: the parser
 * then takes the very same steps. The result is deep-frozen and shared: nothing downstream writes
 * into an AST (a write would throw), and the shell keys nothing by node identity.
 */
export function parseScript(src: string, opts: ParseOptions = {}): ParseResult {
  const key = `${opts.dash ? 'd' : ''}${opts.ash ? 'a' : ''}${opts.cString ? 'c' : ''}\0${src}`;
  const aliases = opts.aliases;
  const seen = parses.get(key);
  if (seen) {
    for (const v of seen) if (v.lookups.every(([name, value]) => aliasLookup(aliases, name) === value)) return v.parsed;
  }
  const lookups: Array<readonly [string, string | undefined]> = [];
  const parsed = parseFresh(src, opts, (name) => {
    const value = aliasLookup(aliases, name);
    lookups.push([name, value]);
    return value;
  });
  deepFreeze(parsed);
  const variants = seen ?? remember(parses, key, [], MAX_PARSES);
  if (variants.length >= MAX_VARIANTS) variants.shift();
  variants.push({ lookups, parsed });
  return parsed;
}

/** Forget every memoised parse (tests that count parses). */
export function clearParseMemo(): void {
  parses.clear();
}

function parseFresh(src: string, opts: ParseOptions, alias: (name: string) => string | undefined): ParseResult {
  const lex: LexOptions = { ...(opts.dash ? { dash: true } : {}), ...(opts.ash ? { ash: true } : {}), ...(opts.cString ? { cString: true } : {}) };
  const lexed = tokenize(src, lex);
  if (!lexed.ok) return lexed;
  const p = new Parser(lexed.tokens, alias, lex);
  try {
    return { ok: true, script: p.script() };
  } catch (e) {
    if (e instanceof SyntaxErr) return { ok: false, incomplete: false, error: e.error, ...(e.dash !== undefined ? { dash: e.dash } : {}), ...(e.eof ? { eof: true as const } : {}) };
    if (e instanceof NeedMore) return { ok: false, incomplete: true, reason: e.reason, ...(e.expecting !== undefined ? { expecting: e.expecting } : {}) };
    throw e;
  }
}

export { literalText };
