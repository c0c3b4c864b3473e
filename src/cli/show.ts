/** `cka-lab show ID [--lang L]`: one scenario's description, task, hints count and checks (never the solution). */
import { instantiate } from '../scenario/instance.js';
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
  const out = [
    `${s.id}: ${textFor(r.title, lang)}`,
    say.library.facts(s.domain, s.topics.join(', '), s.difficulty, s.weight, s.minutes),
    say.library.competency(s.competency),
    `${say.library.fixture(s.fixture)}${r.host ? say.library.host(r.host) : ''}`,
    '',
    textFor(r.task, lang).trimEnd(),
    '',
    say.library.hintsAndChecks(r.hints.length),
    ...r.checks.map((c) => `  - ${textFor(c.description, lang)} ${say.library.checkPoints(c.points)}`),
  ];
  io.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
