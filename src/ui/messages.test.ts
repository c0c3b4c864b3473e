/**
 * The tool's words (messages.ts) in every language: each English text has a counterpart of the
 * same kind in ja and zh-CN, translated (not a copy of the English), and a text with values keeps
 * every value and everything the learner types (backquoted commands, flags, `[y/N]`) as it is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGS } from '../scenario/lang.js';
import { messages } from './messages.js';

type Entry = string | readonly string[] | ((...a: never[]) => string) | { [k: string]: Entry };

/** Every leaf of a table, by its dotted path. */
function leaves(t: Entry, path = ''): Map<string, Entry> {
  const out = new Map<string, Entry>();
  if (typeof t === 'object' && !Array.isArray(t)) {
    for (const [k, v] of Object.entries(t as Record<string, Entry>)) for (const [p, e] of leaves(v, path ? `${path}.${k}` : k)) out.set(p, e);
  } else out.set(path, t);
  return out;
}

/**
 * Arguments for texts whose parameters are not plain values; every other text gets distinct
 * numbers (7001, 7002, …), which must all show in its output.
 */
const SAMPLES: Record<string, { args: unknown[]; keep: string[] }[]> = {
  'practice.resumed': [
    { args: ['practice', 't-namespace'], keep: ['t-namespace', '`reset`'] },
    { args: ['check', 't-file'], keep: ['t-file', '`reset`'] },
  ],
  'choose.noScenario': [
    { args: ['nope-7', true], keep: ['nope-7', '--domain/--topic', '`cka-lab list`'] },
    { args: ['nope-8', false], keep: ['nope-8', '`cka-lab list`'] },
  ],
  'choose.noMatch': [{ args: [' --domain storage --topic pv'], keep: ['--domain storage --topic pv', '`cka-lab list`'] }],
  'exam.libraryOnly': [{ args: [3], keep: ['3'] }],
};

/** What the learner types, in an English text: it must show unchanged in every language. */
function typed(en: string): string[] {
  const out = [...en.matchAll(/`[^`]+`/g)].map((m) => m[0]);
  out.push(...[...en.matchAll(/(?<![\w-])--[a-z]+(?:\/--[a-z]+)?/g)].map((m) => m[0]));
  for (const fixed of ['[y/N]', 'answer TEXT', 'CKA_LAB_SESSION=NAME', 'Ctrl-D', 'task N', 'submit, quit']) if (en.includes(fixed)) out.push(fixed);
  return out;
}

/** Texts that are the same in every language (a column head that is a symbol). */
const SAME: ReadonlySet<string> = new Set(['exam.reportHead']);

test('messages: every text exists in every language, translated, of the same kind', () => {
  const en = leaves(messages('en') as unknown as Entry);
  assert.ok(en.size > 80, `${en.size} texts`);
  for (const lang of LANGS) {
    const other = leaves(messages(lang) as unknown as Entry);
    assert.deepEqual([...other.keys()].sort(), [...en.keys()].sort(), lang);
    if (lang === 'en') continue;
    for (const [path, e] of en) {
      const o = other.get(path)!;
      assert.equal(typeof o, typeof e, `${lang} ${path}`);
      if (typeof e === 'string') {
        assert.ok(typeof o === 'string' && o.trim() !== '' && o !== e, `${lang} ${path}: ${String(o)}`);
        for (const t of typed(e)) assert.ok((o as string).includes(t), `${lang} ${path} keeps ${t}: ${String(o)}`);
      } else if (Array.isArray(e)) {
        assert.ok(Array.isArray(o) && o.length === e.length, `${lang} ${path}`);
        if (!SAME.has(path)) assert.notDeepEqual(o, e, `${lang} ${path}`);
        for (const [i, x] of (o as string[]).entries()) assert.ok(x.trim() !== '' && (x !== e[i] || x === '#'), `${lang} ${path}[${i}]: ${x}`);
      } else if (typeof e === 'function') assert.equal((o as (...a: never[]) => string).length, e.length, `${lang} ${path}: same parameters`);
    }
  }
});

test('messages: texts with values keep every value and what the learner types, in every language', () => {
  const en = leaves(messages('en') as unknown as Entry);
  let checked = 0;
  for (const [path, e] of en) {
    if (typeof e !== 'function') continue;
    const samples = SAMPLES[path] ?? [{ args: Array.from({ length: e.length }, (_, i) => 7001 + i), keep: Array.from({ length: e.length }, (_, i) => String(7001 + i)) }];
    for (const { args, keep } of samples) {
      const english = (e as (...a: unknown[]) => string)(...args);
      for (const lang of LANGS) {
        const f = leaves(messages(lang) as unknown as Entry).get(path) as (...a: unknown[]) => string;
        const text = f(...args);
        assert.ok(!/undefined|NaN|\[object/.test(text), `${lang} ${path}: ${text}`);
        for (const k of [...keep, ...typed(english)]) assert.ok(text.includes(k), `${lang} ${path} keeps ${k}: ${text}`);
        if (lang !== 'en') assert.notEqual(text, english, `${lang} ${path} is translated`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 135, `${checked} texts checked`);
});

test('messages: English texts with values read as before', () => {
  const en = messages('en');
  const cases: [string, string][] = [
    [en.practice.answerRecorded('10.96.0.0/12'), 'Answer recorded: 10.96.0.0/12'],
    [en.exam.start(3, en.exam.libraryOnly(3), 21, 66), 'Exam: 3 tasks (the library has only 3), 21 minutes, pass mark 66%. Commands: tasks, task N, flag, answer TEXT, submit, quit.'],
    [en.check.intro('kubelet', 1), 'Self-check of kubelet: 1 task, shortest first. `check` grades, `next` records the result and moves on.'],
    [en.library.hintsAndChecks(2), '2 hints; checks:'],
    [en.library.checkPoints(1), '(1 point)'],
    [en.practice.resumed('check', 't-file'), 'the last check ended without quitting; t-file goes on where it was left (`reset` starts it over)'],
  ];
  for (const [got, want] of cases) assert.equal(got, want);
});
