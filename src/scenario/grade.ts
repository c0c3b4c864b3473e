/**
 * Grading: a pure read of the session's state. Each check sees a private copy of the cluster;
 * checks that run shell lines (http, dns, command) each get a fresh copy, so one check's side
 * effects (time spent by a timed-out wget) cannot leak into the next or into the learner's session.
 * A session graded in place (validate's, thrown away afterwards) runs its last such line on itself
 * (inPlaceLine).
 */
import type { Session } from '../shell/session.js';
import type { Instance } from './instance.js';
import { checkKind } from './checks/registry.js';
import type { CheckContext, CheckOutcome, Place, ShellRun } from './checks/types.js';
import { detailLine, learnerMessage, type Problem } from './checks/problems.js';
import type { CheckSpec } from './schema.js';
import { textFor, type Lang } from './text.js';
import { copier } from './session.js';
import { readAnswers } from './answers.js';
import { runLine } from './setup/shell.js';
import { rebootNode } from '../sim/node/runtime.js';
import { flushAll } from '../sim/runtime/processes.js';
import type { Pod } from '../sim/api/types.js';
import { ManualClock } from '../util/clock.js';

export interface CheckReport {
  id: string;
  kind: string;
  description: string;
  ok: boolean;
  /** Task points earned (the check's share of the task's weight when it passes and is not `waiting`, else 0). */
  points: number;
  /** A passing passAtStart guard that earns nothing yet: none of the task's own checks passes (guardsCount). */
  waiting?: true;
  /** The check's share of the task's weight, by its `points` (tenths of a point). */
  max: number;
  /**
   * For the learner, when it fails: what is wrong in their state, after the author's `message`,
   * never the expected value (empty when it passes). See checks/problems.ts.
   */
  message: string;
  /**
   * For the author, the solution view and the exam review: on a failure the author's `message`
   * and the expected and actual values; on a pass, what was verified.
   */
  detail: string;
  expected: string;
  actual: string;
  problem: Problem;
  evidence: string[];
}

export interface GradeReport {
  scenario: string;
  checks: CheckReport[];
  /** In the task's points: the sum of the passed checks' shares. */
  score: number;
  /** The task's points, its `weight`: what the task panel, the exam and history show. */
  max: number;
  /** 0–100, rounded to one decimal. */
  percent: number;
}

export interface GradeOptions {
  lang?: Lang;
  /**
   * Grade the session itself instead of a copy (validate's sessions are thrown away after grading):
   * the checks may bring its state forward (a settle, a log flush), as a copy's would be.
   */
  inPlace?: boolean;
  /**
   * Evaluate only these checks (the report lists only them): validate asks of a near-miss
   * mutation only that the checks it names fail.
   */
  only?: ReadonlySet<string>;
}

/** Run a shell line on a fresh copy of `base`: on the workstation, after `ssh host`, or inside a container. */
async function runOnCopy(copy: () => Session, line: string, place: Place | undefined, reboot = false): Promise<ShellRun> {
  const s = copy();
  const host = place && 'host' in place ? s.cluster.host(place.host) : undefined;
  if (reboot && host) rebootNode(s.cluster, host);
  if (place && 'pod' in place) {
    const enter = `kubectl exec -it -n ${place.namespace} ${place.pod}${place.container ? ` -c ${place.container}` : ''} -- sh`;
    const r = await s.exec(enter);
    if (r.exitCode !== 0 || s.atTop) return { transcript: [`$ ${enter}`], stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode || 1 };
    const out = await s.exec(line);
    return { transcript: [`$ ${enter}`, `/ # ${line}`], stdout: out.stdout, stderr: out.stderr, exitCode: out.exitCode };
  }
  // the copy is thrown away after the line: nothing reads what an `exit` back to the workstation would do
  return runLine(s, line, place?.host, false, false);
}

/**
 * The task's points (its `weight`, the one source of truth) shared among its checks by their
 * `points`, in tenths of a point, by largest remainder: the shares add up to the weight exactly,
 * so a check's `(x/y)`, the task's score and its header always agree.
 */
export function shareTenths(points: readonly number[], weight: number): number[] {
  const total = points.reduce((a, p) => a + p, 0);
  const target = Math.round(weight * 10);
  if (total <= 0) return points.map(() => 0);
  const exact = points.map((p) => (p * target) / total);
  const out = exact.map((e) => Math.floor(e));
  let left = target - out.reduce((a, t) => a + t, 0);
  const order = exact.map((e, i) => ({ i, frac: e - Math.floor(e) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]!++;
    left--;
  }
  return out;
}

export async function evaluateCheck(check: CheckSpec, ctx: CheckContext): Promise<CheckOutcome> {
  const kind = checkKind(check.kind);
  if (!kind) return { ok: false, expected: `a known check kind`, actual: check.kind, problem: { code: 'broken', error: `unknown check kind ${check.kind}` }, evidence: [] };
  try {
    return await (kind.evaluate as (s: CheckSpec, c: CheckContext) => Promise<CheckOutcome> | CheckOutcome)(check, ctx);
  } catch (e) {
    return { ok: false, expected: 'the check to run', actual: `error: ${(e as Error).message}`, problem: { code: 'broken', error: (e as Error).message }, evidence: [] };
  }
}

/**
 * Whether the checks declared `passAtStart` earn their shares: those guard against collateral
 * damage ("do not delete the CRD", "the other namespaces are unchanged"), which an untouched task
 * satisfies too. A mock exam that paid them for a task never worked on gave a candidate who did
 * nothing about a seventh of the points (13 of 96 on a 17-task draw). They count once one of the
 * task's own checks (one not declared passAtStart) passes, or when the task has none.
 */
export function guardsCount(all: readonly CheckSpec[], evaluated: readonly { check: CheckSpec; out: { ok: boolean } }[]): boolean {
  return !all.some((c) => !c.passAtStart) || evaluated.some((e) => e.out.ok && !e.check.passAtStart);
}

/**
 * Graded in place, the check whose line runs last in the checks' order (the last that runs lines)
 * runs it on the session itself, after every other check, instead of on a copy: the session is
 * thrown away after grading, so a copy of it is made only to be thrown away too. Exact because the
 * line then meets what a copy would: the other checks only read the session (checks/types.ts) and
 * ran their lines on copies of the state taken before any check ran, and `Session.reopenAtTop`
 * gives the line the shell a copy restores (the first frame from its saved data, no history, a
 * fresh API server) on a cluster that forgets what a restore starts without
 * (Cluster.forgetCarried: a copy goes on as this cluster would, but for that). Not when the
 * session has background jobs (a paused list lives in this shell's memory only, and a restored
 * copy has none) or a clock other than a pinned one (a copy's clock is pinned at the state's time).
 * Its outcome is reported in its place.
 */
function inPlaceLine(instance: Instance, session: Session, opts: GradeOptions): number {
  if (!opts.inPlace || !(session.cluster.clock instanceof ManualClock) || session.hasJobs()) return -1;
  const checks = instance.resolved.checks;
  for (let i = checks.length - 1; i >= 0; i--) if ((!opts.only || opts.only.has(checks[i]!.id)) && checkKind(checks[i]!.kind)?.runsLines === true) return i;
  return -1;
}

export async function grade(instance: Instance, session: Session, opts: GradeOptions = {}): Promise<GradeReport> {
  const lang = opts.lang ?? 'en';
  // one serialisation of the graded state, before any check runs: the checks read one copy (or the
  // session itself, inPlace) and each shell line runs on another. A check that runs lines runs one
  // (checks/types.ts ctx.run), so the copies needed are known: the last is the serialised tree itself.
  const lines = instance.resolved.checks.filter((c) => (!opts.only || opts.only.has(c.id)) && checkKind(c.kind)?.runsLines === true).length;
  // graded in place, containers' output up to now is applied once before the copies are taken, as
  // their lines would each apply it (scenario/session.ts setupSession), not again in every copy
  if (opts.inPlace && lines > 0) flushAll(session.cluster, session.cluster.store.list<Pod>('Pod'));
  // graded in place, the last line may run on the session itself (inPlaceLine)
  const own = inPlaceLine(instance, session, opts);
  const copies = lines - (own >= 0 ? 1 : 0) + (opts.inPlace ? 0 : 1);
  const copy = copies > 0 ? copier(session, false, copies) : undefined;
  const base = opts.inPlace ? session : copy!();
  const ctx: CheckContext = {
    cluster: base.cluster,
    answers: readAnswers(base.cluster),
    run: (line, place, o) => runOnCopy(copy!, line, place, o?.reboot),
  };
  const checks: CheckReport[] = [];
  const shares = shareTenths(
    instance.resolved.checks.map((c) => c.points),
    instance.resolved.weight,
  );
  const evaluated: { check: CheckSpec; share: number; out: CheckOutcome }[] = [];
  let ownAt = -1;
  for (const [i, check] of instance.resolved.checks.entries()) {
    if (opts.only && !opts.only.has(check.id)) continue;
    if (i === own) {
      ownAt = evaluated.length;
      continue;
    }
    evaluated.push({ check, share: shares[i]!, out: await evaluateCheck(check, ctx) });
  }
  if (own >= 0) {
    const check = instance.resolved.checks[own]!;
    const out = await evaluateCheck(check, { ...ctx, run: (line, place, o) => runOnCopy(() => session.reopenAtTop(), line, place, o?.reboot) });
    evaluated.splice(ownAt, 0, { check, share: shares[own]!, out });
  }
  const guardsEarn = guardsCount(instance.resolved.checks, evaluated);
  let scored = 0;
  for (const { check, share, out } of evaluated) {
    const earned = out.ok && (!check.passAtStart || guardsEarn);
    if (earned) scored += share;
    const custom = check.message ? textFor(check.message, lang) : undefined;
    checks.push({
      id: check.id,
      kind: check.kind,
      description: textFor(check.description, lang),
      ok: out.ok,
      points: earned ? share / 10 : 0,
      ...(out.ok && !earned ? { waiting: true as const } : {}),
      max: share / 10,
      message: out.ok ? '' : learnerMessage(out.problem, lang, custom),
      detail: out.ok ? out.expected : `${custom ? `${custom} ` : ''}${detailLine(out.expected, out.actual, lang)}`,
      expected: out.expected,
      actual: out.actual,
      problem: out.problem,
      evidence: out.evidence,
    });
  }
  const total = shares.reduce((a, t) => a + t, 0);
  return { scenario: instance.scenario.id, checks, score: scored / 10, max: total / 10, percent: total === 0 ? 0 : Math.round((scored / total) * 1000) / 10 };
}
