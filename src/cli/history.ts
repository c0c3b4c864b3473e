/**
 * `cka-lab history [--json] [--lang L]`: attempts and exams with dates and scores, per-domain
 * strength, topics weakest first, time per task against its target. Every attempt is a row (a
 * practice `reset` starts a new one); assisted attempts are marked, and exam tasks never worked on
 * read "not attempted" instead of a score and a time.
 */
import Table from 'cli-table3';
import { ProgressStore, wasAttempted } from '../app/progress.js';
import { summarise } from '../app/history.js';
import { clockText } from '../ui/theme.js';
import type { CliIo } from './io.js';
import { envOf } from './context.js';
import { langOf } from './library.js';
import { messages } from '../ui/messages.js';

function date(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

const plain = { head: [], border: [], compact: true };

export async function historyCommand(o: { json?: boolean; lang?: string }, io: CliIo): Promise<number> {
  const env = envOf(io);
  const words = messages(langOf(o.lang, io));
  const say = words.history;
  const store = new ProgressStore(env.data, io.realNow);
  const p = store.load();
  if (store.warning) io.stderr.write(`cka-lab: ${store.warning}\n`);
  const sum = summarise(p);
  if (o.json) {
    io.stdout.write(`${JSON.stringify({ summary: sum, attempts: p.attempts, exams: p.exams }, null, 2)}\n`);
    return 0;
  }
  if (p.attempts.length === 0 && p.exams.length === 0) {
    io.stdout.write(`${say.empty}\n`);
    return 0;
  }
  const out: string[] = [];
  if (p.exams.length) {
    const t = new Table({ head: [...say.examsHead], style: plain });
    for (const e of p.exams) t.push([e.id, date(e.startedAt), String(e.tasks.length), `${e.score}/${e.max} (${e.percent}%)`, e.passed ? words.pass : words.fail]);
    out.push(say.exams, t.toString(), '');
  }
  const a = new Table({ head: [...say.attemptsHead], style: plain });
  for (const x of p.attempts)
    a.push([
      date(x.startedAt),
      x.mode + (x.assisted ? ` (${words.assisted})` : ''),
      x.scenario,
      wasAttempted(x) ? `${x.score}/${x.max}` : words.notAttempted,
      wasAttempted(x) ? clockText(x.seconds * 1000) : '-',
      `${x.targetMinutes}:00`,
    ]);
  out.push(say.attempts, a.toString(), '');
  const d = new Table({ head: [...say.domainsHead], style: plain });
  for (const s of sum.domains) d.push([s.name, String(s.attempts), `${s.score}/${s.max}`, `${s.percent}%`]);
  out.push(say.domains, d.toString(), '');
  const tp = new Table({ head: [...say.topicsHead], style: plain });
  for (const s of sum.topics) tp.push([s.name, String(s.attempts), `${s.percent}%`]);
  out.push(say.topics, tp.toString(), '');
  const tt = new Table({ head: [...say.timesHead], style: plain });
  for (const s of sum.times) tt.push([s.scenario, String(s.attempts), clockText(s.meanSeconds * 1000), `${s.targetMinutes}:00`, `${s.ratio}×`]);
  out.push(say.times, tt.toString());
  if (sum.practiseNext.length) out.push('', words.practiseNext(sum.practiseNext.join(', ')));
  io.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
