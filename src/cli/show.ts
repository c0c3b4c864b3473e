/** `cka-lab show ID [--lang L]`: one scenario's description, task, hints count and checks (never the solution). */
import { instantiate } from '../scenario/instance.js';
import { textFor } from '../scenario/lang.js';
import { CliError, type CliIo } from './io.js';
import { langOf, library } from './library.js';

export async function showCommand(id: string, o: { lang?: string }, io: CliIo): Promise<number> {
  const lang = langOf(o.lang, io);
  const s = (await library(io)).find((x) => x.id === id);
  if (!s) throw new CliError(`no scenario "${id}" (see \`cka-lab list\`)`, 2);
  const r = instantiate(s, 1).resolved;
  const out = [
    `${s.id}: ${textFor(r.title, lang)}`,
    `domain: ${s.domain}   topics: ${s.topics.join(', ')}   difficulty: ${s.difficulty}   weight: ${s.weight}   target: ${s.minutes} min`,
    `competency: ${s.competency}`,
    `fixture: ${s.fixture}${r.host ? `   host: ${r.host}` : ''}`,
    '',
    textFor(r.task, lang).trimEnd(),
    '',
    `${r.hints.length} hint${r.hints.length === 1 ? '' : 's'}; checks:`,
    ...r.checks.map((c) => `  - ${textFor(c.description, lang)} (${c.points} point${c.points === 1 ? '' : 's'})`),
  ];
  io.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
