/**
 * `cka-lab practice [--domain D] [--topic T] [--lang L] [--seed N] [ID]`: on a terminal, the
 * domain → topic → task menu (unless an ID is given); without one, the task named by ID or the
 * first matching --domain/--topic, with meta-commands and shell lines read from stdin.
 */
import { ProgressStore, bestByScenario } from '../app/progress.js';
import { runPractice, PRACTICE_META } from '../ui/practice.js';
import { MenuClosed, pickTask } from '../ui/menus.js';
import { theme } from '../ui/theme.js';
import type { LineSource } from '../ui/input.js';
import { CliError, type CliIo } from './io.js';
import { editorFor, envOf, lineSource } from './context.js';
import { freshSeed, langOf, library, ordered } from './library.js';
import { taskSessionStore } from './task-store.js';
import { messages } from '../ui/messages.js';

export interface PracticeFlags {
  domain?: string;
  topic?: string;
  lang?: string;
  seed?: number;
}

export async function practiceCommand(id: string | undefined, o: PracticeFlags, io: CliIo): Promise<number> {
  const env = envOf(io);
  const lang = langOf(o.lang, io);
  const progress = new ProgressStore(env.data, io.realNow);
  const record = progress.load();
  if (progress.warning) io.stderr.write(`cka-lab: ${progress.warning}\n`);
  const all = ordered(await library(io));
  const pool = all.filter((s) => (!o.domain || s.domain === o.domain) && (!o.topic || s.topics.includes(o.topic)));
  let start: number;
  if (id) {
    start = pool.findIndex((s) => s.id === id);
    if (start < 0) throw new CliError(messages(lang).choose.noScenario(id, Boolean(o.domain || o.topic)), 2);
  } else if (pool.length === 0) {
    throw new CliError(messages(lang).choose.noMatch(`${o.domain ? ` --domain ${o.domain}` : ''}${o.topic ? ` --topic ${o.topic}` : ''}`), 2);
  } else if (io.isTTY) {
    let picked: (typeof pool)[number];
    try {
      picked = await pickTask(pool, bestByScenario(record), lang, { input: io.stdin, output: io.stdout }, { ...(o.domain ? { domain: o.domain } : {}), ...(o.topic ? { topic: o.topic } : {}) });
    } catch (e) {
      // Ctrl-C in the menu: nothing was started, nothing to say (a stack trace used to follow)
      if (e instanceof MenuClosed) return 130;
      throw e;
    }
    start = pool.indexOf(picked);
  } else start = 0;
  let lines: LineSource | undefined;
  const editor = editorFor(env, () => lines);
  const store = taskSessionStore(env, 'practice', pool, editor ? { editor } : {});
  return runPractice({
    store,
    tasks: pool,
    start,
    seed: o.seed ?? freshSeed(io),
    lang,
    c: theme(io.isTTY, io.env),
    io,
    lines: (session) => (lines = lineSource(env, session, PRACTICE_META)),
    progress,
    realNow: io.realNow,
    ...(editor ? { editor } : {}),
  });
}

