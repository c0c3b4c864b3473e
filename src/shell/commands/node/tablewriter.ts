/**
 * olekukonko/tablewriter v0.0.5 as etcdctl and etcdutl use it (etcdctl/ctlv3/command/printer_table.go):
 * header titled (upper case, `_` and `.` to spaces) and centred, cells right-aligned, `+`/`-`/`|` borders.
 */

function title(h: string): string {
  const chars = [...h].map((ch, i, a) => {
    if (ch === '_') return ' ';
    if (ch === '.') {
      const numOrSpace = (c: string | undefined): boolean => c !== undefined && /[0-9 ]/.test(c);
      if ((i !== 0 && !numOrSpace(a[i - 1])) || (i !== a.length - 1 && !numOrSpace(a[i + 1]))) return ' ';
    }
    return ch;
  });
  const t = chars.join('').trim();
  return (t === '' && h.length > 0 ? ' ' : t).toUpperCase();
}

/** tablewriter.Pad: centre, the odd space on the right. */
function centre(s: string, w: number): string {
  const gap = w - s.length;
  if (gap <= 0) return s;
  const left = Math.floor(gap / 2);
  return ' '.repeat(left) + s + ' '.repeat(gap - left);
}

export function goTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const hdr = header.map(title);
  const widths = hdr.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+\n`;
  let out = line;
  out += `|${hdr.map((h, i) => ` ${centre(h, widths[i]!)} `).join('|')}|\n`;
  out += line;
  for (const r of rows) out += `|${widths.map((w, i) => ` ${(r[i] ?? '').padStart(w)} `).join('|')}|\n`;
  out += line;
  return out;
}
