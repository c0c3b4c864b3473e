/**
 * The task panel: what the exam's left-hand pane shows for one task (title, where to work, the
 * task text, weight and target time), plus the views of a grade (✓/✗ per check with the reason)
 * and of the reference solution. Text is picked in the learner's language; commands, ids and
 * paths are never translated.
 */
import type { ChalkInstance } from 'chalk';
import type { GradeReport, Instance, Lang } from '../scenario/index.js';
import { textFor } from '../scenario/index.js';
import { messages } from './messages.js';

export interface PanelOptions {
  lang: Lang;
  c: ChalkInstance;
  /** `Task 3 of 17` in an exam. */
  position?: { index: number; total: number };
  /** The workstation host, for the "ssh" line when the task starts elsewhere. */
  workstation: string;
}

export function taskPanel(inst: Instance, o: PanelOptions): string {
  const s = inst.resolved;
  const m = messages(o.lang).panel;
  const head = o.position ? m.position(o.position.index, o.position.total) : '';
  const lines = [
    o.c.bold(`${head}${textFor(s.title, o.lang)}`) + o.c.dim(`  [${s.id}]`),
    o.c.dim(m.facts(s.domain, s.difficulty, s.weight, s.minutes)),
  ];
  if (s.host && s.host !== o.workstation) lines.push(m.solveOn(o.c.cyan(s.host), o.workstation));
  lines.push('', textFor(s.task, o.lang).trimEnd(), '');
  return `${lines.join('\n')}\n`;
}

export interface GradeViewOptions {
  lang?: Lang;
  /**
   * Show the expected values of failed checks (after \`solution\`, in the exam's report). Without
   * it a failed check says only what is wrong in the learner's state.
   */
  reveal?: boolean;
}

export function gradeView(r: GradeReport, c: ChalkInstance, o: GradeViewOptions = {}): string {
  const out: string[] = [];
  for (const ch of r.checks) {
    const mark = ch.ok ? c.green('✓') : c.red('✗');
    out.push(`${mark} ${ch.description} (${ch.points}/${ch.max})`);
    if (!ch.ok) out.push((o.reveal ? ch.detail : ch.message).replace(/^/gm, '    '));
    else if (ch.waiting) out.push(`    ${messages(o.lang ?? 'en').guardWaits}`);
  }
  out.push(`${messages(o.lang ?? 'en').score}: ${r.score}/${r.max} (${r.percent}%)`);
  return `${out.join('\n')}\n`;
}

export function solutionView(inst: Instance, lang: Lang): string {
  const s = inst.resolved;
  return `${messages(lang).panel.referenceSolution}\n${s.solution.map((l) => `  ${l}`).join('\n')}\n\n${textFor(s.explanation, lang).trimEnd()}\n`;
}

export function hintView(inst: Instance, shown: number, lang: Lang): string {
  const hints = inst.resolved.hints;
  const m = messages(lang).panel;
  if (hints.length === 0) return `${m.noHints}\n`;
  if (shown >= hints.length) return `${m.noMoreHints(hints.length)}\n`;
  return `${m.hint(shown + 1, hints.length, textFor(hints[shown]!, lang).trimEnd())}\n`;
}
