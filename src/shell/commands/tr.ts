/**
 * tr — GNU coreutils src/tr.c: translate SET1 to SET2 (SET2 padded with its last character),
 * -d delete, -s squeeze, -c complement; sets understand ranges `a-z`, classes `[:upper:]`,
 * repeats `[x*n]`, and escapes `\n \t \\ \NNN`.
 */
import type { CommandFn } from '../types.js';
import { getopt, has } from './util.js';

const CLASS: Record<string, () => string[]> = {
  upper: () => range(65, 90),
  lower: () => range(97, 122),
  alpha: () => [...range(65, 90), ...range(97, 122)],
  digit: () => range(48, 57),
  alnum: () => [...range(48, 57), ...range(65, 90), ...range(97, 122)],
  space: () => [' ', '\t', '\n', '\r', '\f', '\v'].sort(),
  blank: () => ['\t', ' '],
  punct: () => [...range(33, 47), ...range(58, 64), ...range(91, 96), ...range(123, 126)],
  xdigit: () => [...range(48, 57), ...range(65, 70), ...range(97, 102)],
  cntrl: () => [...range(0, 31), '\x7f'],
  print: () => range(32, 126),
  graph: () => range(33, 126),
};

function range(a: number, b: number): string[] {
  const r: string[] = [];
  for (let i = a; i <= b; i++) r.push(String.fromCharCode(i));
  return r;
}

/** Expand a SET operand; returns an error message string on bad input. */
function expand(set: string): string[] | string {
  // First resolve escapes into a list of [char, literal] tokens.
  const toks: Array<{ c: string; esc: boolean }> = [];
  for (let i = 0; i < set.length; i++) {
    const c = set[i]!;
    if (c === '\\' && i + 1 < set.length) {
      const n = set[++i]!;
      const oct = /^[0-7]{1,3}/.exec(set.slice(i));
      if (oct) {
        toks.push({ c: String.fromCharCode(parseInt(oct[0], 8)), esc: true });
        i += oct[0].length - 1;
        continue;
      }
      const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07', b: '\b', '\\': '\\' };
      toks.push({ c: map[n] ?? n, esc: true });
      continue;
    }
    toks.push({ c, esc: false });
  }
  const out: string[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.c === '[' && !t.esc && toks[i + 1]?.c === ':') {
      const rest = toks.slice(i + 2).map((x) => x.c).join('');
      const m = /^([a-z]+):\]/.exec(rest);
      if (m) {
        const cls = CLASS[m[1]!];
        if (!cls) return `invalid character class ‘${m[1]}’`;
        out.push(...cls());
        i += 2 + m[0].length - 1;
        continue;
      }
    }
    if (t.c === '[' && !t.esc && toks[i + 2]?.c === '*') {
      const rest = toks.slice(i + 3).map((x) => x.c).join('');
      const m = /^(\d*)\]/.exec(rest);
      if (m) {
        const n = m[1] === '' ? -1 : Number(m[1]);
        for (let k = 0; k < (n < 0 ? 1 : Math.min(n, 0x10000)); k++) out.push(toks[i + 1]!.c);
        if (n < 0) out.push('\0fill');
        i += 3 + m[0].length - 1;
        continue;
      }
    }
    const next = toks[i + 1];
    const end = toks[i + 2];
    if (next && next.c === '-' && !next.esc && end) {
      const a = t.c.charCodeAt(0);
      const b = end.c.charCodeAt(0);
      if (b < a) return `range-endpoints of '${t.c}-${end.c}' are in reverse collating sequence order`;
      out.push(...range(a, b));
      i += 2;
      continue;
    }
    out.push(t.c);
  }
  return out;
}

export const tr: CommandFn = (ctx) => {
  const p = getopt('tr', ctx.argv.slice(1), {
    short: 'dscCt',
    long: { delete: { key: 'd', arg: false }, 'squeeze-repeats': { key: 's', arg: false }, complement: { key: 'c', arg: false } },
  });
  const fail = (msg: string): ReturnType<CommandFn> => ({ stdout: '', stderr: `tr: ${msg}\nTry 'tr --help' for more information.\n`, exitCode: 1 });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'tr --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  const del = has(o, 'd');
  const squeeze = has(o, 's');
  const comp = has(o, 'c') || has(o, 'C');
  const ops = o.operands;
  if (ops.length === 0) return fail('missing operand');
  const needTwo = !del && !(squeeze && ops.length === 1);
  if (needTwo && ops.length < 2) return { stdout: '', stderr: `tr: missing operand after ‘${ops[0]}’\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n`, exitCode: 1 };
  const maxOps = del && squeeze ? 2 : del ? 1 : squeeze && ops.length === 1 ? 1 : 2;
  if (ops.length > maxOps) {
    const extra = `tr: extra operand ‘${ops[maxOps]}’\n`;
    return { stdout: '', stderr: `${extra}${del && !squeeze ? 'Only one string may be given when deleting without squeezing repeats.\n' : ''}Try 'tr --help' for more information.\n`, exitCode: 1 };
  }
  const s1r = expand(ops[0]!);
  if (typeof s1r === 'string') return fail(s1r);
  const s2r = ops[1] !== undefined ? expand(ops[1]) : [];
  if (typeof s2r === 'string') return fail(s2r);
  let set1 = new Set(s1r.filter((c) => c !== '\0fill'));
  const input = [...ctx.stdin];
  if (comp) {
    const all = new Set(input);
    set1 = new Set([...all].filter((c) => !set1.has(c)));
  }
  const inSet1 = (c: string): boolean => set1.has(c);
  let map: Map<string, string> | undefined;
  if (!del && ops.length >= 2) {
    const list1 = comp ? [...set1].sort() : s1r.filter((c) => c !== '\0fill');
    let list2 = s2r;
    const fillAt = list2.indexOf('\0fill');
    if (fillAt >= 0) {
      const fillChar = list2[fillAt - 1] ?? '';
      const need = Math.max(0, list1.length - (list2.length - 1));
      list2 = [...list2.slice(0, fillAt), ...Array<string>(need).fill(fillChar), ...list2.slice(fillAt + 1)];
    }
    if (list2.length === 0) return fail('when not truncating set1, string2 must be non-empty');
    map = new Map();
    list1.forEach((c, i) => map!.set(c, list2[Math.min(i, list2.length - 1)]!));
  }
  const squeezeSet = squeeze ? new Set(del || ops.length === 1 ? (del ? (s2r as string[]) : [...set1]) : [...(map?.values() ?? [])]) : new Set<string>();
  let out = '';
  let last = '';
  for (const c of input) {
    if (del && inSet1(c)) continue;
    const t = map?.get(c) ?? c;
    if (squeeze && t === last && squeezeSet.has(t)) continue;
    out += t;
    last = t;
  }
  return { stdout: out, stderr: '', exitCode: 0 };
};
