import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveLang, textFor } from './text.js';

test('language: --lang, then LC_ALL, LC_MESSAGES, LANG, then English', () => {
  const cases: { flag?: string; env: Record<string, string>; want: string }[] = [
    { flag: 'ja', env: { LANG: 'zh_CN.UTF-8' }, want: 'ja' },
    { env: { LANG: 'zh_CN.UTF-8' }, want: 'zh-CN' },
    { env: { LANG: 'ja_JP.UTF-8' }, want: 'ja' },
    { env: { LANG: 'de_DE.UTF-8' }, want: 'en' },
    { flag: 'xx', env: {}, want: 'en' },
    { env: { LC_MESSAGES: 'ja_JP.UTF-8', LANG: 'en_US.UTF-8' }, want: 'ja' },
    { env: { LC_ALL: 'C', LC_MESSAGES: 'ja_JP.UTF-8' }, want: 'en' },
    { env: { LC_ALL: 'zh_CN.UTF-8', LC_MESSAGES: 'ja_JP.UTF-8', LANG: 'ja_JP.UTF-8' }, want: 'zh-CN' },
  ];
  for (const c of cases) assert.equal(resolveLang(c.flag, c.env), c.want, JSON.stringify(c));
  assert.equal(textFor({ en: 'Hello', ja: 'こんにちは' }, 'zh-CN'), 'Hello', 'falls back to English');
  assert.equal(textFor('plain', 'ja'), 'plain');
});
