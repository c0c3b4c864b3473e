/**
 * `kubectl [COMMAND…] -h`: the help text rendered from a command's declaration, as kubectl's
 * templater lays it out (k8s.io/kubectl pkg/util/templates/templater.go MainHelpTemplate and
 * MainUsageTemplate; cobra's NamePadding). Sections: long text, Aliases, Examples, Available
 * Commands (or the root's command groups), Options, Usage, and the closing "Use …" lines.
 */
import type { CommandSpec, FlagDecl } from './types.js';
import { GROUPS, ROOT_LONG, ROOT_USAGE } from './index.js';

/** cobra's minNamePadding: command names are padded to at least this width. */
const MIN_NAME_PADDING = 11;

function commandRows(commands: readonly CommandSpec[], width: number): string {
  return commands.map((c) => `  ${c.name.padEnd(width)}   ${c.short}`).join('\n');
}

function nameWidth(commands: readonly CommandSpec[]): number {
  return Math.max(MIN_NAME_PADDING, ...commands.map((c) => c.name.length));
}

/** One flag as kubectl's flagsUsages prints it: `    -o, --output='':` then a tab and the usage. */
export function flagUsage(f: FlagDecl): string {
  return `    ${f.short ? `-${f.short}, ` : ''}--${f.name}=${f.defValue}:\n\t${f.usage}\n`;
}

export function flagsBlock(flags: readonly FlagDecl[]): string {
  return flags.filter((f) => f.deprecated === undefined).map(flagUsage).join('\n');
}

const OPTIONS_LINE = 'Use "kubectl options" for a list of global command-line options (applies to all commands).\n';

/** The root's help: `kubectl`, `kubectl -h`. */
export function rootHelp(): string {
  const width = nameWidth(GROUPS.flatMap((g) => g.commands));
  const groups = GROUPS.map((g) => `${g.title}:\n${g.commands.length ? `${commandRows(g.commands, width)}\n` : ''}`).join('\n');
  return `${ROOT_LONG}\n\n${groups}\nUsage:\n  ${ROOT_USAGE}\n\nUse "kubectl <command> --help" for more information about a given command.\n${OPTIONS_LINE}`;
}

/** The help of the command at `path` (its declaration is the last element). */
export function commandHelp(path: readonly CommandSpec[]): string {
  const spec = path[path.length - 1]!;
  const words = path.map((c) => c.name).join(' ');
  let out = `${spec.long}\n\n`;
  if (spec.aliases?.length) out += `Aliases:\n${[spec.name, ...spec.aliases].join(', ')}\n\n`;
  if (spec.example !== undefined) out += `Examples:\n${spec.example}\n\n`;
  if (spec.commands?.length) out += `Available Commands:\n${commandRows(spec.commands, nameWidth(spec.commands))}\n\n`;
  if (spec.flags?.length) out += `Options:\n${flagsBlock(spec.flags)}\n`;
  if (spec.usage !== undefined) out += `Usage:\n  ${spec.usage}\n\n`;
  if (spec.commands?.length) out += `Use "kubectl ${words} <command> --help" for more information about a given command.\n`;
  if (spec.usage !== undefined) out += OPTIONS_LINE;
  return out;
}
