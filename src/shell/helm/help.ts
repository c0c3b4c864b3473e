/**
 * `-h`/`--help`, `helm help [COMMAND…]`, and the commands that only group others, answered with
 * the texts recorded from helm v4.1.4 (help.generated.ts, scripts/record-helm.mjs), the user's
 * HOME put back where the recorder's stood:
 *  - `helm`, `helm -h`, `helm help`: the root help; `helm help TOPIC…` the help of the command
 *    cobra's Find reaches (`helm help repo nope` is repo's), or, when the first word is no
 *    command, `Unknown help topic [\`TOPIC\`]` and the root usage on stderr, exit status 0;
 *  - `helm PATH … -h|--help`: the flags are parsed first (an unknown flag is still an error),
 *    then PATH's help; `helm get`, `helm repo`, `helm show`, `helm search` without a known
 *    subcommand print their own help (they have no Run of their own), exit status 0.
 */
import type { CommandResult } from '../types.js';
import { parseArgs } from './args.js';
import { flagTable } from './flag-table.js';
import { HELM_HELP, HELM_UNKNOWN_TOPIC, HELP_HOME, UNKNOWN_TOPIC } from './help.generated.js';

/** Command aliases as helm declares them (cobra Aliases). */
const ALIASES: Record<string, string> = { hist: 'history', ls: 'list', fetch: 'pull', inspect: 'show', un: 'uninstall', delete: 'uninstall', del: 'uninstall', 'repo ls': 'repo list', 'repo rm': 'repo remove', 'repo up': 'repo update', dep: 'dependency', 'dependency ls': 'dependency list', 'dependency up': 'dependency update' };

const canonical = (path: string): string => ALIASES[path] ?? path;

/** cobra's Find over the recorded tree: the deepest command the leading words name. */
function find(words: readonly string[]): string | undefined {
  const top = canonical(words[0] ?? '');
  if (!(top in HELM_HELP) || top === '') return undefined;
  const sub = words[1] !== undefined ? canonical(`${top} ${words[1]}`) : undefined;
  return sub !== undefined && sub in HELM_HELP ? sub : top;
}

const out = (text: string, home: string): CommandResult => ({ stdout: text.replaceAll(HELP_HOME, home), stderr: '', exitCode: 0 });

/**
 * The recorded command path a command line names (`ls` → `list`, `get -n shop values web` →
 * `get values`), as cobra's Find reaches it: flags are stripped with their values (stripFlags
 * knows from the command's flag set which flags take one), then the first word after the
 * command may name its subcommand.
 */
export function commandPath(argv: readonly string[]): string | undefined {
  const [first, ...rest] = argv;
  if (first === undefined) return undefined;
  const table = find([first]) !== undefined ? flagTable(find([first])!) : undefined;
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    if (w === '--') break;
    if (!w.startsWith('-') || w === '-') return find([first, w]);
    if (w.includes('=')) continue;
    const name = w.startsWith('--') ? w.slice(2) : table?.short.get(w.slice(1, 2));
    // a shorthand with its value attached (-nshop) takes nothing more
    const attached = !w.startsWith('--') && w.length > 2;
    if (name !== undefined && !attached && table?.long.get(name) === 'value') i++;
  }
  return find([first]);
}

/** The help the command line asks for, or undefined when it asks for none. */
export function helpAsked(argv: readonly string[], home: string): CommandResult | undefined {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help') return out(HELM_HELP['']!, home);
  if (first === 'help') {
    const words = rest.filter((w) => !w.startsWith('-'));
    if (words.length === 0) return out(HELM_HELP['']!, home);
    const path = find(words);
    if (path) return out(HELM_HELP[path]!, home);
    const topic = `[${words.map((w) => `\`${w}\``).join(' ')}]`;
    return { stdout: '', stderr: HELM_UNKNOWN_TOPIC.replace(`[\`${UNKNOWN_TOPIC}\`]`, topic).replaceAll(HELP_HOME, home), exitCode: 0 };
  }
  const end = argv.indexOf('--');
  const flagsPart = end < 0 ? argv : argv.slice(0, end);
  const wantsHelp = flagsPart.some((w) => w === '-h' || w === '--help' || w === '--help=true');
  const path = commandPath(argv);
  if (!path) return undefined;
  const group = !path.includes(' ') && Object.keys(HELM_HELP).some((k) => k.startsWith(`${path} `));
  if (!wantsHelp && !(group && path === canonical(first))) return undefined;
  // an unknown flag is reported before help; parseArgs throws it and the dispatcher words it
  if (wantsHelp) {
    try {
      parseArgs(argv.slice(1), flagTable(path));
    } catch {
      return undefined;
    }
  }
  return out(HELM_HELP[path]!, home);
}
