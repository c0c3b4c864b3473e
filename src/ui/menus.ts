/**
 * The practice menu on a terminal (@inquirer/prompts): domain → topic → task, each task showing
 * whether it is done and its best score. Never used without a terminal: there, practice takes an
 * ID or the first task matching --domain/--topic.
 */
import { select } from '@inquirer/prompts';
import type { Readable, Writable } from 'node:stream';
import { DOMAINS, textFor, type Lang, type LoadedScenario } from '../scenario/index.js';
import { messages } from './messages.js';

/**
 * The learner closed the menu (Ctrl-C): @inquirer/core rejects the prompt with its ExitPromptError,
 * which is no fault of ours; practice ends quietly with the status of an interrupted command (130).
 */
export class MenuClosed extends Error {}

/** `select`, with Ctrl-C as MenuClosed. */
async function ask<T>(config: Parameters<typeof select<T>>[0], ctx: MenuIo): Promise<T> {
  try {
    return await select<T>(config, ctx);
  } catch (e) {
    if (e instanceof Error && e.name === 'ExitPromptError') throw new MenuClosed('menu closed');
    throw e;
  }
}

export interface MenuIo {
  input: Readable;
  output: Writable;
}

export async function pickTask(
  tasks: readonly LoadedScenario[],
  best: ReadonlyMap<string, { best: number; attempts: number; done: boolean }>,
  lang: Lang,
  io: MenuIo,
  pre: { domain?: string; topic?: string } = {},
): Promise<LoadedScenario> {
  const ctx = { input: io.input, output: io.output };
  const m = messages(lang).choose;
  const domains = Object.keys(DOMAINS).filter((d) => tasks.some((t) => t.domain === d));
  const domain =
    pre.domain ??
    (await ask({ message: m.domain, choices: domains.map((d) => ({ name: m.domainChoice(d, tasks.filter((t) => t.domain === d).length), value: d })) }, ctx));
  const inDomain = tasks.filter((t) => t.domain === domain);
  const topics = [...new Set(inDomain.flatMap((t) => t.topics))].sort();
  const topic =
    pre.topic ??
    (topics.length > 1 ? await ask({ message: m.topic, choices: [{ name: m.allTopics, value: '' }, ...topics.map((t) => ({ name: t, value: t }))] }, ctx) : '');
  const pool = inDomain.filter((t) => !topic || t.topics.includes(topic));
  return ask(
    {
      message: m.task,
      choices: pool.map((t) => {
        const b = best.get(t.id);
        const mark = b?.done ? '✓' : b ? `${b.best}%` : ' ';
        return { name: `${mark.padEnd(4)} ${textFor(t.title, lang)} ${m.taskFacts(t.difficulty, t.minutes)}`, value: t };
      }),
    },
    ctx,
  );
}
