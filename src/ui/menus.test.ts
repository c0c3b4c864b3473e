/**
 * The practice menu (ui/menus.ts): Ctrl-C closes it as MenuClosed, which `cka-lab practice` turns
 * into a quiet exit 130, instead of @inquirer/core's ExitPromptError reaching the CLI as an
 * internal error with a stack trace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { MenuClosed, pickTask } from './menus.js';
import type { LoadedScenario } from '../scenario/index.js';

function menuIo(): { input: PassThrough; output: PassThrough; shown: () => string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (b: Buffer) => (text += b.toString('utf8')));
  return { input, output, shown: () => text };
}

const TASK = { id: 'a', domain: 'storage', topics: ['pv'], title: { en: 'Claim a volume' }, difficulty: 'easy', minutes: 5 } as unknown as LoadedScenario;

/** Resolves once the menu has drawn something: keys typed before that would be lost. */
async function drawn(shown: () => string): Promise<void> {
  while (!shown().includes('Domain')) await new Promise((r) => setTimeout(r, 5));
}

test('Ctrl-C in the practice menu rejects with MenuClosed', async () => {
  const io = menuIo();
  const picked = pickTask([TASK], new Map(), 'en', io);
  await drawn(io.shown);
  io.input.write('\x03');
  await assert.rejects(picked, (e: unknown) => e instanceof MenuClosed);
});
