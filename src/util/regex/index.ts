/**
 * LinearRegExp: a RegExp whose matching runs on the simulator's own engine (engine.ts), so a
 * pattern a learner or a scenario file supplies can never make a line hang (`(a+)+$` on a long
 * run of a's backtracks for ages in V8). It extends RegExp and overrides `exec`, which is the one
 * method the language's protocols call (ECMA-262 RegExpExec): `test`, `String.prototype.replace`,
 * `match`, `matchAll`, `split` and `search` all work unchanged, with the same results as a
 * built-in RegExp of the same JavaScript source.
 */
import { remember } from '../bounded-map.js';
import { compile, search, type Meter, type Program } from './engine.js';
import { parseRegex, type Dialect, type Parsed } from './parse.js';

export { RegexSyntaxError } from './parse.js';
export { RegexBudgetError } from './engine.js';
export type { Dialect } from './parse.js';
export type { Meter } from './engine.js';

/** A source the built-in RegExp accepts for `super`, so `.source` reads naturally. */
function safeSource(src: string, flags: string): string {
  try {
    new RegExp(src, flags);
    return src;
  } catch {
    return src.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  }
}

/** What a text compiles to in a dialect with some flags: the flags kept, the parse, the program, the stand-in source. */
interface Compiled {
  jsFlags: string;
  parsed: Parsed;
  program: Program;
  source: string;
}

/**
 * Compiled expressions by dialect, flags and text. Everything in one is a pure function of those
 * three, and none of it is written after it is made (a search's scratch lists are the engine's,
 * kept per program, and a search runs to its end before another starts), so every LinearRegExp of
 * the same text shares one: a grep, sed or awk of the same pattern on every line, in every copy
 * of a state, parsed and compiled it each time. A text that does not compile is not kept (it
 * throws again). Bounded, in entries and in a text's length.
 */
const COMPILED = new Map<string, Compiled>();
const COMPILED_MAX = 512;
const COMPILED_TEXT_MAX = 16 * 1024;
let compilations = 0;

/** How many expressions LinearRegExp has compiled (not taken from its memo): for tests. */
export function regexCompilations(): number {
  return compilations;
}

function compiled(text: string, flags: string, d: Dialect): Compiled {
  const jsFlags = [...new Set(flags.replace(/[^dgimsy]/g, ''))].join('');
  // (neither the dialect nor the kept flags hold a NUL: the key splits one way only)
  const key = `${d}\0${jsFlags}\0${text}`;
  const hit = COMPILED.get(key);
  if (hit !== undefined) return hit;
  const parsed = parseRegex(text, d, jsFlags);
  const program = compile(parsed);
  compilations++;
  const made = { jsFlags, parsed, program, source: safeSource(text, jsFlags) };
  // (a pattern file of thousands of lines, `grep -f`, is not kept)
  return text.length > COMPILED_TEXT_MAX ? made : remember(COMPILED, key, made, COMPILED_MAX);
}

export class LinearRegExp extends RegExp {
  /** The text as written, in its dialect (RegExp#source may be an escaped stand-in). */
  readonly pattern: string;
  readonly dialect: Dialect;
  private readonly parsed: Parsed;
  private readonly program: Program;
  /** Where the work of each search is added, when a caller charges it to a budget. */
  readonly meter: Meter | undefined;

  /**
   * `new LinearRegExp(src, flags, dialect)`; also `new LinearRegExp(other, flags)`, which is how
   * `split` copies the expression with the sticky flag added (the species constructor).
   */
  constructor(pattern: string | LinearRegExp, flags = '', dialect?: Dialect, meter?: Meter) {
    const text = typeof pattern === 'string' ? pattern : pattern.pattern;
    const d = dialect ?? (typeof pattern === 'string' ? 'js' : pattern.dialect);
    const c = compiled(text, flags, d);
    super(c.source, c.jsFlags);
    this.pattern = text;
    this.dialect = d;
    this.parsed = c.parsed;
    this.program = c.program;
    this.meter = meter ?? (typeof pattern === 'string' ? undefined : pattern.meter);
  }

  /** The same expression with other flags (`g` added for a replace-all loop). */
  withFlags(flags: string): LinearRegExp {
    return new LinearRegExp(this.pattern, flags, this.dialect, this.meter);
  }

  /** Number of capturing groups. */
  get groupCount(): number {
    return this.parsed.groups;
  }

  override exec(input: string): RegExpExecArray | null {
    const s = String(input);
    const stateful = this.global || this.sticky;
    const start = stateful ? Math.max(0, Math.min(Math.trunc(Number(this.lastIndex)) || 0, Number.MAX_SAFE_INTEGER)) : 0;
    if (start > s.length) {
      if (stateful) this.lastIndex = 0;
      return null;
    }
    const caps = search(this.program, s, start, this.sticky, this.meter);
    if (!caps) {
      if (stateful) this.lastIndex = 0;
      return null;
    }
    if (stateful) this.lastIndex = caps[1]!;
    const out: string[] = [];
    for (let g = 0; g <= this.parsed.groups; g++) {
      const a = caps[g * 2]!;
      const b = caps[g * 2 + 1]!;
      out.push(a >= 0 && b >= 0 ? s.slice(a, b) : (undefined as unknown as string));
    }
    const arr = out as RegExpExecArray;
    arr.index = caps[0]!;
    arr.input = s;
    let groups: Record<string, string> | undefined;
    if (this.parsed.names.size > 0) {
      groups = Object.create(null) as Record<string, string>;
      for (const [name, i] of this.parsed.names) groups[name] = out[i]!;
    }
    if (groups) arr.groups = groups;
    return arr;
  }
}

/** Compile `src` in `dialect` (JavaScript syntax by default) to a linear-time RegExp. */
export function linearRegExp(src: string, flags = '', dialect: Dialect = 'js', meter?: Meter): LinearRegExp {
  return new LinearRegExp(src, flags, dialect, meter);
}

/** A copy of `re` with other flags, keeping a LinearRegExp linear. */
export function withFlags(re: RegExp, flags: string): RegExp {
  return re instanceof LinearRegExp ? re.withFlags(flags) : new RegExp(re.source, flags);
}
