/**
 * Token cursor handed to the parser and to every plugin's setup, emulating coredns/caddy v1.1.1
 * `caddyfile/dispenser.go` move for move (Next, NextArg, NextLine, NextBlock, RemainingArgs), so
 * that errors name the same token and line as CoreDNS: `<file>:<line> - Error during parsing: …`.
 */
import type { Token } from './lexer.js';

/** A Corefile error: the exact text CoreDNS prints. */
export class CorefileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorefileError';
  }
}

export class Dispenser {
  cursor = -1;
  nesting = 0;
  constructor(
    public file: string,
    public tokens: Token[],
  ) {}

  next(): boolean {
    if (this.cursor < this.tokens.length - 1) {
      this.cursor++;
      return true;
    }
    return false;
  }

  private numLineBreaks(i: number): number {
    const t = this.tokens[i];
    if (!t) return 0;
    // counted in place: every nextArg asks, and a split made an array per token
    let n = 0;
    for (let j = t.text.indexOf('\n'); j >= 0; j = t.text.indexOf('\n', j + 1)) n++;
    return n;
  }

  nextArg(): boolean {
    if (this.cursor < 0) {
      this.cursor++;
      return true;
    }
    if (this.cursor >= this.tokens.length) return false;
    const cur = this.tokens[this.cursor];
    const nxt = this.tokens[this.cursor + 1];
    if (cur && nxt && cur.file === nxt.file && cur.line + this.numLineBreaks(this.cursor) === nxt.line) {
      this.cursor++;
      return true;
    }
    return false;
  }

  nextLine(): boolean {
    if (this.cursor < 0) {
      this.cursor++;
      return true;
    }
    if (this.cursor >= this.tokens.length) return false;
    const cur = this.tokens[this.cursor];
    const nxt = this.tokens[this.cursor + 1];
    if (cur && nxt && (cur.file !== nxt.file || cur.line + this.numLineBreaks(this.cursor) < nxt.line)) {
      this.cursor++;
      return true;
    }
    return false;
  }

  nextBlock(): boolean {
    if (this.nesting > 0) {
      this.next();
      if (this.val() === '}') {
        this.nesting--;
        return false;
      }
      return true;
    }
    if (!this.nextArg()) return false;
    if (this.val() !== '{') {
      this.cursor--;
      return false;
    }
    this.next();
    if (this.val() === '}') return false;
    this.nesting++;
    return true;
  }

  val(): string {
    return this.tokens[this.cursor]?.text ?? '';
  }

  line(): number {
    return this.tokens[this.cursor]?.line ?? 0;
  }

  isNewLine(): boolean {
    if (this.cursor < 1) return true;
    if (this.cursor > this.tokens.length - 1) return false;
    const prev = this.tokens[this.cursor - 1];
    const cur = this.tokens[this.cursor];
    if (!prev || !cur) return true;
    return prev.file !== cur.file || prev.line + this.numLineBreaks(this.cursor - 1) < cur.line;
  }

  remainingArgs(): string[] {
    const args: string[] = [];
    while (this.nextArg()) {
      if (this.val() === '{') {
        this.cursor--;
        break;
      }
      args.push(this.val());
    }
    return args;
  }

  /** dispenser.go File: the current token's file (an imported one's), else the dispenser's. */
  protected fileName(): string {
    return this.tokens[this.cursor]?.file || this.file;
  }

  err(msg: string): CorefileError {
    return new CorefileError(`${this.fileName()}:${this.line()} - Error during parsing: ${msg}`);
  }

  argErr(): CorefileError {
    if (this.val() === '{') return this.err("Unexpected token '{', expecting argument");
    return this.err(`Wrong argument count or unexpected line ending after '${this.val()}'`);
  }

  syntaxErr(expected: string): CorefileError {
    return new CorefileError(
      `${this.fileName()}:${this.line()} - Syntax error: Unexpected token '${this.val()}', expecting '${expected}'`,
    );
  }

  eofErr(): CorefileError {
    return this.err('Unexpected EOF');
  }
}
