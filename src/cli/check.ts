/**
 * `cka-lab check <domain|topic>`: a scored self-check of one domain or topic. Its tasks run in
 * practice mode, shortest first; at the end a summary of scores and what to practise next.
 */
import { ProgressStore } from '../app/progress.js';
import { runPractice, PRACTICE_META } from '../ui/practice.js';
import { theme } from '../ui/theme.js';
import type { LineSource } from '../ui/input.js';
import { CliError, type CliIo } from './io.js';
import { editorFor, envOf, lineSource } from './context.js';
import { freshSeed, langOf, library } from './library.js';
import { taskSessionStore } from './task-store.js';
import { textFor } from '../scenario/index.js';
import { messages } from '../ui/messages.js';

export async function checkCommand(what: string, o: { lang?: string; seed?: number }, io: CliIo): Promise<number> {
  const env = envOf(io);
  const lang = langOf(o.lang, io);
  const say = messages(lang);
  const all = await library(io);
  const pool = all
    .filter((s) => s.domain === what || s.topics.includes(what))
    .sort((a, b) => a.minutes - b.minutes || a.weight - b.weight || a.id.localeCompare(b.id));
  if (pool.length === 0) {
    const names = [...new Set(all.flatMap((s) => [s.domain, ...s.topics]))].sort();
    throw new CliError(say.check.noSuchDomainOrTopic(what, names.join(', ')), 2);
  }
  const progress = new ProgressStore(env.data, io.realNow);
  progress.load();
  if (progress.warning) io.stderr.write(`cka-lab: ${progress.warning}\n`);
  const c = theme(io.isTTY, io.env);
  io.stdout.write(`${say.check.intro(what, pool.length)}\n`);
  const results: { id: string; title: string; percent: number; score: number; max: number; topics: string[] }[] = [];
  let lines: LineSource | undefined;
  const editor = editorFor(env, () => lines);
  const status = await runPractice({
    store: taskSessionStore(env, 'check', pool, editor ? { editor } : {}),
    tasks: pool,
    start: 0,
    seed: o.seed ?? freshSeed(io),
    lang,
    c,
    io,
    lines: (session) => (lines = lineSource(env, session, PRACTICE_META)),
    progress,
    realNow: io.realNow,
    mode: 'check',
    onRecorded: (s, percent, score, max) => results.push({ id: s.id, title: textFor(s.title, lang), percent, score, max, topics: [...s.topics] }),
    ...(editor ? { editor } : {}),
  });
  // task points come in tenths (grade.ts shareTenths): sum them without float dust
  const score = Math.round(10 * results.reduce((a, r) => a + r.score, 0)) / 10;
  const max = pool.length ? Math.round(10 * results.reduce((a, r) => a + r.max, 0)) / 10 : 0;
  const out = ['', say.check.summary(what, results.length, pool.length)];
  for (const r of results) out.push(`  ${r.percent === 100 ? c.green('✓') : c.red('✗')} ${r.title} [${r.id}] ${r.percent}%`);
  for (const s of pool.filter((p) => !results.some((r) => r.id === p.id))) out.push(`  - ${textFor(s.title, lang)} [${s.id}] ${say.check.notGraded}`);
  out.push(`${say.score}: ${score}/${max}${max ? ` (${Math.round((1000 * score) / max) / 10}%)` : ''}`);
  const weak = [...new Set(results.filter((r) => r.percent < 100).flatMap((r) => r.topics))];
  const ungraded = pool.filter((p) => !results.some((r) => r.id === p.id)).map((p) => p.id);
  if (weak.length || ungraded.length) out.push(say.practiseNext([...weak.map((t) => `cka-lab practice --topic ${t}`), ...ungraded.map((id) => `cka-lab practice ${id}`)].join('; ')));
  else out.push(say.check.allPassed);
  io.stdout.write(`${out.join('\n')}\n`);
  return status === 0 && max > 0 && score === max ? 0 : status || 1;
}
