/**
 * A cobra command tree as data, and what cobra (spf13/cobra v1.10, command.go and args.go) and
 * pflag (spf13/pflag v1.0.9, flag.go) do with a command line before a command's own Run: find
 * the command the words name, parse its flags, answer `-h`/`--help` and commands without Run
 * with the help text, refuse unknown flags and commands. Tools built on cobra (kubeadm, …)
 * declare their tree in one table file and hand the outcome's errors to their own error
 * printer (kubeadm's CheckErr, cobra's `Error: …`).
 *
 * The help layout is cobra's defaultHelpFunc and defaultUsageFunc; flag lines are pflag's
 * FlagUsagesWrapped(0): `  -s, --name type` padded to the longest such column, the usage, and
 * ` (default …)` unless the default is the type's zero value.
 */

/** One flag as pflag holds it: its Value.Type() and DefValue. */
export interface FlagDef {
  name: string;
  short?: string;
  /** pflag's Value.Type(): bool, string, duration, stringSlice, int, uint64, or a custom type's name (Level). */
  type: string;
  /** DefValue as pflag prints it (`24h0m0s`, `[signing,authentication]`, `true`); absent = the zero value. */
  def?: string;
  usage: string;
  hidden?: boolean;
}

/** What a command does when it is reached, short of the tool's own Run. */
export type RunKind =
  /** no Run: cobra prints the help (exit status 0) */
  | 'none'
  /** a Run the simulation implements */
  | 'run'
  /** the tool's "this command needs a subcommand" Run (kubeadm's cmdutil.SubCmdRun) */
  | 'subcommands'
  /** a Run that prints the command's help, status 0 (kubeadm's phases with sub-phases: RunE returns cmd.Help()) */
  | 'help'
  /** kubeadm's cmdutil.SubCmdRunE(name): an error, `missing subcommand; "name" is not meant to be run on its own` or `invalid subcommand: "x"` */
  | 'subcmd-rune';

export interface CobraCommand {
  /** cobra's Use: the name, then the argument synopsis (`create [token]`). */
  use: string;
  aliases?: readonly string[];
  short: string;
  long?: string;
  example?: string;
  run: RunKind;
  /** cobra.NoArgs: extra words are `unknown command "x" for "path"`. */
  noArgs?: boolean;
  disableFlagsInUseLine?: boolean;
  hidden?: boolean;
  flags?: readonly FlagDef[];
  persistentFlags?: readonly FlagDef[];
  commands?: readonly CobraCommand[];
  /**
   * false when the command's upstream help has not been recorded here: it is listed by its parent,
   * but its help and flags are not known, so flags are not checked and `-h` says so.
   */
  recorded?: boolean;
}

export const nameOf = (c: CobraCommand): string => c.use.split(' ')[0]!;

/** The help command cobra adds to a root that has subcommands (InitDefaultHelpCmd). */
export function helpCommand(root: CobraCommand): CobraCommand {
  const name = nameOf(root);
  return {
    use: 'help [command]',
    short: 'Help about any command',
    long: `Help provides help for any command in the application.\nSimply type ${name} help [path to command] for full details.`,
    run: 'run',
  };
}

/** A path from the root to a command. */
export type CommandPath = readonly CobraCommand[];

const last = (p: CommandPath): CobraCommand => p[p.length - 1]!;
export const commandPathText = (p: CommandPath): string => p.map(nameOf).join(' ');

/** cobra sorts a command's children by name (EnableCommandSorting); the root also has `help`. */
function children(p: CommandPath): CobraCommand[] {
  const c = last(p);
  const list = [...(c.commands ?? [])];
  if (p.length === 1 && list.length > 0) list.push(helpCommand(c));
  return list.sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
}

function isAvailable(c: CobraCommand, isHelp: boolean): boolean {
  if (c.hidden || isHelp) return false;
  return c.run !== 'none' || (c.commands ?? []).some((s) => isAvailable(s, false));
}

function hasAvailableSubCommands(p: CommandPath): boolean {
  return (last(p).commands ?? []).some((s) => isAvailable(s, false));
}

/** cobra's IsAdditionalHelpTopicCommand: not runnable, not hidden, no non-topic children. */
function isHelpTopic(c: CobraCommand): boolean {
  if (c.run !== 'none' || c.hidden) return false;
  return (c.commands ?? []).every(isHelpTopic);
}

const helpFlag = (c: CobraCommand): FlagDef => ({ name: 'help', short: 'h', type: 'bool', usage: `help for ${nameOf(c)}` });

/** The command's own flags (Flags and PersistentFlags, with -h) and those it inherits from its parents. */
export function flagSets(p: CommandPath): { local: FlagDef[]; inherited: FlagDef[] } {
  const c = last(p);
  const local = [...(c.flags ?? []), ...(c.persistentFlags ?? [])];
  if (!local.some((f) => f.name === 'help')) local.push(helpFlag(c));
  const names = new Set(local.map((f) => f.name));
  const inherited: FlagDef[] = [];
  for (const parent of p.slice(0, -1).reverse())
    for (const f of parent.persistentFlags ?? [])
      if (!names.has(f.name)) {
        names.add(f.name);
        inherited.push(f);
      }
  return { local, inherited };
}

const isBool = (f: FlagDef): boolean => f.type === 'bool';

/** pflag's defaultIsZeroValue. */
function defaultIsZero(f: FlagDef): boolean {
  const d = f.def ?? '';
  switch (f.type) {
    case 'bool':
      return d === 'false' || d === '';
    case 'duration':
      return d === '' || d === '0' || d === '0s';
    case 'int':
    case 'int32':
    case 'int64':
    case 'uint':
    case 'uint64':
    case 'float64':
    case 'count':
      return d === '' || d === '0';
    case 'string':
      return d === '';
    case 'stringSlice':
    case 'stringArray':
    case 'intSlice':
      return d === '' || d === '[]';
    default:
      return d === '' || d === 'false' || d === '<nil>' || d === '0';
  }
}

/** pflag's UnquoteUsage: the value's name shown after the flag (a back-quoted word of the usage wins). */
function unquoteUsage(f: FlagDef): { name: string; usage: string } {
  const m = /`([^`]*)`/.exec(f.usage);
  if (m) return { name: m[1]!, usage: f.usage.replace(m[0], m[1]!) };
  const names: Record<string, string> = { bool: '', float64: 'float', int64: 'int', uint64: 'uint', stringSlice: 'strings', intSlice: 'ints', uintSlice: 'uints', boolSlice: 'bools', func: 'value' };
  return { name: names[f.type] ?? f.type, usage: f.usage };
}

/** pflag's FlagUsagesWrapped(0) over flags sorted by name; the trailing newline trimmed as cobra does. */
export function flagUsages(flags: readonly FlagDef[]): string {
  const sorted = flags.filter((f) => !f.hidden).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const rows = sorted.map((f) => {
    let head = f.short ? `  -${f.short}, --${f.name}` : `      --${f.name}`;
    const { name, usage } = unquoteUsage(f);
    if (name !== '') head += ` ${name}`;
    let tail = usage;
    if (!defaultIsZero(f)) tail += f.type === 'string' ? ` (default ${JSON.stringify(f.def)})` : ` (default ${f.def})`;
    return { head, tail };
  });
  const maxlen = Math.max(0, ...rows.map((r) => r.head.length));
  // wrap(maxlen+2, 0, usage): continuation lines of a multi-line usage line up under the first
  return rows.map((r) => `${r.head.padEnd(maxlen)}   ${r.tail.replaceAll('\n', `\n${' '.repeat(maxlen + 3)}`)}`).join('\n');
}

/** cobra's UseLine. */
function useLine(p: CommandPath): string {
  const c = last(p);
  const parent = p.length > 1 ? `${commandPathText(p.slice(0, -1))} ` : '';
  let line = parent + c.use;
  if (c.disableFlagsInUseLine) return line;
  if (!line.includes('[flags]')) line += ' [flags]';
  return line;
}

/** cobra's defaultUsageFunc (UsageString). */
export function usageString(p: CommandPath): string {
  const c = last(p);
  const path = commandPathText(p);
  let w = 'Usage:';
  if (c.run !== 'none') w += `\n  ${useLine(p)}`;
  const subs = hasAvailableSubCommands(p);
  if (subs) w += `\n  ${path} [command]`;
  if (c.aliases?.length) w += `\n\nAliases:\n  ${[nameOf(c), ...c.aliases].join(', ')}`;
  if (c.example) w += `\n\nExamples:\n${c.example}`;
  const kids = children(p);
  if (subs) {
    const pad = Math.max(11, ...kids.map((k) => nameOf(k).length));
    w += '\n\nAvailable Commands:';
    for (const k of kids) if (isAvailable(k, false) || nameOf(k) === 'help') w += `\n  ${nameOf(k).padEnd(pad)} ${k.short}`;
  }
  const { local, inherited } = flagSets(p);
  if (local.some((f) => !f.hidden)) w += `\n\nFlags:\n${flagUsages(local)}`;
  if (inherited.some((f) => !f.hidden)) w += `\n\nGlobal Flags:\n${flagUsages(inherited)}`;
  const topics = (c.commands ?? []).filter(isHelpTopic);
  if (topics.length) {
    const pad = Math.max(11, ...kids.map((k) => `${path} ${nameOf(k)}`.length));
    w += '\n\nAdditional help topics:';
    for (const t of [...topics].sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : 1))) w += `\n  ${`${path} ${nameOf(t)}`.padEnd(pad)} ${t.short}`;
  }
  if (subs) w += `\n\nUse "${path} [command] --help" for more information about a command.`;
  return `${w}\n`;
}

/** cobra's defaultHelpFunc: Long (or Short) trimmed at the end, a blank line, then the usage. */
export function helpString(p: CommandPath): string {
  const c = last(p);
  const text = (c.long || c.short).replace(/\s+$/, '');
  let out = text ? `${text}\n\n` : '';
  if (c.run !== 'none' || (c.commands?.length ?? 0) > 0) out += usageString(p);
  return out;
}

/** Levenshtein distance, as cobra's ld (case-insensitive there). */
function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let j = 1; j <= t.length; j++)
    for (let i = 1; i <= s.length; i++) d[i]![j] = s[i - 1] === t[j - 1] ? d[i - 1]![j - 1]! : Math.min(d[i - 1]![j]!, d[i]![j - 1]!, d[i - 1]![j - 1]!) + 1;
  return d[s.length]![t.length]!;
}

/** cobra's findSuggestions: available commands within distance 2 or with the word as a prefix. */
export function suggestions(p: CommandPath, word: string): string {
  const hits = children(p)
    .filter((k) => isAvailable(k, false))
    .map(nameOf)
    .filter((n) => distance(word, n) <= 2 || n.toLowerCase().startsWith(word.toLowerCase()));
  return hits.length ? `\n\nDid you mean this?\n${hits.map((h) => `\t${h}\n`).join('')}` : '';
}

/** The flag of a path that a word names (`--ttl`, `-o`), if any. */
function lookup(flags: readonly FlagDef[], word: string): FlagDef | undefined {
  if (word.startsWith('--')) {
    const name = word.slice(2).split('=')[0]!;
    return flags.find((f) => f.name === name);
  }
  return flags.find((f) => f.short === word.slice(1, 2));
}

/** cobra's stripFlags: the words that are not flags or flag values (a long flag without `=` that is not a bool takes the next word). */
export function stripFlags(args: readonly string[], flags: readonly FlagDef[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const s = args[i]!;
    if (s === '--') break;
    if (s.startsWith('--') && !s.includes('=') && !(lookup(flags, s) && isBool(lookup(flags, s)!))) i++;
    else if (s.startsWith('-') && s.length === 2 && !(lookup(flags, s) && isBool(lookup(flags, s)!))) i++;
    else if (!s.startsWith('-') || s === '-') out.push(s);
  }
  return out;
}

export const allFlags = (p: CommandPath): FlagDef[] => {
  const { local, inherited } = flagSets(p);
  return [...local, ...inherited];
};

/** cobra's Find: follow leading words (flags skipped) down the tree; the rest are the command's words. */
export function find(root: CobraCommand, args: readonly string[]): { path: CommandPath; rest: string[] } {
  let path: CommandPath = [root];
  let rest = [...args];
  for (;;) {
    const words = stripFlags(rest, allFlags(path));
    if (words.length === 0) return { path, rest };
    const next = words[0]!;
    const kid = children(path).find((k) => nameOf(k) === next || (k.aliases ?? []).includes(next));
    if (!kid) return { path, rest };
    const at = rest.indexOf(next);
    rest = [...rest.slice(0, at), ...rest.slice(at + 1)];
    path = [...path, kid];
  }
}

export interface Parsed {
  args: string[];
  /** flag name → the values given, in order (a bool given bare is "true") */
  values: Map<string, string[]>;
}

/** Go's time.ParseDuration, enough to validate (`24h`, `1h30m`, `0`, `1.5h`). */
function validDuration(s: string): boolean {
  return s === '0' || /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|\u00b5s|ms|s|m|h))+$/.test(s);
}

function checkValue(f: FlagDef, v: string, shown: string): string | undefined {
  if (f.type === 'bool' && !/^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/.test(v)) return `invalid argument "${v}" for "${shown}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`;
  if (f.type === 'duration' && !validDuration(v)) return `invalid argument "${v}" for "${shown}" flag: time: invalid duration "${v}"`;
  // pflag's int, int32 and int64 parse with strconv.ParseInt, uint and uint64 with strconv.ParseUint
  if (['int', 'int32', 'int64'].includes(f.type) && !/^[-+]?\d+$/.test(v)) return `invalid argument "${v}" for "${shown}" flag: strconv.ParseInt: parsing "${v}": invalid syntax`;
  if (['uint', 'uint64'].includes(f.type) && !/^\d+$/.test(v)) return `invalid argument "${v}" for "${shown}" flag: strconv.ParseUint: parsing "${v}": invalid syntax`;
  return undefined;
}

/** pflag's Parse with interspersed arguments, its error wording on failure. */
export function parseFlags(args: readonly string[], flags: readonly FlagDef[], normalize: (n: string) => string = (n) => n): Parsed | { error: string } {
  const values = new Map<string, string[]>();
  const rest: string[] = [];
  const set = (f: FlagDef, v: string): void => {
    values.set(f.name, [...(values.get(f.name) ?? []), v]);
  };
  for (let i = 0; i < args.length; i++) {
    const s = args[i]!;
    if (s === '--') {
      rest.push(...args.slice(i + 1));
      break;
    }
    if (!s.startsWith('-') || s === '-') {
      rest.push(s);
      continue;
    }
    if (s.startsWith('--')) {
      const body = s.slice(2);
      const eq = body.indexOf('=');
      const name = normalize(eq < 0 ? body : body.slice(0, eq));
      const f = flags.find((x) => x.name === name);
      if (!f) return { error: `unknown flag: --${name}` };
      const shown = f.short ? `-${f.short}, --${f.name}` : `--${f.name}`;
      let v: string;
      if (eq >= 0) v = body.slice(eq + 1);
      else if (isBool(f)) v = 'true';
      else if (i + 1 < args.length) v = args[++i]!;
      else return { error: `flag needs an argument: ${s}` };
      const bad = checkValue(f, v, shown);
      if (bad) return { error: bad };
      set(f, v);
      continue;
    }
    // shorthands: -abc, -ovalue, -o value, -o=value
    const shorts = s.slice(1);
    for (let j = 0; j < shorts.length; j++) {
      const ch = shorts[j]!;
      const f = flags.find((x) => x.short === ch);
      if (!f) return { error: `unknown shorthand flag: '${ch}' in ${s}` };
      const shown = `-${f.short}, --${f.name}`;
      let v: string;
      if (shorts[j + 1] === '=') {
        v = shorts.slice(j + 2);
        j = shorts.length;
      } else if (isBool(f)) v = 'true';
      else if (j + 1 < shorts.length) {
        v = shorts.slice(j + 1);
        j = shorts.length;
      } else if (i + 1 < args.length) v = args[++i]!;
      else return { error: `flag needs an argument: '${ch}' in -${ch}` };
      const bad = checkValue(f, v, shown);
      if (bad) return { error: bad };
      set(f, v);
    }
  }
  return { args: rest, values };
}

/** What a command line comes to before the tool's Run. */
export type Outcome =
  /** print this (cobra's help), exit status 0 */
  | { kind: 'help'; stdout: string }
  /** a command line error: the tool prints `message` its own way (`usage` is what cobra would add when not silenced) */
  | { kind: 'error'; message: string; path: CommandPath; stage: 'find' | 'execute' }
  /** `help TOPIC` with no such topic: cobra's Unknown help topic and the root's usage on stderr, exit status 0 */
  | { kind: 'unknown-topic'; stderr: string }
  /** the command's Run is the tool's "needs a subcommand" handler */
  | { kind: 'subcommands'; path: CommandPath; args: string[] }
  /** the help of a command whose upstream help is not recorded here */
  | { kind: 'unrecorded-help'; path: CommandPath }
  /** run the command */
  | { kind: 'run'; path: CommandPath; parsed: Parsed };

const wantsHelp = (args: readonly string[]): boolean => {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '-h' || a === '--help' || a === '--help=true');
};

/** cobra's ExecuteC up to the command's Run: Find, legacyArgs, ParseFlags, the help flag, Runnable, Args. */
export function resolve(root: CobraCommand, argv: readonly string[], normalize?: (n: string) => string): Outcome {
  const { path, rest } = find(root, argv);
  const cmd = last(path);
  const words = stripFlags(rest, allFlags(path));
  if (cmd.recorded === false) return wantsHelp(rest) ? { kind: 'unrecorded-help', path } : { kind: 'run', path, parsed: { args: words, values: new Map() } };
  // legacyArgs: only the root refuses a word that names no subcommand
  if (path.length === 1 && (cmd.commands?.length ?? 0) > 0 && words.length > 0)
    return { kind: 'error', stage: 'find', path, message: `unknown command "${words[0]}" for "${nameOf(root)}"${suggestions(path, words[0]!)}` };
  const parsed = parseFlags(rest, allFlags(path), normalize);
  if ('error' in parsed) return { kind: 'error', stage: 'execute', path, message: parsed.error };
  const help = parsed.values.get('help');
  if ((help && help[help.length - 1] !== 'false') || cmd.run === 'none') return { kind: 'help', stdout: helpString(path) };
  if (nameOf(cmd) === 'help' && path.length === 2) return helpTopic(root, parsed.args);
  if (cmd.noArgs && parsed.args.length > 0) return { kind: 'error', stage: 'execute', path, message: `unknown command "${parsed.args[0]}" for "${commandPathText(path)}"` };
  if (cmd.run === 'subcommands') return { kind: 'subcommands', path, args: parsed.args };
  if (cmd.run === 'help') return { kind: 'help', stdout: helpString(path) };
  if (cmd.run === 'subcmd-rune')
    return { kind: 'error', stage: 'execute', path, message: parsed.args.length < 1 ? `missing subcommand; "${nameOf(cmd)}" is not meant to be run on its own` : `invalid subcommand: "${parsed.args[0]}"` };
  return { kind: 'run', path, parsed };
}

/** The help command's Run: `help PATH…` shows that command's help. */
function helpTopic(root: CobraCommand, words: readonly string[]): Outcome {
  const { path, rest } = find(root, words);
  const unknownRoot = path.length === 1 && stripFlags(rest, allFlags(path)).length > 0;
  if (unknownRoot) return { kind: 'unknown-topic', stderr: `Unknown help topic [${words.map((w) => `\`${w}\``).join(' ')}]\n${usageString([root])}` };
  if (last(path).recorded === false) return { kind: 'unrecorded-help', path };
  return { kind: 'help', stdout: helpString(path) };
}
