/**
 * Collects terminal lines into one complete command text, the way interactive bash shows its
 * `> ` continuation prompt (PS2) while a quote is open, a line ends in `|`, `&&`, `||` or `\`, or a
 * here-document has not reached its delimiter yet.
 */
import { parseScript, type ParseOptions, type ParseResult } from './ast.js';

export type LineStatus =
  /** Show PS2 and call push() again with the next line. */
  | { status: 'more' }
  /** `source` is ready for Interpreter.run(); `parsed` is its parse (ok or a syntax error). */
  | { status: 'complete'; source: string; parsed: ParseResult };

export class LineReader {
  private lines: string[] = [];

  constructor(private readonly opts: () => ParseOptions = () => ({})) {}

  /** True while earlier lines are waiting for their continuation. */
  get pending(): boolean {
    return this.lines.length > 0;
  }

  push(line: string): LineStatus {
    this.lines.push(line);
    const source = this.lines.join('\n');
    const parsed = parseScript(source, this.opts());
    if (!parsed.ok && parsed.incomplete) return { status: 'more' };
    this.lines = [];
    return { status: 'complete', source, parsed };
  }

  /**
   * End of input (Ctrl-D on PS2). bash reports the open construct and drops the text; the
   * here-document case runs with what was read (bash warns and treats end-of-file as the delimiter).
   */
  eof(): { source: string; error: string } | undefined {
    if (this.lines.length === 0) return undefined;
    const source = this.lines.join('\n');
    this.lines = [];
    const parsed = parseScript(source, this.opts());
    if (parsed.ok || !parsed.incomplete) return undefined;
    const quote = parsed.reason;
    if (quote === "'" || quote === '"' || quote === '`' || quote === ')' || quote === '}') {
      return { source, error: `bash: unexpected EOF while looking for matching \`${quote}'\nbash: syntax error: unexpected end of file` };
    }
    return { source, error: 'bash: syntax error: unexpected end of file' };
  }

  reset(): void {
    this.lines = [];
  }
}
