/**
 * `kubectl` itself, as cobra runs it (spf13/cobra command.go Find/ExecuteC, kubectl's templater):
 * find the command in the declared tree (spec/), answer `-h`/`--help` from its declaration, parse
 * every flag against that declaration once, and hand the verb its parsed options. Whatever a verb
 * throws becomes kubectl's error text here, at the edge.
 */
import type { CommandResult } from '../types.js';
import type { ShellResult } from '../commands/types.js';
import type { Invocation, KubectlEnv, Verb } from './context.js';
import { parseFlags, type Parsed } from './flags.js';
import { errorResult, KubectlError, seeHelp } from './errors.js';
import { VERBS } from './verbs/index.js';
import { COMMANDS } from './spec/index.js';
import { commandHelp, rootHelp } from './spec/help.js';
import { flagsOf, locate } from './spec/lookup.js';
import type { CommandSpec, FlagDecl } from './spec/types.js';
import { suggestionsFor } from './suggest.js';
import { ClientConfigError, clientContext } from './credentials.js';
import { kubectlWarnings } from './resource-args.js';

/**
 * The implementation for each command path asked for, by its words (`create deployment`): the
 * answer depends on those names alone (VERBS is a constant table), and the paths are the
 * declared tree's, so the map holds at most one entry per declared command.
 */
const IMPLEMENTATIONS = new Map<string, { verb: Verb; depth: number } | undefined>();

/** The implementation registered for a command path (`create deployment`), or for its nearest ancestor. */
function implementationFor(path: readonly CommandSpec[]): { verb: Verb; depth: number } | undefined {
  const words = path.map((c) => c.name).join(' ');
  if (IMPLEMENTATIONS.has(words)) return IMPLEMENTATIONS.get(words);
  const found = findImplementation(path);
  IMPLEMENTATIONS.set(words, found);
  return found;
}

function findImplementation(path: readonly CommandSpec[]): { verb: Verb; depth: number } | undefined {
  for (let depth = path.length; depth > 0; depth--) {
    const key = path
      .slice(0, depth)
      .map((c) => c.name)
      .join(' ');
    const verb = VERBS.find((v) => v.name === key);
    if (verb) return { verb, depth };
  }
  return undefined;
}

export function findVerb(name: string): Verb | undefined {
  return implementationFor(locate([name]).path)?.verb;
}

const DEPRECATED = new WeakMap<readonly FlagDecl[], readonly FlagDecl[]>();

/** The deprecated flags of a command's flag table (flagsOf's frozen array, so kept by it). */
function deprecatedFlags(flags: readonly FlagDecl[]): readonly FlagDecl[] {
  let hit = DEPRECATED.get(flags);
  if (!hit) DEPRECATED.set(flags, (hit = flags.filter((f) => f.deprecated !== undefined)));
  return hit;
}

const wantsHelp = (rest: readonly string[]): boolean => {
  const dash = rest.indexOf('--');
  return (dash < 0 ? rest : rest.slice(0, dash)).some((a) => a === '-h' || a === '--help' || a === '--help=true');
};

export async function runKubectl(argv: string[], env: KubectlEnv): Promise<CommandResult> {
  const loc = locate(argv);
  if (loc.path.length === 0) {
    if (loc.unknown !== undefined) {
      const suggestions = suggestionsFor(loc.unknown, COMMANDS);
      const more = suggestions.length ? `\n\nDid you mean this?\n${suggestions.map((s) => `\t${s}`).join('\n')}` : '';
      return { stdout: '', stderr: `error: unknown command "${loc.unknown}" for "kubectl"${more}\n`, exitCode: 1 };
    }
    // `kubectl`, `kubectl -h`: the root help; a bad global flag is reported against the root
    try {
      parseFlags(argv, flagsOf(undefined));
    } catch (e) {
      return errorResult(e, '');
    }
    return { stdout: rootHelp(), stderr: '', exitCode: 0 };
  }
  const { path, rest } = loc;
  const spec = path[path.length - 1]!;
  const words = path.map((c) => c.name).join(' ');
  if (wantsHelp(rest)) return { stdout: commandHelp(path), stderr: '', exitCode: 0 };
  let parsed: Parsed;
  try {
    parsed = parseFlags(rest, flagsOf(spec));
  } catch (e) {
    return errorResult(e, words);
  }
  if (spec.bare && parsed.args.length > 0) {
    // DefaultSubCommandRun with arguments: cmdutil.UsageErrorf(cmd, "unknown command %q", …)
    return errorResult(new KubectlError(`unknown command "${parsed.args.join(' ')}"`, seeHelp(words)), words);
  }
  if (spec.bare && parsed.args.length === 0) {
    // a group run without its subcommand: cobra's DefaultSubCommandRun prints the help
    const text = commandHelp(path);
    return spec.bare.stream === 'stdout' ? { stdout: text, stderr: '', exitCode: spec.bare.exitCode } : { stdout: '', stderr: text, exitCode: spec.bare.exitCode };
  }
  const impl = implementationFor(path);
  if (!impl) return { stdout: '', stderr: `error: cka-lab does not simulate "kubectl ${words}" yet\n`, exitCode: 1 };
  const inv: Invocation = { path, parsed, words };
  // every request goes to the API server as the kubeconfig's user (authenticated, then RBAC)
  let client: ReturnType<typeof clientContext>;
  try {
    client = clientContext(env, parsed, words);
  } catch (e) {
    if (e instanceof ClientConfigError) return { stdout: '', stderr: `error: ${e.message}\n`, exitCode: 1 };
    throw e;
  }
  const asClient = (shortNames: string[]): KubectlEnv => (client ? { ...env, api: env.api.forClient(client), shortNames } : { ...env, shortNames });
  // pflag prints a deprecated flag's notice while parsing, before the command runs
  let notices = deprecatedFlags(flagsOf(spec))
    .filter((f) => parsed.changed.has(f.name))
    .map((f) => `Flag --${f.name} has been deprecated, ${f.deprecated}\n`)
    .join('');
  let result: CommandResult;
  let warned = '';
  try {
    const run = await kubectlWarnings(async (shortNames) => impl.verb.run(inv, asClient(shortNames)));
    result = run.value;
    warned = run.warnings;
  } catch (e) {
    result = errorResult(e, words);
  }
  // (a short name's warning is printed as its type is resolved: before anything the command prints)
  notices += warned;
  if (!notices) return result;
  // the notice comes first on the terminal: replayed in order by the shell (ShellResult.chunks)
  const order = (result as ShellResult).chunks ?? [
    { stream: 'stdout' as const, text: result.stdout },
    { stream: 'stderr' as const, text: result.stderr },
  ];
  return { ...result, stderr: notices + result.stderr, chunks: [{ stream: 'stderr', text: notices }, ...order.filter((c) => c.text !== '')] } as ShellResult;
}
