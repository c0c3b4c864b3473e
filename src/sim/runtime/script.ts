/**
 * The shell a container runs (`sh -c '…'`, or a plain argv such as `sleep 3600`), interpreted on
 * simulated time: commands take no time except `sleep`, so a script is a deterministic function
 * of its start time. Running it "until" a time returns what it printed and wrote up to then, each
 * with its time, and how it ended (exited, still running, blocked forever in a server or
 * `tail -f`, or OOM-killed). The runtime (processes.ts) replays a script from its start whenever
 * it needs the output up to the present, so nothing but the start time has to be stored.
 *
 * The language is the part of POSIX sh (busybox ash, dash) container commands use: `;`, `&&`,
 * `||`, `|`, newlines, `while`/`until`/`for`/`if`, `{ …; }`, `( … )`, assignments, `$VAR`,
 * `${VAR}`, `$(…)`, `$((…))`, quotes, and the redirections `>`, `>>`, `2>&1`, `2>/dev/null`.
 * Builtins and tools: echo, printf, date, sleep, cat, tail (-f), head, true, false, `:`, test/[,
 * exit, break, continue, export, hostname, env/printenv, tee, mkdir, touch, rm, wc -l, grep, stress
 * (polinux/stress's memory hog) and the image's daemons (they serve until stopped). Network tools
 * (busybox wget, nc, nslookup, curl) are answered by the host (ScriptHost.net): the runtime asks the
 * simulated network once, when the clock reaches the call, and remembers the answer for replays.
 */
import { grepRun } from './script-grep.js';
import { remember } from '../../util/bounded-map.js';
import type { ToolOutput } from './id-tool.js';

/** One thing a script did at a simulated time. */
export type ScriptEvent =
  | { t: number; kind: 'out'; stream: 'stdout' | 'stderr'; text: string }
  | { t: number; kind: 'write'; path: string; text: string; append: boolean }
  | { t: number; kind: 'mkdir'; path: string }
  | { t: number; kind: 'rm'; path: string };

/** How the script stood at the end of the run. */
export type ScriptEnd =
  | { kind: 'exit'; code: number; at: number }
  /**
   * still running at `until`: `horizon` when it was sleeping across it (a later `until` may see it
   * end); without, it loops for ever (a steady loop) or ran into the step or output cap; `at`:
   * it stopped at a network call whose time has not come (look again then)
   */
  | { kind: 'running'; horizon?: true; at?: number }
  /** runs until stopped: a server, `sleep infinity`, or `tail -f PATH` (follow set) */
  | { kind: 'blocked'; at: number; follow?: string }
  | { kind: 'oom'; at: number };

export interface ScriptResult {
  events: ScriptEvent[];
  end: ScriptEnd;
}

export interface ScriptHost {
  /** The container's environment (the script's initial variables). */
  env: Record<string, string>;
  /** Read a file of the container as it is now (undefined when absent). */
  readFile(path: string): string | undefined;
  /** Whether the image has this executable. */
  hasTool(name: string): boolean;
  /** Executables that run until stopped (nginx, redis-server, …). */
  daemons: readonly string[];
  /** The container's memory limit in bytes (stress --vm-bytes beyond it is OOM-killed). */
  memoryLimit?: number;
  hostname: string;
  /**
   * A network tool the script runs (`wget`, `nc`, …) at script time `t`: what it did, with the key
   * of the answer (calls that share an answer share a key); `later` when the answer is not known
   * yet because `t` is still in the future (the run stops there and is looked at again when the
   * clock gets there); undefined when the runtime does not model it (the tool then prints
   * nothing and succeeds).
   */
  net?(call: NetCall): { result: NetResult; key: string } | 'later' | undefined;
  /** The host's own state a checkpoint at script time `t` must carry (what the next run's `net` needs to go on). */
  save?(t: number): unknown;
  /**
   * Tools the container answers from what it is (`id`, `whoami`: id-tool.ts): their output in the
   * order written, or undefined when the host does not model the tool.
   */
  local?(argv: readonly string[]): ToolOutput | undefined;
  /** The names in a directory of the container, sorted (undefined: not a directory). */
  listDir?(path: string): string[] | undefined;
  /** The image's tools are GNU coreutils (Debian-based), not busybox: their error words. */
  gnu?: boolean;
}

/**
 * A run paused at the start of an iteration of a top-level `while`/`until` loop (one without
 * redirections): everything the interpreter holds there, so a later run can go on from it instead
 * of replaying the script from its start (runScript's `resume`). Only a loop of the top-level
 * list qualifies: there the interpreter's stack holds nothing else.
 */
export interface ScriptCheckpoint {
  /** The loop's index in the top-level list. */
  readonly item: number;
  readonly t: number;
  readonly vars: Readonly<Record<string, string>>;
  readonly status: number;
  /** The loop body's last status (what the loop returns when it ends). */
  readonly loopStatus: number;
  readonly steps: number;
  readonly clockReads: number;
  readonly varsVersion: number;
  readonly netCalls: number;
  readonly lastNet: { key: string; t: number } | undefined;
  readonly written: readonly [string, string][];
  /** Events emitted before it (the caps count them). */
  readonly events: number;
  readonly prev: LoopMark | undefined;
  /** ScriptHost.save's answer. */
  readonly host: unknown;
}

export interface RunOptions {
  /** Go on from this checkpoint (made by a run of the same script with the same start and host). */
  resume?: ScriptCheckpoint;
  /** Called with checkpoints at or before `until`, about one per simulated second, the latest last. */
  keep?(cp: ScriptCheckpoint): void;
}

/** Simulated time between two checkpoints a run offers. */
const CHECKPOINT_EVERY_MS = 1_000;

/** One network tool run from a script: argv (argv[0] the tool's name), stdin, and the files as the script sees them. */
export interface NetCall {
  argv: string[];
  stdin: string;
  t: number;
  /** A file as the script sees it now (including what it wrote earlier in this run). */
  readFile(path: string): string | undefined;
}

/** What a network tool did: output, status, the time it took, and the files it wrote (path, content). */
export interface NetResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  elapsedMs: number;
  files: [path: string, text: string][];
}

/** Steps (simple commands) one run may execute before it is treated as still running. */
const STEP_CAP = 200_000;
/** Output events one run may produce (a loop without `sleep` prints without end at one instant). */
const EVENT_CAP = 20_000;

// ---------------------------------------------------------------------------------------------
// Words and tokens

type Part = { lit: string; quoted: boolean } | { var: string; quoted: boolean } | { sub: string; quoted: boolean } | { arith: string };
type Word = Part[];

type Tok = { op: string } | { word: Word; raw: string };

const OPS = ['&&', '||', ';;', '>>', '2>&1', '1>&2', '>&2', '2>>', '2>', '&>', '>', '<', '|', ';', '&', '(', ')', '\n'];
/** Redirections that take no file operand. */
const DUPS = ['2>&1', '1>&2', '>&2'];

/** Split a script into words (with their expansions) and operators, as the shell's lexer does. */
function lex(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === ' ' || ch === '\t') {
      i++;
      continue;
    }
    if (ch === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (ch === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i) && (!o.startsWith('2') && !o.startsWith('1') ? true : i === 0 || /\s/.test(src[i - 1]!)));
    if (op) {
      toks.push({ op });
      i += op.length;
      continue;
    }
    const start = i;
    const word: Word = [];
    const lit = (s: string, quoted: boolean): void => {
      const last = word[word.length - 1];
      if (last && 'lit' in last && last.quoted === quoted) last.lit += s;
      else word.push({ lit: s, quoted });
    };
    const dollar = (quoted: boolean): void => {
      // at src[i] === '$'
      const n = src[i + 1];
      if (src.startsWith('$((', i)) {
        const end = matchParen(src, i + 1);
        word.push({ arith: src.slice(i + 3, end - 1) });
        i = end + 1;
      } else if (n === '(') {
        const end = matchParen(src, i + 1);
        word.push({ sub: src.slice(i + 2, end), quoted });
        i = end + 1;
      } else if (n === '{') {
        const end = src.indexOf('}', i);
        word.push({ var: src.slice(i + 2, end < 0 ? src.length : end), quoted });
        i = end < 0 ? src.length : end + 1;
      } else if (n !== undefined && /[A-Za-z_]/.test(n)) {
        let j = i + 1;
        while (j < src.length && /\w/.test(src[j]!)) j++;
        word.push({ var: src.slice(i + 1, j), quoted });
        i = j;
      } else if (n !== undefined && /[?$#0-9]/.test(n)) {
        word.push({ var: n, quoted });
        i += 2;
      } else {
        lit('$', quoted);
        i++;
      }
    };
    while (i < src.length) {
      const c = src[i]!;
      if (/[\s;&|<>()]/.test(c)) break;
      if (c === "'") {
        const end = src.indexOf("'", i + 1);
        lit(src.slice(i + 1, end < 0 ? src.length : end), true);
        i = end < 0 ? src.length : end + 1;
      } else if (c === '"') {
        i++;
        word.push({ lit: '', quoted: true });
        while (i < src.length && src[i] !== '"') {
          if (src[i] === '\\' && i + 1 < src.length && '"\\$`'.includes(src[i + 1]!)) {
            lit(src[i + 1]!, true);
            i += 2;
          } else if (src[i] === '$') dollar(true);
          else {
            lit(src[i]!, true);
            i++;
          }
        }
        i++;
      } else if (c === '\\') {
        lit(src[i + 1] ?? '', true);
        i += 2;
      } else if (c === '$') dollar(false);
      else {
        lit(c, false);
        i++;
      }
    }
    toks.push({ word, raw: src.slice(start, i) });
  }
  return toks;
}

/** The index of the `)` closing the `(` at `open`. */
function matchParen(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === "'") {
      const e = src.indexOf("'", i + 1);
      i = e < 0 ? src.length : e;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return src.length;
}

// ---------------------------------------------------------------------------------------------
// Syntax

interface Redir {
  op: string;
  target?: Word;
}

type Node =
  | { type: 'simple'; words: Word[]; assigns: [string, Word][]; redirs: Redir[] }
  | { type: 'list'; items: { node: Node; op: string }[] }
  | { type: 'pipe'; cmds: Node[] }
  | { type: 'while'; until: boolean; cond: Node; body: Node; redirs: Redir[] }
  | { type: 'for'; name: string; items: Word[]; body: Node; redirs: Redir[] }
  | { type: 'if'; arms: { cond: Node; body: Node }[]; orelse?: Node; redirs: Redir[] }
  | { type: 'group'; body: Node; redirs: Redir[] };

export class ScriptSyntaxError extends Error {}

class Parser {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}

  private peekWord(): string | undefined {
    const t = this.toks[this.i];
    return t && 'raw' in t ? t.raw : undefined;
  }
  private peekOp(): string | undefined {
    const t = this.toks[this.i];
    return t && 'op' in t ? t.op : undefined;
  }
  private skipNewlines(): void {
    while (this.peekOp() === '\n' || this.peekOp() === ';') this.i++;
  }
  private expectWord(w: string): void {
    this.skipNewlines();
    if (this.peekWord() !== w) throw new ScriptSyntaxError(`syntax error: expected "${w}"`);
    this.i++;
  }

  parseAll(): Node {
    const n = this.list(new Set());
    if (this.i < this.toks.length) throw new ScriptSyntaxError('syntax error: unexpected token');
    return n;
  }

  /** A list up to one of the reserved words in `stop` (or the end, or `)`). */
  list(stop: Set<string>): Node {
    const items: { node: Node; op: string }[] = [];
    for (;;) {
      this.skipNewlines();
      const w = this.peekWord();
      if (this.i >= this.toks.length || (w !== undefined && stop.has(w)) || this.peekOp() === ')') break;
      const node = this.andOr();
      const op = this.peekOp();
      if (op === ';' || op === '\n' || op === '&') this.i++;
      items.push({ node, op: op === '&' ? '&' : ';' });
    }
    return { type: 'list', items };
  }

  private andOr(): Node {
    const items: { node: Node; op: string }[] = [{ node: this.pipeline(), op: '' }];
    while (this.peekOp() === '&&' || this.peekOp() === '||') {
      const op = this.peekOp()!;
      this.i++;
      while (this.peekOp() === '\n') this.i++;
      items.push({ node: this.pipeline(), op });
    }
    return items.length === 1 ? items[0]!.node : { type: 'list', items };
  }

  private pipeline(): Node {
    const cmds = [this.command()];
    while (this.peekOp() === '|') {
      this.i++;
      cmds.push(this.command());
    }
    return cmds.length === 1 ? cmds[0]! : { type: 'pipe', cmds };
  }

  private redirs(): Redir[] {
    const out: Redir[] = [];
    for (;;) {
      const op = this.peekOp();
      if (op !== undefined && DUPS.includes(op)) {
        this.i++;
        out.push({ op });
      } else if (op === '>' || op === '>>' || op === '<' || op === '2>' || op === '2>>' || op === '&>') {
        this.i++;
        const t = this.toks[this.i++];
        if (!t || !('word' in t)) throw new ScriptSyntaxError('syntax error: unexpected redirection');
        out.push({ op, target: t.word });
      } else return out;
    }
  }

  private command(): Node {
    const w = this.peekWord();
    if (w === 'while' || w === 'until') {
      this.i++;
      const cond = this.list(new Set(['do']));
      this.expectWord('do');
      const body = this.list(new Set(['done']));
      this.expectWord('done');
      return { type: 'while', until: w === 'until', cond, body, redirs: this.redirs() };
    }
    if (w === 'for') {
      this.i++;
      const name = this.peekWord() ?? '';
      this.i++;
      const items: Word[] = [];
      if (this.peekWord() === 'in') {
        this.i++;
        while (this.i < this.toks.length && this.peekOp() === undefined) {
          items.push((this.toks[this.i] as { word: Word }).word);
          this.i++;
        }
      }
      this.expectWord('do');
      const body = this.list(new Set(['done']));
      this.expectWord('done');
      return { type: 'for', name, items, body, redirs: this.redirs() };
    }
    if (w === 'if') {
      this.i++;
      const arms: { cond: Node; body: Node }[] = [];
      let orelse: Node | undefined;
      for (;;) {
        const cond = this.list(new Set(['then']));
        this.expectWord('then');
        const body = this.list(new Set(['elif', 'else', 'fi']));
        arms.push({ cond, body });
        this.skipNewlines();
        const k = this.peekWord();
        this.i++;
        if (k === 'elif') continue;
        if (k === 'else') {
          orelse = this.list(new Set(['fi']));
          this.expectWord('fi');
        } else if (k !== 'fi') throw new ScriptSyntaxError('syntax error: expected "fi"');
        break;
      }
      return { type: 'if', arms, ...(orelse ? { orelse } : {}), redirs: this.redirs() };
    }
    if (w === '{') {
      this.i++;
      const body = this.list(new Set(['}']));
      this.expectWord('}');
      return { type: 'group', body, redirs: this.redirs() };
    }
    if (this.peekOp() === '(') {
      this.i++;
      const body = this.list(new Set());
      if (this.peekOp() !== ')') throw new ScriptSyntaxError('syntax error: expected ")"');
      this.i++;
      return { type: 'group', body, redirs: this.redirs() };
    }
    const words: Word[] = [];
    const assigns: [string, Word][] = [];
    const redirs: Redir[] = [];
    for (;;) {
      const t = this.toks[this.i];
      if (!t) break;
      if ('op' in t) {
        if (['>', '>>', '<', '2>', '2>>', '&>', ...DUPS].includes(t.op)) {
          redirs.push(...this.redirs());
          continue;
        }
        break;
      }
      const m = /^([A-Za-z_]\w*)=/.exec(t.raw);
      if (words.length === 0 && m) {
        const first = t.word[0];
        const rest: Word = first && 'lit' in first ? [{ lit: first.lit.slice(m[0].length), quoted: first.quoted }, ...t.word.slice(1)] : t.word;
        assigns.push([m[1]!, rest]);
      } else words.push(t.word);
      this.i++;
    }
    if (words.length === 0 && assigns.length === 0 && redirs.length === 0) throw new ScriptSyntaxError('syntax error: unexpected token');
    return { type: 'simple', words, assigns, redirs };
  }
}

/**
 * Parsed scripts by source text. A container's script is parsed at every run of it (each flush,
 * look-ahead and exec probe), and a `$(…)` at every evaluation; the tree is a function of the
 * text alone, and the runner only reads it (it is frozen, so a write would throw rather than
 * change what later runs get). A text that does not parse throws each time, as before. Bounded.
 */
const PARSED = new Map<string, Node>();

let parses = 0;

/** How many scripts have been parsed rather than found in PARSED (tests). */
export function scriptParses(): number {
  return parses;
}

export function parseScript(src: string): Node {
  const had = PARSED.get(src);
  if (had !== undefined) return had;
  parses++;
  return remember(PARSED, src, deepFreeze(new Parser(lex(src)).parseAll()), 512);
}

/** A parsed tree, frozen through (its nodes, lists and words). */
function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Running

class Exit {
  constructor(readonly code: number) {}
}
class Block {
  constructor(readonly follow?: string) {}
}
class Oom {}
/** The run stops before its end: `horizon` when its time ran out (it may end later), else it never ends or hit a cap. */
class TimeUp {
  constructor(
    readonly horizon = false,
    readonly at?: number,
  ) {}
}

interface LoopMark {
  t: number;
  events: number;
  status: number;
  clockReads: number;
  vars: number;
  netCalls: number;
}

function sameMark(a: LoopMark, b: LoopMark): boolean {
  return a.events === b.events && a.status === b.status && a.clockReads === b.clockReads && a.vars === b.vars && a.netCalls === b.netCalls;
}
class LoopCtl {
  constructor(
    readonly kind: 'break' | 'continue',
    readonly n: number,
  ) {}
}

interface Io {
  stdin: string;
  /** Where stdout goes: undefined → the container's stdout; a capture buffer; or a file. */
  out: Sink;
  err: Sink;
}

type Sink = { kind: 'log'; stream: 'stdout' | 'stderr' } | { kind: 'capture'; buf: string[] } | { kind: 'file'; path: string } | { kind: 'null' };

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The `date` formats containers print: the default (`Mon Jan  5 10:00:00 UTC 2026`) and common `+FORMAT` conversions, UTC. */
export function formatDate(ms: number, fmt?: string): string {
  const d = new Date(ms);
  const p = (n: number, w = 2, c = '0'): string => String(n).padStart(w, c);
  const conv: Record<string, () => string> = {
    a: () => DAYS[d.getUTCDay()]!,
    b: () => MONTHS[d.getUTCMonth()]!,
    d: () => p(d.getUTCDate()),
    e: () => p(d.getUTCDate(), 2, ' '),
    H: () => p(d.getUTCHours()),
    M: () => p(d.getUTCMinutes()),
    S: () => p(d.getUTCSeconds()),
    Y: () => String(d.getUTCFullYear()),
    m: () => p(d.getUTCMonth() + 1),
    y: () => p(d.getUTCFullYear() % 100),
    s: () => String(Math.floor(ms / 1000)),
    N: () => p((ms % 1000) * 1_000_000, 9),
    Z: () => 'UTC',
    z: () => '+0000',
    T: () => `${conv['H']!()}:${conv['M']!()}:${conv['S']!()}`,
    F: () => `${conv['Y']!()}-${conv['m']!()}-${conv['d']!()}`,
    '%': () => '%',
    n: () => '\n',
  };
  const f = fmt ?? '%a %b %e %H:%M:%S %Z %Y';
  return f.replace(/%(.)/g, (all, c: string) => conv[c]?.() ?? all);
}

/** `sleep` operands: 5, 0.5, 2s, 1m, 1h, 1d, infinity (summed, as busybox and coreutils do). */
export function sleepMs(args: readonly string[]): number | undefined {
  let total = 0;
  for (const a of args) {
    if (a === 'infinity' || a === 'inf') return Number.POSITIVE_INFINITY;
    const m = /^(\d+(?:\.\d+)?|\.\d+)([smhd]?)$/.exec(a);
    if (!m) return undefined;
    total += Number(m[1]) * { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  }
  return total;
}

/** `--vm-bytes` sizes (stress: B, K, M, G suffixes, powers of 1024). */
function stressBytes(s: string): number {
  const m = /^(\d+)([bBkKmMgG]?)$/.exec(s);
  if (!m) return 256 * 1024 * 1024;
  const mult = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as '' | 'b' | 'k' | 'm' | 'g'];
  return Number(m[1]) * mult;
}

class Runner {
  t: number;
  events: ScriptEvent[] = [];
  vars: Record<string, string>;
  status = 0;
  steps = 0;
  /** Reads of the time or of $RANDOM (which is derived from it): a loop that makes them is not steady. */
  clockReads = 0;
  /** Bumped by every change of a variable (setVar). */
  varsVersion = 0;
  /**
   * Network tool calls that could have seen something new (another answer, or a later time: the
   * network may have changed); a call at the same instant with the same answer is not counted,
   * so a tight loop around one is steady.
   */
  netCalls = 0;
  private lastNet: { key: string; t: number } | undefined;
  /** Files this run truncated (`>`), so later reads in the same run see what it wrote. */
  private written = new Map<string, string>();
  /** Events emitted before the checkpoint this run goes on from. */
  private eventBase = 0;
  private nextKeepAt = -Infinity;

  constructor(
    private readonly host: ScriptHost,
    start: number,
    private readonly until: number,
    private readonly keep?: (cp: ScriptCheckpoint) => void,
  ) {
    this.t = start;
    this.vars = { ...host.env };
  }

  /** Take up a checkpoint's state (runScript's `resume`). */
  restore(cp: ScriptCheckpoint): void {
    this.t = cp.t;
    this.vars = { ...cp.vars };
    this.status = cp.status;
    this.steps = cp.steps;
    this.clockReads = cp.clockReads;
    this.varsVersion = cp.varsVersion;
    this.netCalls = cp.netCalls;
    this.lastNet = cp.lastNet;
    this.written = new Map(cp.written);
    this.eventBase = cp.events;
  }

  /** At the start of an iteration of top-level loop `item`: hand a checkpoint to `keep`, about once per simulated second. */
  private offerCheckpoint(item: number, prev: LoopMark | undefined, loopStatus: number): void {
    if (!this.keep || this.t > this.until || this.t < this.nextKeepAt) return;
    this.nextKeepAt = this.t + CHECKPOINT_EVERY_MS;
    this.keep({
      item,
      t: this.t,
      vars: { ...this.vars },
      status: this.status,
      loopStatus,
      steps: this.steps,
      clockReads: this.clockReads,
      varsVersion: this.varsVersion,
      netCalls: this.netCalls,
      lastNet: this.lastNet,
      written: [...this.written],
      events: this.eventBase + this.events.length,
      prev,
      host: this.host.save?.(this.t),
    });
  }

  /** The script's top-level node: its list's `while` loops offer checkpoints, and `resume` goes on from one. */
  execTop(ast: Node, io: Io, resume?: ScriptCheckpoint): number {
    return ast.type === 'list' ? this.list(ast, io, true, resume) : this.exec(ast, io);
  }

  /**
   * A list: `&&` and `||` skip by the last status. At the top (`top`), a `while` loop without
   * redirections offers checkpoints, and a checkpoint's list is taken up at its loop.
   */
  private list(n: Extract<Node, { type: 'list' }>, io: Io, top: boolean, resume?: ScriptCheckpoint): number {
    let st = resume ? resume.status : 0;
    const from = resume ? resume.item : 0;
    for (let i = from; i < n.items.length; i++) {
      const it = n.items[i]!;
      const resuming = resume !== undefined && i === from;
      if (!resuming && it.op === '&&' && st !== 0) continue;
      if (!resuming && it.op === '||' && st === 0) continue;
      const x = it.node;
      if (top && x.type === 'while' && x.redirs.length === 0) st = this.status = this.loop(x, io, i, resuming ? resume.prev : undefined, resuming ? resume.loopStatus : 0);
      else st = this.exec(x, io);
    }
    return (this.status = st);
  }

  private emit(sink: Sink, text: string): void {
    if (text === '') return;
    if (sink.kind === 'null') return;
    if (sink.kind === 'capture') sink.buf.push(text);
    else if (sink.kind === 'log') this.events.push({ t: this.t, kind: 'out', stream: sink.stream, text });
    else {
      this.events.push({ t: this.t, kind: 'write', path: sink.path, text, append: true });
      const w = this.written.get(sink.path);
      if (w !== undefined) this.written.set(sink.path, w + text);
    }
  }

  /**
   * `touch PATH` or `>> PATH` on a file that does not exist yet: it exists empty from now on for
   * this script (`touch f; tail -f f`), before the runtime applies the write to the container's
   * files. A file that exists is read from the container as before.
   */
  private create(path: string): void {
    if (this.readFile(path) === undefined) this.written.set(path, '');
  }

  readFile(path: string): string | undefined {
    // device files every container has (`tail -f /dev/null` keeps a container running)
    if (path === '/dev/null') return '';
    return this.written.get(path) ?? this.host.readFile(path);
  }

  // -- expansion

  private expandWord(w: Word): string {
    let s = '';
    for (const p of w) {
      if ('lit' in p) s += p.lit;
      else if ('var' in p) s += this.varValue(p.var);
      else if ('arith' in p) s += String(this.arith(p.arith));
      else s += this.capture(p.sub).replace(/\n+$/, '');
    }
    return s;
  }

  /** Unquoted expansions are split into fields on blanks; quoted ones stay one word. */
  private expandFields(w: Word): string[] {
    const fields: string[] = [];
    let cur = '';
    let has = false;
    for (const p of w) {
      if ('lit' in p) {
        cur += p.lit;
        has = true;
        continue;
      }
      const v = 'var' in p ? this.varValue(p.var) : 'arith' in p ? String(this.arith(p.arith)) : this.capture(p.sub).replace(/\n+$/, '');
      if ('arith' in p || p.quoted) {
        cur += v;
        has = true;
        continue;
      }
      const parts = v.split(/[ \t\n]+/);
      parts.forEach((part, i) => {
        if (i > 0) {
          if (has || cur !== '') fields.push(cur);
          cur = '';
          has = false;
        }
        cur += part;
        if (part !== '') has = true;
      });
    }
    if (has || cur !== '') fields.push(cur);
    return fields;
  }

  private varValue(name: string): string {
    if (name === '?') return String(this.status);
    if (name === '$') return '1';
    if (name === '#') return '0';
    if (name === '0') return 'sh';
    if (name === 'RANDOM') this.clockReads++;
    if (name === 'RANDOM') return String((this.steps * 7919 + Math.floor(this.t / 1000)) % 32768);
    return this.vars[name] ?? '';
  }

  /** `$((…))`: integer arithmetic with variables. */
  private arith(expr: string): number {
    return evalArith(expr, (n) => Number(this.vars[n] ?? 0) || 0);
  }

  private capture(src: string): string {
    const buf: string[] = [];
    try {
      this.exec(parseScript(src), { stdin: '', out: { kind: 'capture', buf }, err: { kind: 'log', stream: 'stderr' } });
    } catch (e) {
      if (!(e instanceof Exit)) throw e;
    }
    return buf.join('');
  }

  // -- execution

  exec(n: Node, io: Io): number {
    switch (n.type) {
      case 'list':
        return this.list(n, io, false);
      case 'pipe': {
        let stdin = io.stdin;
        let st = 0;
        n.cmds.forEach((c, i) => {
          const last = i === n.cmds.length - 1;
          const buf: string[] = [];
          st = this.exec(c, { stdin, out: last ? io.out : { kind: 'capture', buf }, err: io.err });
          stdin = buf.join('');
        });
        return (this.status = st);
      }
      case 'group':
        return (this.status = this.exec(n.body, this.redirect(n.redirs, io)));
      case 'if': {
        const rio = this.redirect(n.redirs, io);
        for (const arm of n.arms) if (this.exec(arm.cond, rio) === 0) return (this.status = this.exec(arm.body, rio));
        return (this.status = n.orelse ? this.exec(n.orelse, rio) : 0);
      }
      case 'while':
        return (this.status = this.loop(n, this.redirect(n.redirs, io)));
      case 'for': {
        const rio = this.redirect(n.redirs, io);
        let st = 0;
        for (const item of n.items.flatMap((w) => this.expandFields(w))) {
          this.tick();
          this.setVar(n.name, item);
          const r = this.iteration(n.body, rio);
          if (r === 'break') break;
          if (r !== 'continue') st = r;
        }
        return (this.status = st);
      }
      case 'simple':
        return (this.status = this.simple(n, io));
    }
  }

  /**
   * A `while`/`until` loop; `item`: it is the top-level list's item `item`, and offers a
   * checkpoint at the start of each iteration (`prev` and `st` then come from one when resumed).
   */
  private loop(n: Extract<Node, { type: 'while' }>, io: Io, item?: number, prev0?: LoopMark, st0 = 0): number {
    let st = st0;
    let prev = prev0;
    for (;;) {
      if (item !== undefined) this.offerCheckpoint(item, prev, st);
      // an iteration that left nothing to see (no output, no file, the same variables and
      // status, no clock read) repeats itself for ever: the loop is still running at the run's
      // end (a year of `while true; do sleep 30; done` is 10^6 iterations; `while :; do :;
      // done` spins at one instant)
      const mark = this.mark();
      if (prev && sameMark(prev, mark)) throw new TimeUp();
      prev = mark;
      this.tick();
      const c = this.exec(n.cond, io);
      if ((c === 0) === n.until) break;
      const r = this.iteration(n.body, io);
      if (r === 'break') break;
      if (r !== 'continue') st = r;
    }
    return st;
  }

  /** A loop body's run: its status, or the `break`/`continue` that ended it here (outer levels rethrown). */
  private iteration(body: Node, io: Io): number | 'break' | 'continue' {
    try {
      return this.exec(body, io);
    } catch (e) {
      if (!(e instanceof LoopCtl)) throw e;
      if (e.n > 1) throw new LoopCtl(e.kind, e.n - 1);
      return e.kind;
    }
  }

  /** What a loop iteration could change that later iterations might see. */
  private mark(): LoopMark {
    return { t: this.t, events: this.eventBase + this.events.length, status: this.status, clockReads: this.clockReads, vars: this.varsVersion, netCalls: this.netCalls };
  }

  private setVar(name: string, value: string): void {
    if (this.vars[name] === value) return;
    this.vars[name] = value;
    this.varsVersion++;
  }

  private tick(): void {
    if (++this.steps > STEP_CAP || this.eventBase + this.events.length > EVENT_CAP) throw new TimeUp();
  }

  private redirect(redirs: Redir[], io: Io): Io {
    let out = io.out;
    let err = io.err;
    let stdin = io.stdin;
    for (const r of redirs) {
      const target = r.target ? this.expandWord(r.target) : '';
      const sink = (append: boolean): Sink => {
        if (target === '/dev/null') return { kind: 'null' };
        if (target === '/dev/stdout' || target === '/proc/1/fd/1') return { kind: 'log', stream: 'stdout' };
        if (target === '/dev/stderr' || target === '/proc/1/fd/2') return { kind: 'log', stream: 'stderr' };
        if (!append) {
          this.events.push({ t: this.t, kind: 'write', path: target, text: '', append: false });
          this.written.set(target, '');
        } else this.create(target);
        return { kind: 'file', path: target };
      };
      if (r.op === '>') out = sink(false);
      else if (r.op === '>>') out = sink(true);
      else if (r.op === '2>') err = sink(false);
      else if (r.op === '2>>') err = sink(true);
      else if (r.op === '&>') err = out = sink(false);
      else if (r.op === '2>&1') err = out;
      else if (r.op === '>&2' || r.op === '1>&2') out = err;
      else if (r.op === '<') stdin = this.readFile(target) ?? '';
    }
    return { stdin, out, err };
  }

  private simple(n: Extract<Node, { type: 'simple' }>, ioIn: Io): number {
    this.tick();
    // a word of one literal part is that one field (expandFields): most words of a script's
    // commands, expanded at every step of a loop
    const argv: string[] = [];
    for (const w of n.words) {
      const p = w.length === 1 ? w[0]! : undefined;
      if (p !== undefined && 'lit' in p) argv.push(p.lit);
      else for (const f of this.expandFields(w)) argv.push(f);
    }
    if (argv.length === 0) {
      for (const [k, w] of n.assigns) this.setVar(k, this.expandWord(w));
      this.redirect(n.redirs, ioIn);
      return 0;
    }
    if (n.assigns.length === 0) return this.run(argv, this.redirect(n.redirs, ioIn));
    // `X=1 cmd`: the assignments hold for this command only
    const saved = { ...this.vars };
    for (const [k, w] of n.assigns) this.setVar(k, this.expandWord(w));
    const io = this.redirect(n.redirs, ioIn);
    try {
      return this.run(argv, io);
    } finally {
      this.vars = { ...saved, ...Object.fromEntries(Object.entries(this.vars).filter(([k]) => !n.assigns.some(([a]) => a === k))) };
      this.varsVersion++;
    }
  }

  private sleep(ms: number): void {
    if (!Number.isFinite(ms)) throw new Block();
    if (this.t + ms > this.until) {
      this.t = this.until;
      throw new TimeUp(true);
    }
    this.t += ms;
  }

  /** One command with its expanded argv. */
  run(argv: string[], io: Io): number {
    const exe = argv[0]!;
    const name = exe.slice(exe.lastIndexOf('/') + 1);
    const args = argv.slice(1);
    const out = (s: string): void => this.emit(io.out, s);
    const err = (s: string): void => this.emit(io.err, s);
    switch (name) {
      case ':':
      case 'true':
        return 0;
      case 'false':
        return 1;
      case 'exit':
        throw new Exit(args[0] === undefined ? this.status : Number(args[0]) & 255);
      case 'break':
      case 'continue':
        throw new LoopCtl(name, Number(args[0] ?? 1) || 1);
      case 'export':
        for (const a of args) {
          const m = /^([A-Za-z_]\w*)=(.*)$/s.exec(a);
          if (m) this.setVar(m[1]!, m[2]!);
        }
        return 0;
      case 'set':
      case 'trap':
      case 'cd':
      case 'wait':
        return 0;
      case 'echo': {
        let a = args;
        let nl = true;
        while (a[0] === '-n' || a[0] === '-e') {
          if (a[0] === '-n') nl = false;
          a = a.slice(1);
        }
        out(`${a.join(' ')}${nl ? '\n' : ''}`);
        return 0;
      }
      case 'printf': {
        const fmt = args[0] ?? '';
        let k = 1;
        const text = fmt.replace(/%([sd%])|\\n|\\t/g, (m, c: string | undefined) => {
          if (m === '\\n') return '\n';
          if (m === '\\t') return '\t';
          if (c === '%') return '%';
          const v = args[k++] ?? '';
          return c === 'd' ? String(Number(v) || 0) : v;
        });
        out(text);
        return 0;
      }
      case 'sleep': {
        const ms = sleepMs(args);
        if (ms === undefined) {
          err(`sleep: invalid number '${args[0] ?? ''}'\n`);
          return 1;
        }
        this.sleep(ms);
        return 0;
      }
      case 'date': {
        this.clockReads++;
        const fmt = args.find((a) => a.startsWith('+'));
        out(`${formatDate(this.t, fmt?.slice(1))}\n`);
        return 0;
      }
      case 'hostname':
        out(`${this.host.hostname}\n`);
        return 0;
      case 'env':
      case 'printenv': {
        if (name === 'printenv' && args[0]) {
          const v = this.vars[args[0]];
          if (v === undefined) return 1;
          out(`${v}\n`);
          return 0;
        }
        out(Object.entries(this.vars).map(([k, v]) => `${k}=${v}\n`).join(''));
        return 0;
      }
      case 'test':
      case '[':
        return this.test(name === '[' ? args.slice(0, -1) : args);
      case 'cat': {
        const files = args.filter((a) => !a.startsWith('-') || a === '-');
        if (files.length === 0) {
          out(io.stdin);
          return 0;
        }
        let st = 0;
        for (const f of files) {
          const c = f === '-' ? io.stdin : this.readFile(f);
          if (c === undefined) {
            err(`cat: can't open '${f}': No such file or directory\n`);
            st = 1;
          } else out(c);
        }
        return st;
      }
      case 'tail':
      case 'head': {
        let n = 10;
        let follow = false;
        let retry = false;
        const files: string[] = [];
        for (let i = 0; i < args.length; i++) {
          const a = args[i]!;
          if (a === '-F') follow = retry = true;
          else if (a === '-f' || a === '--follow') follow = true;
          else if (a === '-n') n = Number(args[++i] ?? 10);
          else if (/^-n?\+?\d+$/.test(a)) n = Number(a.replace(/^-n?/, ''));
          else if (/^-[fF]n?\d+$|^-n\d+[fF]$/.test(a)) {
            follow = true;
            n = Number(a.replace(/\D/g, ''));
          } else if (!a.startsWith('-')) files.push(a);
        }
        const file = files[0];
        const text = file === undefined ? io.stdin : this.readFile(file);
        if (text === undefined) {
          // busybox tail: a file it cannot open is reported; -f with no file left gives up, -F waits for it
          err(`${name}: can't open '${file}': No such file or directory\n`);
          if (!(follow && retry && name === 'tail')) {
            if (follow) err('tail: no files\n');
            return 1;
          }
        } else {
          const lines = text.split('\n');
          if (lines[lines.length - 1] === '') lines.pop();
          const from = args.some((a) => /\+\d/.test(a)) ? Math.max(0, n - 1) : Math.max(0, lines.length - n);
          const pick = name === 'head' ? lines.slice(0, n) : lines.slice(from);
          out(pick.map((l) => `${l}\n`).join(''));
        }
        if (follow && name === 'tail' && file !== undefined) throw new Block(file);
        return 0;
      }
      case 'tee': {
        const append = args.includes('-a');
        for (const f of args.filter((a) => !a.startsWith('-'))) {
          if (!append) this.events.push({ t: this.t, kind: 'write', path: f, text: '', append: false });
          this.emit({ kind: 'file', path: f }, io.stdin);
        }
        out(io.stdin);
        return 0;
      }
      case 'grep':
      case 'egrep':
      case 'fgrep': {
        if (!this.host.hasTool(name)) {
          err(`sh: ${argv[0]}: not found\n`);
          return 127;
        }
        const r = grepRun(name === 'grep' ? args : [name === 'egrep' ? '-E' : '-F', ...args], io.stdin, (f) => this.readFile(f));
        out(r.out);
        err(r.err);
        return r.code;
      }
      case 'wc': {
        const text = args.filter((a) => !a.startsWith('-')).map((f) => this.readFile(f) ?? '').join('') || io.stdin;
        const lines = (text.match(/\n/g) ?? []).length;
        out(`${args.includes('-l') ? lines : `${lines} ${text.split(/\s+/).filter(Boolean).length} ${text.length}`}\n`);
        return 0;
      }
      case 'mkdir':
        for (const a of args.filter((x) => !x.startsWith('-'))) this.events.push({ t: this.t, kind: 'mkdir', path: a });
        return 0;
      case 'touch':
        // the file exists from now on (what this script reads of it, and the other containers of
        // the pod sharing the volume once the runtime applies the write); its content stays
        for (const a of args.filter((x) => !x.startsWith('-'))) {
          this.create(a);
          this.events.push({ t: this.t, kind: 'write', path: a, text: '', append: true });
        }
        return 0;
      case 'rm':
        for (const a of args.filter((x) => !x.startsWith('-'))) this.events.push({ t: this.t, kind: 'rm', path: a });
        return 0;
      case 'stress':
        return this.stress(args, out);
      default: {
        if (this.host.daemons.includes(name)) throw new Block();
        if (!this.host.hasTool(name)) {
          err(`sh: ${argv[0]}: not found\n`);
          return 127;
        }
        const local = this.host.local?.([name, ...args]);
        if (local) {
          for (const c of local.chunks) (c.stream === 'stdout' ? out : err)(c.text);
          return local.exitCode;
        }
        if (name === 'ls' && this.host.listDir) {
          const r = this.ls(args);
          if (r) {
            // operands that do not exist are reported while they are looked at, before any listing
            err(r.stderr);
            out(r.stdout);
            return r.code;
          }
        }
        return this.network([name, ...args], io);
      }
    }
  }

  /**
   * A network tool: the host answers it (or says its time has not come: the run stops here and
   * is looked at again then). The output comes when the tool ends, after the time it took (a
   * connect timeout); files it wrote are written then. A tool the host does not model prints
   * nothing and succeeds.
   */
  private network(argv: string[], io: Io): number {
    const answer = this.host.net?.({ argv, stdin: io.stdin, t: this.t, readFile: (p) => this.readFile(p) });
    if (answer === undefined) return 0;
    if (answer === 'later') throw new TimeUp(true, this.t);
    if (this.lastNet?.key !== answer.key || this.lastNet.t !== this.t) this.netCalls++;
    this.lastNet = { key: answer.key, t: this.t };
    const r = answer.result;
    if (r.elapsedMs > 0) this.sleep(r.elapsedMs);
    for (const [path, text] of r.files) {
      this.events.push({ t: this.t, kind: 'write', path, text, append: false });
      this.written.set(path, text);
    }
    this.emit(io.out, r.stdout);
    this.emit(io.err, r.stderr);
    return r.exitCode;
  }

  /**
   * `ls [-1aA] [PATH…]` as a container prints it to a pipe or a log (not a terminal: one name per
   * line, C-locale order), the directories as the container sees them with the files the script
   * wrote itself. Long listings (-l) are not modelled (undefined: the tool prints nothing).
   */
  private ls(args: string[]): { stdout: string; stderr: string; code: number } | undefined {
    const flags = args.filter((a) => a.startsWith('-') && a.length > 1).join('').replace(/-/g, '');
    if ([...flags].some((f) => !'1aA'.includes(f))) return undefined;
    const paths = args.filter((a) => !a.startsWith('-') || a === '-');
    const targets = paths.length ? paths : ['.'];
    let stdout = '';
    let stderr = '';
    let code = 0;
    const files: string[] = [];
    const dirs: Array<[string, string[]]> = [];
    for (const p of targets) {
      const abs = p === '.' ? '/' : p.startsWith('/') ? p : `/${p}`;
      const listed = this.host.listDir!(abs);
      const own = [...this.written.keys()].filter((f) => f.startsWith(abs === '/' ? '/' : `${abs}/`)).map((f) => f.slice(abs === '/' ? 1 : abs.length + 1).split('/')[0]!);
      if (listed === undefined && own.length === 0) {
        if (this.readFile(abs) !== undefined) files.push(p);
        else {
          stderr += this.host.gnu ? `ls: cannot access '${p}': No such file or directory\n` : `ls: ${p}: No such file or directory\n`;
          code = this.host.gnu ? 2 : 1;
        }
        continue;
      }
      let names = [...new Set([...(listed ?? []), ...own])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (!flags.includes('a') && !flags.includes('A')) names = names.filter((n) => !n.startsWith('.'));
      if (flags.includes('a')) names = ['.', '..', ...names];
      dirs.push([p, names]);
    }
    stdout += files.sort().map((f) => `${f}\n`).join('');
    const titled = targets.length > 1;
    dirs.forEach(([p, names], i) => {
      if (titled) stdout += `${files.length || i > 0 ? '\n' : ''}${p}:\n`;
      stdout += names.map((n) => `${n}\n`).join('');
    });
    return { stdout, stderr, code };
  }

  /**
   * polinux/stress (stress 1.0.4): `--vm N --vm-bytes B` allocates N×B and keeps it with
   * `--vm-hang`; beyond the container's memory limit the kernel's OOM killer ends it.
   */
  private stress(args: string[], out: (s: string) => void): number {
    const opt = (long: string, short: string): string | undefined => {
      const i = args.findIndex((a) => a === long || a === short);
      return i >= 0 ? args[i + 1] : undefined;
    };
    const vm = Number(opt('--vm', '-m') ?? 0);
    const cpu = Number(opt('--cpu', '-c') ?? 0);
    const ioN = Number(opt('--io', '-i') ?? 0);
    const hdd = Number(opt('--hdd', '-d') ?? 0);
    out(`stress: info: [1] dispatching hogs: ${cpu} cpu, ${ioN} io, ${vm} vm, ${hdd} hdd\n`);
    const bytes = vm * stressBytes(opt('--vm-bytes', '--vm-bytes') ?? '256M');
    if (vm > 0 && this.host.memoryLimit !== undefined && bytes > this.host.memoryLimit) {
      // the worker touches its pages within a moment of starting
      this.sleep(Math.min(1000, this.until - this.t));
      throw new Oom();
    }
    const timeout = opt('--timeout', '-t');
    if (timeout !== undefined) {
      this.sleep(sleepMs([timeout]) ?? 0);
      out(`stress: info: [1] successful run completed in ${sleepMs([timeout])! / 1000}s\n`);
      return 0;
    }
    throw new Block();
  }

  private test(a: string[]): number {
    const t = (b: boolean): number => (b ? 0 : 1);
    if (a[0] === '!') return 1 - this.test(a.slice(1));
    if (a.length === 0) return 1;
    if (a.length === 1) return t(a[0] !== '');
    if (a.length === 2) {
      const [op, x] = a as [string, string];
      if (op === '-z') return t(x === '');
      if (op === '-n') return t(x !== '');
      if (op === '-f' || op === '-e' || op === '-s' || op === '-r') {
        const c = this.readFile(x);
        return t(c !== undefined && (op !== '-s' || c !== ''));
      }
      if (op === '-d') return 1;
      return 1;
    }
    const [l, op, r] = a as [string, string, string];
    const nl = Number(l);
    const nr = Number(r);
    switch (op) {
      case '=':
      case '==':
        return t(l === r);
      case '!=':
        return t(l !== r);
      case '-eq':
        return t(nl === nr);
      case '-ne':
        return t(nl !== nr);
      case '-lt':
        return t(nl < nr);
      case '-le':
        return t(nl <= nr);
      case '-gt':
        return t(nl > nr);
      case '-ge':
        return t(nl >= nr);
    }
    return 2;
  }
}

/**
 * Run a script (a parsed `sh -c` body, or an argv run directly) from `start` until `until`.
 * Events come in time order; the end says whether and when it exited.
 */
export function runScript(script: { sh: string } | { argv: string[] }, host: ScriptHost, start: number, until: number, opts: RunOptions = {}): ScriptResult {
  const r = new Runner(host, start, until, opts.keep);
  if (opts.resume) r.restore(opts.resume);
  const io: Io = { stdin: '', out: { kind: 'log', stream: 'stdout' }, err: { kind: 'log', stream: 'stderr' } };
  let end: ScriptEnd;
  try {
    if ('sh' in script) {
      let ast: Node;
      try {
        ast = parseScript(script.sh);
      } catch (e) {
        if (!(e instanceof ScriptSyntaxError)) throw e;
        r.events.push({ t: start, kind: 'out', stream: 'stderr', text: `sh: ${e.message}\n` });
        return { events: r.events, end: { kind: 'exit', code: 2, at: start } };
      }
      const code = r.execTop(ast, io, opts.resume);
      end = { kind: 'exit', code, at: r.t };
    } else {
      const code = r.run(script.argv, io);
      end = { kind: 'exit', code, at: r.t };
    }
  } catch (e) {
    if (e instanceof Exit) end = { kind: 'exit', code: e.code, at: r.t };
    else if (e instanceof Block) end = { kind: 'blocked', at: r.t, ...(e.follow !== undefined ? { follow: e.follow } : {}) };
    else if (e instanceof Oom) end = { kind: 'oom', at: r.t };
    else if (e instanceof TimeUp) end = e.horizon ? { kind: 'running', horizon: true, ...(e.at !== undefined ? { at: e.at } : {}) } : { kind: 'running' };
    else if (e instanceof LoopCtl) end = { kind: 'exit', code: 0, at: r.t };
    else throw e;
  }
  return { events: r.events, end };
}

/**
 * Shell arithmetic (`$((i + 1))`, `$((n % 2 == 0))`): integers, + - * / %, comparisons, && ||,
 * unary minus and !, parentheses; names are variables (unset or non-numeric is 0).
 */
export function evalArith(expr: string, value: (name: string) => number): number {
  const toks = expr.match(/\d+|[A-Za-z_]\w*|\$[A-Za-z_]\w*|==|!=|<=|>=|&&|\|\||[-+*/%()<>!]/g) ?? [];
  let i = 0;
  const peek = (): string | undefined => toks[i];
  const bin = (ops: string[], next: () => number, f: (op: string, a: number, b: number) => number) => (): number => {
    let v = next();
    while (ops.includes(peek() ?? '')) {
      const op = toks[i++]!;
      v = f(op, v, next());
    }
    return v;
  };
  const atom = (): number => {
    const t = toks[i++];
    if (t === undefined) return 0;
    if (t === '(') {
      const v = or();
      i++;
      return v;
    }
    if (t === '-') return -atom();
    if (t === '+') return atom();
    if (t === '!') return atom() === 0 ? 1 : 0;
    if (/^\d/.test(t)) return Number(t);
    return value(t.replace(/^\$/, ''));
  };
  const mul = bin(['*', '/', '%'], atom, (op, a, b) => (op === '*' ? a * b : b === 0 ? 0 : op === '/' ? Math.trunc(a / b) : a % b));
  const add = bin(['+', '-'], mul, (op, a, b) => (op === '+' ? a + b : a - b));
  const cmp = bin(['<', '>', '<=', '>='], add, (op, a, b) => Number(op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b));
  const eq = bin(['==', '!='], cmp, (op, a, b) => Number(op === '==' ? a === b : a !== b));
  const and = bin(['&&'], eq, (_op, a, b) => Number(a !== 0 && b !== 0));
  const or = bin(['||'], and, (_op, a, b) => Number(a !== 0 || b !== 0));
  return or();
}
