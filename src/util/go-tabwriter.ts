/**
 * Go's text/tabwriter (src/text/tabwriter/tabwriter.go) for left-aligned text: a cell is text
 * ended by a tab; the text after a line's last tab is not part of any column. Consecutive lines
 * with a cell in column j form a block whose cells are padded to the block's widest cell plus
 * `padding` (at least `minwidth`). With padchar '\t' the padding is tabs: the cell width is
 * rounded up to a multiple of `tabwidth` and filled with as many tabs as that takes
 * (Writer.writePadding).
 */
export interface TabwriterOptions {
  minwidth: number;
  tabwidth: number;
  padding: number;
  padchar: string;
}

export function tabwrite(text: string, o: TabwriterOptions): string {
  const lines = text.split('\n').map((l) => l.split('\t'));
  const widths: number[] = [];
  let out = '';
  const width = (s: string): number => [...s].length;
  const pad = (textw: number, cellw: number): string => {
    if (o.padchar === '\t') {
      if (o.tabwidth === 0) return '';
      const w = Math.ceil(cellw / o.tabwidth) * o.tabwidth;
      return '\t'.repeat(Math.ceil((w - textw) / o.tabwidth));
    }
    return o.padchar.repeat(Math.max(0, cellw - textw));
  };
  const writeLines = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      const cells = lines[i]!;
      cells.forEach((cell, j) => {
        out += cell;
        if (j < cells.length - 1 && j < widths.length) out += pad(width(cell), widths[j]!);
      });
      if (i + 1 < lines.length) out += '\n';
    }
  };
  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let i = line0; i < line1; i++) {
      if (column >= lines[i]!.length - 1) continue;
      // a block of lines with a cell in this column starts here
      writeLines(line0, i);
      line0 = i;
      let w = o.minwidth;
      for (; i < line1; i++) {
        const cells = lines[i]!;
        if (column >= cells.length - 1) break;
        w = Math.max(w, width(cells[column]!) + o.padding);
      }
      widths.push(w);
      format(line0, i);
      widths.pop();
      line0 = i;
      i--;
    }
    writeLines(line0, line1);
  };
  format(0, lines.length);
  return out;
}
