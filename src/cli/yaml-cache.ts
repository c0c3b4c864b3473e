/**
 * The parsed kubeconfig of a one-shot `cka-lab kubectl`, kept between runs. Every one-shot
 * command parses the session's ~6 KB kubeconfig (its context and namespace), and in a fresh
 * process the YAML parser runs cold: about 7 ms of a `get` that should cost about two `node -e 0`
 * (~50 ms each), where reading the same value as JSON takes a few microseconds. The file is named
 * by the SHA-256 of the text, so an edited kubeconfig simply misses; only JSON-exact values are
 * kept (strings, finite numbers, booleans, null), so what a hit primes is what the parser gives.
 * Like the launcher's code cache it lives in the user's cache home, and any failure only costs
 * the parse it would have saved.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { memoisedYaml, primeYamlMemo } from '../util/yaml-memo.js';

/** `$XDG_CACHE_HOME/cka-lab/yaml` (an absolute XDG_CACHE_HOME only, as the spec says), else ~/.cache/cka-lab/yaml. */
export function yamlCacheDir(env: Record<string, string | undefined>): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg && xdg.startsWith('/') ? xdg : join(env['HOME'] || homedir(), '.cache'), 'cka-lab', 'yaml');
}

function fileFor(dir: string, text: string): string {
  return join(dir, `${createHash('sha256').update(text).digest('hex').slice(0, 32)}.json`);
}

/** Whether `v` is a JSON value that JSON.parse(JSON.stringify(v)) gives back unchanged. */
export function jsonExact(v: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (Array.isArray(v)) return v.every((x) => jsonExact(x, depth + 1));
  if (typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false;
  return Object.entries(v).every(([k, x]) => k !== '__proto__' && jsonExact(x, depth + 1));
}

/** Prime the YAML memo with this text's cached parse, when there is one. Returns whether it did. */
export function primeFromCache(dir: string, text: string): boolean {
  // parsed already in this process (a test's several runs): nothing to read
  if (memoisedYaml(text)) return true;
  try {
    const value = JSON.parse(readFileSync(fileFor(dir, text), 'utf8')) as { text?: unknown; value?: unknown };
    // the text itself is kept beside the value: a hash collision or a damaged file is no hit
    if (value.text !== text || !('value' in value)) return false;
    primeYamlMemo(text, value.value);
    return true;
  } catch {
    return false;
  }
}

/** Keep this text's parse, when this process parsed it without error and it is JSON-exact. */
export function saveToCache(dir: string, text: string): void {
  const hit = memoisedYaml(text);
  if (!hit || !jsonExact(hit.value)) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = fileFor(dir, text);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ text, value: hit.value }), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // a cache that cannot be written only costs speed
  }
}
