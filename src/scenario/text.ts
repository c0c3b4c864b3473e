/**
 * Localised text. Every human-facing field of a scenario (title, task, hints, descriptions,
 * explanation) takes either a plain English string or a map of languages. Identifiers, commands
 * and paths are never translated, so they live outside these fields or verbatim inside them.
 */
import { z } from 'zod/v4';

export { textFor, textLangs, normaliseLang, resolveLang, LANGS, type Lang } from './lang.js';

export const TextSchema = z.union([
  z.string().min(1),
  z.strictObject({ en: z.string().min(1), ja: z.string().min(1).optional(), 'zh-CN': z.string().min(1).optional() }),
]);
export type Text = z.infer<typeof TextSchema>;

