/**
 * `kubectl` itself: finds the verb (global flags may come before it), resolves aliases, and runs
 * it, turning whatever it throws into kubectl's error text. Verbs live one per file in ./verbs/.
 */
import type { CommandResult } from '../types.js';
import type { KubectlEnv, Verb } from './context.js';
import { FlagError, GLOBAL_FLAGS, parseFlags } from './flags.js';
import { errorResult } from './errors.js';
import { VERBS } from './verbs/index.js';

/** Levenshtein distance, for cobra's "Did you mean this?" (SuggestionsMinimumDistance = 2). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

export function findVerb(name: string): Verb | undefined {
  return VERBS.find((v) => v.name === name || v.aliases?.includes(name));
}

/** Split argv into leading global flags, the verb name and the rest. */
function splitVerb(argv: string[]): { verbIndex: number } {
  const takesValue = new Set(GLOBAL_FLAGS.filter((f) => f.type !== 'bool').flatMap((f) => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])]));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-')) return { verbIndex: i };
    if (takesValue.has(a)) i++;
  }
  return { verbIndex: -1 };
}

export async function runKubectl(argv: string[], env: KubectlEnv): Promise<CommandResult> {
  const { verbIndex } = splitVerb(argv);
  if (verbIndex < 0) {
    return { stdout: usage(), stderr: '', exitCode: 0 };
  }
  const name = argv[verbIndex]!;
  const verb = findVerb(name);
  if (!verb) {
    const suggestions = VERBS.map((v) => v.name).filter((v) => distance(v, name) <= 2 || v.startsWith(name)).sort();
    const more = suggestions.length ? `\n\nDid you mean this?\n${suggestions.map((s) => `\t${s}`).join('\n')}` : '';
    return { stdout: '', stderr: `error: unknown command "${name}" for "kubectl"${more}\n`, exitCode: 1 };
  }
  // global flags typed before the verb go after its words (but before `--`), so verbs with
  // subcommands (`kubectl -n x rollout status …`) still see the subcommand first
  const after = argv.slice(verbIndex + 1);
  const dash = after.indexOf('--');
  const rest = dash < 0 ? [...after, ...argv.slice(0, verbIndex)] : [...after.slice(0, dash), ...argv.slice(0, verbIndex), ...after.slice(dash)];
  try {
    const global = parseFlags(argv.slice(0, verbIndex), []);
    return await verb.run(rest, env, global);
  } catch (e) {
    if (e instanceof FlagError) return errorResult(e, verb.name);
    return errorResult(e, verb.name);
  }
}

function usage(): string {
  const lines = VERBS.map((v) => `  ${v.name.padEnd(15)}${v.short}`);
  return `kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/\n\nCommands:\n${lines.join('\n')}\n\nUsage:\n  kubectl [flags] [options]\n`;
}
