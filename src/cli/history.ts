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
import { uiWords } from '../ui/messages.js';

function date(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

const plain = { head: [], border: [], compact: true };

export async function historyCommand(o: { json?: boolean; lang?: string }, io: CliIo): Promise<number> {
  const env = envOf(io);
  const words = uiWords(langOf(o.lang, io));
  const store = new ProgressStore(env.data, io.realNow);
  const p = store.load();
  if (store.warning) io.stderr.write(`cka-lab: ${store.warning}\n`);
  const sum = summarise(p);
  if (o.json) {
    io.stdout.write(`${JSON.stringify({ summary: sum, attempts: p.attempts, exams: p.exams }, null, 2)}\n`);
    return 0;
  }
  if (p.attempts.length === 0 && p.exams.length === 0) {
    io.stdout.write('No attempts yet. Start with `cka-lab practice`.\n');
    return 0;
  }
  const out: string[] = [];
  if (p.exams.length) {
    const t = new Table({ head: ['Exam', 'Date', 'Tasks', 'Score', 'Result'], style: plain });
    for (const e of p.exams) t.push([e.id, date(e.startedAt), String(e.tasks.length), `${e.score}/${e.max} (${e.percent}%)`, e.passed ? 'PASS' : 'FAIL']);
    out.push('Exams', t.toString(), '');
  }
  const a = new Table({ head: ['Date', 'Mode', 'Task', 'Score', 'Time', 'Target'], style: plain });
  for (const x of p.attempts)
    a.push([
      date(x.startedAt),
      x.mode + (x.assisted ? ` (${words.assisted})` : ''),
      x.scenario,
      wasAttempted(x) ? `${x.score}/${x.max}` : words.notAttempted,
      wasAttempted(x) ? clockText(x.seconds * 1000) : '-',
      `${x.targetMinutes}:00`,
    ]);
  out.push('Attempts', a.toString(), '');
  const d = new Table({ head: ['Domain', 'Attempts', 'Points', 'Strength'], style: plain });
  for (const s of sum.domains) d.push([s.name, String(s.attempts), `${s.score}/${s.max}`, `${s.percent}%`]);
  out.push('Strength by domain (weakest first)', d.toString(), '');
  const tp = new Table({ head: ['Topic', 'Attempts', 'Strength'], style: plain });
  for (const s of sum.topics) tp.push([s.name, String(s.attempts), `${s.percent}%`]);
  out.push('Topics (weakest first)', tp.toString(), '');
  const tt = new Table({ head: ['Task', 'Attempts', 'Mean time', 'Target', 'Ratio'], style: plain });
  for (const s of sum.times) tt.push([s.scenario, String(s.attempts), clockText(s.meanSeconds * 1000), `${s.targetMinutes}:00`, `${s.ratio}×`]);
  out.push('Time per task (slowest relative to target first)', tt.toString());
  if (sum.practiseNext.length) out.push('', `Practise next: ${sum.practiseNext.join(', ')}`);
  io.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
