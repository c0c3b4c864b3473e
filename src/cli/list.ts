/**
 * `cka-lab list [--domain D] [--json]`: the scenario library, by domain. The JSON rows carry each
 * task's domain, curriculum competency (line and id), topics and family, for coverage tooling.
 */
import { resolveCompetency } from '../scenario/curriculum.js';
import { textFor } from '../scenario/lang.js';
import type { CliIo } from './io.js';
import type { Scenario } from '../scenario/schema.js';
import type { Lang } from '../scenario/lang.js';
import { langOf, library, ordered } from './library.js';
import { messages } from '../ui/messages.js';

/** One `list --json` row: every language a task's title and text come in, so tools can see the library's coverage. */
export function listRow(s: Scenario, lang: Lang): Record<string, unknown> {
  const texts = (t: unknown): Record<string, string> => (typeof t === 'string' ? { en: t } : (t as Record<string, string>));
  const titles = texts(s.title);
  const task = texts(s.task);
  const languages = Object.keys(titles).filter((l) => l in task).sort();
  const competencyId = resolveCompetency(s.competency, s.domain)?.id ?? null;
  return {
    id: s.id,
    title: textFor(s.title, lang),
    titles,
    languages,
    domain: s.domain,
    competency: s.competency,
    competencyId,
    topics: s.topics,
    family: s.family ?? null,
    difficulty: s.difficulty,
    weight: s.weight,
    minutes: s.minutes,
    fixture: s.fixture,
  };
}

export async function listCommand(o: { domain?: string; json?: boolean }, io: CliIo): Promise<number> {
  const lang = langOf(undefined, io);
  const tasks = ordered(await library(io, false, true)).filter((s) => !o.domain || s.domain === o.domain);
  if (o.json) {
    const rows = tasks.map((s) => listRow(s, lang));
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const say = messages(lang).library;
  const idw = Math.max(2, ...tasks.map((s) => s.id.length));
  const out: string[] = [];
  let domain = '';
  for (const s of tasks) {
    if (s.domain !== domain) {
      if (domain) out.push('');
      domain = s.domain;
      out.push(`${domain}:`);
    }
    out.push(`  ${s.id.padEnd(idw)}  ${s.difficulty.padEnd(6)}  ${say.minutes(String(s.minutes).padStart(2))}  ${textFor(s.title, lang)}`);
  }
  if (tasks.length === 0) out.push(o.domain ? say.emptyDomain(o.domain) : say.empty);
  io.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
