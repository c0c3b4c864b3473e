/**
 * Line diffs as GNU diffutils prints them (src/analyze.c, normal.c, context.c): the shortest
 * edit script by Myers' O(ND) algorithm, grouped into change blocks, printed in the normal format
 * (`2,3c2`, `<`, `---`, `>`) or the unified one (`@@ -l,n +l,n @@` hunks with 3 lines of context,
 * adjacent hunks merged), with `\ No newline at end of file` after a last line that lacks one.
 * Pure: `kubectl diff` and `diff` both use it.
 */

/** One change block: lines [a0, a1) of A replaced by lines [b0, b1) of B. */
export interface Change {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

/** Lines of a text, each without its newline; `lastNewline` tells whether the text ended in one. */
export function toLines(text: string): { lines: string[]; lastNewline: boolean } {
  if (text === '') return { lines: [], lastNewline: true };
  const lines = text.split('\n');
  const lastNewline = lines[lines.length - 1] === '';
  if (lastNewline) lines.pop();
  return { lines, lastNewline };
}

/** Edit distance past which the search stops and the differing middle is one change block. */
const MAX_EDITS = 4000;

/**
 * The change blocks turning `a` into `b`: common head and tail lines first, then Myers' greedy
 * forward search with a trace over the middle (bounded: a middle more than MAX_EDITS edits apart
 * is reported as one block, as diffutils' heuristics give up on costly inputs too).
 */
export function changes(a: readonly string[], b: readonly string[]): Change[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const mid = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return mid.map((c) => ({ a0: c.a0 + head, a1: c.a1 + head, b0: c.b0 + head, b1: c.b1 + head }));
}

function myers(a: readonly string[], b: readonly string[]): Change[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return [];
  if (n === 0 || m === 0) return [{ a0: 0, a1: n, b0: 0, b1: m }];
  const max = n + m;
  const v = new Map<number, number>([[1, 0]]);
  const trace: Array<Map<number, number>> = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    if (d > MAX_EDITS) return [{ a0: 0, a1: n, b0: 0, b1: m }];
    trace.push(new Map(v));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v.get(k - 1) ?? -1) < (v.get(k + 1) ?? -1)) ? (v.get(k + 1) ?? 0) : (v.get(k - 1) ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v.set(k, x);
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // walk the trace back into matched pairs
  const matches: Array<[number, number]> = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && (vd.get(k - 1) ?? -1) < (vd.get(k + 1) ?? -1)) ? k + 1 : k - 1;
    const prevX = vd.get(prevK) ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      matches.push([x - 1, y - 1]);
      x--;
      y--;
    }
    if (d > 0) {
      x = prevX;
      y = prevY;
    }
  }
  while (x > 0 && y > 0) {
    matches.push([x - 1, y - 1]);
    x--;
    y--;
  }
  matches.reverse();
  const out: Change[] = [];
  let ai = 0;
  let bi = 0;
  for (const [ma, mb] of [...matches, [n, m] as [number, number]]) {
    if (ma > ai || mb > bi) out.push({ a0: ai, a1: ma, b0: bi, b1: mb });
    ai = ma + 1;
    bi = mb + 1;
  }
  return out;
}

const NO_NEWLINE = '\\ No newline at end of file\n';

/** `N` or `N,M` (1-based, inclusive) as the normal format writes a range. */
function range(from: number, to: number): string {
  return to - from <= 1 ? String(to === from ? from : from + 1) : `${from + 1},${to}`;
}

/** The normal format (`diff a b`). */
export function normalDiff(aText: string, bText: string): string {
  const A = toLines(aText);
  const B = toLines(bText);
  let out = '';
  const line = (prefix: string, lines: readonly string[], i: number, whole: { lines: string[]; lastNewline: boolean }): string =>
    `${prefix}${lines[i]}\n${i === whole.lines.length - 1 && !whole.lastNewline ? NO_NEWLINE : ''}`;
  for (const c of changesWithEol(A, B)) {
    const op = c.a0 === c.a1 ? 'a' : c.b0 === c.b1 ? 'd' : 'c';
    const aRange = op === 'a' ? String(c.a0) : range(c.a0, c.a1);
    const bRange = op === 'd' ? String(c.b0) : range(c.b0, c.b1);
    out += `${aRange}${op}${bRange}\n`;
    for (let i = c.a0; i < c.a1; i++) out += line('< ', A.lines, i, A);
    if (op === 'c') out += '---\n';
    for (let i = c.b0; i < c.b1; i++) out += line('> ', B.lines, i, B);
  }
  return out;
}

/** A last line that differs only in its newline is a change too. */
function changesWithEol(A: { lines: string[]; lastNewline: boolean }, B: { lines: string[]; lastNewline: boolean }): Change[] {
  const mark = (t: { lines: string[]; lastNewline: boolean }): string[] => t.lines.map((l, i) => (i === t.lines.length - 1 && !t.lastNewline ? `${l}\u0000noeol` : l));
  return changes(mark(A), mark(B));
}

/** unified-format range: `start,count`, `start` for one line, `start-1,0` for none. */
function uniRange(from: number, to: number): string {
  const count = to - from;
  if (count === 1) return String(from + 1);
  if (count === 0) return `${from},0`;
  return `${from + 1},${count}`;
}

/** The unified format (`diff -u`) after its two header lines, with `context` lines around changes. */
export function unifiedHunks(aText: string, bText: string, context = 3): string {
  const A = toLines(aText);
  const B = toLines(bText);
  const cs = changesWithEol(A, B);
  if (cs.length === 0) return '';
  // group changes whose contexts touch (diffutils merges hunks closer than 2*context lines)
  const groups: Change[][] = [];
  for (const c of cs) {
    const last = groups[groups.length - 1];
    const prev = last?.[last.length - 1];
    if (prev && c.a0 - prev.a1 <= 2 * context) last!.push(c);
    else groups.push([c]);
  }
  let out = '';
  const line = (prefix: string, t: { lines: string[]; lastNewline: boolean }, i: number): string => `${prefix}${t.lines[i]}\n${i === t.lines.length - 1 && !t.lastNewline ? NO_NEWLINE : ''}`;
  for (const g of groups) {
    const first = g[0]!;
    const last = g[g.length - 1]!;
    const a0 = Math.max(0, first.a0 - context);
    const b0 = Math.max(0, first.b0 - context);
    const a1 = Math.min(A.lines.length, last.a1 + context);
    const b1 = Math.min(B.lines.length, last.b1 + context);
    out += `@@ -${uniRange(a0, a1)} +${uniRange(b0, b1)} @@\n`;
    let ai = a0;
    let bi = b0;
    for (const c of g) {
      for (; ai < c.a0; ai++, bi++) out += line(' ', A, ai);
      for (; ai < c.a1; ai++) out += line('-', A, ai);
      for (; bi < c.b1; bi++) out += line('+', B, bi);
    }
    for (; ai < a1; ai++, bi++) out += line(' ', A, ai);
  }
  return out;
}

/** diffutils' header time: `2026-12-03 10:00:00.000000000 +0000` (UTC, as the lab's hosts run). */
export function diffTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}000000 +0000`;
}

/** A whole unified diff: `--- A` / `+++ B` headers (labels as given) and the hunks; '' when equal. */
export function unifiedDiff(aLabel: string, bLabel: string, aText: string, bText: string, context = 3): string {
  const hunks = unifiedHunks(aText, bText, context);
  return hunks ? `--- ${aLabel}\n+++ ${bLabel}\n${hunks}` : '';
}
