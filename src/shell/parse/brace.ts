/**
 * Brace expansion (bash manual 3.5.1, bash/braces.c): `a{b,c}d` → abd acd, sequences `{1..3}`,
 * `{a..e}`, `{01..10}` (zero padded to the widest end), `{1..10..3}`, nested braces, done before
 * every other expansion. A brace without a top-level comma or a valid sequence is left as typed
 * (`{}` for find -exec, `{x}`). Quoted text is opaque to it (see Atom). dash has no brace
 * expansion at all (the interpreter does not call this for `sh`).
 */
import { withTilde, type Word, type WordPart } from './tokenize.js';

/**
 * One piece of a word as brace expansion sees it: an unquoted character, which may be a `{`, `,`
 * or `}` of a brace expression, or an opaque piece (quoted text, an escaped character, an
 * expansion) that only travels with the text around it. bash's brace_expand (braces.c) skips
 * quoted strings and `${…}` when it looks for braces and commas, so `{a,'b c'}` is `a` and `b c`,
 * `{a,"b,c"}` is `a` and `b,c`, and `'{a,b}'`, `"{a,b}"`, `\{a,b}` stay as typed.
 */
type Atom = string | WordPart;

/** The words a word becomes; the word itself when it has no brace expression. */
export function braceExpand(w: Word): Word[] {
  if (!w.parts.some((p) => p.kind === 'text' && !p.quoted && p.value.includes('{'))) return [w];
  const atoms: Atom[] = [];
  for (const p of w.parts) {
    if (p.kind === 'text' && !p.quoted) atoms.push(...p.value);
    else atoms.push(p);
  }
  const alts = expandAtoms(atoms);
  if (alts.length === 1) return [w];
  return alts.map((a) => ({ ...w, parts: withTilde(toParts(a)) }));
}

/** Join the unquoted characters back into text parts; an empty unquoted stretch is dropped. */
function toParts(atoms: Atom[]): WordPart[] {
  const parts: WordPart[] = [];
  let text = '';
  for (const a of atoms) {
    if (typeof a === 'string') {
      text += a;
      continue;
    }
    if (text !== '') parts.push({ kind: 'text', value: text, quoted: false });
    text = '';
    parts.push(a);
  }
  if (text !== '') parts.push({ kind: 'text', value: text, quoted: false });
  return parts;
}

/** Expand every brace expression of a word's pieces (the first that expands, then the rest after it). */
function expandAtoms(s: Atom[]): Atom[][] {
  for (let open = s.indexOf('{'); open >= 0; open = s.indexOf('{', open + 1)) {
    const close = matching(s, open);
    if (close < 0) continue;
    const body = s.slice(open + 1, close);
    const seq = body.every((a) => typeof a === 'string') ? sequence(body.join('')) : undefined;
    const alts = seq?.map((x) => [...x]) ?? commaSplit(body);
    if (!alts) continue;
    const pre = s.slice(0, open);
    const rest = expandAtoms(s.slice(close + 1));
    const out: Atom[][] = [];
    for (const a of alts) for (const x of seq ? [a] : expandAtoms(a)) for (const r of rest) out.push([...pre, ...x, ...r]);
    return out;
  }
  return [s];
}

function matching(s: Atom[], open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Split on commas at depth 0; undefined when there is none. */
function commaSplit(body: Atom[]): Atom[][] | undefined {
  const out: Atom[][] = [];
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
