/**
 * A literal port of Go's text/tabwriter (elastic tabstops) as forked by github.com/liggitt/tabwriter
 * (the RememberWidths flag). kubectl renders every `get` table, custom-columns and describe block
 * through it, so alignment quirks (column blocks, the unpadded trailing cell, padded empty cells)
 * come from here and nowhere else.
 *
 * Upstream: golang/go src/text/tabwriter/tabwriter.go; liggitt/tabwriter tabwriter.go;
 * kubernetes/cli-runtime pkg/printers/tabwriter.go (get settings); kubectl pkg/describe/describe.go
 * `tabbedString` (describe settings).
 */

interface Cell {
  /** Cell size in UTF-16 units of `text`. */
  text: string;
  /** Width in runes (Unicode code points), as utf8.RuneCount. */
  width: number;
  /** True when the cell was terminated by '\t' (not '\v'). */
  htab: boolean;
}

export interface TabWriterOptions {
  minwidth: number;
  tabwidth: number;
  padding: number;
  padchar: string;
  /** liggitt/tabwriter RememberWidths: keep the widest width per column across flushes. */
  rememberWidths?: boolean;
}

/** cli-runtime GetNewTabWriter: minwidth 6, tabwidth 4, padding 3, ' ', RememberWidths. */
export const GET_TABWRITER: TabWriterOptions = { minwidth: 6, tabwidth: 4, padding: 3, padchar: ' ', rememberWidths: true };
/** describe.go tabbedString: tabwriter.NewWriter(out, 0, 8, 2, ' ', 0). */
export const DESCRIBE_TABWRITER: TabWriterOptions = { minwidth: 0, tabwidth: 8, padding: 2, padchar: ' ' };

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export class TabWriter {
  private out = '';
  private lines: Cell[][] = [[]];
  private cell = '';
  private widths: number[] = [];
  private maxwidths: number[] = [];

  constructor(private readonly opts: TabWriterOptions) {}

  /** Write text; cells end at '\t' or '\v', lines at '\n' (a line with a single cell flushes). */
  write(text: string): void {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === '\t' || ch === '\v' || ch === '\n' || ch === '\f') {
        this.cell += text.slice(start, i);
        start = i + 1;
        const ncells = this.terminateCell(ch === '\t');
        if (ch === '\n' || ch === '\f') {
          this.lines.push([]);
          if (ch === '\f' || ncells === 1) this.flush();
        }
      }
    }
    this.cell += text.slice(start);
  }

  /** Format everything buffered (Go's Flush); the text accumulates until `take`. */
  flush(): void {
    if (this.cell.length > 0) this.terminateCell(false);
    this.format(0, this.lines.length);
    this.lines = [[]];
    this.cell = '';
    this.widths = [];
  }

  /** Flush and return the complete output, resetting the output buffer. */
  take(): string {
    this.flush();
    const out = this.out;
    this.out = '';
    return out;
  }

  /** liggitt/tabwriter SetRememberedWidths(nil): forget widths (kubectl does this between tables). */
  resetRememberedWidths(): void {
    this.maxwidths = [];
  }

  private terminateCell(htab: boolean): number {
    const line = this.lines[this.lines.length - 1]!;
    line.push({ text: this.cell, width: runeCount(this.cell), htab });
    this.cell = '';
    return line.length;
  }

  private format(line0: number, line1: number): void {
    const column = this.widths.length;
    for (let thisLine = line0; thisLine < line1; thisLine++) {
      let line = this.lines[thisLine]!;
      if (column >= line.length - 1) continue;
      // a cell exists in this column: print the lines above the block first
      this.writeLines(line0, thisLine);
      line0 = thisLine;
      let width = this.opts.minwidth;
      for (; thisLine < line1; thisLine++) {
        line = this.lines[thisLine]!;
        if (column >= line.length - 1) break;
        const c = line[column]!;
        const w = c.width + this.opts.padding;
        if (w > width) width = w;
      }
      if (this.opts.rememberWidths) {
        if (this.maxwidths.length < this.widths.length) this.maxwidths.push(...this.widths.slice(this.maxwidths.length));
        const remembered = this.maxwidths[this.widths.length];
        if (remembered === undefined) this.maxwidths.push(width);
        else if (remembered > width) width = remembered;
        else if (remembered < width) this.maxwidths[this.widths.length] = width;
      }
      this.widths.push(width);
      this.format(line0, thisLine);
      this.widths.pop();
      line0 = thisLine;
    }
    this.writeLines(line0, line1);
  }

  private writeLines(line0: number, line1: number): void {
    for (let i = line0; i < line1; i++) {
      const line = this.lines[i]!;
      line.forEach((c, j) => {
        this.out += c.text;
        const cw = this.widths[j];
        if (cw !== undefined) this.out += this.opts.padchar.repeat(Math.max(0, cw - c.width));
      });
      // The last buffered line has no newline yet (it is the open line).
      if (i + 1 !== this.lines.length) this.out += '\n';
    }
  }
}

/** Render complete text through a fresh tabwriter. */
export function tabwrite(text: string, opts: TabWriterOptions): string {
  const w = new TabWriter(opts);
  w.write(text);
  return w.take();
}

/** Rows of cells → get-table text: every cell tab-terminated except the last of each row. */
export function renderRows(rows: readonly (readonly string[])[], opts: TabWriterOptions = GET_TABWRITER): string {
  return tabwrite(rows.map((r) => `${r.join('\t')}\n`).join(''), opts);
}
