/**
 * cobra's "Did you mean this?" (spf13/cobra command.go SuggestionsFor): commands whose name is
 * within Levenshtein distance 2 of the typed word (SuggestionsMinimumDistance), or that start
 * with it, in cobra's sorted command order.
 */
import type { CommandSpec } from './spec/types.js';

/** Levenshtein distance, as cobra's ld() (case-insensitive there via ToLower on both). */
export function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

export function suggestionsFor(typed: string, commands: readonly CommandSpec[]): string[] {
  const t = typed.toLowerCase();
  return commands
    .map((c) => c.name)
    .filter((n) => distance(t, n.toLowerCase()) <= 2 || n.toLowerCase().startsWith(t))
    .sort();
}
