/**
 * etcdctl's help: etcd-io/etcd v3.6.5 pkg/cobrautl/help.go UsageFunc, which etcdctl sets as the
 * root's usage function, with `{{.UsageString}}` as the help template (etcdctl/ctlv3/ctl.go Start),
 * so `-h`, `--help`, `help CMD` and a command without Run all print this usage alone. The template
 * (commandUsage): NAME, USAGE (cobra's UseLine), VERSION (root only), API VERSION (commands with
 * subcommands), Examples, COMMANDS (every runnable descendant, named from this command down),
 * DESCRIPTION (Long, trimmed, each line indented), OPTIONS (local flags, -h among them) and
 * GLOBAL OPTIONS (inherited), each indented by two spaces, then one empty line. Flags are written by
 * etcdFlagUsages: `  -s, --name` or `      --name`, bools as `[=false]` (pflag's NoOptDefVal),
 * strings quoted (`=""`), then a tab and the usage; the whole text goes through a tabwriter
 * (minwidth 0, tabwidth 8, padding 1, padchar '\t'), which aligns the flag and command columns
 * with tabs.
 */
import type { CobraCommand, CommandPath, FlagDef } from '../../cobra/command.js';
import { commandPathText, flagSets, helpCommand, nameOf } from '../../cobra/command.js';
import { tabwrite } from '../../../util/go-tabwriter.js';

const indent = (s: string): string => `  ${s.replaceAll('\n', '\n  ')}`;

/** Go's %q for the plain strings etcdctl's defaults are. */
const quote = (s: string): string => JSON.stringify(s);

/** etcdFlagUsages over pflag's sorted VisitAll. */
function flagLines(flags: readonly FlagDef[]): string {
  const sorted = [...flags].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sorted
    .map((f) => {
      const head = f.short ? `  -${f.short}, --${f.name}` : `      --${f.name}`;
      const value = f.type === 'string' ? `=${quote(f.def ?? '')}` : `=${f.def ?? (f.type === 'bool' ? 'false' : '0')}`;
      return `${head}${f.type === 'bool' ? `[${value}]` : value}\t${f.usage}\n`;
    })
    .join('');
}

/** The children cobra holds for a command: sorted by name; the root also has `help`. */
function kids(c: CobraCommand, isRoot: boolean): CobraCommand[] {
  const list = [...(c.commands ?? [])];
  if (isRoot && list.length > 0) list.push(helpCommand(c));
  return list.sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
}

/** getSubCommands: every descendant, depth first, with its name from `c` down (the template's cmdName). */
function descendants(c: CobraCommand, isRoot: boolean, prefix = ''): { name: string; cmd: CobraCommand }[] {
  return kids(c, isRoot).flatMap((k) => {
    const name = `${prefix}${nameOf(k)}`;
    return [{ name, cmd: k }, ...descendants(k, false, `${name} `)];
  });
}

function useLine(p: CommandPath): string {
  const c = p[p.length - 1]!;
  const line = p.length > 1 ? `${commandPathText(p.slice(0, -1))} ${c.use}` : c.use;
  // HasAvailableFlags is always true: -h is one of them
  return c.disableFlagsInUseLine || line.includes('[flags]') ? line : `${line} [flags]`;
}

/**
 * `helpFlag`: cobra adds -h to the command it executes (InitDefaultHelpFlag); the root's usage after
 * an unknown help topic is printed without it.
 */
export function etcdctlUsage(p: CommandPath, version: string, apiVersion: string, helpFlag = true): string {
  const c = p[p.length - 1]!;
  const isRoot = p.length === 1;
  const hasSubs = kids(c, isRoot).length > 0;
  let w = `NAME:\n${indent(`${isRoot ? nameOf(c) : commandPathText(p.slice(1))} - ${c.short}`)}\n`;
  w += `\nUSAGE:\n${indent(useLine(p))}\n`;
  if (isRoot) w += `\nVERSION:\n${indent(version)}\n`;
  if (hasSubs) w += `\nAPI VERSION:\n${indent(apiVersion)}\n`;
  if (c.example) w += `\nExamples:\n${c.example}\n`;
  if (hasSubs) {
    w += '\nCOMMANDS:\n';
    for (const d of descendants(c, isRoot)) if (d.cmd.run !== 'none') w += `${indent(`${d.name}\t${d.cmd.short}`)}\n`;
  }
  if (c.long) {
    w += '\nDESCRIPTION:\n';
    for (const line of c.long.replace(/^[\n\t ]+|[\n\t ]+$/g, '').split('\n')) w += `${indent(line)}\n`;
  }
  const { local, inherited } = flagSets(p);
  w += `\nOPTIONS:\n${flagLines(helpFlag ? local : local.filter((f) => f.name !== 'help'))}`;
  if (inherited.length > 0) w += `\nGLOBAL OPTIONS:\n${flagLines(inherited)}`;
  w += '\n';
  return tabwrite(w, { minwidth: 0, tabwidth: 8, padding: 1, padchar: '\t' });
}
