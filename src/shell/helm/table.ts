/**
 * gosuri/uitable as helm's output.EncodeTable uses it: every cell padded to its column's width
 * (the last too), cells joined by a tab, a column truncated to MaxColWidth with "...".
 */
export function uitable(rows: readonly (readonly string[])[], maxColWidth = 0): string {
  const cut = (s: string): string => (maxColWidth > 0 && [...s].length > maxColWidth ? `${[...s].slice(0, maxColWidth - 3).join('')}...` : s);
  const cells = rows.map((r) => r.map(cut));
  const widths: number[] = [];
  for (const r of cells) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  return cells.map((r) => `${r.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join('\t')}\n`).join('');
}
