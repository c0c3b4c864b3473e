/**
 * Finding a command in the declared tree: cobra's Find walks argv's leading words through
 * subcommand names and aliases, skipping flags (and the values of flags that take one).
 */
import { COMMANDS, GLOBAL_OPTIONS } from './index.js';
import type { CommandSpec, FlagDecl } from './types.js';

export function findChild(commands: readonly CommandSpec[] | undefined, word: string): CommandSpec | undefined {
  return commands?.find((c) => c.name === word || c.aliases?.includes(word));
}

const FLAGS_OF = new WeakMap<CommandSpec, readonly FlagDecl[]>();
let ROOT_FLAGS: readonly FlagDecl[] | undefined;

/**
 * The flags a command accepts: its own, then the global options it does not shadow. Built once
 * per command (the specs are the module's constant tables) and frozen: every kubectl line asks,
 * and parseFlags keys its own tables by this array.
 */
export function flagsOf(spec: CommandSpec | undefined): readonly FlagDecl[] {
  const hit = spec ? FLAGS_OF.get(spec) : ROOT_FLAGS;
  if (hit) return hit;
  const own = spec?.flags ?? [];
  const all = Object.freeze([...own, ...GLOBAL_OPTIONS.filter((g) => !own.some((f) => f.name === g.name || (g.short !== undefined && f.short === g.short)))]);
  if (spec) FLAGS_OF.set(spec, all);
  else ROOT_FLAGS = all;
  return all;
}

/**
 * Whether a flag word takes the next word as its value while the command is being found: cobra's
 * stripFlags treats every `--flag`/`-f` without `=` as taking one, unless it is a known bool flag
 * or has a NoOptDefVal (so an unknown `--nmespace x get` still finds `get`, then fails on the flag).
 */
function takesValue(flags: readonly FlagDecl[], arg: string): boolean {
  if (arg.includes('=')) return false;
  const f = arg.startsWith('--') ? flags.find((x) => x.name === arg.slice(2)) : arg.length === 2 ? flags.find((x) => x.short === arg[1]) : undefined;
  if (f === undefined) return arg.startsWith('--') || arg.length === 2;
  return f.type !== 'bool' && f.noOptDefault === undefined;
}

export interface Located {
  /** The commands from the top-level verb down to the deepest one named. */
  path: CommandSpec[];
  /** argv without the words that named the commands, in order. */
  rest: string[];
  /** With an empty path: the first word, which names no command. */
  unknown?: string;
}

/**
 * Walk argv down the tree. Words that name a subcommand of the command reached so far select it;
 * flags (and their values) may stand anywhere before them; `--` stops the walk.
 */
export function locate(argv: readonly string[]): Located {
  const path: CommandSpec[] = [];
  const rest: string[] = [];
  let commands: readonly CommandSpec[] | undefined = COMMANDS;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (a.startsWith('-') && a.length > 1) {
      rest.push(a);
      if (takesValue(flagsOf(path[path.length - 1]), a) && i + 1 < argv.length) rest.push(argv[++i]!);
      continue;
    }
    const child = findChild(commands, a);
    if (child) {
      path.push(child);
      commands = child.commands;
      continue;
    }
    if (path.length === 0) return { path, rest: [...argv], unknown: a };
    rest.push(a);
    commands = undefined;
  }
  return { path, rest };
}
