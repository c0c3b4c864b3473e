/**
 * Seeded, sized fuzz runs (issue 18). Inside `npm test` each fuzz suite runs a short pass with a
 * fixed seed; `npm run fuzz` (scripts/fuzz.mjs) runs them longer over many seeds by setting
 *
 *   CKA_FUZZ_SEED    the seed (default: the suite's own)
 *   CKA_FUZZ_SCALE   a multiplier for the number of runs (default 1)
 *   CKA_FUZZ_REPORT  a file each suite appends its figures to, one JSON line per test
 *   CKA_FUZZ_TRACE   1 prints each command and how it ended
 *
 * A suite records what went wrong instead of failing at the first finding, so a long run counts
 * everything: crashes (an exception escaped, or a JavaScript error reached the terminal as
 * `error: Cannot read properties…`), hangs (a command slower than HANG_MS), lost writes (an
 * acknowledged write missing afterwards), poisoned sessions (a stored object that no longer
 * decodes, a session that does not reload, a command that fails on what the store holds) and
 * half-applied writes (a refused write that changed the store). The test fails at its end when
 * any figure is not zero, with the first examples.
 */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';

export interface FuzzFigures {
  runs: number;
  crashes: number;
  hangs: number;
  lostWrites: number;
  poisoned: number;
  halfApplied: number;
}

export type Finding = Exclude<keyof FuzzFigures, 'runs'>;

/** A command slower than this counts as a hang (a real one never returns: scripts/fuzz.mjs times the process out). */
export const HANG_MS = 10_000;

/** Text a JavaScript exception leaves when a verb catches it and prints its message. */
const JS_ERROR = /Cannot (read|set) properties of (undefined|null)|is not a function|is not iterable|Maximum call stack size exceeded|Invalid array length|\[object Object\]/;

export function fuzzSeed(suiteDefault: number): number {
  const s = process.env['CKA_FUZZ_SEED'];
  return s !== undefined && s !== '' && Number.isFinite(Number(s)) ? Number(s) : suiteDefault;
}

/** `n` runs times CKA_FUZZ_SCALE, at least one. */
export function fuzzCount(n: number): number {
  const scale = Number(process.env['CKA_FUZZ_SCALE'] ?? '1');
  return Math.max(1, Math.round(n * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

export function looksLikeJsError(text: string): boolean {
  return JS_ERROR.test(text);
}

export class FuzzLog {
  readonly figures: FuzzFigures = { runs: 0, crashes: 0, hangs: 0, lostWrites: 0, poisoned: 0, halfApplied: 0 };
  private readonly examples: string[] = [];

  constructor(
    readonly suite: string,
    readonly seed: number,
  ) {}

  run(): void {
    this.figures.runs++;
  }

  /** CKA_FUZZ_TRACE=1 prints every command and how it ended (to see what a seed exercises). */
  trace(line: string, out: { exitCode: number; stderr: string }): void {
    if (process.env['CKA_FUZZ_TRACE'] === '1') process.stderr.write(`${out.exitCode} ${line.slice(0, 160)} ${out.stderr.split('\n')[0]!.slice(0, 160)}\n`);
  }

  record(kind: Finding, what: string, n = 1): void {
    this.figures[kind] += n;
    if (this.examples.length < 8) this.examples.push(`${kind}: ${what.length > 1500 ? `${what.slice(0, 1500)}…` : what}`);
  }

  /** Time a command; a slow one counts as a hang. */
  async timed<T>(what: string, f: () => Promise<T>): Promise<T> {
    const t = performance.now();
    const r = await f();
    const ms = performance.now() - t;
    if (ms > HANG_MS) this.record('hangs', `${what} took ${Math.round(ms)} ms`);
    return r;
  }

  /** Write the figures to CKA_FUZZ_REPORT (if set), then fail when anything was found. */
  finish(): void {
    const file = process.env['CKA_FUZZ_REPORT'];
    if (file) appendFileSync(file, `${JSON.stringify({ suite: this.suite, seed: this.seed, ...this.figures, examples: this.examples })}\n`);
    const { runs: _runs, ...found } = this.figures;
    const bad = Object.entries(found).filter(([, n]) => n > 0);
    assert.equal(bad.length, 0, `${this.suite} (seed ${this.seed}): ${bad.map(([k, n]) => `${n} ${k}`).join(', ')}\n${this.examples.join('\n')}`);
  }
}
