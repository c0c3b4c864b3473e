/**
 * sort — GNU coreutils src/sort.c: byte-order comparison (C locale), -n numeric (leading blanks,
 * sign, decimals; junk sorts as 0), -h human sizes, -r, -u (unique by key), -f, -b, -t SEP,
 * -k POS1[,POS2] with per-key flags, and the last-resort whole-line comparison when keys tie.
 */
import type { CommandFn } from '../types.js';
import { getopt, has, readInput, splitLines, joinLines, value, values } from './util.js';
import { isBusybox } from './busybox.js';

interface Key {
  f1: number;
  c1: number;
  f2: number | undefined;
  c2: number;
  n: boolean;
  h: boolean;
  V: boolean;
  r: boolean;
  f: boolean;
  b: boolean;
}

function parseKey(spec: string, global: Omit<Key, 'f1' | 'c1' | 'f2' | 'c2'>): Key | undefined {
  const m = /^(\d+)(?:\.(\d+))?([bdfghinMrV]*)(?:,(\d+)(?:\.(\d+))?([bdfghinMrV]*))?$/.exec(spec);
  if (!m || Number(m[1]) === 0) return undefined;
  const flags = `${m[3] ?? ''}${m[6] ?? ''}`;
  const own = flags.length > 0;
  return {
    f1: Number(m[1]),
    c1: m[2] ? Number(m[2]) : 1,
    f2: m[4] ? Number(m[4]) : undefined,
    c2: m[5] ? Number(m[5]) : 0,
    n: own ? flags.includes('n') : global.n,
    h: own ? flags.includes('h') : global.h,
    V: own ? flags.includes('V') : global.V,
    r: own ? flags.includes('r') : global.r,
    f: own ? flags.includes('f') : global.f,
    b: own ? flags.includes('b') : global.b,
  };
}

/** Start offsets of the fields of a line, following sort's rules (blank runs start a field when no -t). */
function fieldStarts(line: string, sep: string | undefined): Array<[number, number]> {
  const res: Array<[number, number]> = [];
  if (sep !== undefined) {
    let start = 0;
    for (;;) {
      const i = line.indexOf(sep, start);
      if (i < 0) {
        res.push([start, line.length]);
        break;
      }
      res.push([start, i]);
      start = i + sep.length;
    }
    return res;
  }
  let i = 0;
  while (i < line.length) {
    const start = i;
    while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
    while (i < line.length && line[i] !== ' ' && line[i] !== '\t') i++;
    res.push([start, i]);
  }
  if (res.length === 0) res.push([0, 0]);
  return res;
}

function extract(line: string, k: Key, sep: string | undefined): string {
  const fields = fieldStarts(line, sep);
  const f1 = fields[k.f1 - 1];
  if (!f1) return '';
  let s = f1[0];
  if (k.b || sep === undefined) {
    // Character offsets in a key skip the field's leading blanks only with -b.
    if (k.b) while (s < f1[1] && (line[s] === ' ' || line[s] === '\t')) s++;
  }
  s = Math.min(s + k.c1 - 1, line.length);
  let e = line.length;
  if (k.f2 !== undefined) {
    const f2 = fields[k.f2 - 1];
    if (!f2) e = line.length;
    else if (k.c2 === 0) e = f2[1];
    else {
      let base = f2[0];
      if (k.b) while (base < f2[1] && (line[base] === ' ' || line[base] === '\t')) base++;
      e = Math.min(base + k.c2, line.length);
    }
  }
  return e > s ? line.slice(s, e) : '';
}

function numeric(s: string): number {
  const m = /^[ \t]*(-?\d*(?:\.\d*)?)/.exec(s);
  const v = m ? Number(m[1]) : NaN;
  return Number.isFinite(v) ? v : 0;
}

function humanNum(s: string): number {
  const m = /^[ \t]*(-?\d*(?:\.\d*)?)([KMGTPEZY]?)/.exec(s);
  if (!m) return 0;
  const base = Number(m[1]) || 0;
  const idx = ' KMGTPEZY'.indexOf(m[2] || ' ');
  return base * 1024 ** Math.max(0, idx);
}

/** gnulib filevercmp.c's verrevcmp: digit runs compare numerically, letters before non-letters, `~` first. */
function verOrder(c: string | undefined): number {
  if (c === undefined || /[0-9]/.test(c)) return 0;
  if (/[A-Za-z]/.test(c)) return c.charCodeAt(0);
  if (c === '~') return -1;
  return c.charCodeAt(0) + 256;
}

function verrevcmp(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let first = 0;
    while ((i < a.length && !/[0-9]/.test(a[i]!)) || (j < b.length && !/[0-9]/.test(b[j]!))) {
      const ac = verOrder(a[i]);
      const bc = verOrder(b[j]);
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    while (i < a.length && j < b.length && /[0-9]/.test(a[i]!) && /[0-9]/.test(b[j]!)) {
      if (!first) first = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (i < a.length && /[0-9]/.test(a[i]!)) return 1;
    if (j < b.length && /[0-9]/.test(b[j]!)) return -1;
    if (first) return first;
  }
  return 0;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareKey(a: string, b: string, k: Key): number {
  let r: number;
  if (k.n) r = numeric(a) - numeric(b);
  else if (k.h) r = humanNum(a) - humanNum(b);
  else if (k.V) r = verrevcmp(a, b);
  else {
    let x = k.b ? a.replace(/^[ \t]+/, '') : a;
    let y = k.b ? b.replace(/^[ \t]+/, '') : b;
    if (k.f) {
      x = x.toUpperCase();
      y = y.toUpperCase();
    }
    r = cmpStr(x, y);
  }
  r = Math.sign(r);
  return k.r ? -r : r;
}

export const sort: CommandFn = (ctx) => {
  const p = getopt('sort', ctx.argv.slice(1), {
    short: 'nrufbhst:k:o:V',
    long: {
      'numeric-sort': { key: 'n', arg: false },
      reverse: { key: 'r', arg: false },
      unique: { key: 'u', arg: false },
      'ignore-case': { key: 'f', arg: false },
      'human-numeric-sort': { key: 'h', arg: false },
      'field-separator': { key: 't', arg: true },
      key: { key: 'k', arg: true },
      output: { key: 'o', arg: true },
      stable: { key: 's', arg: false },
    },
  });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'sort --help' for more information.\n`, exitCode: 2 };
  const o = p.opts;
  const global = { n: has(o, 'n'), h: has(o, 'h'), V: has(o, 'V'), r: has(o, 'r'), f: has(o, 'f'), b: has(o, 'b') };
  const sep = value(o, 't');
  if (sep !== undefined && sep.length !== 1) {
    return { stdout: '', stderr: sep === '' ? 'sort: empty tab\n' : `sort: multi-character tab ‘${sep}’\n`, exitCode: 2 };
  }
  const keys: Key[] = [];
  for (const k of values(o, 'k')) {
    const key = parseKey(k, global);
    if (!key) return { stdout: '', stderr: `sort: invalid number at field start: invalid count at start of ‘${k}’\n`, exitCode: 2 };
    keys.push(key);
  }
  const lines: string[] = [];
  for (const f of o.operands.length > 0 ? o.operands : ['-']) {
    const r = readInput(ctx, f);
    // busybox 1.35 (recorded): `sort: X: No such file or directory`; a directory reads as empty
    if (!r.ok && isBusybox(ctx) && r.error === 'Is a directory') continue;
    if (!r.ok && isBusybox(ctx)) return { stdout: '', stderr: `sort: ${f}: ${r.error}\n`, exitCode: 2 };
    if (!r.ok) return { stdout: '', stderr: r.error === 'Is a directory' ? `sort: read failed: ${f}: Is a directory\n` : `sort: cannot read: ${f}: ${r.error}\n`, exitCode: 2 };
    for (const l of splitLines(r.text)) lines.push(l);
  }
  const unique = has(o, 'u');
  const stable = has(o, 's') || unique;
  const allKeys = keys.length > 0 ? keys : [{ f1: 1, c1: 1, f2: undefined, c2: 0, ...global }];
  const cmpKeys = (a: string, b: string): number => {
    for (const k of allKeys) {
      const r = keys.length > 0 ? compareKey(extract(a, k, sep), extract(b, k, sep), k) : compareKey(a, b, k);
      if (r !== 0) return r;
    }
    return 0;
  };
  const cmp = (a: string, b: string): number => {
    const r = cmpKeys(a, b);
    if (r !== 0 || stable) return r;
    // Last resort: whole-line byte comparison, reversed by a global -r.
    const l = cmpStr(a, b);
    return global.r ? -l : l;
  };
  const sorted = [...lines].sort(cmp);
  const result: string[] = [];
  for (const l of sorted) {
    if (unique && result.length > 0 && cmpKeys(result[result.length - 1]!, l) === 0) continue;
    result.push(l);
  }
  const text = joinLines(result);
  const outFile = value(o, 'o');
  if (outFile !== undefined) {
    ctx.fs.write(outFile.startsWith('/') ? outFile : `${ctx.cwd.replace(/\/$/, '')}/${outFile}`, text);
    return { stdout: '', stderr: '', exitCode: 0 };
  }
  return { stdout: text, stderr: '', exitCode: 0 };
};
