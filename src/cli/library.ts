/**
 * The scenario library the commands use: the package's scenarios/ folder, or the folder named by
 * CKA_LAB_SCENARIOS (scenario authors and tests). Load errors are printed, not fatal, except to
 * `validate`.
 */
import { join } from 'node:path';
// only the light loader and language helpers: the parser and schema load on an index miss
import { loadLibraryIndexed, formatLoadError, knownFrom, readIndex, INDEX_FILE, SUMMARY_FILE, type KnownScenario, type LoadedScenario } from '../scenario/library-files.js';
import { resolveLang, type Lang } from '../scenario/lang.js';
import { packageRoot } from '../app/paths.js';
import { CliError, type CliIo } from './io.js';
import { messages } from '../ui/messages.js';

export function libraryDir(io: CliIo): string {
  return io.env['CKA_LAB_SCENARIOS'] || join(packageRoot(), 'scenarios');
}

/**
 * The build-time scenario index sits beside the bundle's chunks (scripts/bundle.mjs): only the
 * bundle built with it reads it; from source there is none and every file is parsed.
 */
const INDEX_URL = new URL(`./${INDEX_FILE}`, import.meta.url);

const SUMMARY_URL = new URL(`./${SUMMARY_FILE}`, import.meta.url);

/**
 * The library's scenarios; with `summaries`, only their catalogue fields where the build-time
 * summaries know the file (a changed or new file is parsed in full), for commands that list.
 */
export async function library(io: CliIo, quiet = false, summaries = false): Promise<LoadedScenario[]> {
  const { scenarios, errors } = await loadLibraryIndexed(libraryDir(io), readIndex(summaries ? SUMMARY_URL : INDEX_URL));
  if (!quiet) for (const e of errors) io.stderr.write(`cka-lab: ${formatLoadError(e)}\n`);
  return scenarios;
}

/**
 * The scenarios the build-time index knows, by file text (none from source): what `validate` loads
 * the library with. An entry is the file parsed and schema-checked by the code that wrote it, so a
 * hit is what parsing the file again would give; a changed or new file misses and is parsed.
 */
export function libraryIndex(): KnownScenario | undefined {
  return knownFrom(readIndex(INDEX_URL));
}

/** `--lang` if given, else the environment's language (LC_ALL, LANG); a flag naming no language is refused in the environment's. */
export function langOf(flag: string | undefined, io: CliIo): Lang {
  if (flag !== undefined && !['en', 'ja', 'zh-CN'].includes(flag)) throw new CliError(messages(resolveLang(undefined, io.env)).unknownLang(flag), 2);
  return resolveLang(flag, io.env);
}

/**
 * Tasks in a stable order: domain (exam weight order), then shorter first, then id. Ids are
 * [a-z0-9-], whose code-point order is the collator's; localeCompare's first call would load ICU's
 * collator, a fifth of `cka-lab list`.
 */
export function ordered(tasks: readonly LoadedScenario[]): LoadedScenario[] {
  const rank = ['troubleshooting', 'cluster-architecture', 'services-networking', 'workloads-scheduling', 'storage'];
  return [...tasks].sort((a, b) => rank.indexOf(a.domain) - rank.indexOf(b.domain) || a.minutes - b.minutes || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A seed when none was given: different per run, so a retry is not memorised. */
export function freshSeed(io: CliIo): number {
  return (io.realNow() % 1_000_000) + 1;
}
