/**
 * Grading: a pure read of the session's state. Each check sees a private copy of the cluster;
 * checks that run shell lines (http, dns, command) each get a fresh copy, so one check's side
 * effects (time spent by a timed-out wget) cannot leak into the next or into the learner's session.
 */
import type { Session } from '../shell/session.js';
import type { Instance } from './instance.js';
import { checkKind } from './checks/registry.js';
import type { CheckContext, CheckOutcome, Place, ShellRun } from './checks/types.js';
import type { CheckSpec } from './schema.js';
import { textFor, type Lang } from './text.js';
import { copier } from './session.js';
import { readAnswers } from './answers.js';
import { runLine } from './setup/shell.js';
import { rebootNode } from '../sim/node/runtime.js';

export interface CheckReport {
  id: string;
  kind: string;
  description: string;
  ok: boolean;
  points: number;
  max: number;
  /** Pass: what was verified; fail: the reason, with expected and actual. */
  message: string;
  expected: string;
  actual: string;
  evidence: string[];
}

export interface GradeReport {
  scenario: string;
  checks: CheckReport[];
  score: number;
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
  return runLine(s, line, place?.host, false);
}

export async function evaluateCheck(check: CheckSpec, ctx: CheckContext): Promise<CheckOutcome> {
  const kind = checkKind(check.kind);
  if (!kind) return { ok: false, expected: `a known check kind`, actual: check.kind, evidence: [] };
  try {
    return await (kind.evaluate as (s: CheckSpec, c: CheckContext) => Promise<CheckOutcome> | CheckOutcome)(check, ctx);
  } catch (e) {
    return { ok: false, expected: 'the check to run', actual: `error: ${(e as Error).message}`, evidence: [] };
  }
}

export async function grade(instance: Instance, session: Session, opts: GradeOptions = {}): Promise<GradeReport> {
  const lang = opts.lang ?? 'en';
  // one serialisation of the graded state, before any check runs: the checks read one copy (or the
  // session itself, inPlace) and each shell line runs on another
  const runs = instance.resolved.checks.some((c) => checkKind(c.kind)?.runsLines === true);
  let copy = opts.inPlace && !runs ? undefined : copier(session);
  const base = opts.inPlace ? session : copy!();
  const ctx: CheckContext = {
    cluster: base.cluster,
    answers: readAnswers(base.cluster),
    run: (line, place, o) => runOnCopy((copy ??= copier(session)), line, place, o?.reboot),
  };
  const checks: CheckReport[] = [];
  for (const check of instance.resolved.checks) {
    const out = await evaluateCheck(check, ctx);
    const custom = check.message ? `${textFor(check.message, lang)} ` : '';
    checks.push({
      id: check.id,
      kind: check.kind,
      description: textFor(check.description, lang),
      ok: out.ok,
      points: out.ok ? check.points : 0,
      max: check.points,
      message: out.ok ? out.expected : `${custom}expected ${out.expected}; got ${out.actual}`,
      expected: out.expected,
      actual: out.actual,
      evidence: out.evidence,
    });
  }
  const score = checks.reduce((a, c) => a + c.points, 0);
  const max = checks.reduce((a, c) => a + c.max, 0);
  return { scenario: instance.scenario.id, checks, score, max, percent: max === 0 ? 0 : Math.round((score / max) * 1000) / 10 };
}
