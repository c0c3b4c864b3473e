/**
 * Picking a language and a text: the part of text.ts without zod, so commands that only print
 * scenario texts (`cka-lab list`, `show`) need not load the schema library.
 */
import type { Text } from './text.js';

export const LANGS = ['en', 'ja', 'zh-CN'] as const;
export type Lang = (typeof LANGS)[number];

/** The text in `lang`, falling back to English. */
export function textFor(text: Text, lang: Lang = 'en'): string {
  if (typeof text === 'string') return text;
  return text[lang] ?? text.en;
}

/** Languages a text is available in (a plain string is English only). */
export function textLangs(text: Text): Lang[] {
  if (typeof text === 'string') return ['en'];
  return LANGS.filter((l) => text[l] !== undefined);
}

/**
 * Map a locale name (`ja_JP.UTF-8`, `zh_CN`, `zh-Hans`, `en_US`) to a supported language, or
 * undefined when it names none of them.
 */
export function normaliseLang(locale: string | undefined): Lang | undefined {
  if (!locale) return undefined;
  const base = locale.split('.')[0]!.replace('_', '-').toLowerCase();
  if (base === 'c' || base === 'posix') return 'en';
  if (base.startsWith('ja')) return 'ja';
  if (base.startsWith('zh')) return 'zh-CN';
  if (base.startsWith('en')) return 'en';
  return undefined;
}

/**
 * The language of texts and messages: `--lang`, then the locale in POSIX's order for messages
 * (LC_ALL, then LC_MESSAGES, then LANG; setlocale(3)), then English.
 */
export function resolveLang(flag: string | undefined, env: Record<string, string | undefined>): Lang {
  return normaliseLang(flag) ?? normaliseLang(env['LC_ALL']) ?? normaliseLang(env['LC_MESSAGES']) ?? normaliseLang(env['LANG']) ?? 'en';
}
