/**
 * YAML parsing memoised by text. The simulation re-reads the same small files on every
 * reconcile (static pod manifests, the kube-proxy ConfigMap, kubelet config.yaml) and parsing
 * them was about a third of a scenario validation's time. Same text → a fresh deep copy of the
 * same value, or the same error thrown again; so callers may mutate what they get.
 */
import { parse } from 'yaml';
import { remember } from './bounded-map.js';

const MAX = 256;
const cache = new Map<string, { ok: true; value: unknown } | { ok: false; error: unknown }>();

export function parseYamlMemo(text: string): unknown {
  let hit = cache.get(text);
  if (!hit) {
    try {
      hit = { ok: true, value: parse(text) as unknown };
    } catch (error) {
      hit = { ok: false, error };
    }
    remember(cache, text, hit, MAX);
  }
  if (!hit.ok) throw hit.error;
  return hit.value === undefined || hit.value === null || typeof hit.value !== 'object' ? hit.value : structuredClone(hit.value);
}

/**
 * A value parsed elsewhere for this text (a one-shot command's cache on disk, cli/yaml-cache.ts):
 * later parses of the same text return copies of it. It must be what `parse(text)` returns.
 */
export function primeYamlMemo(text: string, value: unknown): void {
  if (!cache.has(text)) cache.set(text, { ok: true, value });
}

/** The memoised value of a text that parsed without error (shared, not copied: do not change it), if any. */
export function memoisedYaml(text: string): { value: unknown } | undefined {
  const hit = cache.get(text);
  return hit?.ok ? { value: hit.value } : undefined;
}

/** Forget every memoised parse (tests that stand for a new process). */
export function clearYamlMemo(): void {
  cache.clear();
}
