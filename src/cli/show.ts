/**
 * `cka-lab show ID [--lang L]`: one scenario's description, task, hints count and checks (never the
 * solution). Each check shows its share of the task's weight (scenario/grade.ts shareTenths), the
 * points practice and the exam grade it with, not the raw `points` the shares are drawn by.
 */
import { instantiate } from '../scenario/instance.js';
import { shareTenths } from '../scenario/grade.js';
import { textFor } from '../scenario/lang.js';
import { CliError, type CliIo } from './io.js';
import { langOf, library } from './library.js';
import { messages } from '../ui/messages.js';

export async function showCommand(id: string, o: { lang?: string }, io: CliIo): Promise<number> {
  const lang = langOf(o.lang, io);
  const say = messages(lang);
  const s = (await library(io)).find((x) => x.id === id);
  if (!s) throw new CliError(say.choose.noScenario(id, false), 2);
  const r = instantiate(s, 1).resolved;
  const shares = shareTenths(r.checks.map((c) => c.points), r.weight);
  const out = [
    `${s.id}: ${textFor(r.title, lang)}`,
    say.library.facts(s.domain, s.topics.join(', '), s.difficulty, s.weight, s.minutes),
    say.library.competency(s.competency),
    `${say.library.fixture(s.fixture)}${r.host ? say.library.host(r.host) : ''}`,
    '',
    textFor(r.task, lang).trimEnd(),
    '',
    say.library.hintsAndChecks(r.hints.length),
    ...r.checks.map((c, i) => `  - ${textFor(c.description, lang)} ${say.library.checkPoints(shares[i]! / 10)}`),
  ];
  io.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
