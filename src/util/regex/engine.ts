/**
 * A regular expression engine whose time is bounded by the input, not by the pattern's shape:
 * a Pike VM (Thompson's construction with capture slots, after Russ Cox's "Regular Expression
 * Matching: the Virtual Machine Approach") runs in O(text × program) and gives the same
 * leftmost-first answer, with the same groups, as a backtracking engine. Back-references cannot be
 * matched that way; patterns that use them run on a backtracking VM over the same program with a
 * step budget, and a search that exceeds it throws RegexBudgetError instead of running on.
 */
import { MAX_REPEAT, RegexSyntaxError, type AssertKind, type CharSet, type Node, type Parsed } from './parse.js';

const CHAR = 0;
const SPLIT = 2;
const JMP = 3;
const SAVE = 4;
const ASSERT = 5;
const LOOK = 6;
const BACKREF = 7;
const PROGSET = 8;
const PROGCHK = 9;
const MATCH = 10;

interface Inst {
  op: number;
  /** SPLIT: preferred target; JMP: target; SAVE: slot; BACKREF: group; PROGSET/PROGCHK: register. */
  x: number;
  /** SPLIT: the other target. */
  y: number;
  /** CHAR and LOOK: membership for code units below 128, case folding applied. */
  ascii?: Uint8Array;
  set?: CharSet;
  fold?: boolean;
  kind?: AssertKind;
  multiline?: boolean;
  behind?: boolean;
  neg?: boolean;
  dotAll?: boolean;
}

/** Programs stop growing here (`a{1000}{1000}`): GNU says "Regular expression too big". */
export const MAX_PROGRAM = 50_000;

/** Steps a back-reference search may take before it gives up. */
export const BACKTRACK_BUDGET = 2_000_000;

export class RegexBudgetError extends Error {}

export interface Program {
  insts: Inst[];
  /** Capture slots: 2 per group, group 0 included. */
  slots: number;
  /** Loop-progress registers, stored after the slots (backtracking only). */
  regs: number;
  backrefs: boolean;
  /**
   * The characters a match can start with (code units below 128 in `ascii`, any other unit when
   * `other`), when every path from the start consumes a character first: the search skips the
   * text where no match can start. Undefined when a match may start with an assertion or be empty.
   */
  first?: { ascii: Uint8Array; other: boolean };
}

/** Work done by searches (thread steps), for callers that charge it to a budget. */
export interface Meter {
  work: number;
}

function inRanges(ranges: number[], c: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) {
    if (c < ranges[i]!) return false;
    if (c <= ranges[i + 1]!) return true;
  }
  return false;
}

/** JavaScript's Canonicalize for non-unicode case-insensitive matching (ECMA-262 22.2.2.7.3). */
function canon(c: number): number {
  const ch = String.fromCharCode(c);
  const up = ch.toUpperCase();
  if (up.length !== 1) return c;
  const u = up.charCodeAt(0);
  return c >= 128 && u < 128 ? c : u;
}

function setHas(set: CharSet, fold: boolean, c: number): boolean {
  let hit = inRanges(set.ranges, c);
  if (!hit && fold) {
    const u = canon(c);
    const l = String.fromCharCode(c).toLowerCase();
    hit = (u !== c && inRanges(set.ranges, u)) || (l.length === 1 && l.charCodeAt(0) !== c && inRanges(set.ranges, l.charCodeAt(0)));
  }
  return set.neg ? !hit : hit;
}

function asciiTable(set: CharSet, fold: boolean): Uint8Array {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) t[c] = setHas(set, fold, c) ? 1 : 0;
  return t;
}

const LINE_TERM = (c: number): boolean => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
const IS_WORD = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** Compile a parsed expression into a program. */
export function compile(parsed: Parsed): Program {
  const insts: Inst[] = [];
  let regs = 0;
  const emit = (i: Inst): number => {
    if (insts.length >= MAX_PROGRAM) throw new RegexSyntaxError('regular expression too big');
    insts.push(i);
    return insts.length - 1;
  };
  const gen = (n: Node): void => {
    switch (n.t) {
      case 'empty':
        return;
      case 'set':
        emit({ op: CHAR, x: 0, y: 0, set: n.set, fold: n.fold, ascii: asciiTable(n.set, n.fold) });
        return;
      case 'any': {
        const set: CharSet = n.dotAll ? { ranges: [0, 0xffff], neg: false } : { ranges: [10, 10, 13, 13, 0x2028, 0x2029], neg: true };
        emit({ op: CHAR, x: 0, y: 0, set, fold: false, ascii: asciiTable(set, false) });
        return;
      }
      case 'cat':
        for (const it of n.items) gen(it);
        return;
      case 'alt': {
        const jumps: number[] = [];
        for (let k = 0; k < n.items.length; k++) {
          if (k < n.items.length - 1) {
            const split = emit({ op: SPLIT, x: 0, y: 0 });
            insts[split]!.x = insts.length;
            gen(n.items[k]!);
            jumps.push(emit({ op: JMP, x: 0, y: 0 }));
            insts[split]!.y = insts.length;
          } else gen(n.items[k]!);
        }
        for (const j of jumps) insts[j]!.x = insts.length;
        return;
      }
      case 'group':
        if (n.index === undefined) {
          gen(n.body);
          return;
        }
        emit({ op: SAVE, x: n.index * 2, y: 0 });
        gen(n.body);
        emit({ op: SAVE, x: n.index * 2 + 1, y: 0 });
        return;
      case 'repeat': {
        if (n.min > MAX_REPEAT) throw new RegexSyntaxError('regular expression too big');
        for (let k = 0; k < n.min; k++) gen(n.body);
        if (n.max === Infinity) {
          const reg = regs++;
          const split = emit({ op: SPLIT, x: 0, y: 0 });
          const bodyStart = insts.length;
          emit({ op: PROGSET, x: reg, y: 0 });
          gen(n.body);
          emit({ op: PROGCHK, x: reg, y: 0 });
          emit({ op: JMP, x: split, y: 0 });
          const end = insts.length;
          insts[split]!.x = n.greedy ? bodyStart : end;
          insts[split]!.y = n.greedy ? end : bodyStart;
          return;
        }
        const splits: number[] = [];
        for (let k = n.min; k < n.max; k++) {
          const split = emit({ op: SPLIT, x: 0, y: 0 });
          splits.push(split);
          insts[split]!.x = insts.length;
          gen(n.body);
        }
        const end = insts.length;
        for (const s of splits) {
          const body = insts[s]!.x;
          insts[s]!.x = n.greedy ? body : end;
          insts[s]!.y = n.greedy ? end : body;
        }
        return;
      }
      case 'assert':
        emit({ op: ASSERT, x: 0, y: 0, kind: n.kind, multiline: n.multiline });
        return;
      case 'look':
        emit({ op: LOOK, x: 0, y: 0, set: n.set, fold: n.fold, behind: n.behind, neg: n.neg, ascii: asciiTable(n.set, n.fold) });
        return;
      case 'backref':
        emit({ op: BACKREF, x: n.index, y: 0, fold: n.fold });
        return;
    }
  };
  gen(parsed.node);
  emit({ op: MATCH, x: 0, y: 0 });
  for (const i of insts) if (i.op === BACKREF && i.x > parsed.groups) throw new RegexSyntaxError('invalid back reference');
  const prog: Program = { insts, slots: (parsed.groups + 1) * 2, regs, backrefs: parsed.hasBackrefs };
  const first = firstChars(insts);
  if (first) prog.first = first;
  return prog;
}

/** The union of the character instructions reachable from the start without consuming anything. */
function firstChars(insts: Inst[]): { ascii: Uint8Array; other: boolean } | undefined {
  const ascii = new Uint8Array(128);
  let other = false;
  const seen = new Set<number>();
  const stack = [0];
  while (stack.length > 0) {
    const pc = stack.pop()!;
    if (seen.has(pc)) continue;
    seen.add(pc);
    const i = insts[pc]!;
    switch (i.op) {
      case CHAR:
        for (let c = 0; c < 128; c++) if (i.ascii![c]) ascii[c] = 1;
        // any code unit above 127 the set may hold (negated sets hold most)
        if (i.set!.neg || i.set!.ranges.some((v, k) => k % 2 === 1 && v >= 128) || i.fold) other = true;
        break;
      case JMP:
        stack.push(i.x);
        break;
      case SPLIT:
        stack.push(i.x, i.y);
        break;
      case SAVE:
      case PROGSET:
      case PROGCHK:
        stack.push(pc + 1);
        break;
      default:
        return undefined; // an assertion, a back-reference or an empty match
    }
  }
  return { ascii, other };
}

function charOk(inst: Inst, c: number): boolean {
  return c < 128 ? inst.ascii![c] === 1 : setHas(inst.set!, inst.fold!, c);
}

function assertOk(inst: Inst, s: string, pos: number): boolean {
  const prev = pos > 0 ? s.charCodeAt(pos - 1) : -1;
  const next = pos < s.length ? s.charCodeAt(pos) : -1;
  switch (inst.op) {
    case LOOK: {
      const c = inst.behind ? prev : next;
      const hit = c >= 0 && charOk(inst, c);
      return inst.neg ? !hit : hit;
    }
  }
  switch (inst.kind) {
    case 'bol':
      return pos === 0 || (inst.multiline === true && LINE_TERM(prev));
    case 'eol':
      return pos === s.length || (inst.multiline === true && LINE_TERM(next));
    case 'bot':
      return pos === 0;
    case 'eot':
      return pos === s.length;
    case 'wordb':
      return (prev >= 0 && IS_WORD(prev)) !== (next >= 0 && IS_WORD(next));
    case 'nwordb':
      return (prev >= 0 && IS_WORD(prev)) === (next >= 0 && IS_WORD(next));
  }
  return false;
}

/** Thread lists, reused between searches of one program. */
interface Lists {
  pcs: [Int32Array, Int32Array];
  caps: [Array<number[]>, Array<number[]>];
  mark: Int32Array;
  gen: number;
  stackPc: Int32Array;
  stackCaps: Array<number[]>;
}

const listsOf = new WeakMap<Program, Lists>();

function lists(p: Program): Lists {
  let l = listsOf.get(p);
  if (!l) {
    const n = p.insts.length;
    l = { pcs: [new Int32Array(n), new Int32Array(n)], caps: [new Array<number[]>(n), new Array<number[]>(n)], mark: new Int32Array(n), gen: 0, stackPc: new Int32Array(n * 2 + 2), stackCaps: new Array<number[]>(n * 2 + 2) };
    listsOf.set(p, l);
  }
  return l;
}

/**
 * Search `s` from `start` (only there when `sticky`). Returns the capture slots of the
 * leftmost-first match (-1 for a group that did not take part), or null.
 */
export function search(p: Program, s: string, start: number, sticky: boolean, meter?: Meter): number[] | null {
  return p.backrefs ? backtrack(p, s, start, sticky, meter) : pike(p, s, start, sticky, meter);
}

function pike(p: Program, s: string, start: number, sticky: boolean, meter?: Meter): number[] | null {
  const insts = p.insts;
  const L = lists(p);
  let cur = 0;
  let clen = 0;
  let nlen = 0;
  let matched: number[] | null = null;
  // the list being filled has its own generation: a pc is added to it at most once
  let curGen = ++L.gen;
  const add = (which: number, pc0: number, caps0: number[], pos: number, gen: number, len: number): number => {
    const pcs = L.pcs[which]!;
    const capsList = L.caps[which]!;
    let sp = 0;
    L.stackPc[sp] = pc0;
    L.stackCaps[sp++] = caps0;
    while (sp > 0) {
      const pc = L.stackPc[--sp]!;
      const caps = L.stackCaps[sp]!;
      if (L.mark[pc] === gen) continue;
      L.mark[pc] = gen;
      const inst = insts[pc]!;
      switch (inst.op) {
        case JMP:
          L.stackPc[sp] = inst.x;
          L.stackCaps[sp++] = caps;
          break;
        case SPLIT:
          L.stackPc[sp] = inst.y;
          L.stackCaps[sp++] = caps;
          L.stackPc[sp] = inst.x;
          L.stackCaps[sp++] = caps;
          break;
        case SAVE: {
          const c = caps.slice();
          c[inst.x] = pos;
          L.stackPc[sp] = pc + 1;
          L.stackCaps[sp++] = c;
          break;
        }
        case ASSERT:
        case LOOK:
          if (assertOk(inst, s, pos)) {
            L.stackPc[sp] = pc + 1;
            L.stackCaps[sp++] = caps;
          }
          break;
        case PROGSET:
        case PROGCHK:
          L.stackPc[sp] = pc + 1;
          L.stackCaps[sp++] = caps;
          break;
        default:
          pcs[len] = pc;
          capsList[len++] = caps;
      }
    }
    return len;
  };
  const first = p.first;
  let work = 0;
  for (let pos = start; pos <= s.length; pos++) {
    if (clen === 0 && matched === null && first && !sticky) {
      // no thread alive: move to the next character a match can start with
      while (pos < s.length) {
        const c = s.charCodeAt(pos);
        if (c < 128 ? first.ascii[c] === 1 : first.other) break;
        pos++;
      }
      if (pos >= s.length) break;
    }
    if (matched === null && (!sticky || pos === start)) {
      const caps = new Array<number>(p.slots).fill(-1);
      caps[0] = pos;
      clen = add(cur, 0, caps, pos, curGen, clen);
    }
    if (clen === 0) {
      if (matched !== null || sticky) break;
      curGen = ++L.gen;
      continue;
    }
    const nxt = 1 - cur;
    const nextGen = ++L.gen;
    nlen = 0;
    const c = pos < s.length ? s.charCodeAt(pos) : -1;
    const pcs = L.pcs[cur]!;
    const capsList = L.caps[cur]!;
    work += clen;
    for (let k = 0; k < clen; k++) {
      const pc = pcs[k]!;
      const inst = insts[pc]!;
      if (inst.op === MATCH) {
        matched = capsList[k]!.slice();
        matched[1] = pos;
        break; // threads after this one have lower priority
      }
      if (c >= 0 && charOk(inst, c)) nlen = add(nxt, pc + 1, capsList[k]!, pos + 1, nextGen, nlen);
    }
    cur = nxt;
    clen = nlen;
    curGen = nextGen;
  }
  if (meter) meter.work += work + (s.length - start) / 16;
  return matched;
}

function backtrack(p: Program, s: string, start: number, sticky: boolean, meter?: Meter): number[] | null {
  const insts = p.insts;
  let steps = 0;
  const size = p.slots + p.regs;
  for (let st = start; st <= s.length; st++) {
    const caps0 = new Array<number>(size).fill(-1);
    caps0[0] = st;
    // choice points: pc, position, slots
    const stack: Array<[number, number, number[]]> = [[0, st, caps0]];
    while (stack.length > 0) {
      const top = stack.pop()!;
      let pc = top[0];
      let pos = top[1];
      const caps = top[2];
      for (;;) {
        if (++steps > BACKTRACK_BUDGET) throw new RegexBudgetError(`regular expression stopped after ${BACKTRACK_BUDGET} back-reference steps (simulator limit)`);
        const inst = insts[pc]!;
        let ok = true;
        switch (inst.op) {
          case CHAR:
            ok = pos < s.length && charOk(inst, s.charCodeAt(pos));
            pos++;
            pc++;
            break;
          case MATCH:
            caps[1] = pos;
            if (meter) meter.work += steps;
            return caps.slice(0, p.slots);
          case JMP:
            pc = inst.x;
            break;
          case SPLIT:
            stack.push([inst.y, pos, caps.slice()]);
            pc = inst.x;
            break;
          case SAVE:
            caps[inst.x] = pos;
            pc++;
            break;
          case ASSERT:
          case LOOK:
            ok = assertOk(inst, s, pos);
            pc++;
            break;
          case PROGSET:
            caps[p.slots + inst.x] = pos;
            pc++;
            break;
          case PROGCHK:
            ok = caps[p.slots + inst.x] !== pos;
            pc++;
            break;
          case BACKREF: {
            const a = caps[inst.x * 2]!;
            const b = caps[inst.x * 2 + 1]!;
            pc++;
            if (a < 0 || b < 0) break;
            const len = b - a;
            if (pos + len > s.length) {
              ok = false;
              break;
            }
            for (let k = 0; k < len && ok; k++) {
              const x = s.charCodeAt(a + k);
              const y = s.charCodeAt(pos + k);
              ok = x === y || (inst.fold === true && canon(x) === canon(y));
            }
            pos += len;
            break;
          }
        }
        if (!ok) break;
      }
    }
    if (sticky) break;
  }
  if (meter) meter.work += steps;
  return null;
}
