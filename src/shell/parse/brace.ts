/**
 * Brace expansion (bash manual 3.5.1, bash/braces.c): `a{b,c}d` → abd acd, sequences `{1..3}`,
 * `{a..e}`, `{01..10}` (zero padded to the widest end), `{1..10..3}`, nested braces, done before
 * every other expansion. A brace without a top-level comma or a valid sequence is left as typed
 * (`{}` for find -exec, `{x}`). Only braces inside one unquoted stretch of text are expanded:
 * quoting a brace (`"{a,b}"`, `\{`) keeps it literal, as in bash.
 */
import type { Word, WordPart } from './tokenize.js';

/** The words a word becomes; the word itself when it has no brace expression. */
export function braceExpand(w: Word): Word[] {
  for (let k = 0; k < w.parts.length; k++) {
    const p = w.parts[k]!;
    if (p.kind !== 'text' || p.quoted || !p.value.includes('{')) continue;
    const alts = expandText(p.value);
    if (alts.length === 1 && alts[0] === p.value) continue;
    const out: Word[] = [];
    for (const a of alts) {
      const parts: WordPart[] = [...w.parts.slice(0, k), { kind: 'text', value: a, quoted: false }, ...w.parts.slice(k + 1)];
      // later parts may hold braces of their own
      out.push(...braceExpand({ parts, raw: w.raw }).map((x) => x));
    }
    return out.map((x) => ({ ...x, parts: x.parts.filter((q) => !(q.kind === 'text' && !q.quoted && q.value === '')) }));
  }
  return [w];
}

/** Expand every brace expression of a plain string. */
export function expandText(s: string): string[] {
  for (let open = s.indexOf('{'); open >= 0; open = s.indexOf('{', open + 1)) {
    const close = matching(s, open);
    if (close < 0) continue;
    const body = s.slice(open + 1, close);
    const alts = sequence(body) ?? commaSplit(body);
    if (!alts) continue;
    const pre = s.slice(0, open);
    const rest = expandText(s.slice(close + 1));
    const out: string[] = [];
    for (const a of alts) for (const x of expandText(a)) for (const r of rest) out.push(pre + x + r);
    return out;
  }
  return [s];
}

function matching(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Split on commas at depth 0; undefined when there is none. */
function commaSplit(body: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (out.length === 0) return undefined;
  out.push(body.slice(start));
  return out;
}

/** `x..y[..step]` of integers or single letters. */
function sequence(body: string): string[] | undefined {
  const num = /^([-+]?\d+)\.\.([-+]?\d+)(?:\.\.([-+]?\d+))?$/.exec(body);
  if (num) {
    const [a, b] = [Number(num[1]), Number(num[2])];
    let step = Math.abs(Number(num[3] ?? 1)) || 1;
    if (a > b) step = -step;
    const pad = /^[-+]?0\d/.test(num[1]!) || /^[-+]?0\d/.test(num[2]!) ? Math.max(num[1]!.length, num[2]!.length) : 0;
    const out: string[] = [];
    for (let i = a; step > 0 ? i <= b : i >= b; i += step) {
      const t = String(Math.abs(i)).padStart(pad - (i < 0 ? 1 : 0), '0');
      out.push(i < 0 ? `-${t}` : t);
    }
    return out;
  }
  const ch = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([-+]?\d+))?$/.exec(body);
  if (ch) {
    const [a, b] = [ch[1]!.charCodeAt(0), ch[2]!.charCodeAt(0)];
    let step = Math.abs(Number(ch[3] ?? 1)) || 1;
    if (a > b) step = -step;
    const out: string[] = [];
    for (let i = a; step > 0 ? i <= b : i >= b; i += step) out.push(String.fromCharCode(i));
    return out;
  }
  return undefined;
}
