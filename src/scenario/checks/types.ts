/**
 * The contract of a grader check: one file per kind in this folder, each a zod schema for its own
 * fields (on top of the common ones) and an evaluate function that reads state and never writes it.
 */
import { z } from 'zod/v4';
import { TextSchema } from '../text.js';
import type { Cluster } from '../../sim/cluster.js';
import type { Problem } from './problems.js';

/** A string that must match `re` once its `{{param}}` placeholders are filled (checked with a stand-in). */
export function templated(re: RegExp, message: string): z.ZodString {
  return z.string().refine((s) => re.test(s.replace(/\{\{\s*[a-zA-Z][a-zA-Z0-9_]*\s*\}\}/g, 'x1')), message) as unknown as z.ZodString;
}

/** Fields every check has, whatever its kind. */
export const BASE_FIELDS = {
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lower-case letters, digits and dashes'),
  points: z.number().int().min(1).default(1),
  description: TextSchema,
  /**
   * Shown when the check fails: to the learner before what is wrong (or, ending in a colon,
   * before the value found); in the solution view and the exam review before expected/actual.
   */
  message: TextSchema.optional(),
  /** The check already passes right after setup (validate then requires it to pass untouched). */
  passAtStart: z.boolean().optional(),
};

/** Where a shell line runs: the workstation (default), a node (via `ssh`), or a container (`kubectl exec -it`). */
export const PlaceSchema = z.union([
  z.strictObject({ host: z.string() }),
  z.strictObject({ pod: z.string(), namespace: z.string().default('default'), container: z.string().optional() }),
]);
export type Place = z.infer<typeof PlaceSchema>;

export interface ShellRun {
  /** What was run, as the learner would type it (for evidence). */
  transcript: string[];
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * What a check may use. `cluster` is a private copy; `run` executes a line on a fresh copy, at
 * most once per evaluation and only in a kind declared `runsLines` (the grader makes one copy
 * per such check and no more: grade.ts).
 */
export interface CheckContext {
  cluster: Cluster;
  /** `reboot`: the place's host is rebooted on the copy first (what survives is what boot reads from files). */
  run(line: string, place?: Place, opts?: { reboot?: boolean }): Promise<ShellRun>;
  /** Answers the learner typed with `answer` (by key; `default` when no key was given). */
  answers: Readonly<Record<string, string>>;
}

export interface CheckOutcome {
  ok: boolean;
  /** What passes, expected value included: for authors, the solution view and the exam review. */
  expected: string;
  actual: string;
  /** What is wrong when it fails, in terms of the learner's own state: never the expected value. */
  problem: Problem;
  /** What the check looked at: commands and their output, objects, files. */
  evidence: string[];
}

export interface CheckKind<S extends z.ZodType = z.ZodType> {
  kind: string;
  schema: S;
  /**
   * It runs a shell line (ctx.run, at most once per evaluation): the grader then keeps a serialised
   * copy of the state to run it on, and makes one copy of it per such check.
   */
  runsLines?: true;
  evaluate(spec: z.infer<S>, ctx: CheckContext): Promise<CheckOutcome> | CheckOutcome;
}

/** Identity helper that keeps the spec type of a check kind. */
export function defineCheck<S extends z.ZodType>(k: CheckKind<S>): CheckKind<S> {
  return k;
}

export function placeLabel(p: Place | undefined): string {
  if (!p) return 'the workstation';
  if ('host' in p) return p.host;
  return `pod ${p.namespace}/${p.pod}`;
}

/** Keep evidence readable: at most `max` lines of output. */
export function clip(s: string, max = 20): string {
  const lines = s.replace(/\n$/, '').split('\n');
  return lines.length <= max ? lines.join('\n') : [...lines.slice(0, max), `… (${lines.length - max} more lines)`].join('\n');
}
