/**
 * Runs parsed command lines the way bash does (bash/execute_cmd.c): and-or lists by exit status,
 * pipelines left to right with each stdout feeding the next stdin, redirections applied in order
 * (so `> f 2>&1` and `2>&1 > f` differ), word expansion at run time ($VAR, $(...), ~, globs
 * against the Vfs, word splitting of unquoted expansions), and the few builtins that change the
 * shell itself (cd, pwd, export, unset, alias, unalias, true, false, :, read, type, command).
 * `bash`/`sh` run a script file, `-c` string or stdin in a child shell (childShell). `exit` at top
 * level is not run here: it ends the line and reports `exit` so the REPL can leave the node/pod
 * context.
 *
 * Commands are looked up through a caller-supplied function, so kubectl, ssh and the node tools
 * plug in without this file knowing them.
 */
import type { Vfs } from '../sim/node/vfs.js';
import { resolvePath, VfsError } from '../sim/node/vfs.js';
import type { CommandFn, ExecLocation } from './types.js';
import type { Held, JobSink, ShellContext, ShellResult } from './commands/types.js';
import { LIVE, PIPE, writeOrder } from './commands/types.js';
import { LIST_REST } from './jobs.js';
import { parseScript, type ParseResult, type AndOr, type CaseCommand, type Command, type CondExpr, type Pipeline, type Redirect, type Script, type SimpleCommand } from './parse/ast.js';
import { signalKey, TRAP_LIST, TRAP_USAGE, trapListing } from './trap-builtin.js';
import { assocDeclareLine, completeLine, declareLine, parseComplete, parseDeclareArgs, type CompSpec } from './declare-builtin.js';
import { heredocParts, paramWordParts, tokenize, withTilde, type LexOptions, type Word, type WordPart } from './parse/tokenize.js';
import { expandGlob, hasGlob, segmentRegExp, unescapeGlob } from './parse/glob.js';
import { braceExpand } from './parse/brace.js';
import { dashTest, unary as testUnary } from './commands/test.js';
import { dashEcho } from './commands/echo.js';
import { ArithError, evalArith } from './parse/arith.js';
import { RANDOM_DEVICES, RANDOM_READ, randomBytes, SHELL_PID } from './commands/devices.js';
import { BudgetExceeded, INTERRUPTED_STATUS, LineBudget } from './budget.js';
import { compilePosix, RegexError } from '../util/posix-regex.js';
import { classify, describeLong, describeShort, type NameKind, parseReadArgs, readRecord, splitFields } from './read-builtin.js';
import { JobTable } from './jobs.js';
import { jobArg, jobBuiltin } from './job-builtins.js';
import type { JobClock, ResumeIo } from './job-clock.js';
import type { JobData } from './jobs.js';
import { andOrText, commandText, functionText } from './print-command.js';
import { BashAssoc } from './assoc.js';

/**
 * What of an interactive shell a saved session keeps beside its exported environment, so that a
 * shell the learner is typing into never forgets its variables when the session is read back
 * (the REPL reloads it after a one-shot `cka-lab kubectl` wrote the file; an exam task is
 * revived when the learner returns to it): the variables not exported, indexed arrays (index →
 * value, they are sparse) and associative ones (entries in their order), the functions as
 * `declare -f` prints them, the traps, the `set` options and the positional parameters.
 */
export interface ShellStateData {
  vars?: Record<string, string>;
  arrays?: Record<string, Record<string, string>>;
  assoc?: Record<string, Array<[string, string]>>;
  functions?: Record<string, string>;
  traps?: Record<string, string>;
  flags?: string[];
  args?: string[];
  /** Names `readonly` marked. */
  readonly?: string[];
}

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SHELL_FLAGS: ReadonlySet<string> = new Set(['e', 'u', 'x', 'pipefail', 'vi', 'emacs', 'no:vi', 'no:emacs']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface InterpreterOptions {
  lookup: (name: string) => CommandFn | undefined;
  fs: Vfs;
  env: Record<string, string>;
  cwd: string;
  user: string;
  location: ExecLocation;
  now: () => number;
  /**
   * Alias table. The interpreter writes `alias`/`unalias` through to this very object, so a
   * session can share one table between its frames and its LineReader.
   */
  aliases?: Record<string, string>;
  /** Lines typed so far, for `history`. */
  history?: () => readonly string[];
  /** Hostname for `hostname` (defaults to location.host, or the pod name). */
  hostname?: string;
  /** Whether the terminal is a TTY (ls lays out columns); default true. */
  tty?: boolean;
  /**
   * Move the simulated clock forward now, while the line runs (`sleep 60; kubectl get pod` sees
   * the cluster 60 s later). Without it the time a line consumed is only reported in advanceMs.
   */
  advanceClock?: (ms: number) => void | Promise<void>;
  /**
   * The session's table of background jobs paused in a `sleep` (job-clock.ts): with it a job's
   * list pauses at its sleep and goes on when the clock gets there, instead of running at once.
   */
  jobClock?: JobClock;
  /** Run the paused jobs whose time has come (a foreground command that moves the clock itself: `kubectl get -w`). */
  runJobs?: () => Promise<void>;
  /** bash's $RANDOM: 0..32767 from the session's seeded random source. */
  random?: () => number;
  /** The job table of an interactive shell (`LIST &`, jobs, kill %N); absent in scripts and `bash -c`. */
  jobs?: JobTable;
  /**
   * What running background jobs printed since (kubectl port-forward's `Handling connection for
   * 8080`): asked after every command, shown on the terminal before that command's own output.
   */
  jobOutput?: (phase: 'accept' | 'end') => OutputChunk[];
  /** Whether a process other than a job runs on this host (`kill PID` of a daemon). */
  processExists?: (pid: number) => boolean;
  /**
   * The interactive shell this is: bash (nodes, Debian images) or busybox's ash (busybox and
   * Alpine images), whose errors read `sh: foo: not found` (shell/ash.c, "%s: not found").
   */
  shell?: 'bash' | 'ash';
  /** In a container whose image ships bash (Debian-based images): `bash -c` runs it, with bash's wording. */
  containerBash?: boolean;
  /** This shell is a process exec'd in a container with this command line (ShellContext.execShell). */
  execShell?: readonly string[];
  /**
   * This interactive shell is dash, started as this name (`kubectl exec -it POD -- sh` in a
   * Debian-based image, whose /bin/sh is dash): errors read `sh: N: nosuch: not found`, N counting
   * the lines typed (dash's plinno; error.c "%s: %d: "), and its builtins speak dash's words.
   */
  dash?: string;
  /** The lines that interactive dash had read when its session was saved (Interpreter.linesRead). */
  dashLines?: number;
  /** What of this shell a saved session kept beside its environment (Interpreter.shellState). */
  shellState?: ShellStateData;
  /** `$?` when the session was saved (Interpreter.lastStatus). */
  status?: number;
}

export interface OutputChunk {
  stream: 'stdout' | 'stderr';
  text: string;
}

/**
 * The child shell whose script runs (`bash FILE`, `bash -c STRING`, `… | bash`, `sh …`): the name
 * its errors start with, and `fnFile` while a function runs whose errors name another source.
 */
/**
 * The option letters dash's and BusyBox ash's builtins accept (dash options.c optletters and the
 * nextopt() strings of cd.c, var.c; ash.c's alike): any other is an illegal option.
 */
const SH_OPTION_LETTERS: Readonly<Record<string, string>> = {
  set: 'efIimnsxvVECabuhpo',
  cd: 'LP',
  unset: 'fv',
  export: 'p',
  readonly: 'p',
};

/**
 * dash 0.5.12's options in the order `set -o` lists them (options.h optnames; dash 0.5.12 has no
 * pipefail, which 0.5.13 added) and BusyBox ash 1.36.1's named ones (ash.c optletters_optnames,
 * interactive and stdin unnamed there), with the key this shell keeps an option under in
 * State.flags (e, u, x for the letters it honours; the name for the others, kept only to be listed).
 */
const DASH_SET_O: readonly string[] = ['errexit', 'noglob', 'ignoreeof', 'interactive', 'monitor', 'noexec', 'stdin', 'xtrace', 'verbose', 'vi', 'emacs', 'noclobber', 'allexport', 'notify', 'nounset', 'privileged', 'nolog', 'debug'];
const ASH_SET_O: readonly string[] = ['errexit', 'noglob', 'ignoreeof', 'monitor', 'noexec', 'xtrace', 'verbose', 'noclobber', 'allexport', 'notify', 'nounset', 'errtrace', 'vi', 'pipefail'];
const SET_O_KEY: Readonly<Record<string, string>> = { errexit: 'e', nounset: 'u', xtrace: 'x' };

/** The `set -o` names bash 5.2 knows (builtins/set.def o_options); only some change anything here. */
const SET_O_NAMES: ReadonlySet<string> = new Set(['allexport', 'braceexpand', 'emacs', 'errexit', 'errtrace', 'functrace', 'hashall', 'histexpand', 'history', 'ignoreeof', 'interactive-comments', 'keyword', 'monitor', 'noclobber', 'noexec', 'noglob', 'nolog', 'notify', 'nounset', 'onecmd', 'physical', 'pipefail', 'posix', 'privileged', 'verbose', 'vi', 'xtrace']);

interface ScriptFrame {
  name: string;
  dash: boolean;
  fromString?: boolean;
  fromStdin?: boolean;
  fnFile?: string;
  /** `name` is a file bash is sourcing (`source FILE`): functions defined now are said to come from it. */
  sourced?: boolean;
}

/**
 * What belongs to the list running now, the foreground line's or a background job's: swapped when
 * control passes between them (Interpreter.switchTo), so a job paused inside a loop or a function
 * leaves the foreground's counters as they were.
 */
interface RunCtx {
  bg: { pid: number } | undefined;
  kept: (Held & { [KEPT_PIPE]?: Pipeline }) | undefined;
  handoff: Handoff | undefined;
  live: ((c: OutputChunk) => void) | undefined;
  budget: LineBudget;
  nextYield: number;
  nested: boolean;
  callDepth: number;
  loopDepth: number;
  conditions: number;
  substitutions: number;
  sourcing: number;
  inTrap: boolean;
  curLine: number;
  script$: ScriptFrame | undefined;
  compoundArgs: Map<number, string[]> | undefined;
}

/** A background job's list as a coroutine: whoever runs it waits for `parked` (it paused or ended). */
interface Handoff {
  job: JobData;
  table: JobTable;
  ctx: RunCtx;
  /** Called by the job when it pauses or ends: control goes back to whoever ran it. */
  parked?: () => void;
  /** Called to run the job on from its pause. */
  wake?: () => void;
  /** It has paused at least once (it ends on its own later, reported at that line's end). */
  resumed?: boolean;
  /** The line's limit or Ctrl-C stopped it: the line that ran it stops too, with the limit's message. */
  stopped?: BudgetExceeded;
}

export interface RunOutput {
  /** Everything shown on the terminal, in order. */
  output: OutputChunk[];
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Set when the line ran `exit` at top level: the REPL should leave this context with that code. */
  exit?: number;
  /** Simulated time the line consumed (sleep) not yet applied through advanceClock; the REPL advances its clock by this. */
  advanceMs: number;
  /** The job the terminal holds now (holdTerminal): the line's one command keeps running in the foreground. */
  hold?: JobData;
}

type Sink = { kind: 'terminal'; stream: 'stdout' | 'stderr' } | { kind: 'buffer'; text: string } | { kind: 'file'; path: string } | { kind: 'null' };

/** Where a background process's later output goes (Held.stdout/stderr): a pipe's reader is gone, so nowhere. */
function jobSinks(io: Io): Pick<Held, 'stdout' | 'stderr'> {
  const conv = (k: Sink): JobSink | undefined => (k.kind === 'terminal' ? undefined : k.kind === 'file' ? { kind: 'file', path: k.path } : { kind: 'null' });
  const out = conv(io.out);
  const err = conv(io.err);
  return { ...(out ? { stdout: out } : {}), ...(err ? { stderr: err } : {}) };
}

interface Io {
  /** The argv of each member of the pipeline this io belongs to, and which one it is (ShellContext.pipelinePeers). */
  pipeline?: { members: (string[] | undefined)[]; index: number };
  stdin: string;
  /**
   * How much of `stdin` the commands of one redirection or pipe have read: `read` takes a line at
   * a time (`while read -r l; do …; done < f`), any other command the rest.
   */
  cursor?: { pos: number };
  out: Sink;
  err: Sink;
}

interface State {
  vars: Map<string, string>;
  /** Indexed arrays (`a=(x y)`); `$a` is element 0. Sparse like bash's. */
  arrays: Map<string, string[]>;
  /** Associative arrays (`declare -A a`), in bash's hash order (assoc.ts). */
  assoc: Map<string, BashAssoc>;
  exported: Set<string>;
  cwd: string;
  status: number;
  /** Positional parameters $1… of the running function or sourced script. */
  args: string[];
  /** $0: `bash` at the prompt, the script's name in `bash FILE` / `bash -c CMD NAME`. */
  arg0?: string;
  /** One entry per running function: the values `local` hid, restored on return. */
  scopes: Array<Map<string, Saved>>;
  /** `set -e` (e), `-u` (u), `-x` (x), `-o pipefail` (pipefail): this shell's options. */
  flags?: Set<string>;
  /** `trap ACTION SIG`: by signal key (`EXIT`, `ERR`, `SIGINT`…); an empty action ignores the signal. */
  traps?: Map<string, string>;
  /** Names `readonly` (or bash's `declare -r`) marked: not inherited by a child shell, kept by a subshell. */
  readonly?: Set<string>;
}

/**
 * bash's own read-only variables (variables.c initialize_shell_variables, set_shellopts,
 * set_bashopts; recorded from bash 5.2.15: `readonly -p`, `declare -p`): their `declare` flags
 * as `readonly -p` lists them. BASH_VERSINFO is an indexed array, the ids integers.
 */
const BASH_OWN_READONLY: ReadonlyMap<string, string> = new Map([
  ['BASHOPTS', 'r'],
  ['BASH_VERSINFO', 'ar'],
  ['EUID', 'ir'],
  ['PPID', 'ir'],
  ['SHELLOPTS', 'r'],
  ['UID', 'ir'],
]);

/** BASH_VERSINFO of Ubuntu's and Debian's bash 5.2.15. */
const BASH_VERSINFO = ['5', '2', '15', '1', 'release', 'x86_64-pc-linux-gnu'];

/**
 * The `shopt` options bash 5.2.15 has on by default (BASHOPTS in `bash --norc -c`), with
 * expand_aliases only in an interactive shell.
 */
const BASHOPTS_DEFAULT = ['checkwinsize', 'cmdhist', 'complete_fullquote', 'extquote', 'force_fignore', 'globasciiranges', 'globskipdots', 'hostcomplete', 'interactive_comments', 'patsub_replacement', 'progcomp', 'promptvars', 'sourcepath'];

/** A variable as it was before `local` shadowed it. */
interface Saved {
  value: string | undefined;
  array: string[] | undefined;
  assoc?: BashAssoc | undefined;
  exported: boolean;
}

/** `return` travelling up to the function or sourced file. */
class ReturnSignal {
  constructor(readonly code: number) {}
}

class ExitSignal {
  constructor(readonly code: number) {}
}

/**
 * An error that abandons the rest of the command the shell read, but not the shell: at an
 * interactive prompt the rest of the line (dash and BusyBox ash after a special builtin's error or
 * a refused read-only assignment: error.c exraise longjmps back to the command loop; bash after a
 * refused assignment: jump_to_top_level(DISCARD)); in a bash script or `-c` string, the rest of
 * that line's list (bash reads and runs a script a line's command at a time). Recorded from dash
 * 0.5.12, busybox 1.35.0 and bash 5.2.15 on a pty (testdata/line-abort.txt). Status as given.
 */
class LineAbort {
  constructor(readonly status: number) {}
}

/** The line a command starts on (the first simple command's `line` inside it), when the parser kept it. */
function firstLine(node: unknown): number | undefined {
  const seen: unknown[] = [node];
  for (let k = 0; k < seen.length && k < 10_000; k++) {
    const n = seen[k];
    if (!n || typeof n !== 'object') continue;
    const line = (n as { line?: unknown }).line;
    if (typeof line === 'number') return line;
    for (const v of Object.values(n)) if (v && typeof v === 'object') seen.push(v);
  }
  return undefined;
}

/** The later members of a background pipeline whose first member keeps running, on what it keeps (Interpreter.pipeJob). */
const KEPT_PIPE = Symbol('kept-pipe');

/** `break` / `continue` travelling up to the enclosing loop. */
class LoopSignal {
  constructor(
    readonly kind: 'break' | 'continue',
    readonly levels: number,
  ) {}
}

/**
 * The line's one simple command, or the first of its one pipeline, when that is the whole line
 * (the terminal may hold it: Interpreter.holdTerminal); `pipe` is the pipeline when it has more
 * members (`kubectl get pods -w | grep web`: bash's foreground job is the whole pipeline).
 */
function holdCandidate(script: Script): { cmd: SimpleCommand; pipe?: Pipeline; list?: true } | undefined {
  const item = script.items[0];
  if (!item || item.background || item.first.negate) return undefined;
  const c = item.first.commands[0]!;
  if (c.type !== 'simple') return undefined;
  const list = script.items.length > 1 || item.rest.length > 0 ? { list: true as const } : {};
  return item.first.commands.length === 1 ? { cmd: c, ...list } : { cmd: c, pipe: item.first, ...list };
}

/**
 * What of a list is left once its first pipeline ended with `status` (or stopped: 148): the and-or
 * members that still run (`a && b || c`), then the list's later items.
 */
function listAfterFirst(script: Script, status: number): Script {
  const [item, ...later] = script.items;
  if (!item) return { items: later };
  for (let i = 0; i < item.rest.length; i++) {
    const r = item.rest[i]!;
    // a skipped member leaves the status as it was
    if ((r.op === '&&' && status !== 0) || (r.op === '||' && status === 0)) continue;
    return { items: [{ first: r.pipeline, rest: item.rest.slice(i + 1) }, ...later] };
  }
  return { items: later };
}

/** Filters that write each line as they read it (GNU tools line-buffer stdout on a terminal). */
const LINE_FILTERS = new Set(['grep', 'egrep', 'fgrep', 'sed', 'cut', 'tr', 'cat', 'awk']);

/**
 * Whether the later members of a held pipeline show the first one's later output as it comes:
 * each is a line filter that prints per line (not `grep -c`, `-l`, `-q`, `-m`, nor awk with a
 * BEGIN or END block) and none redirects (the last writes to the terminal, where its stdio
 * flushes per line; into a pipe or a file it buffers 4 KiB, lost when Ctrl-C kills it). Other
 * pipelines (`| wc -l`, `| sort`, `| head`) show their output when the first member ends.
 */
function linesFlow(rest: readonly Command[]): boolean {
  return rest.every((c) => {
    if (c.type !== 'simple' || c.redirects.length > 0 || c.words.length === 0) return false;
    const words = c.words.map((w) => (w.parts.every((p) => p.kind === 'text') ? w.parts.map((p) => (p as { value: string }).value).join('') : undefined));
    const name = words[0];
    if (name === undefined || !LINE_FILTERS.has(name)) return false;
    const args = words.slice(1);
    if (name.endsWith('grep')) return !args.some((a) => a === undefined || /^-[a-zA-Z]*[clLqm]/.test(a) || /^--(count|files-with(out)?-match(es)?|quiet|silent|max-count)/.test(a));
    if (name === 'awk') return !args.some((a) => a === undefined || /\b(BEGIN|END)\b/.test(a));
    return true;
  });
}

/** Steps between yields to the event loop, so a Ctrl-C (an event, not a microtask) is seen. */
const YIELD_EVERY = 1024;

/** The builtins handled here; `which` reports them as not found on disk, like the real one. */
export const BUILTINS = new Set([
  'cd',
  'pwd',
  'export',
  'unset',
  'alias',
  'unalias',
  'true',
  'false',
  ':',
  'exit',
  'break',
  'continue',
  'return',
  'local',
  'shift',
  'source',
  '.',
  'complete',
  'compgen',
  'set',
  'shopt',
  'read',
  'type',
  'command',
  'declare',
  'typeset',
  'let',
  'compopt',
  'trap',
  'getopts',
  'eval',
  'jobs',
  'kill',
  'wait',
  'fg',
  'bg',
  'disown',
  'readonly',
  'mapfile',
  'readarray',
]);

/** bash builtins dash 0.5.12 does not have (its builtins.def), recorded as `not found` there. */
const DASH_LACKS: ReadonlySet<string> = new Set(['source', 'let', 'declare', 'typeset', 'shopt', 'complete', 'compgen', 'compopt', 'mapfile', 'readarray', 'pushd', 'popd', 'dirs', 'disown', 'suspend', 'caller', 'enable', 'help', 'logout', 'bind']);

/** bash's default FUNCNEST is unlimited (it crashes); the simulator stops runaway recursion here. */
const MAX_CALLS = 100;

const MAX_DEPTH = 16;

/**
 * A parse error in dash's words (parser.c synexpect, synerror): `Syntax error: "then" unexpected`,
 * with `(expecting "fi")` where the grammar wanted one word; at end of file an open quote is
 * `Unterminated quoted string`, an open backquote `EOF in backquote substitution`, an open `${`
 * `Missing '}'`, an open `$((` `Missing '))'` (parser.c readtoken1, verified against dash 0.5.12).
 * `eof`: the text ended without a newline (a `-c` string), so a missing word is `end of file
 * unexpected` where a typed line or a file's line has `newline unexpected`.
 */
function dashSyntaxError(parsed: Exclude<ParseResult, { ok: true }>, eof = false): string {
  if (parsed.incomplete) {
    if (parsed.dash !== undefined) return parsed.dash;
    if (parsed.reason === "'" || parsed.reason === '"') return 'Syntax error: Unterminated quoted string';
    if (parsed.reason === '`') return 'Syntax error: EOF in backquote substitution';
    if (parsed.reason === '}') return "Syntax error: Missing '}'";
    const expecting = parsed.reason === ')' ? ')' : parsed.expecting;
    // tokname quotes a token's name but not the class `word` (`case` at end of file)
    return `Syntax error: end of file unexpected${expecting !== undefined ? ` (expecting ${expecting === 'word' ? expecting : `"${expecting}"`})` : ''}`;
  }
  if (parsed.dash !== undefined) return parsed.dash;
  if (parsed.eof && eof) return 'Syntax error: end of file unexpected';
  const tok = /unexpected token `(.*)'$/.exec(parsed.error)?.[1];
  if (tok === undefined) return parsed.error.replace(/^bash: /, '');
  return tok === 'newline' ? 'Syntax error: newline unexpected' : `Syntax error: "${tok}" unexpected`;
}
/**
 * The same error in BusyBox ash's words: ash's parser is dash's (both descend from the NetBSD
 * ash), its messages reworded in shell/ash.c (busybox 1.36.1): raise_error_syntax prefixes
 * `syntax error: `, raise_error_unexpected_syntax says `unexpected TOKEN (expecting TOKEN)` with
 * tokname's quoting, and readtoken1's and parse_command's own are lower-case (`unterminated quoted
 * string`, `missing '))'`, `missing '}'`, `bad for loop variable`; `EOF in backquote
 * substitution` keeps its capitals). Recorded in testdata/ash-syntax.txt.
 */
function ashSyntaxError(parsed: Exclude<ParseResult, { ok: true }>, eof = false): string {
  const dash = dashSyntaxError(parsed, eof).replace(/^Syntax error: /, '');
  const m = /^(.*) unexpected( \(expecting .*\))?$/.exec(dash);
  if (m) return `syntax error: unexpected ${m[1]!}${m[2] ?? ''}`;
  return `syntax error: ${dash.startsWith('EOF') ? dash : dash.charAt(0).toLowerCase() + dash.slice(1)}`;
}

/** What an unclosed quote or substitution leaves open (parse reasons), for bash's `unexpected EOF while looking for matching`. */
const QUOTE_REASONS: ReadonlySet<string> = new Set(['"', "'", '`', ')']);

/** bash 5.2's usage after an invalid option (shell.c show_shell_usage). */
const BASH_USAGE = `Usage:\tbash [GNU long option] [option] ...
\tbash [GNU long option] [option] script-file ...
GNU long options:
${['debug', 'debugger', 'dump-po-strings', 'dump-strings', 'help', 'init-file', 'login', 'noediting', 'noprofile', 'norc', 'posix', 'pretty-print', 'rcfile', 'restricted', 'verbose', 'version'].map((o) => `\t--${o}\n`).join('')}Shell options:
\t-ilrsD or -c command or -O shopt_option\t\t(invocation only)
\t-abefhkmnptuvxBCEHPT or -o option
`;

/**
 * What a command reads from its stdin: what earlier `read`s left. The cursor stays: most commands
 * in a `while read` loop (kubectl, echo) read nothing, and the loop must go on.
 */
function takeStdin(io: Io): string {
  return io.cursor ? io.stdin.slice(io.cursor.pos) : io.stdin;
}

/** The shells a host has: bash and sh on nodes and the workstation, sh (and bash where the image ships it) in a container. */
function isShellName(name: string, inPod: boolean, podBash = false): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (name.includes('/') && !['/bin/', '/usr/bin/'].includes(name.slice(0, name.lastIndexOf('/') + 1))) return false;
  return inPod ? base === 'sh' || (podBash && base === 'bash') : base === 'bash' || base === 'sh';
}

function errText(e: unknown): string {
  if (e instanceof VfsError) {
    return e.code === 'ENOENT' ? 'No such file or directory' : e.code === 'EISDIR' ? 'Is a directory' : e.code === 'ENOTDIR' ? 'Not a directory' : e.code === 'EROFS' ? 'Read-only file system' : e.code;
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * The pipeline's members after the one at `index` (those whose argv is known): they run beside it,
 * waiting on its output, while earlier ones (an `echo`, a `cat` of a file) have usually written
 * everything and exited by then.
 */
function laterPeers(p: { members: (string[] | undefined)[]; index: number }): string[][] {
  return p.members.slice(p.index + 1).filter((x): x is string[] => x !== undefined);
}

/** Quote a value the way bash's `alias` and `export -p` print it. */
function singleQuote(v: string): string {
  return `'${v.replace(/'/g, `'\\''`)}'`;
}

/**
 * dash's and BusyBox ash's single_quote (dash mystring.c, ash.c): runs of `'` go in double
 * quotes between single-quoted pieces, as `readonly -p` prints a value (`'a'"'"'b'`).
 */
function dashQuote(v: string): string {
  return v
    .split(/('+)/)
    .filter((p) => p !== '')
    .map((p) => (p.startsWith("'") ? `"${p}"` : `'${p}'`))
    .join('') || "''";
}

export class Interpreter {
  /** The alias table (the object passed in options, mutated in place by alias/unalias). */
  readonly aliases: Record<string, string>;
  private readonly state: State;
  private output: OutputChunk[] = [];
  private advanced = 0;
  private loopDepth = 0;
  /** Functions defined so far (bash keeps them per shell; subshells inherit them). */
  private readonly functions = new Map<string, Command>();
  /** `local a=(x y)`: the elements of a declaration builtin's compound arguments, by argv index. */
  private compoundArgs: Map<number, string[]> | undefined;
  /** `complete` specifications by command name, as `complete -p` prints them. */
  private readonly completions = new Map<string, CompSpec>();
  private callDepth = 0;
  /** /dev/fd paths holding process substitutions' output, removed when their command ends. */
  private procFiles: string[] = [];
  private nextFd = 63;
  /** The running line's allowance (budget.ts), shared with the commands it runs. */
  private budget = new LineBudget();
  private nextYield = YIELD_EVERY;
  /** This run belongs to an outer line (its budget's end propagates instead of being reported). */
  private nested = false;
  /** The script a child shell runs (`bash FILE`, `sh -c …`): errors name it and the line. */
  private script$: ScriptFrame | undefined;
  /**
   * Where each function of a bash child shell was defined, as its errors name it (bash's
   * FUNCNAME source file): `environment` for a `bash -c` string, `main` for a script read from
   * stdin, else the script's name. Functions defined at the prompt or by dash are absent.
   */
  private funcFiles = new Map<string, string>();
  /** The line of the simple command running, within its script. */
  private curLine = 1;
  /** The lines an interactive dash has read before the running one (InterpreterOptions.dash). */
  private dashLines = 0;

  /** Whether the shell speaking now is dash: a child `sh`, or the interactive dash itself. */
  private isDash(): boolean {
    return this.script$ ? this.script$.dash : this.opts.dash !== undefined;
  }

  /**
   * dash itself, not the BusyBox ash of an Alpine image that `sh` also starts (this interpreter
   * speaks dash's words for both): ash has bash's `${x:1}`, `${x/a/b}`, `let`, `source`.
   */
  private isPlainDash(): boolean {
    return this.isDash() && this.opts.shell !== 'ash';
  }

  /** How the shell speaking now reads text: dash has no `$'…'` or `$"…"` (tokenize.ts LexOptions). */
  private lex(): LexOptions {
    return { ...(this.isDash() ? { dash: true } : {}), ...(this.isAsh() ? { ash: true } : {}) };
  }

  /**
   * Whether the shell speaking now is BusyBox ash: the interactive shell of a busybox or Alpine
   * image, or an `sh` it starts (ash too there). It reads and runs as dash does here, but words
   * its syntax errors its own way (ashSyntaxError) and has no `for ((…))` or arrays.
   */
  private isAsh(): boolean {
    return this.opts.shell === 'ash' && (this.script$ ? this.script$.dash : this.opts.dash === undefined);
  }

  /**
   * What bash puts before its own error messages: `bash: ` at the prompt; in a script
   * `NAME: line N: ` (bash's non-interactive form), or dash's `NAME: N: ` for `sh`.
   */
  private prefix(): string {
    const sc = this.script$;
    if (!sc && this.opts.dash !== undefined) return `${this.opts.dash}: ${this.dashLines + this.curLine}: `;
    if (!sc) return this.opts.shell === 'ash' ? 'sh: ' : 'bash: ';
    // ash_vmsg outside a builtin: no commandname in a `-c` string, so no line either
    if (this.isAsh()) return sc.fromString ? `${sc.name}: ` : `${sc.name}: line ${this.curLine}: `;
    return sc.dash ? `${sc.name}: ${this.curLine}: ` : `${sc.fnFile ?? sc.name}: line ${this.curLine}: `;
  }

  /**
   * What comes before an error the builtin `name` speaks. BusyBox ash's ash_vmsg (shell/ash.c)
   * prints the shell's arg0, then the builtin (commandname) and, unless the shell is interactive,
   * `line N: `, counted from 0 in a `-c` string (`sh: cd: line 0: `, `s.sh: cd: line 3: `,
   * interactive `sh: cd: `); bash and dash put the builtin after their usual prefix.
   */
  private bprefix(name: string): string {
    if (!this.isAsh()) return `${this.prefix()}${name}: `;
    const sc = this.script$;
    if (!sc) return `sh: ${name}: `;
    return `${sc.name}: ${name}: line ${sc.fromString ? this.curLine - 1 : this.curLine}: `;
  }

  /**
   * dash's and BusyBox ash's refusals before a builtin runs: an option letter its nextopt() does not
   * know (`set: Illegal option -Q` in dash's error.c, `set: illegal option -Q` in ash.c) and `local`
   * outside a function (`local: not in a function`), status 2. A special builtin's error ends a
   * non-interactive shell (POSIX 2.8.1; busybox 1.35.0 `sh -c 'set -Q; echo after'` prints no
   * `after`), a regular one's (`cd`) does not. undefined: the builtin runs.
   */
  private shOptionError(name: string, args: string[], io: Io, st: State): number | undefined {
    const fail = (msg: string, special: boolean): number => {
      this.write(io.err, `${this.bprefix(name)}${msg}\n`);
      if (special && this.script$) throw new ExitSignal(2);
      if (special) throw new LineAbort(2);
      return 2;
    };
    if (name === 'local' && st.scopes.length === 0) return fail('not in a function', true);
    if (name === 'local') {
      // dash's and BusyBox ash's local take no options (mklocal): `-` saves the options, any other
      // word that is not NAME[=VALUE] is `local: -Q: bad variable name`; a bad NAME=VALUE is
      // refused by setvareq, without the builtin's name (dash 0.5.12 `dash: 1: 1a: bad variable
      // name`, busybox 1.36.1 `sh: 1a: bad variable name`)
      for (const a of args) {
        if (a === '-') continue;
        const eq = a.indexOf('=');
        const n = eq < 0 ? a : a.slice(0, eq);
        if (VAR_NAME.test(n)) continue;
        if (eq < 0) return fail(`${a}: bad variable name`, true);
        this.write(io.err, `${this.errPrefix()}${n}: bad variable name\n`);
        if (this.script$) throw new ExitSignal(2);
        return 2;
      }
    }
    // BusyBox ash's export also has -n (ash.c exportcmd, busybox 1.35.0 `export -n x` is 0)
    const known = name === 'export' && this.isAsh() ? 'np' : SH_OPTION_LETTERS[name];
    if (known === undefined) return undefined;
    for (const a of args) {
      if (a === '--' || !/^[-+]./.test(a) || (a[0] === '+' && name !== 'set')) break;
      const bad = [...a.slice(1)].find((c) => !known.includes(c));
      if (bad !== undefined) return fail(this.isAsh() ? `illegal option ${a[0]}${bad}` : `Illegal option -${bad}`, name !== 'cd');
      if (name === 'set' && a.endsWith('o')) break;
    }
    return undefined;
  }

  /**
   * dash's and BusyBox ash's `set` when an option word has `o` (options.c options/minus_o,
   * ash.c the same): `-o NAME`/`+o NAME` of a name the shell knows, `set -o` alone lists
   * `NAME<pad to 16>on|off` (dash after a `Current option settings` line), `set +o` the `set
   * -o|+o NAME` commands that restore them. An unknown name: dash `set: Illegal option -o NAME`,
   * status 2, ending a non-interactive shell (dash 0.5.12 refuses `set -o pipefail` so); ash
   * `set: illegal option -o NAME`, status 1, going on (busybox 1.36.1). interactive, stdin and
   * monitor are on in an interactive shell on the terminal. undefined: no `o`, set's other path.
   */
  private shSetO(args: string[], io: Io, st: State): number | undefined {
    const words = args.slice(0, args.includes('--') ? args.indexOf('--') : args.length);
    if (!words.some((a) => /^[-+][a-zA-Z]*o/.test(a))) return undefined;
    const names = this.isAsh() ? ASH_SET_O : DASH_SET_O;
    const interactive = !this.script$;
    const isOn = (n: string): boolean => (n === 'interactive' || n === 'stdin' || n === 'monitor' ? interactive : (st.flags?.has(SET_O_KEY[n] ?? n) ?? false));
    let i = 0;
    for (; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--') {
        i++;
        break;
      }
      if (!/^[-+]./.test(a)) break;
      const on = a[0] === '-';
      for (const ch of a.slice(1)) {
        if (ch !== 'o') {
          if ('eux'.includes(ch)) (st.flags ??= new Set())[on ? 'add' : 'delete'](ch);
          continue;
        }
        const name = args[i + 1];
        if (name === undefined) {
          const rows = names.map((n) => (on ? `${n.padEnd(16)}${isOn(n) ? 'on' : 'off'}\n` : `set ${isOn(n) ? '-' : '+'}o ${n}\n`));
          this.write(io.out, `${on && !this.isAsh() ? 'Current option settings\n' : ''}${rows.join('')}`);
          continue;
        }
        i++;
        if (!names.includes(name)) {
          if (this.isAsh()) {
            this.write(io.err, `${this.bprefix('set')}illegal option ${a[0]}o ${name}\n`);
            return 1;
          }
          this.write(io.err, `${this.bprefix('set')}Illegal option -o ${name}\n`);
          if (this.script$) throw new ExitSignal(2);
          throw new LineAbort(2);
        }
        if (name === 'interactive' || name === 'stdin') continue;
        (st.flags ??= new Set())[on ? 'add' : 'delete'](SET_O_KEY[name] ?? name);
      }
    }
    if (i < args.length || args.includes('--')) st.args = args.slice(i);
    return 0;
  }

  /**
   * Whether bash option NAME is on: errexit, nounset, xtrace and pipefail from the flags this
   * shell honours; the others as `set -o`/`+o` left them, else bash 5.2's defaults (braceexpand,
   * hashall and interactive-comments always; emacs, histexpand, history and monitor in an
   * interactive shell on a terminal).
   */
  private bashOptionOn(st: State, name: string): boolean {
    const key = SET_O_KEY[name] ?? name;
    if (st.flags?.has(key)) return true;
    if (st.flags?.has(`no:${name}`)) return false;
    if (['braceexpand', 'hashall', 'interactive-comments'].includes(name)) return true;
    return !this.script$ && ['emacs', 'histexpand', 'history', 'monitor'].includes(name);
  }

  /** `set -o NAME` / `set +o NAME` of an option that only `set -o` shows; vi and emacs exclude each other. */
  private setBashOption(st: State, name: string, on: boolean): void {
    const flags = (st.flags ??= new Set());
    const put = (n: string, v: boolean): void => {
      flags.delete(v ? `no:${n}` : n);
      flags.add(v ? n : `no:${n}`);
    };
    put(name, on);
    if (on && (name === 'vi' || name === 'emacs')) put(name === 'vi' ? 'emacs' : 'vi', false);
  }

  /**
   * bash's `set -o` (a `%-15s\t%s` row per option, builtins/set.def list_minus_o_opts) and
   * `set +o` (the `set -o|+o NAME` commands that restore them), as bash 5.2 prints them.
   */
  private bashSetOListing(st: State, minus: boolean): string {
    return [...SET_O_NAMES]
      .sort()
      .map((n) => (minus ? `${n.padEnd(15)}\t${this.bashOptionOn(st, n) ? 'on' : 'off'}\n` : `set ${this.bashOptionOn(st, n) ? '-' : '+'}o ${n}\n`))
      .join('');
  }

  /**
   * A variable `readonly` marked refuses a value or `unset` (undefined: not read-only). dash and
   * BusyBox ash (var.c setvareq, unsetvar: `%s: is read only`, raised as an error) print it after
   * the builtin's prefix, or the plain one for an assignment or `for`, status 2, and a
   * non-interactive shell ends, except after `read`, a regular builtin (dash 0.5.12, busybox
   * 1.36.1 `sh -c 'readonly x=1; x=2; echo $?'` prints no status). bash (variables.c
   * err_readonly) prints `x: readonly variable` without the builtin's name, `local`'s and
   * `declare`'s with it,
   * `unset`'s `unset: x: cannot unset: readonly variable`, status 1 (bash 5.2).
   */
  private readonlyRefused(name: string, io: Io, st: State, builtin?: string): number | undefined {
    if (!st.readonly?.has(name) && !this.isBashOwn(name)) return undefined;
    if (this.isDash() || this.isAsh()) {
      this.write(io.err, `${builtin !== undefined ? this.bprefix(builtin) : this.errPrefix()}${name}: is read only\n`);
      if (this.script$ && builtin !== 'read') throw new ExitSignal(2);
      if (builtin !== 'read') throw new LineAbort(2);
      return 2;
    }
    if (builtin === 'unset') this.write(io.err, `${this.bprefix('unset')}${name}: cannot unset: readonly variable\n`);
    else this.write(io.err, `${builtin === 'local' || builtin === 'declare' || builtin === 'typeset' ? this.bprefix(builtin) : this.errPrefix()}${name}: readonly variable\n`);
    return 1;
  }

  /**
   * `readonly [-p] [NAME[=VALUE]…]`. dash and BusyBox ash (var.c exportcmd with VREADONLY) list
   * `readonly NAME='VALUE'` sorted, `readonly NAME` for one without a value; a bad name is
   * `readonly: 1a: bad variable name` (status 2, ends a script). bash (builtins/setattr.def) lists
   * `declare -r NAME="VALUE"`, refuses a bad name as `` `1a=2': not a valid identifier `` (status
   * 1) and an unknown option with its usage (status 2). bash's listing holds its own read-only
   * variables too (BASHOPTS, BASH_VERSINFO, EUID, PPID, SHELLOPTS, UID: BASH_OWN_READONLY).
   */
  private readonlyBuiltin(args: string[], io: Io, st: State): number {
    const sh = this.isDash() || this.isAsh();
    let i = 0;
    let fns = false;
    for (; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--') {
        i++;
        break;
      }
      if (!/^-./.test(a)) break;
      if (sh) continue; // (option letters were checked in shOptionError)
      for (const ch of a.slice(1)) {
        if (!'aAfp'.includes(ch)) {
          this.write(io.err, `${this.bprefix('readonly')}-${ch}: invalid option\nreadonly: usage: readonly [-aAf] [name[=value] ...] or readonly -p\n`);
          return 2;
        }
        if (ch === 'f') fns = true;
      }
    }
    const names = args.slice(i);
    const ro = (st.readonly ??= new Set());
    if (names.length === 0) {
      if (fns) return 0;
      const own = sh ? [] : [...BASH_OWN_READONLY.keys()].filter((k) => !ro.has(k));
      const lines = [...ro, ...own].sort().map((k) => {
        const v = this.scalar(k, st);
        if (sh) return v === undefined ? `readonly ${k}\n` : `readonly ${k}=${dashQuote(v)}\n`;
        const flags = BASH_OWN_READONLY.get(k);
        if (flags && !ro.has(k)) return `${declareLine(k, flags, this.bashOwn(k, st), this.bashOwnArray(k))}\n`;
        return `${declareLine(k, `${st.arrays.has(k) ? 'a' : ''}r${st.exported.has(k) ? 'x' : ''}`, st.vars.get(k), st.arrays.get(k))}\n`;
      });
      this.write(io.out, lines.join(''));
      return 0;
    }
    let status = 0;
    for (const a of names) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=([^]*))?$/.exec(a);
      if (fns) {
        if (!this.functions.has(a)) {
          this.write(io.err, `${this.bprefix('readonly')}${a}: not a function\n`);
          status = 1;
        }
        continue;
      }
      if (!m) {
        if (sh) {
          this.write(io.err, `${this.bprefix('readonly')}${a.replace(/=[^]*$/, '')}: bad variable name\n`);
          if (this.script$) throw new ExitSignal(2);
          return 2;
        }
        this.write(io.err, `${this.bprefix('readonly')}\`${a}': not a valid identifier\n`);
        status = 1;
        continue;
      }
      const [, k, value] = m as unknown as [string, string, string | undefined];
      if (value !== undefined) {
        const refused = this.readonlyRefused(k, io, st, sh ? 'readonly' : undefined);
        if (refused !== undefined) {
          status = refused;
          continue;
        }
        this.setVar(st, k, value);
      }
      ro.add(k);
    }
    return status;
  }

  /**
   * The prefix of an error no builtin speaks (a command not found, a failed expansion): dash adds
   * the file its `.` is reading (error.c prints commandname, which evalbuiltin sets to the
   * builtin's own name while one runs), `sh: 2: ./f: nope: not found`.
   */
  private errPrefix(): string {
    return this.isDash() && !this.isAsh() && this.dotFile !== undefined ? `${this.prefix()}${this.dotFile}: ` : this.prefix();
  }

  /**
   * Read and write `fs` from now on: the session took over a reloaded cluster (Session.adopt),
   * whose hosts are new objects; a paused job's next commands see the new files.
   */
  rebindFs(fs: Vfs): void {
    this.opts.fs = fs;
  }

  constructor(private readonly opts: InterpreterOptions) {
    this.aliases = opts.aliases ?? {};
    this.dashLines = opts.dashLines ?? 0;
    this.state = {
      vars: new Map(Object.entries(opts.env)),
      arrays: new Map(),
      assoc: new Map(),
      exported: new Set(Object.keys(opts.env)),
      cwd: opts.cwd,
      status: opts.status ?? 0,
      args: [],
      scopes: [],
      ...(opts.dash !== undefined ? { arg0: opts.dash } : {}),
    };
    if (opts.shellState !== undefined) this.restoreShell(opts.shellState);
  }

  /** The shell's state a saved session keeps (ShellStateData); undefined when there is none. */
  get shellState(): ShellStateData | undefined {
    const st = this.state;
    const out: ShellStateData = {};
    const vars = Object.fromEntries([...st.vars].filter(([k]) => !st.exported.has(k)));
    if (Object.keys(vars).length > 0) out.vars = vars;
    if (st.arrays.size > 0) out.arrays = Object.fromEntries([...st.arrays].map(([k, a]) => [k, Object.fromEntries(Object.entries(a))]));
    if (st.assoc.size > 0) out.assoc = Object.fromEntries([...st.assoc].map(([k, a]) => [k, a.keys().map((key): [string, string] => [key, a.get(key)!])]));
    if (this.functions.size > 0) out.functions = Object.fromEntries([...this.functions].map(([n, body]) => [n, functionText(n, body)]));
    if (st.traps && st.traps.size > 0) out.traps = Object.fromEntries(st.traps);
    if (st.flags && st.flags.size > 0) out.flags = [...st.flags];
    if (st.args.length > 0) out.args = [...st.args];
    if (st.readonly && st.readonly.size > 0) out.readonly = [...st.readonly];
    return Object.keys(out).length > 0 ? out : undefined;
  }

  /**
   * Take back a saved shell state. A hand-edited or damaged file's values are dropped, never
   * trusted: names must be names, a function's text must parse as that one function definition.
   */
  private restoreShell(d: unknown): void {
    if (!isRecord(d)) return;
    const st = this.state;
    const str = (v: unknown): v is string => typeof v === 'string';
    if (isRecord(d['vars'])) for (const [k, v] of Object.entries(d['vars'])) if (VAR_NAME.test(k) && str(v) && !st.vars.has(k)) st.vars.set(k, v);
    if (isRecord(d['arrays']))
      for (const [k, v] of Object.entries(d['arrays'])) {
        if (!VAR_NAME.test(k) || !isRecord(v)) continue;
        const a: string[] = [];
        for (const [i, x] of Object.entries(v)) if (/^(?:0|[1-9]\d{0,8})$/.test(i) && str(x)) a[Number(i)] = x;
        st.arrays.set(k, a);
      }
    if (isRecord(d['assoc']))
      for (const [k, v] of Object.entries(d['assoc'])) {
        if (!VAR_NAME.test(k) || !Array.isArray(v)) continue;
        const entries = (v as unknown[]).filter((e): e is [string, string] => Array.isArray(e) && e.length === 2 && str(e[0]) && str(e[1]));
        st.assoc.set(k, BashAssoc.fromOrder(entries));
      }
    if (isRecord(d['functions']))
      for (const [name, text] of Object.entries(d['functions'])) {
        if (!str(text)) continue;
        const parsed = parseScript(text);
        const item = parsed.ok && parsed.script.items.length === 1 ? parsed.script.items[0]! : undefined;
        const fn = item && item.rest.length === 0 && !item.background && item.first.commands.length === 1 ? item.first.commands[0]! : undefined;
        if (fn?.type === 'function' && fn.name === name) this.functions.set(name, fn.body);
      }
    if (isRecord(d['traps']))
      for (const [k, v] of Object.entries(d['traps'])) if (str(v) && signalKey(k) === k) (st.traps ??= new Map()).set(k, v);
    if (Array.isArray(d['flags'])) for (const f of d['flags'] as unknown[]) if (str(f) && SHELL_FLAGS.has(f)) (st.flags ??= new Set()).add(f);
    if (Array.isArray(d['args']) && (d['args'] as unknown[]).every(str)) st.args = [...(d['args'] as string[])];
    if (Array.isArray(d['readonly'])) for (const n of d['readonly'] as unknown[]) if (str(n) && VAR_NAME.test(n)) (st.readonly ??= new Set()).add(n);
  }

  get cwd(): string {
    return this.state.cwd;
  }

  /** Exported variables, as a child process would see them. */
  get env(): Record<string, string> {
    return this.exportedEnv(this.state);
  }

  /** The lines an interactive dash has read, which its error prefix counts on from (saved with the session). */
  get linesRead(): number {
    return this.dashLines;
  }

  get lastStatus(): number {
    return this.state.status;
  }

  /**
   * Parse and run one complete command text (see LineReader for multi-line input). `budget` is the
   * line's allowance; a line run for another line (`ssh HOST CMD`) passes the outer one on.
   */
  async run(source: string, stdin = '', budget?: LineBudget, nested = false): Promise<RunOutput> {
    this.output = [];
    this.advanced = 0;
    this.budget = budget ?? new LineBudget();
    this.nested = nested;
    this.nextYield = this.budget.steps + YIELD_EVERY;
    const parsed = parseScript(source, { aliases: this.aliases, ...this.lex() });
    if (this.opts.dash !== undefined && !nested) {
      // dash counts every line it reads, empty ones too; a syntax error discards the rest of its line
      const lines = source.split('\n').length;
      this.curLine = 1;
      if (!parsed.ok) {
        const where = `${this.opts.dash}: ${this.dashLines + lines}: `;
        this.write({ kind: 'terminal', stream: 'stderr' }, `${where}${dashSyntaxError(parsed)}\n`);
        this.dashLines += lines - 1;
        this.state.status = 2;
        return this.finish();
      }
      const out = await this.runScript(parsed.script, stdin, this.budget, nested);
      this.dashLines += lines;
      return out;
    }
    if (!parsed.ok && this.isAsh()) {
      // BusyBox ash reads a `-c` string (kubectl exec … sh -c) a line at a time, running the lines
      // before a syntax error (ash.c evalstring); a typed line ends in the newline it was entered with
      const text = nested ? source : `${source}\n`;
      return this.runBody(async (io) => {
        this.state.status = await this.scriptByCommands(text, true, io, this.state, 0);
      });
    }
    if (!parsed.ok) {
      const msg = parsed.incomplete ? 'bash: syntax error: unexpected end of file' : parsed.error;
      this.write({ kind: 'terminal', stream: 'stderr' }, `${msg}\n`);
      this.state.status = 2;
      return this.finish();
    }
    if (this.holdTerminal && !nested) return this.runHolding(parsed.script, stdin, this.budget);
    return this.runScript(parsed.script, stdin, this.budget, nested);
  }

  /**
   * A line on a terminal that can hold a job: its first pipeline may keep running (the terminal
   * holds it: RunOutput.hold). A list (`sleep 5; kubectl get po`, `sleep 100 && echo hi`) runs
   * its first pipeline alone; if that is held, what is left runs when it ends on its own or is
   * stopped (bash runs the list on with status 148 after Ctrl-Z), never after Ctrl-C
   * (JobData[LIST_REST], Session.foreground), and may itself be held in turn.
   */
  async runHolding(script: Script, stdin: string, budget: LineBudget): Promise<RunOutput> {
    const cand = holdCandidate(script);
    const item = script.items[0];
    const first: Script = cand?.list && item ? { items: [{ first: item.first, rest: [] }] } : script;
    this.holdCmd = cand?.cmd;
    this.holdPipe = cand?.pipe;
    this.held = undefined;
    let out: RunOutput;
    let held: JobData | undefined;
    try {
      out = await this.runScript(first, stdin, budget, false);
      held = this.held as JobData | undefined;
    } finally {
      this.holdCmd = undefined;
      this.holdPipe = undefined;
      this.held = undefined;
    }
    if (!cand?.list) return held ? { ...out, hold: held } : out;
    if (held) {
      held[LIST_REST] = (status, b) => {
        this.state.status = status;
        return this.runHolding(listAfterFirst(script, status), '', b);
      };
      return { ...out, hold: held };
    }
    if (out.exit !== undefined) return out;
    const rest = await this.runHolding(listAfterFirst(script, out.exitCode), '', budget);
    return {
      ...rest,
      output: [...out.output, ...rest.output],
      stdout: out.stdout + rest.stdout,
      stderr: out.stderr + rest.stderr,
      advanceMs: out.advanceMs + rest.advanceMs,
    };
  }

  /**
   * Set by an interactive terminal (Session.exec with `hold`): a line that is one simple command
   * which keeps running (`sleep 100`, `kubectl get pods -w`, `kubectl port-forward`, `journalctl
   * -f`) or `fg` becomes a job the terminal holds until it ends, Ctrl-C or Ctrl-Z (Session.foreground).
   */
  holdTerminal = false;

  /**
   * A process the terminal holds works again after its line ended (`watch` runs its command each
   * interval, LiveOutput.refresh): the commands it runs count against `budget`, at the cluster's time.
   */
  resume(budget: LineBudget): void {
    this.budget = budget;
    this.advanced = 0;
    this.nextYield = budget.steps + YIELD_EVERY;
  }
  /** The line's one simple command (or its pipeline's first), when the terminal may hold it. */
  private holdCmd: SimpleCommand | undefined;
  /** The pipeline holdCmd starts, when it has more members. */
  private holdPipe: Pipeline | undefined;
  /** The held pipeline's first member just started, and the others read its output only at its end. */
  private pipeWaits = false;
  /** The job that command became. */
  private held: JobData | undefined;
  /** The builtin running now is that command (`fg`). */
  private holdBuiltin = false;

  /**
   * The later members of a held pipeline, run on what its first member wrote since (a tick, or its
   * end): on their own copy of the shell's state, so `$?` and PIPESTATUS stay the line's.
   */
  private async pipeThrough(rest: Pipeline, text: string, budget: LineBudget): Promise<OutputChunk[]> {
    const status = this.state.status;
    this.output = [];
    this.advanced = 0;
    this.budget = budget;
    this.nested = false;
    this.nextYield = budget.steps + YIELD_EVERY;
    try {
      return (await this.runBody((io) => this.pipeline(rest, io, this.clone(this.state), 0, false), text)).output;
    } finally {
      this.state.status = status;
    }
  }

  /** `$?` after the job the terminal held ended or stopped (148 for Ctrl-Z, 130 for Ctrl-C). */
  setStatus(code: number): void {
    this.state.status = code;
  }

  /** Run an already parsed script; `stdin` feeds its commands (`… | ssh HOST CMD`), else none. */
  async runScript(script: Script, stdin = '', budget?: LineBudget, nested = false): Promise<RunOutput> {
    this.output = [];
    this.advanced = 0;
    this.budget = budget ?? new LineBudget();
    this.nested = nested;
    this.nextYield = this.budget.steps + YIELD_EVERY;
    return this.runBody((io) => this.script(script, io, this.state, 0, true), stdin);
  }

  /** Run a line's commands (`body`) on the terminal, ending as a line ends: `exit`, a budget run out, an error. */
  private async runBody(body: (io: Io) => Promise<unknown>, stdin = ''): Promise<RunOutput> {
    const io: Io = { stdin, cursor: { pos: 0 }, out: { kind: 'terminal', stream: 'stdout' }, err: { kind: 'terminal', stream: 'stderr' } };
    try {
      await body(io);
    } catch (e) {
      if (e instanceof ExitSignal) {
        this.state.status = await this.exitTrap(io, this.state, 0, e.code);
        return { ...this.finish(), exit: this.state.status };
      }
      if (e instanceof LoopSignal || e instanceof ReturnSignal) return this.finish();
      if (e instanceof LineAbort) {
        this.state.status = e.status;
        return this.finish();
      }
      if (e instanceof BudgetExceeded) {
        // a shell run for the line (`ssh HOST CMD`, `kubectl exec … sh -c`) stops with it: the
        // outer line reports once
        if (this.nested) throw e;
        // like Ctrl-C: the line ends where it was, its state so far kept
        if (e.message) this.output.push({ stream: 'stderr', text: `${e.message}\n` });
        this.state.status = INTERRUPTED_STATUS;
        return this.finish();
      }
      this.write(io.err, `${this.prefix()}${errText(e)}\n`);
      this.state.status = 1;
    }
    return this.finish();
  }

  /** What background jobs printed meanwhile goes straight to the terminal, whatever this command redirects. */
  private pumpJobs(phase: 'accept' | 'end'): void {
    for (const c of this.opts.jobOutput?.(phase) ?? []) this.write({ kind: 'terminal', stream: c.stream }, c.text);
  }

  private finish(): RunOutput {
    const out = this.output;
    return {
      output: out,
      stdout: out.filter((c) => c.stream === 'stdout').map((c) => c.text).join(''),
      stderr: out.filter((c) => c.stream === 'stderr').map((c) => c.text).join(''),
      exitCode: this.state.status,
      advanceMs: this.advanced,
    };
  }

  private write(sink: Sink, text: string): void {
    if (text === '') return;
    this.budget.output(text.length);
    switch (sink.kind) {
      case 'terminal': {
        // a resumed background job writes to the terminal of the line that runs now
        if (this.live) this.live({ stream: sink.stream, text });
        else this.writeTerminal({ stream: sink.stream, text });
        return;
      }
      case 'buffer':
        sink.text += text;
        return;
      case 'file':
        try {
          this.opts.fs.append(sink.path, text);
        } catch {
          /* the file vanished or became a directory: bash would get EBADF silently */
        }
        return;
      case 'null':
        return;
    }
  }

  /** Append to this line's terminal output (a background job's, resumed while the line runs). */
  writeTerminal(c: OutputChunk): void {
    if (c.text === '') return;
    const last = this.output[this.output.length - 1];
    if (last && last.stream === c.stream) last.text += c.text;
    else this.output.push({ ...c });
  }

  private exportedEnv(st: State, extra?: Map<string, string>): Record<string, string> {
    const env: Record<string, string> = {};
    for (const k of st.exported) {
      const v = st.vars.get(k);
      if (v !== undefined) env[k] = v;
    }
    if (extra) for (const [k, v] of extra) env[k] = v;
    return env;
  }

  private clone(st: State): State {
    return {
      vars: new Map(st.vars),
      arrays: new Map([...st.arrays].map(([k, v]) => [k, [...v]])),
      assoc: new Map([...st.assoc].map(([k, v]) => [k, v.clone()])),
      exported: new Set(st.exported),
      cwd: st.cwd,
      status: st.status,
      args: [...st.args],
      ...(st.arg0 !== undefined ? { arg0: st.arg0 } : {}),
      ...(st.flags ? { flags: new Set(st.flags) } : {}),
      ...(st.readonly ? { readonly: new Set(st.readonly) } : {}),
      // a subshell resets the traps it inherits, except ignored signals (bash execute_cmd.c)
      ...(st.traps ? { traps: new Map([...st.traps].filter(([, a]) => a === '')) } : {}),
      scopes: st.scopes.map((m) => new Map(m)),
    };
  }

  private async script(script: Script, io: Io, st: State, depth: number, top: boolean): Promise<void> {
    for (const item of script.items) {
      if (item.background) {
        await this.background(item, io, st, depth);
        continue;
      }
      let status = await this.pipeline(item.first, io, st, depth, top);
      st.status = status;
      // set -e looks only at the last pipeline of an and-or list, when it ran and was not negated
      let final = item.rest.length === 0 ? !item.first.negate : false;
      for (let i = 0; i < item.rest.length; i++) {
        const { op, pipeline } = item.rest[i]!;
        if ((op === '&&' && status !== 0) || (op === '||' && status === 0)) continue;
        status = await this.pipeline(pipeline, io, st, depth, top);
        st.status = status;
        final = i === item.rest.length - 1 && !pipeline.negate;
      }
      if (status !== 0 && final && this.conditions === 0) {
        // the ERR trap runs where set -e would act, not inside functions (no errtrace)
        const err = st.traps?.get('ERR');
        if (err && this.callDepth === 0 && !this.inTrap) await this.runTrap(err, io, st, depth, status);
        if (st.flags?.has('e')) throw new ExitSignal(status);
      }
    }
  }

  /**
   * `LIST &`: the list runs in a subshell as job N (an interactive shell prints `[N] PID` to stderr).
   * With the session's job clock (job-clock.ts) the list runs at once up to its first `sleep`,
   * pauses there and goes on when the simulated clock reaches the sleep's end; a process that keeps
   * running (a background kubectl port-forward) stays a Running job. Without one (a shell run for
   * `ssh HOST CMD`), the list runs to its end at once and the job ends when its sleeps would have.
   * $! is its pid; the status of `&` is 0.
   */
  private async background(item: AndOr, io: Io, st: State, depth: number): Promise<void> {
    const jobs = this.opts.jobs;
    const text = andOrText(item);
    const job = jobs?.start(text);
    const pid = job?.pid ?? (this.bgPids ??= new JobTable()).takePid();
    if (job) this.write({ kind: 'terminal', stream: 'stderr' }, `[${job.n}] ${pid}\n`);
    const sub = this.clone(st);
    if (job && jobs && this.opts.jobClock && !this.bg) {
      const h: Handoff = { job, table: jobs, ctx: { ...this.saveCtx(), bg: { pid }, kept: undefined } };
      h.ctx.handoff = h;
      await this.switchTo(h, () => this.jobBody(item, io, sub, depth, h));
      this.lastBgPid = pid;
      st.status = 0;
      return;
    }
    const outer = this.bg;
    const outerTime = this.bgTime;
    this.bg = { pid };
    this.bgTime = 0;
    let status = 0;
    try {
      status = await this.backgroundList(item, io, sub, depth);
    } catch (e) {
      if (!(e instanceof ExitSignal) && !(e instanceof ReturnSignal) && !(e instanceof LoopSignal) && !(e instanceof LineAbort)) throw e;
      if (e instanceof ExitSignal) status = e.code;
      if (e instanceof LineAbort) status = e.status;
    } finally {
      this.bg = outer;
    }
    const slept = this.bgTime;
    this.bgTime = outerTime;
    const keeps = this.kept;
    this.kept = undefined;
    if (job && keeps) {
      job.holds = this.pipeJob(job, keeps);
      if (keeps[LIVE]?.needsTerminal) jobs?.stopBySignal(job, this.opts.now() + this.advanced);
    } else if (job && slept > 0) job.until = { at: this.opts.now() + this.advanced + slept, status };
    else if (job) jobs?.end(job, status, undefined, true);
    this.lastBgPid = pid;
    st.status = 0;
  }

  /**
   * What a background job keeps, and, for a pipeline whose first member keeps running, its later
   * members as the job's PIPE: the session runs what the first one writes through them as it
   * comes (Session.pipeOutput), as for a pipeline the terminal holds.
   */
  private pipeJob(job: JobData, keeps: Held & { [KEPT_PIPE]?: Pipeline }): Held {
    const rest = keeps[KEPT_PIPE];
    if (!rest) return keeps;
    const held: Held = { ...keeps };
    delete (held as { [KEPT_PIPE]?: Pipeline })[KEPT_PIPE];
    job[PIPE] = (text, budget) => this.pipeThrough(rest, text, budget);
    return held;
  }

  /** An and-or list as a background job runs it (no pipeline of it is the top level), to its status. */
  private async backgroundList(item: AndOr, io: Io, sub: State, depth: number): Promise<number> {
    let status = await this.pipeline(item.first, io, sub, depth, false);
    for (const r of item.rest) {
      if ((r.op === '&&' && status !== 0) || (r.op === '||' && status === 0)) continue;
      status = await this.pipeline(r.pipeline, io, sub, depth, false);
    }
    return status;
  }

  /**
   * A background job's list, run as a coroutine (background): to its end, or until it pauses in a
   * sleep (pauseJob) and again from there each time the clock reaches its time (resumeJob).
   */
  private async jobBody(item: AndOr, io: Io, sub: State, depth: number, h: Handoff): Promise<void> {
    let status = 0;
    try {
      status = await this.backgroundList(item, io, sub, depth);
    } catch (e) {
      if (e instanceof ExitSignal) status = e.code;
      else if (e instanceof LineAbort) status = e.status;
      else if (e instanceof BudgetExceeded) {
        status = INTERRUPTED_STATUS;
        h.stopped = e;
      } else if (!(e instanceof ReturnSignal) && !(e instanceof LoopSignal)) {
        this.write(io.err, `${this.prefix()}${errText(e)}\n`);
        status = 1;
      }
    }
    const keeps = this.kept;
    this.kept = undefined;
    if (keeps) {
      h.job.holds = this.pipeJob(h.job, keeps);
      // a full-screen program started with `&` stops at once (SIGTTOU), told as kill -STOP is
      if (keeps[LIVE]?.needsTerminal) h.table.stopBySignal(h.job, this.opts.now() + this.advanced);
    }
    // a list that ended as it started is reaped after the next line; one that slept first ends on its own
    else if (!h.job.ended) h.table.end(h.job, status, undefined, !h.resumed);
    h.parked?.();
  }

  private saveCtx(): RunCtx {
    return {
      bg: this.bg,
      kept: this.kept,
      handoff: this.handoff,
      live: this.live,
      budget: this.budget,
      nextYield: this.nextYield,
      nested: this.nested,
      callDepth: this.callDepth,
      loopDepth: this.loopDepth,
      conditions: this.conditions,
      substitutions: this.substitutions,
      sourcing: this.sourcing,
      inTrap: this.inTrap,
      curLine: this.curLine,
      script$: this.script$,
      compoundArgs: this.compoundArgs,
    };
  }

  private loadCtx(c: RunCtx): void {
    this.bg = c.bg;
    this.kept = c.kept;
    this.handoff = c.handoff;
    this.live = c.live;
    this.budget = c.budget;
    this.nextYield = c.nextYield;
    this.nested = c.nested;
    this.callDepth = c.callDepth;
    this.loopDepth = c.loopDepth;
    this.conditions = c.conditions;
    this.substitutions = c.substitutions;
    this.sourcing = c.sourcing;
    this.inTrap = c.inTrap;
    this.curLine = c.curLine;
    this.script$ = c.script$;
    this.compoundArgs = c.compoundArgs;
  }

  /**
   * Hand control to the job `h` (its first run: `start`; else from its pause) and take it back
   * when it pauses or ends; only one list runs at a time, so the order is the clock's alone.
   */
  private async switchTo(h: Handoff, start?: () => Promise<void>): Promise<void> {
    const mine = this.saveCtx();
    this.loadCtx(h.ctx);
    const parked = new Promise<void>((resolve) => {
      h.parked = resolve;
    });
    if (start) void start();
    else h.wake?.();
    await parked;
    delete h.parked;
    h.ctx = this.saveCtx();
    this.loadCtx(mine);
    const stopped = h.stopped;
    delete h.stopped;
    if (stopped) throw stopped;
  }

  /** The running job's `sleep MS`: it pauses until the clock reaches the end (job-clock.ts). */
  private async pauseJob(h: Handoff, clock: JobClock, ms: number): Promise<void> {
    const at = this.opts.now() + ms;
    // what a session saved meanwhile knows of it: it ends then (the continuation lives in memory only)
    h.job.until = { at, status: 0 };
    await new Promise<void>((wake) => {
      h.wake = wake;
      clock.add({ at, job: h.job, table: h.table, resume: (io) => this.resumeJob(h, io) });
      h.parked?.();
    });
    delete h.job.until;
  }

  /** Run the paused job on in the line that runs now: its budget, its terminal. */
  private async resumeJob(h: Handoff, io: ResumeIo): Promise<void> {
    h.resumed = true;
    h.ctx = { ...h.ctx, budget: io.budget, nextYield: io.budget.steps + YIELD_EVERY, live: io.terminal };
    await this.switchTo(h);
  }

  /** `wait`/`fg`: the clock runs until the named jobs' paused lists have ended (or keep running). */
  private async waitPaused(name: string, args: string[], table: JobTable): Promise<void> {
    const clock = this.opts.jobClock;
    if (!clock) return;
    const picked = (name === 'wait' && args.length === 0 ? table.running() : (name === 'fg' ? [args[0]] : args).map((a) => jobArg(table, a, name))).filter((j): j is JobData => typeof j !== 'string');
    for (let guard = 0; guard < 10_000; guard++) {
      const next = picked.map((j) => clock.paused(j)?.at).filter((at): at is number => at !== undefined).sort((a, b) => a - b)[0];
      if (next === undefined) return;
      await this.consume(Math.max(0, next - this.opts.now()));
    }
  }

  /** The job whose list is running now, as a coroutine (background). */
  private handoff: Handoff | undefined;
  /** Where the running list's terminal output goes when it is a resumed job (the line that runs now). */
  private live: ((c: OutputChunk) => void) | undefined;
  /** The background job whose commands are running now (ShellContext.background). */
  private bg: { pid: number } | undefined;
  /** What a command of the running background job keeps after it started (ShellResult.keeps). */
  private kept: (Held & { [KEPT_PIPE]?: Pipeline }) | undefined;
  /** Simulated time the running background job has slept. */
  private bgTime = 0;
  /** $!: the pid of the last background job. */
  private lastBgPid: number | undefined;
  /** Pids for background lists of a shell without a job table. */
  private bgPids: JobTable | undefined;

  /** A trap's action is running (no ERR trap inside it). */
  private inTrap = false;
  /** Depth of if/while/until conditions being evaluated, where set -e does not apply. */
  private conditions = 0;
  /** Depth of command substitutions running (set -x prints one more `+` per level). */
  private substitutions = 0;

  private async condition(script: Script, io: Io, st: State, depth: number): Promise<void> {
    this.conditions++;
    try {
      await this.script(script, io, st, depth, false);
    } finally {
      this.conditions--;
    }
  }

  private async pipeline(p: Pipeline, io: Io, st: State, depth: number, top: boolean): Promise<number> {
    let status = 0;
    // PIPESTATUS: every member's status, before `!` and pipefail (bash execute_cmd.c set_pipestatus_array)
    const statuses: number[] = [];
    if (p.commands.length === 1) {
      status = await this.command(p.commands[0]!, io, st, depth, top);
      statuses.push(status);
    } else {
      let stdin = io.stdin;
      let failed = 0;
      const members = p.commands.map((c) => this.shownArgv(c, st));
      for (let i = 0; i < p.commands.length; i++) {
        const last = i === p.commands.length - 1;
        const buf: Sink = { kind: 'buffer', text: '' };
        const out = last ? io.out : buf;
        const err = p.pipeStderr[i] ? buf : io.err;
        // Every element of a multi-command pipeline runs in a subshell.
        const sub = this.clone(st);
        try {
          status = await this.command(p.commands[i]!, { pipeline: { members, index: i }, stdin, cursor: { pos: 0 }, out, err }, sub, depth, false);
        } catch (e) {
          if (e instanceof LineAbort) status = e.status;
          else if (!(e instanceof ExitSignal)) throw e;
          else status = e.code;
        }
        stdin = buf.kind === 'buffer' ? buf.text : '';
        statuses.push(status);
        if (status !== 0) failed = status;
        if (i === 0 && this.bg && this.kept && !this.kept[KEPT_PIPE] && this.kept.stdout?.kind !== 'file') {
          // a background pipeline whose first member keeps running (`kubectl get po -w | grep x &`):
          // what it writes later goes through the others, to wherever the last one writes
          const rest: Pipeline = { negate: false, commands: p.commands.slice(1), pipeStderr: p.pipeStderr.slice(1) };
          this.kept = { ...this.kept, stdout: { kind: 'pipe', flows: linesFlow(rest.commands) }, [KEPT_PIPE]: rest };
        }
        if (i === 0 && this.pipeWaits) {
          // the terminal holds the first member, and the others show only what they read at its
          // end (`kubectl get po -w | wc -l`): what it wrote so far waits with the rest
          this.pipeWaits = false;
          const holds = this.held?.holds;
          if (holds) holds.piped = stdin;
          break;
        }
      }
      // set -o pipefail: the last command that failed decides
      if (st.flags?.has('pipefail')) status = failed;
    }
    st.arrays.set('PIPESTATUS', statuses.map(String));
    st.vars.delete('PIPESTATUS');
    return p.negate ? (status === 0 ? 1 : 0) : status;
  }

  /**
   * A pipeline member's argv as `ps` would show its process, worked out before it runs: the words
   * of a simple command (aliases were expanded when parsed) with their variables and `~`, when no
   * word runs anything to expand (`$(…)`, `$((…))`, `<(…)`: those are not run twice for a
   * listing); a builtin's, a function's or a compound command's subshell shows the shell's own
   * argv. Assignments before the command are not part of argv.
   */
  private shownArgv(c: Command, st: State): string[] | undefined {
    // a compound command (`while read l; do …; done`) runs in a forked copy of the shell
    const shell = this.opts.location.kind === 'pod' ? ['sh'] : ['-bash'];
    if (c.type !== 'simple') return c.type === 'function' ? undefined : shell;
    if (c.words.length === 0) return undefined;
    const argv: string[] = [];
    for (const w of c.words) {
      let text = '';
      for (const part of w.parts) {
        if (part.kind === 'text') text += part.value;
        else if (part.kind === 'var') text += st.vars.get(part.name) ?? '';
        else if (part.kind === 'tilde') text += st.vars.get('HOME') ?? '/root';
        else return undefined;
      }
      argv.push(text);
    }
    // a builtin or function runs in a forked copy of the shell, which keeps the shell's argv
    const name = argv[0] ?? '';
    if (BUILTINS.has(name) || this.functions.has(name)) return shell;
    return argv;
  }

  /** Charge one step; every YIELD_EVERY steps let the event loop run so an interrupt arrives. */
  private async step(): Promise<void> {
    this.budget.step();
    if (this.budget.steps >= this.nextYield) {
      this.nextYield = this.budget.steps + YIELD_EVERY;
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.budget.checkInterrupt();
    }
  }

  private async command(c: Command, io: Io, st: State, depth: number, top: boolean): Promise<number> {
    await this.step();
    if (c.type === 'subshell') {
      const rio = await this.redirects(c.redirects, io, st, depth);
      if (typeof rio === 'number') return rio;
      const sub = this.clone(st);
      let code: number;
      try {
        await this.script(c.body, rio, sub, depth + 1, false);
        code = sub.status;
      } catch (e) {
        // a subshell is a process of its own: what abandons its line ends it
        if (e instanceof LineAbort) code = e.status;
        else if (!(e instanceof ExitSignal)) throw e;
        else code = e.code;
      }
      return this.exitTrap(rio, sub, depth + 1, code);
    }
    if (c.type === 'simple') return this.simple(c, io, st, depth, top);
    if (c.type === 'function') {
      this.functions.set(c.name, c.body);
      const file = this.definingFile();
      if (file === undefined) this.funcFiles.delete(c.name);
      else this.funcFiles.set(c.name, file);
      return 0;
    }
    const rio = await this.redirects(c.redirects, io, st, depth);
    if (typeof rio === 'number') return rio;
    if (c.type === 'group') {
      await this.script(c.body, rio, st, depth, false);
      return st.status;
    }
    if (c.type === 'case') return this.caseCommand(c, rio, st, depth);
    if (c.type === 'arith') {
      if (c.line !== undefined) this.curLine = c.line;
      const v = await this.arithStatement(c.source, rio, st, depth);
      if (st.flags?.has('x') && v !== undefined) this.write(rio.err, `${'+'.repeat(1 + this.substitutions)} (( ${c.source.trim()} ))\n`);
      return v === undefined ? 1 : v !== 0 ? 0 : 1;
    }
    if (c.type === 'cond') {
      try {
        return (await this.cond(c.expr, { st, err: rio.err, depth, onStatus: () => undefined })) ? 0 : 1;
      } catch (e) {
        if (e instanceof CondError) {
          if (e.message) this.write(rio.err, `${this.prefix()}${e.message}\n`);
          return 2;
        }
        if (!(e instanceof ExpansionError)) throw e;
        this.write(rio.err, `${this.errPrefix()}${e.message}\n`);
        return 1;
      }
    }
    let status = 0;
    /** Run a loop body; 'break' or 'continue' when the body used those builtins. */
    const body = async (b: Script): Promise<'break' | 'continue' | undefined> => {
      try {
        await this.script(b, rio, st, depth, false);
        status = st.status;
      } catch (e) {
        if (e instanceof LoopSignal) {
          status = 0;
          if (e.levels > 1) throw new LoopSignal(e.kind, e.levels - 1);
          return e.kind;
        }
        throw e;
      }
      return undefined;
    };
    switch (c.type) {
      case 'for': {
        if (c.arith) return this.arithFor(c.arith, c.body, body, rio, st, depth);
        const items: string[] = c.words ? [] : [...st.args];
        if (c.words) {
          try {
            for (const w of c.words) for (const f of await this.expandWord(w, { st, err: rio.err, depth, onStatus: () => undefined }, true)) items.push(f);
          } catch (e) {
            if (!(e instanceof ExpansionError)) throw e;
            this.write(rio.err, `${this.errPrefix()}${e.message}\n`);
            return 1;
          }
        }
        this.loopDepth++;
        try {
          for (const it of items) {
            await this.step();
            const refused = this.readonlyRefused(c.name, rio, st);
            if (refused !== undefined) return refused;
            st.vars.set(c.name, it);
            if ((await body(c.body)) === 'break') break;
          }
        } finally {
          this.loopDepth--;
        }
        return status;
      }
      case 'while': {
        this.loopDepth++;
        try {
          for (;;) {
            await this.step();
            await this.condition(c.cond, rio, st, depth);
            if ((st.status === 0) === c.until) break;
            if ((await body(c.body)) === 'break') break;
          }
        } finally {
          this.loopDepth--;
        }
        return status;
      }
      case 'if': {
        for (const cl of c.clauses) {
          await this.condition(cl.cond, rio, st, depth);
          if (st.status === 0) {
            await this.script(cl.body, rio, st, depth, false);
            return st.status;
          }
        }
        if (c.elseBody) {
          await this.script(c.elseBody, rio, st, depth, false);
          return st.status;
        }
        return 0;
      }
    }
  }

  /** Run a trap's action with `$?` as it was; its own status does not replace the shell's. */
  private async runTrap(action: string, io: Io, st: State, depth: number, status: number): Promise<void> {
    const parsed = parseScript(action, { aliases: this.aliases, ...this.lex() });
    if (!parsed.ok) {
      this.write(io.err, `${this.prefix()}${parsed.incomplete ? 'syntax error: unexpected end of file' : parsed.error.replace(/^bash: /, '')}\n`);
      return;
    }
    st.status = status;
    // a trap's own failures do not run the ERR trap again (trap.c run_error_trap's running_trap)
    const outer = this.inTrap;
    this.inTrap = true;
    try {
      await this.script(parsed.script, io, st, depth, false);
    } finally {
      this.inTrap = outer;
    }
    st.status = status;
  }

  /** A shell ending with `code`: its EXIT trap runs once; an `exit` inside it sets the final status. */
  private async exitTrap(io: Io, st: State, depth: number, code: number): Promise<number> {
    const action = st.traps?.get('EXIT');
    if (!action) return code;
    st.traps!.delete('EXIT');
    try {
      await this.runTrap(action, io, st, depth, code);
    } catch (e) {
      if (e instanceof ExitSignal) return e.code;
      throw e;
    }
    return code;
  }

  /** Where getopts is inside a word of grouped options (`-abc`), for the OPTIND it last set. */
  private getoptsAt = { optind: 1, char: 1 };

  /**
   * `getopts OPTSTRING NAME [ARG…]` (builtins/getopts.def, lib/sh/getopt.c): the next option of
   * ARG… (the positional parameters by default) into NAME, its argument into OPTARG, OPTIND moved
   * past it; status 1 when the options end. A leading `:` makes errors silent (NAME is `:` or `?`
   * and OPTARG the option); otherwise bash prints them with `$0` and NAME is `?`.
   */
  private getopts(args: string[], io: Io, st: State): number {
    if (args.length < 2) {
      this.write(io.err, 'getopts: usage: getopts optstring name [arg ...]\n');
      return 2;
    }
    const [spec, name, ...given] = args as [string, string, ...string[]];
    const silent = spec.startsWith(':');
    const opts = silent ? spec.slice(1) : spec;
    const argv = given.length ? given : st.args;
    let optind = Number(st.vars.get('OPTIND') ?? '1');
    if (!Number.isInteger(optind) || optind < 1) optind = 1;
    if (this.getoptsAt.optind !== optind) this.getoptsAt = { optind, char: 1 };
    const arg0 = st.arg0 ?? 'bash';
    const finish = (): number => {
      this.setVar(st, name, '?');
      st.vars.set('OPTIND', String(optind));
      this.getoptsAt = { optind, char: 1 };
      return 1;
    };
    const word = argv[optind - 1];
    if (word === undefined || word === '-' || !word.startsWith('-')) return finish();
    if (word === '--') {
      optind++;
      return finish();
    }
    let char = this.getoptsAt.char;
    const c = word[char]!;
    char++;
    const atEnd = char >= word.length;
    const next = (): void => {
      if (atEnd) {
        optind++;
        char = 1;
      }
    };
    const known = c !== ':' ? opts.indexOf(c) : -1;
    st.vars.delete('OPTARG');
    if (known < 0) {
      if (silent) st.vars.set('OPTARG', c);
      else this.write(io.err, `${arg0}: illegal option -- ${c}\n`);
      this.setVar(st, name, '?');
      next();
    } else if (opts[known + 1] === ':') {
      // the argument: the rest of this word, else the next word
      if (!atEnd) {
        st.vars.set('OPTARG', word.slice(char));
        optind++;
        char = 1;
        this.setVar(st, name, c);
      } else if (argv[optind] !== undefined) {
        st.vars.set('OPTARG', argv[optind]!);
        optind += 2;
        char = 1;
        this.setVar(st, name, c);
      } else {
        optind++;
        char = 1;
        if (silent) {
          this.setVar(st, name, ':');
          st.vars.set('OPTARG', c);
        } else {
          this.write(io.err, `${arg0}: option requires an argument -- ${c}\n`);
          this.setVar(st, name, '?');
        }
      }
    } else {
      this.setVar(st, name, c);
      next();
    }
    st.vars.set('OPTIND', String(optind));
    this.getoptsAt = { optind, char };
    return 0;
  }

  /** `trap [-lp] [[ACTION] SIGNAL…]` (builtins/trap.def). */
  private trap(args: string[], io: Io, st: State): number {
    const traps = (st.traps ??= new Map());
    let rest = args;
    if (rest[0] === '--') rest = rest.slice(1);
    if (rest[0] === '-l') {
      this.write(io.out, TRAP_LIST);
      return 0;
    }
    if (rest.length === 0 || rest[0] === '-p') {
      const only = rest.slice(1).map((x) => signalKey(x) ?? x);
      this.write(io.out, trapListing(traps, rest.length > 1 ? only : undefined));
      return 0;
    }
    if (/^-[^-]/.test(rest[0]!) && signalKey(rest[0]!) === undefined && rest[0] !== '-') {
      this.write(io.err, `${this.bprefix('trap')}${rest[0]}: invalid option\n${TRAP_USAGE}\n`);
      return 2;
    }
    // one operand that is not a signal: bash prints its usage
    if (rest.length === 1) {
      if (signalKey(rest[0]!) === undefined) {
        this.write(io.err, `${TRAP_USAGE}\n`);
        return 2;
      }
      traps.delete(signalKey(rest[0]!)!);
      return 0;
    }
    const [action, ...sigs] = rest as [string, ...string[]];
    let status = 0;
    for (const sig of sigs) {
      const key = signalKey(sig);
      if (!key) {
        this.write(io.err, `${this.bprefix('trap')}${sig}: invalid signal specification\n`);
        status = 1;
        continue;
      }
      if (action === '-') traps.delete(key);
      else traps.set(key, action);
    }
    return status;
  }

  /**
   * `case` (bash/execute_cmd.c execute_case_command): the word is expanded without splitting, each
   * pattern as a glob whose quoted parts match literally; the status is the body's, 0 when nothing matched.
   */
  private async caseCommand(c: CaseCommand, io: Io, st: State, depth: number): Promise<number> {
    const ctx: ExpandCtx = { st, err: io.err, depth, onStatus: () => undefined };
    let word: string;
    try {
      word = (await this.expandWord(c.word, ctx, false)).join('');
    } catch (e) {
      if (!(e instanceof ExpansionError)) throw e;
      this.write(io.err, `${this.errPrefix()}${e.message}\n`);
      return 1;
    }
    let status = 0;
    let fallThrough = false;
    for (const cl of c.clauses) {
      let hit = fallThrough;
      for (const p of cl.patterns) {
        if (hit) break;
        const pat = (await this.expandParts(p.parts, ctx, false)).map((f) => f.text).join('');
        hit = segmentRegExp(pat).test(word);
      }
      if (!hit) continue;
      await this.script(cl.body, io, st, depth, false);
      status = st.status;
      if (cl.end === ';;') return status;
      fallThrough = cl.end === ';&';
    }
    return status;
  }

  /**
   * `(( EXPR ))` and the parts of `for (( … ))`: the value after `$` expansions, or undefined after
   * printing bash's `((: EXPR: message` error (the command's status is then 1).
   */
  private async arithStatement(source: string, io: Io, st: State, depth: number): Promise<number | undefined> {
    const ctx: ExpandCtx = { st, err: io.err, depth, onStatus: () => undefined };
    try {
      const inner = (await this.expandParts(heredocParts(this.arithSource(source), this.lex()), ctx, false)).map((f) => unescapeGlob(f.text)).join('');
      return Number(
        evalArith(
          inner,
          ...this.arithVars(st),
        ),
      );
    } catch (e) {
      if (!(e instanceof ArithError) && !(e instanceof ExpansionError)) throw e;
      this.write(io.err, `${this.prefix()}((: ${e.message}\n`);
      return undefined;
    }
  }

  /**
   * The text of `(( ))` or `$(( ))` before its expansions: bash reads it as if double-quoted and
   * removes the double quotes (bash 5.2 `(( "x" > 3 ))` compares x; `echo $(( "1" + 1 ))` is 2);
   * dash and BusyBox ash keep them, and refuse them as an operand.
   */
  private arithSource(src: string): string {
    return this.isDash() || this.isAsh() ? src : src.replace(/(^|[^\\])"/g, '$1').replace(/(^|[^\\])"/g, '$1');
  }

  /** `for (( INIT; TEST; STEP ))`: an empty TEST is true (bash/execute_cmd.c execute_arith_for_command). */
  private async arithFor(
    [init, test, step]: [string, string, string],
    loopBody: Script,
    body: (b: Script) => Promise<'break' | 'continue' | undefined>,
    io: Io,
    st: State,
    depth: number,
  ): Promise<number> {
    const run = async (src: string): Promise<number | undefined> => (src.trim() === '' ? 1 : this.arithStatement(src, io, st, depth));
    if ((await run(init)) === undefined) return 1;
    let status = 0;
    this.loopDepth++;
    try {
      for (;;) {
        await this.step();
        const t = await run(test);
        if (t === undefined) return 1;
        if (t === 0) break;
        const r = await body(loopBody);
        status = st.status;
        if (r === 'break') break;
        if ((await run(step)) === undefined) return 1;
      }
    } finally {
      this.loopDepth--;
    }
    return status;
  }

  private async simple(c: SimpleCommand, io: Io, st: State, depth: number, top: boolean): Promise<number> {
    const outer = this.procFiles;
    const outerFd = this.nextFd;
    this.procFiles = [];
    this.nextFd = 63;
    try {
      return await this.simpleInner(c, io, st, depth, top);
    } finally {
      for (const p of this.procFiles) {
        try {
          this.opts.fs.remove(p);
        } catch {
          /* already gone */
        }
      }
      this.procFiles = outer;
      this.nextFd = outerFd;
    }
  }

  private async simpleInner(c: SimpleCommand, io: Io, st: State, depth: number, _top: boolean): Promise<number> {
    if (c.line !== undefined) this.curLine = c.line;
    let subStatus: number | undefined;
    const ctx: ExpandCtx = { st, err: io.err, depth, onStatus: (s) => (subStatus = s) };
    let argv: string[];
    const assigns = new Map<string, string>();
    const arrays = new Map<string, string[]>();
    const indexed: Array<{ name: string; index: number; value: string }> = [];
    const keyed: Array<{ name: string; key: string; value: string }> = [];
    const assocs = new Map<string, BashAssoc>();
    let compound: Map<number, string[]> | undefined;
    try {
      argv = [];
      this.compoundArgs = undefined;
      for (const [wi, w] of c.words.entries()) {
        const cw = c.compound?.find((x) => x.index === wi);
        if (cw) {
          const items: string[] = [];
          for (const e of cw.elements) for (const f of await this.expandWord(e, ctx, true)) items.push(f);
          (compound ??= new Map()).set(argv.length, items);
        }
        for (const f of await this.expandWord(w, ctx, true)) argv.push(f);
      }
      for (const a of c.assigns) {
        const assoc = st.assoc.get(a.name);
        if (a.array && assoc) {
          assocs.set(a.name, await this.assocElements(a.name, a.array, a.append ? assoc.clone() : new BashAssoc(), ctx));
        } else if (a.array) {
          const items: string[] = a.append ? [...(st.arrays.get(a.name) ?? (st.vars.has(a.name) ? [st.vars.get(a.name)!] : []))] : [];
          await this.indexedElements(a.array, items, ctx);
          arrays.set(a.name, items);
        } else if (a.index !== undefined && assoc) {
          const key = await this.assocKey(a.name, a.index, ctx);
          const value = (await this.expandWord(a.value, ctx, false)).join('');
          keyed.push({ name: a.name, key, value: a.append ? (assoc.get(key) ?? '') + value : value });
        } else if (a.index !== undefined) {
          const index = this.arithIndex(await this.subscript(a.index, ctx), st);
          const value = (await this.expandWord(a.value, ctx, false)).join('');
          indexed.push({ name: a.name, index, value: a.append ? (st.arrays.get(a.name)?.[index] ?? '') + value : value });
        } else {
          const value = (await this.expandWord(a.value, ctx, false)).join('');
          assigns.set(a.name, a.append ? (this.scalar(a.name, st) ?? '') + value : value);
        }
      }
    } catch (e) {
      if (e instanceof ExpansionError) {
        this.write(io.err, `${this.errPrefix()}${e.message}\n`);
        // bash ends a `-c` string with 127 and a script file with 1 (observed, bash 5.2), dash with 2
        if (e.fatal && this.script$) throw new ExitSignal(this.script$.dash ? 2 : this.script$.fromString ? 127 : 1);
        return 1;
      }
      throw e;
    }
    // a program's redirections are opened after the fork and read by the program after exec: what
    // it reads from /proc/self is its own (`tr '\0' ' ' < /proc/self/cmdline` shows tr's)
    const fs = this.opts.fs;
    const outer = fs.process;
    const reader = argv.length > 0 ? this.programProcess(argv) : undefined;
    if (reader) fs.process = reader;
    let rio: Io | number;
    try {
      rio = await this.redirects(c.redirects, io, st, depth);
    } finally {
      fs.process = outer;
    }
    if (typeof rio === 'number') return rio;
    // set -x: the command as it will run, after expansion, one `+` per level of substitution
    if (st.flags?.has('x')) {
      const shown = [...[...assigns].map(([k, v]) => `${k}=${traceWord(v)}`), ...argv.map(traceWord)].join(' ');
      this.write(io.err, `${'+'.repeat(1 + this.substitutions)} ${shown}\n`);
    }

    if (argv.length === 0) {
      for (const k of [...assigns.keys(), ...arrays.keys(), ...indexed.map((x) => x.name), ...assocs.keys(), ...keyed.map((x) => x.name)]) {
        const refused = this.readonlyRefused(k, io, st);
        if (refused === undefined) continue;
        // bash abandons the line's list at a refused assignment, at the prompt and in a script
        // (bash 5.2 `bash -c 'readonly x=1; x=2; echo $?'` prints no status; testdata/line-abort.txt)
        if (!this.isDash() && !this.isAsh()) throw new LineAbort(refused);
        return refused;
      }
      for (const [k, v] of assigns) this.setVar(st, k, v);
      for (const [k, v] of arrays) {
        st.arrays.set(k, v);
        st.vars.delete(k);
      }
      for (const { name, index, value } of indexed) {
        const arr = st.arrays.get(name) ?? (st.vars.has(name) ? [st.vars.get(name)!] : []);
        arr[index] = value;
        st.arrays.set(name, arr);
        st.vars.delete(name);
      }
      for (const [k, v] of assocs) st.assoc.set(k, v);
      for (const { name, key, value } of keyed) st.assoc.get(name)?.set(key, value);
      return subStatus ?? 0;
    }
    const name = argv[0]!;
    if (name === 'exit') {
      const arg = argv[1];
      if (this.isDash() || this.isAsh()) {
        // dash's exitcmd (and BusyBox ash's, its descendant): a decimal number or nothing, further words ignored; an illegal number is
        // an error that ends a script but not an interactive shell (error.c exraise)
        if (arg !== undefined && !/^\d+$/.test(arg)) {
          this.write(rio.err, `${this.bprefix('exit')}Illegal number: ${arg}\n`);
          if (this.script$) throw new ExitSignal(2);
          return 2;
        }
        throw new ExitSignal(arg === undefined ? st.status : Number(arg) % 256);
      }
      if (arg !== undefined && !/^[+-]?\d+$/.test(arg)) {
        this.write(rio.err, `${this.bprefix('exit')}${arg}: numeric argument required\n`);
        throw new ExitSignal(2);
      }
      if (argv.length > 2) {
        this.write(rio.err, `${this.bprefix('exit')}too many arguments\n`);
        return 1;
      }
      throw new ExitSignal(arg === undefined ? st.status : ((Number(arg) % 256) + 256) % 256);
    }
    const fnBody = this.functions.get(name);
    if (fnBody) return this.call(name, fnBody, argv.slice(1), rio, st, depth);
    // `IFS=: read a b`: a builtin sees its assignments for its own run only
    // `x=2 cmd` with x read-only: dash and ash refuse the command, bash runs it without the value
    for (const k of assigns.keys()) {
      const refused = this.readonlyRefused(k, io, st);
      if (refused === undefined) continue;
      if (this.isDash() || this.isAsh()) return refused;
      assigns.delete(k);
    }
    const hidden = new Map<string, string | undefined>();
    for (const [k, v] of assigns) {
      hidden.set(k, st.vars.get(k));
      st.vars.set(k, v);
    }
    let builtin: number | undefined;
    try {
      this.compoundArgs = compound;
      // (`fg | cat` runs fg in a subshell, which has no jobs to bring back)
      this.holdBuiltin = c === this.holdCmd && !this.holdPipe;
      builtin = await this.shellBuiltin(name, argv, rio, st, depth);
    } finally {
      this.holdBuiltin = false;
      this.compoundArgs = undefined;
      for (const [k, v] of hidden) {
        if (v === undefined) st.vars.delete(k);
        else st.vars.set(k, v);
      }
    }
    if (builtin !== undefined) return builtin;
    if (isShellName(name, this.opts.location.kind === 'pod', this.opts.containerBash)) return this.childShell(name, argv, rio, st, depth);

    const holdThis = c === this.holdCmd;
    const fn = this.opts.lookup(name);
    if (!fn) {
      const shNotFound = this.isDash() || this.isAsh();
      this.write(rio.err, name.includes('/') && !shNotFound ? `${this.prefix()}${name}: No such file or directory\n` : `${this.errPrefix()}${name}: ${shNotFound ? 'not found' : 'command not found'}\n`);
      return 127;
    }
    const env = this.exportedEnv(st, assigns);
    const ctxCmd: ShellContext = {
      argv,
      stdin: takeStdin(rio),
      env,
      cwd: st.cwd,
      user: this.opts.user,
      fs: this.opts.fs,
      location: this.opts.location,
      now: () => this.opts.now() + this.advanced,
      history: this.opts.history?.() ?? [],
      resolveCommand: (n) => ((this.opts.lookup(n) && !BUILTINS.has(n)) || isShellName(n, this.opts.location.kind === 'pod', this.opts.containerBash) ? `/usr/bin/${n}` : undefined),
      // a command it runs (`timeout 10 kubectl logs -f`) writes where it writes and waits as it waits
      exec: (args, stdin, childEnv) => this.execArgv(args, stdin, st, childEnv ?? env, (stream, text) => this.write(stream === 'stdout' ? rio.out : rio.err, text)),
      budget: this.budget,
      stdoutIsTTY: rio.out.kind === 'terminal' && this.opts.tty !== false,
      hostname: this.opts.hostname ?? (this.opts.location.kind === 'pod' ? this.opts.location.pod : this.opts.location.host),
      ...(this.bg ? { background: this.bg } : holdThis && this.opts.jobs ? { background: { pid: this.opts.jobs.peekPid(), foreground: true as const } } : {}),
      ...(this.opts.runJobs && this.opts.jobClock && !this.bg ? { jobs: { next: () => this.opts.jobClock?.next(), runDue: this.opts.runJobs } } : {}),
      emit: (stream, text) => this.write(stream === 'stdout' ? rio.out : rio.err, text),
      ...(rio.pipeline ? { pipelinePeers: laterPeers(rio.pipeline) } : {}),
      ...(this.opts.execShell ? { execShell: this.opts.execShell } : {}),
    };
    let res: ShellResult;
    // the command is the process that reads /proc/self while it runs (commands/devices.ts)
    const parent = fs.process;
    const base = name.slice(name.lastIndexOf('/') + 1);
    fs.process = { comm: base, exe: `/usr/bin/${base}`, argv };
    try {
      res = await fn(ctxCmd);
    } catch (e) {
      if (e instanceof BudgetExceeded) throw e;
      res = { stdout: '', stderr: `${name}: ${errText(e)}\n`, exitCode: 1 };
    } finally {
      fs.process = parent;
    }
    if (res.keeps && this.bg) this.kept = { ...res.keeps, ...jobSinks(rio) };
    const table = holdThis ? this.opts.jobs : undefined;
    // the job is the whole pipeline, as bash prints it (`kubectl get po -w | grep x`)
    const pipe = holdThis ? this.holdPipe : undefined;
    // (rendered only for a job: most commands are none, and the text is a pure function of the AST)
    const jobText = (): string => (pipe ? andOrText({ first: pipe, rest: [] }) : commandText(c, 0));
    if (table && res.keeps) {
      // the process keeps running with the terminal: a job in the foreground (Session.foreground)
      this.held = table.start(jobText(), true);
      this.held.holds = { ...res.keeps, ...jobSinks(rio) };
      if (pipe) {
        // its later output runs through the pipeline's other members (Session.pipeOutput)
        const flows = linesFlow(pipe.commands.slice(1));
        this.held.holds.stdout = { kind: 'pipe', flows };
        if (!flows) this.pipeWaits = true;
      }
    }
    this.pumpJobs('accept');
    for (const c of writeOrder(res)) this.write(c.stream === 'stdout' ? rio.out : rio.err, c.text);
    if (table && !this.held && res.advanceMs !== undefined && res.advanceMs > 0 && Number.isFinite(res.advanceMs) && res.advanceMs <= this.budget.timeLeft()) {
      // `sleep N` at the prompt: the terminal waits for it on the clock, and Ctrl-Z can stop it
      this.held = table.start(jobText(), true);
      this.held.until = { at: this.opts.now() + this.advanced + res.advanceMs, status: res.exitCode };
      // `sleep 100 | wc -l`: the others read end of input when it ends
      if (pipe) this.pipeWaits = true;
    } else if (res.advanceMs !== undefined && !(res.advanceMs <= 0)) await this.consume(res.advanceMs);
    if (this.held && pipe) {
      const rest: Pipeline = { negate: false, commands: pipe.commands.slice(1), pipeStderr: pipe.pipeStderr.slice(1) };
      this.held[PIPE] = (text, budget) => this.pipeThrough(rest, text, budget);
    }
    this.pumpJobs('end');
    return res.exitCode;
  }

  /** Run a function: positional parameters and a `local` scope for the call, `return` ends it. */
  /**
   * The source a function defined now is said to come from in its errors (funcFiles). bash 5.2.15
   * names a `bash -c` string's functions `environment: line N:` and a stdin script's `main: line
   * N:`, N counting lines of the whole string or script (recorded in testdata/child-shells.txt).
   */
  private definingFile(): string | undefined {
    const sc = this.script$;
    if (!sc || sc.dash) return undefined;
    if (sc.sourced) return sc.name;
    return sc.fromString ? 'environment' : sc.fromStdin ? 'main' : sc.name;
  }

  private async call(name: string, body: Command, args: string[], io: Io, st: State, depth: number): Promise<number> {
    if (this.callDepth >= MAX_CALLS) {
      this.write(io.err, `${this.prefix()}${name}: maximum function nesting level exceeded (${MAX_CALLS})\n`);
      return 1;
    }
    const file = this.funcFiles.get(name);
    const savedScript = this.script$;
    if (savedScript && file !== undefined) this.script$ = { ...savedScript, fnFile: file };
    const savedArgs = st.args;
    st.args = args;
    st.scopes.push(new Map());
    this.callDepth++;
    try {
      return await this.command(body, io, st, depth, false);
    } catch (e) {
      if (e instanceof ReturnSignal) return e.code;
      throw e;
    } finally {
      this.script$ = savedScript;
      this.callDepth--;
      st.args = savedArgs;
      for (const [k, v] of st.scopes.pop() ?? []) {
        if (v.value === undefined) st.vars.delete(k);
        else st.vars.set(k, v.value);
        if (v.array === undefined) st.arrays.delete(k);
        else st.arrays.set(k, v.array);
        if (v.assoc === undefined) st.assoc.delete(k);
        else st.assoc.set(k, v.assoc);
        if (v.exported) st.exported.add(k);
        else st.exported.delete(k);
      }
    }
  }

  /** Assign a scalar; an array's element 0 when NAME is an array, as bash does. */
  private setVar(st: State, name: string, value: string): void {
    const arr = st.arrays.get(name);
    const assoc = st.assoc.get(name);
    if (assoc) assoc.set('0', value);
    else if (arr) arr[0] = value;
    else st.vars.set(name, value);
  }

  /** A subscript's text after `$` expansions (`a[$((n-1))]`, `a[${#a[@]}]`): then arithmetic. */
  private async subscript(src: string, ctx: ExpandCtx): Promise<string> {
    if (!/[$`]/.test(src)) return src;
    return (await this.expandParts(heredocParts(src, this.lex()), ctx, false)).map((f) => unescapeGlob(f.text)).join('');
  }

  /**
   * An associative array's subscript (arrayfunc.c assoc subscripts): expanded as a word, quotes
   * removed, never arithmetic; an empty key is bash's `bad array subscript`.
   */
  private async assocKey(name: string, src: string, ctx: ExpandCtx): Promise<string> {
    const lx = tokenize(src, this.lex());
    const words = lx.ok ? lx.tokens.filter((t) => t.type === 'word') : [];
    const key = lx.ok && words.length === 1 && lx.tokens.length === 1 ? (await this.expandWord(words[0]!.word, ctx, false)).join('') : await this.subscript(src, ctx);
    if (key === '') throw new ExpansionError(`${name}[${src}]: bad array subscript`);
    return key;
  }

  /** One `[SUB]=VALUE` element of a compound assignment, split as typed; undefined for a plain element. */
  private async subscripted(w: Word, ctx: ExpandCtx): Promise<{ sub: string; append: boolean; value: string } | undefined> {
    const m = /^\[((?:[^\]\\]|\\.)*)\](\+)?=/.exec(w.raw);
    if (!m) return undefined;
    const rest = w.raw.slice(m[0].length);
    const lx = tokenize(rest, this.lex());
    const tok = lx.ok && lx.tokens.length === 1 ? lx.tokens[0] : undefined;
    const word = tok?.type === 'word' ? tok.word : undefined;
    const value = rest === '' ? '' : word ? (await this.expandWord(word, ctx, false)).join('') : rest;
    return { sub: m[1]!, append: m[2] !== undefined, value };
  }

  /**
   * `a=(x [5]=y z)` for an indexed array: a subscripted element sets that index and the next
   * plain one follows it (arrayfunc.c assign_compound_array_list).
   */
  private async indexedElements(words: readonly Word[], items: string[], ctx: ExpandCtx): Promise<void> {
    let next = items.length;
    for (const w of words) {
      const sub = await this.subscripted(w, ctx);
      if (sub) {
        const i = this.arithIndex(await this.subscript(sub.sub, ctx), ctx.st);
        items[i] = sub.append ? (items[i] ?? '') + sub.value : sub.value;
        next = i + 1;
        continue;
      }
      for (const f of await this.expandWord(w, ctx, true)) items[next++] = f;
    }
  }

  /**
   * `a=([k]=v …)` for an associative array, or bash 5.1's key/value list `a=(k1 v1 k2 v2)` when
   * the first element has no subscript (arrayfunc.c assign_assoc_from_kvlist).
   */
  private async assocElements(name: string, words: readonly Word[], into: BashAssoc, ctx: ExpandCtx): Promise<BashAssoc> {
    const first = words[0] ? await this.subscripted(words[0], ctx) : undefined;
    if (words.length > 0 && !first) {
      const flat: string[] = [];
      for (const w of words) for (const f of await this.expandWord(w, ctx, true)) flat.push(f);
      for (let i = 0; i < flat.length; i += 2) into.set(flat[i]!, flat[i + 1] ?? '');
      return into;
    }
    for (const w of words) {
      const sub = await this.subscripted(w, ctx);
      if (!sub) {
        this.write(ctx.err, `${this.prefix()}${name}: '${w.raw}': must use subscript when assigning associative array\n`);
        continue;
      }
      const key = await this.assocKey(name, sub.sub, ctx);
      into.set(key, sub.append ? (into.get(key) ?? '') + sub.value : sub.value);
    }
    return into;
  }

  /** `declare -A a=([k]=v …)`: the elements arrive expanded (`[k]=v` as text), or as a key/value list. */
  private assocFromElements(name: string, elements: readonly string[], into: BashAssoc, err: Sink): BashAssoc {
    const sub = (e: string): RegExpExecArray | null => /^\[([^\]]*)\](\+)?=([^]*)$/.exec(e);
    if (elements.length > 0 && !sub(elements[0]!)) {
      for (let i = 0; i < elements.length; i += 2) into.set(elements[i]!, elements[i + 1] ?? '');
      return into;
    }
    for (const e of elements) {
      const m = sub(e);
      if (!m) this.write(err, `${this.prefix()}${name}: '${e}': must use subscript when assigning associative array\n`);
      else if (m[1] === '') this.write(err, `${this.prefix()}${name}[]: bad array subscript\n`);
      else into.set(m[1]!, m[2] ? (into.get(m[1]!) ?? '') + m[3]! : m[3]!);
    }
    return into;
  }

  /** `${NAME[SUB]…}` with expansions in SUB: the same parameter text with SUB expanded. */
  private async expandSubscriptIn(name: string, ctx: ExpandCtx): Promise<string> {
    const m = /^([!#]?[A-Za-z_][A-Za-z0-9_]*)\[/.exec(name);
    // an associative array's key is a word: quotes are removed even without expansions
    const assoc = m !== null && ctx.st.assoc.has(m[1]!.replace(/^[!#]/, ''));
    if (!m || (!assoc && !/[$`]/.test(name))) return name;
    let depth = 0;
    for (let i = m[0].length - 1; i < name.length; i++) {
      if (name[i] === '[') depth++;
      else if (name[i] === ']' && --depth === 0) {
        const sub = name.slice(m[0].length, i);
        if (assoc && (sub === '@' || sub === '*')) return name;
        const key = assoc ? await this.assocKey(m[1]!.replace(/^[!#]/, ''), sub, ctx) : await this.subscript(sub, ctx);
        return `${m[1]}[${key}]${name.slice(i + 1)}`;
      }
    }
    return name;
  }

  /**
   * `declare`/`typeset`/`local` (builtins/declare.def): attributes -a -x -i -g, `-p` to print,
   * `-F` to list functions; in a function (and always for `local`) the names become local.
   */
  private declare(builtin: string, args: string[], io: Io, st: State): number {
    const compound = this.compoundArgs;
    const o = parseDeclareArgs(builtin, args);
    if (typeof o === 'string') {
      this.write(io.err, `${this.prefix()}${o}\n`);
      return 2;
    }
    const scope = st.scopes[st.scopes.length - 1];
    if (builtin === 'local' && !scope) {
      this.write(io.err, `${this.bprefix('local')}can only be used in a function\n`);
      return 1;
    }
    // setattr.c var_attribute_string: a, A, i, n, r, t, x in that order
    const attrs = (k: string): string => `${st.arrays.has(k) ? 'a' : ''}${st.assoc.has(k) ? 'A' : ''}${st.readonly?.has(k) ? 'r' : ''}${st.exported.has(k) ? 'x' : ''}`;
    if (o.on.has('F') || o.on.has('f')) {
      // -F names the functions, -f prints their definitions (print_cmd.c, shell/print-command.ts)
      const bodies = !o.on.has('F');
      const show = (n: string): string => (bodies ? functionText(n, this.functions.get(n)!) : `${n}\n`);
      if (o.names.length === 0) {
        const names = [...this.functions.keys()].sort();
        this.write(io.out, names.map((f) => (bodies ? show(f) : `declare -f ${f}\n`)).join(''));
        return 0;
      }
      let status = 0;
      for (const n of o.names) {
        if (this.functions.has(n)) this.write(io.out, show(n));
        else status = 1;
      }
      return status;
    }
    if (o.on.has('p') || (o.names.length === 0 && builtin !== 'local')) {
      const names = o.names.length ? o.names : [...new Set([...st.vars.keys(), ...st.arrays.keys(), ...st.assoc.keys()])].sort();
      let status = 0;
      for (const k of names) {
        const assoc = st.assoc.get(k);
        if (assoc) {
          this.write(io.out, `${assocDeclareLine(k, attrs(k), assoc)}\n`);
          continue;
        }
        if (!st.vars.has(k) && !st.arrays.has(k)) {
          this.write(io.err, `${this.bprefix(builtin)}${k}: not found\n`);
          status = 1;
          continue;
        }
        this.write(io.out, `${declareLine(k, attrs(k), st.vars.get(k), st.arrays.get(k))}\n`);
      }
      return status;
    }
    let status = 0;
    o.names.forEach((a, i) => {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(\+)?=([^]*))?$/.exec(a);
      if (!m) {
        this.write(io.err, `${this.bprefix(builtin)}\`${a}': not a valid identifier\n`);
        status = 1;
        return;
      }
      const [, k, append, raw] = m as unknown as [string, string, string | undefined, string | undefined];
      // a read-only NAME: bash refuses `local NAME` even without a value, dash only with one,
      // BusyBox ash always (bash 5.2, dash 0.5.12, busybox 1.36.1 `readonly a; f() { local a; }; f`)
      if (st.readonly?.has(k) && (raw !== undefined || builtin === 'local') && !(builtin === 'local' && raw === undefined && this.isPlainDash())) {
        status = this.readonlyRefused(k, io, st, builtin)!;
        return;
      }
      const local = scope && !o.on.has('g');
      if (local && !scope.has(k)) {
        scope.set(k, { value: st.vars.get(k), array: st.arrays.get(k), assoc: st.assoc.get(k), exported: st.exported.has(k) });
        st.arrays.delete(k);
        st.assoc.delete(k);
        st.vars.delete(k);
      }
      // the operand's index in argv: the builtin's name, its options, then the operands
      const elements = compound?.get(1 + args.length - o.names.length + i);
      let value = raw;
      if (value !== undefined && o.on.has('i')) value = String(this.arithIndex(value || '0', st));
      if (o.on.has('A') || st.assoc.has(k)) {
        if (st.arrays.has(k)) {
          this.write(io.err, `${this.bprefix(builtin)}${k}: cannot convert indexed to associative array\n`);
          status = 1;
          return;
        }
        let assoc = st.assoc.get(k);
        if (!assoc) {
          // a scalar becomes the element with key 0 (arrayfunc.c convert_var_to_assoc)
          assoc = new BashAssoc();
          const old = st.vars.get(k);
          if (old !== undefined) assoc.set('0', old);
          else assoc.assigned = false;
          st.vars.delete(k);
          st.assoc.set(k, assoc);
        }
        if (elements) st.assoc.set(k, this.assocFromElements(k, elements, append ? assoc.clone() : new BashAssoc(), io.err));
        else if (value !== undefined) assoc.set('0', append ? (assoc.get('0') ?? '') + value : value);
      } else if (elements) {
        const base = append ? (st.arrays.get(k) ?? (st.vars.has(k) ? [st.vars.get(k)!] : [])) : [];
        st.arrays.set(k, [...base, ...elements]);
        st.vars.delete(k);
      } else if (o.on.has('a') && !st.arrays.has(k)) {
        const v = st.vars.get(k);
        st.arrays.set(k, value !== undefined ? [value] : v !== undefined ? [v] : []);
        st.vars.delete(k);
      } else if (value !== undefined) this.setVar(st, k, append ? (this.scalar(k, st) ?? '') + value : value);
      if (o.on.has('x')) st.exported.add(k);
      if (o.off.has('x')) st.exported.delete(k);
      if (o.on.has('r')) (st.readonly ??= new Set()).add(k);
    });
    return status;
  }

  /** `let EXPR…` (builtins/let.def): status 0 when the last value is not zero. */
  private let(args: string[], io: Io, st: State): number {
    if (args.length === 0) {
      this.write(io.err, `${this.bprefix('let')}expression expected\n`);
      return 1;
    }
    let last = 0;
    for (const a of args) {
      try {
        last = Number(
          evalArith(
            a,
            ...this.arithVars(st),
          ),
        );
      } catch (e) {
        if (!(e instanceof ArithError)) throw e;
        this.write(io.err, `${this.bprefix('let')}${e.message}\n`);
        return 1;
      }
    }
    return last !== 0 ? 0 : 1;
  }

  /** `complete` (builtins/complete.def): keeps specifications for `complete -p`; the prompt completes kubectl itself. */
  private complete(args: string[], io: Io): number {
    const r = parseComplete(args);
    if (typeof r === 'string') {
      this.write(io.err, `${this.prefix()}${r}\n`);
      return 2;
    }
    if (r.remove) {
      if (r.names.length === 0) this.completions.clear();
      for (const n of r.names) this.completions.delete(n);
      return 0;
    }
    if (r.print || (r.names.length === 0 && r.spec.options.length === 0 && r.spec.actions.length === 0 && !r.spec.func && r.spec.wordlist === undefined)) {
      const names = r.names.length ? r.names : [...this.completions.keys()];
      let status = 0;
      for (const n of names) {
        const spec = this.completions.get(n);
        if (spec) this.write(io.out, `${completeLine(n, spec)}\n`);
        else {
          this.write(io.err, `${this.bprefix('complete')}${n}: no completion specification\n`);
          status = 1;
        }
      }
      return status;
    }
    for (const n of r.names) this.completions.set(n, r.spec);
    return 0;
  }

  /**
   * How arithmetic reads and writes a variable: NAME, or an element `NAME[SUB]` (SUB after its
   * `$` expansions; an indexed array's is arithmetic, negative from the end, an associative
   * array's the key as written, bash expr.c expr_streval/expr_bind_array_element); a scalar is
   * its own element 0.
   */
  private arithVars(st: State): [get: (name: string, sub?: string) => string, set: (name: string, v: string, sub?: string) => void] {
    const get = (n: string, sub?: string): string => {
      if (sub === undefined) return this.scalar(n, st) ?? '';
      const assoc = st.assoc.get(n);
      if (assoc) return assoc.get(sub) ?? '';
      const arr = st.arrays.get(n);
      let i = this.arithIndex(sub, st);
      if (!arr) return i === 0 || i === -1 ? (st.vars.get(n) ?? '') : '';
      if (i < 0) i += arr.length;
      return arr[i] ?? '';
    };
    const set = (n: string, v: string, sub?: string): void => {
      if (sub === undefined) return this.setVar(st, n, v);
      const assoc = st.assoc.get(n);
      if (assoc) return void assoc.set(sub, v);
      let arr = st.arrays.get(n);
      if (!arr) {
        arr = st.vars.has(n) ? [st.vars.get(n)!] : [];
        st.arrays.set(n, arr);
        st.vars.delete(n);
      }
      let i = this.arithIndex(sub, st);
      if (i < 0) i += arr.length;
      if (i < 0) throw new ArithError(`${n}[${sub}]: bad array subscript`);
      arr[i] = v;
    };
    return [get, set];
  }

  /** An array subscript: an arithmetic expression (`a[i+1]`). */
  private arithIndex(src: string, st: State): number {
    try {
      return Number(
        evalArith(
          src,
          ...this.arithVars(st),
        ),
      );
    } catch (e) {
      if (e instanceof ArithError) throw new ExpansionError(e.message);
      throw e;
    }
  }

  /**
   * Builtins that need the interpreter itself (functions, files to source, positional
   * parameters); the others are in builtin(). undefined when `name` is neither.
   */
  private async shellBuiltin(name: string, argv: string[], io: Io, st: State, depth: number): Promise<number | undefined> {
    const args = argv.slice(1);
    // bash's own builtins are commands dash looks up and does not find (`sh: 1: let: not found`)
    if (DASH_LACKS.has(name) && this.isPlainDash()) return undefined;
    if (this.isDash() || this.isAsh()) {
      const refused = this.shOptionError(name, args, io, st);
      if (refused !== undefined) return refused;
    }
    switch (name) {
      case 'echo':
        // dash's echo always reads escapes (bltin/printf.c echocmd); bash's is a text command
        if (!this.isDash()) return undefined;
        this.write(io.out, dashEcho(args));
        return 0;
      case 'test':
      case '[': {
        // dash's test has no `==` and words its errors itself (bltin/test.c); BusyBox ash's and bash's are the text command
        if (!this.isPlainDash()) return undefined;
        const r = dashTest(name, args, { cwd: st.cwd, fs: this.opts.fs });
        if (r.error !== undefined) this.write(io.err, `${this.prefix()}${name}: ${r.error}\n`);
        return r.status;
      }
      case 'return': {
        if (st.scopes.length === 0 && !this.sourcing) {
          this.write(io.err, "bash: return: can only `return' from a function or sourced script\n");
          return 2;
        }
        if (args[0] !== undefined && !/^[+-]?\d+$/.test(args[0])) {
          this.write(io.err, `${this.bprefix('return')}${args[0]}: numeric argument required\n`);
          throw new ReturnSignal(2);
        }
        throw new ReturnSignal(args[0] === undefined ? st.status : ((Number(args[0]) % 256) + 256) % 256);
      }
      case 'local':
      case 'declare':
      case 'typeset':
        // dash's and ash's `local -` (save the options) makes nothing local here
        return this.declare(name, this.isDash() || this.isAsh() ? args.filter((a) => a !== '-') : args, io, st);
      case 'readonly':
        return this.readonlyBuiltin(args, io, st);
      case 'mapfile':
      case 'readarray':
        return this.mapfile(name, args, io, st);
      case 'let':
        return this.let(args, io, st);
      case 'trap':
        return this.trap(args, io, st);
      case 'jobs':
      case 'kill':
      case 'wait':
      case 'fg':
      case 'bg':
      case 'disown': {
        const table = this.opts.jobs ?? (this.bgPids ??= new JobTable());
        // (a terminal that holds the job lets the clock run its paused list on: Session.foreground)
        const hold = name === 'fg' && this.holdBuiltin && this.opts.jobs !== undefined;
        if (name === 'wait' || (name === 'fg' && !hold)) await this.waitPaused(name, args, table);
        const now = this.opts.now() + this.advanced;
        const r = jobBuiltin(name, args, table, { ...(this.opts.processExists ? { processExists: this.opts.processExists } : {}), now, hold });
        if (r.foreground) this.held = r.foreground;
        if (r.waitUntil !== undefined && r.waitUntil > now) await this.consume(r.waitUntil - now);
        this.write(io.out, r.stdout);
        for (const e of r.errors) this.write(io.err, `${this.prefix()}${e}\n`);
        if (r.usage) this.write(io.err, `${r.usage}\n`);
        return r.status;
      }
      case 'getopts':
        return this.getopts(args, io, st);
      case 'compopt':
        // only a running completion function may change its options (complete.def compopt_builtin)
        this.write(io.err, `${this.bprefix('compopt')}not currently executing completion function\n`);
        return 1;
      case 'shift': {
        const n = args[0] === undefined ? 1 : Number(args[0]);
        if (!Number.isInteger(n) || n < 0) {
          this.write(io.err, `${this.bprefix('shift')}${args[0]}: numeric argument required\n`);
          return 1;
        }
        if (n > st.args.length) {
          if (!this.isDash()) return 1;
          // dash's shiftcmd: sh_error, a special builtin's error (ends a script, the line at a prompt)
          this.write(io.err, `${this.bprefix('shift')}can't shift that many\n`);
          if (this.script$) throw new ExitSignal(2);
          throw new LineAbort(2);
        }
        st.args = st.args.slice(n);
        return 0;
      }
      case 'eval':
        return this.evalBuiltin(args, io, st, depth);
      case 'source':
      case '.':
        return this.source(name, args, io, st, depth);
      case 'read':
        return this.read(args, io, st);
      case 'type':
        return this.typeBuiltin(args, io);
      case 'command': {
        const opt = args[0];
        if (opt === '-v' || opt === '-V') {
          let status = 0;
          for (const n of args.slice(1)) {
            const k = this.nameKind(n);
            if (!k) {
              if (opt === '-V') this.write(io.err, `${this.bprefix('command')}${n}: not found\n`);
              status = 1;
            } else this.write(io.out, `${opt === '-v' ? describeShort(n, k) : describeLong(n, k)}\n`);
          }
          return status;
        }
        // `command NAME ARGS`: run NAME skipping functions (aliases were expanded when parsed)
        const rest = opt === '-p' ? args.slice(1) : args;
        if (rest.length === 0) return 0;
        const saved = this.functions.get(rest[0]!);
        if (saved) this.functions.delete(rest[0]!);
        try {
          return await this.simpleInner({ type: 'simple', assigns: [], words: rest.map((w): Word => ({ parts: [{ kind: 'text', value: w, quoted: true }], raw: w })), redirects: [] }, io, st, depth, false);
        } finally {
          if (saved) this.functions.set(rest[0]!, saved);
        }
      }
      case 'set': {
        if (this.isDash() || this.isAsh()) {
          const handled = this.shSetO(args, io, st);
          if (handled !== undefined) return handled;
        }
        // `set -- a b` replaces the positional parameters; -e -u -x and -o pipefail are this
        // shell's options; line editing modes (vi, emacs) change nothing here
        const names: Record<string, string> = { errexit: 'e', nounset: 'u', xtrace: 'x', pipefail: 'pipefail' };
        for (let i = 0; i < args.length; i++) {
          const a = args[i]!;
          if (a === '--') break;
          if (!/^[-+][a-zA-Z]+$/.test(a)) continue;
          const on = a[0] === '-';
          // letters in one word (`set -euo pipefail`): each `o` takes the next word as its name
          for (const ch of a.slice(1)) {
            if ('eux'.includes(ch)) (st.flags ??= new Set())[on ? 'add' : 'delete'](ch);
            if (ch !== 'o') continue;
            const n = args[i + 1];
            if (n === undefined) {
              this.write(io.out, this.bashSetOListing(st, on));
              continue;
            }
            i++;
            if (!SET_O_NAMES.has(n)) {
              // (status 2: EX_USAGE, bash 5.2 `bash -c 'set -o nosuch; echo $?'`)
              this.write(io.err, `${this.bprefix('set')}${n}: invalid option name\n`);
              return 2;
            }
            const f = names[n];
            if (f) (st.flags ??= new Set())[on ? 'add' : 'delete'](f);
            else this.setBashOption(st, n, on);
          }
        }
        const dd = args.indexOf('--');
        if (dd >= 0) st.args = args.slice(dd + 1);
        else if (args.length > 0 && !args[0]!.startsWith('-') && !args[0]!.startsWith('+')) st.args = args;
        if (args.length === 0) {
          const lines = [...st.vars.keys()].sort().map((k) => `${k}=${singleQuoteIfNeeded(st.vars.get(k) ?? '')}\n`);
          this.write(io.out, lines.join(''));
        }
        return 0;
      }
      case 'complete':
        return this.complete(args, io);
      case 'compgen':
      case 'shopt':
        // completion specs and shell options only shape interactive editing, which the
        // terminal front end does itself; accepted so ~/.bashrc lines run cleanly
        return 0;
      default:
        return this.builtin(name, argv, io, st);
    }
  }

  private sourcing = 0;
  /** The file dash's `.` is reading now, which its not-found errors name (dash's commandname). */
  private dotFile: string | undefined;

  /** The process a program run as ARGV is (for /proc/self), or undefined for the shell's own commands. */
  private programProcess(argv: readonly string[]): { comm: string; exe: string; argv: readonly string[] } | undefined {
    const name = argv[0]!;
    if (name === 'exit' || BUILTINS.has(name) || this.functions.has(name)) return undefined;
    if (!this.opts.lookup(name) && !isShellName(name, this.opts.location.kind === 'pod', this.opts.containerBash)) return undefined;
    const base = name.slice(name.lastIndexOf('/') + 1);
    return { comm: base, exe: `/usr/bin/${base}`, argv };
  }

  /** What NAME is to this shell: alias, keyword, function, builtin or a file on the PATH. */
  private nameKind(name: string): NameKind | undefined {
    const onPath = (this.opts.lookup(name) && !BUILTINS.has(name)) || isShellName(name, this.opts.location.kind === 'pod', this.opts.containerBash);
    return classify(name, {
      ...(this.aliases[name] !== undefined ? { alias: this.aliases[name] } : {}),
      isFunction: this.functions.has(name),
      isBuiltin: BUILTINS.has(name) || name === 'exit' || name === 'echo' || name === 'printf' || name === 'test' || name === '[' || name === 'history',
      ...(onPath ? { path: `/usr/bin/${name}` } : {}),
    });
  }

  /** `type [-t] NAME…` (builtins/type.def). */
  private typeBuiltin(args: string[], io: Io): number {
    const terse = args[0] === '-t';
    let status = 0;
    for (const n of terse ? args.slice(1) : args) {
      const k = this.nameKind(n);
      if (!k) {
        if (!terse) this.write(io.err, `${this.bprefix('type')}${n}: not found\n`);
        status = 1;
        continue;
      }
      this.write(io.out, `${terse ? k.kind : describeLong(n, k)}\n`);
      const body = this.functions.get(n);
      if (!terse && k.kind === 'function' && body) this.write(io.out, functionText(n, body));
    }
    return status;
  }

  /**
   * `mapfile`/`readarray [-d DELIM] [-n COUNT] [-O ORIGIN] [-s COUNT] [-t] [ARRAY]` (bash 5.2
   * builtins/mapfile.def): the rest of stdin, a record per DELIM (newline), into ARRAY (MAPFILE),
   * emptied first unless -O gives where to start; -t drops the delimiter, -s skips records, -n
   * keeps at most COUNT (0: all). -u, -C and -c (other descriptors, callbacks) are not simulated.
   */
  private mapfile(name: string, args: string[], io: Io, st: State): number {
    const usage = `${name}: usage: ${name} [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]`;
    let delim = '\n';
    let count = 0;
    let origin: number | undefined;
    let skip = 0;
    let trim = false;
    let i = 0;
    const num = (v: string | undefined, what: string): number | undefined => {
      if (v !== undefined && /^\d+$/.test(v)) return Number(v);
      this.write(io.err, `${this.bprefix(name)}${v ?? ''}: invalid ${what}\n`);
      return undefined;
    };
    for (; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--') {
        i++;
        break;
      }
      if (!/^-./.test(a)) break;
      for (let j = 1; j < a.length; j++) {
        const ch = a[j]!;
        if (ch === 't') {
          trim = true;
          continue;
        }
        if (!'dnOs'.includes(ch)) {
          this.write(io.err, `${this.bprefix(name)}${'uCc'.includes(ch) ? `-${ch}: cka-lab does not simulate this option` : `-${ch}: invalid option\n${usage}`}\n`);
          return 2;
        }
        const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (v === undefined) {
          this.write(io.err, `${this.bprefix(name)}-${ch}: option requires an argument\n${usage}\n`);
          return 2;
        }
        if (ch === 'd') delim = v === '' ? '\0' : v[0]!;
        else {
          const n = num(v, ch === 'O' ? 'array origin' : 'line count');
          if (n === undefined) return 1;
          if (ch === 'n') count = n;
          else if (ch === 's') skip = n;
          else origin = n;
        }
        break;
      }
    }
    const target = args[i] ?? 'MAPFILE';
    if (!VAR_NAME.test(target)) {
      this.write(io.err, `${this.bprefix(name)}\`${target}': not a valid identifier\n`);
      return 1;
    }
    const refused = this.readonlyRefused(target, io, st);
    if (refused !== undefined) return refused;
    const cursor = io.cursor ?? { pos: 0 };
    const text = io.stdin.slice(cursor.pos);
    cursor.pos = io.stdin.length;
    const records: string[] = [];
    let at = 0;
    while (at < text.length) {
      const end = text.indexOf(delim, at);
      const rec = end < 0 ? text.slice(at) : text.slice(at, trim ? end : end + 1);
      at = end < 0 ? text.length : end + 1;
      records.push(rec);
    }
    const kept = records.slice(skip, count > 0 ? skip + count : undefined);
    const arr = origin === undefined ? [] : [...(st.arrays.get(target) ?? (st.vars.has(target) ? [st.vars.get(target)!] : []))];
    kept.forEach((r, k) => (arr[(origin ?? 0) + k] = r));
    st.arrays.set(target, arr);
    st.vars.delete(target);
    return 0;
  }

  /**
   * `read [-r] [-a ARR] [-d D] [NAME…]` (builtins/read.def): one record from stdin, split by
   * IFS into the names (the last takes the rest), REPLY without names; status 1 at end of input.
   * A prompt (-p) only shows when input is a terminal, which a simulated line never reads from.
   */
  private read(args: string[], io: Io, st: State): number {
    const o = parseReadArgs(args);
    if (typeof o === 'string') {
      this.write(io.err, `${this.prefix()}${o}\n`);
      return 2;
    }
    const cursor = io.cursor ?? { pos: 0 };
    const rec = readRecord(io.stdin, cursor.pos, o);
    cursor.pos = rec.next;
    const nothing = rec.eof && rec.text === '';
    const ifs = st.vars.get('IFS') ?? ' \t\n';
    if (o.array !== undefined) {
      st.arrays.set(o.array, nothing ? [] : splitFields(rec.text, ifs, 0));
      st.vars.delete(o.array);
    } else if (o.names.length === 0) this.setVar(st, 'REPLY', rec.text);
    else {
      const fields = splitFields(rec.text, ifs, o.names.length);
      for (const [i, n] of o.names.entries()) {
        // a read-only NAME: dash and ash `read: x: is read only` (2), bash `x: readonly variable` (1)
        const refused = this.readonlyRefused(n, io, st, this.isDash() || this.isAsh() ? 'read' : undefined);
        if (refused !== undefined) return refused;
        this.setVar(st, n, fields[i] ?? '');
      }
    }
    return rec.eof ? 1 : 0;
  }

  /**
   * `bash [-xe] FILE [ARGS]`, `bash -c STRING [NAME [ARGS]]`, `… | bash`, and `sh` (dash) alike:
   * a child shell (bash/shell.c, variables.c): it sees only exported variables, no functions
   * and no aliases (non-interactive); its assignments, `cd` and functions stay in it, `exit`
   * ends only it, and its own errors name the script and line.
   */
  private async childShell(name: string, argv: string[], io: Io, st: State, depth: number): Promise<number> {
    const dash = name === 'sh' || name.endsWith('/sh') || name === 'dash';
    const shown = name.slice(name.lastIndexOf('/') + 1);
    let i = 1;
    let command: string | undefined;
    const childFlags = new Set<string>();
    for (; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === '--' || a === '-') {
        i++;
        break;
      }
      if (!/^[-+][a-zA-Z]+$/.test(a)) break;
      for (const ch of a.slice(1)) if ('eux'.includes(ch)) childFlags[a[0] === '-' ? 'add' : 'delete'](ch);
      if (a.includes('c')) {
        if (argv[i + 1] === undefined) {
          this.write(io.err, `${shown}: -c: option requires an argument\n`);
          return 2;
        }
        command = argv[i + 1];
        i += 2;
        break;
      }
      const bad = [...a.slice(1)].find((ch) => !'xeuvnilsp'.includes(ch));
      if (bad) {
        this.write(io.err, dash ? `${shown}: 0: Illegal option -${bad}\n` : `${shown}: -${bad}: invalid option\n${BASH_USAGE}`);
        return 2;
      }
    }
    let text: string;
    let fromStdin = false;
    let scriptName: string;
    let args: string[];
    let stdin = io.stdin;
    if (command !== undefined) {
      text = command;
      scriptName = argv[i] ?? name;
      args = argv.slice(i + 1);
    } else if (argv[i] !== undefined) {
      const file = argv[i]!;
      const path = resolvePath(st.cwd, file);
      if (this.opts.fs.isDir(path)) {
        // bash has already made the file $0 when it finds it cannot read it
        this.write(io.err, dash ? `${shown}: 0: cannot open ${file}: Is a directory\n` : `${file}: ${file}: Is a directory\n`);
        return dash ? 2 : 126;
      }
      const content = this.opts.fs.tryRead(path);
      if (content === undefined) {
        this.write(io.err, dash ? `${shown}: 0: cannot open ${file}: No such file\n` : `${shown}: ${file}: No such file or directory\n`);
        return dash ? 2 : 127;
      }
      text = content;
      scriptName = file;
      args = argv.slice(i + 1);
    } else {
      // the script comes on stdin; its commands then read nothing more from it
      fromStdin = true;
      text = io.stdin;
      scriptName = name;
      args = [];
      stdin = '';
    }
    if (depth >= MAX_DEPTH) {
      this.write(io.err, `${this.prefix()}${shown}: maximum nesting level exceeded\n`);
      return 1;
    }
    const outerScript = this.script$;
    const outerLine = this.curLine;
    const outerFunctions = new Map(this.functions);
    const outerFuncFiles = this.funcFiles;
    this.script$ = { name: scriptName, dash, ...(command !== undefined ? { fromString: true } : fromStdin ? { fromStdin: true } : {}) };
    this.curLine = 1;
    this.functions.clear();
    this.funcFiles = new Map();
    const env = this.exportedEnv(st);
    const child: State = { vars: new Map(Object.entries(env)), arrays: new Map(), assoc: new Map(), exported: new Set(Object.keys(env)), cwd: st.cwd, status: 0, args, arg0: scriptName, scopes: [], flags: childFlags };
    try {
      const cio = stdin === io.stdin ? io : { ...io, stdin, cursor: { pos: 0 } };
      let code: number;
      try {
        code = await this.scriptByCommands(text, command !== undefined, cio, child, depth + 1);
      } catch (e) {
        if (e instanceof ExitSignal || e instanceof ReturnSignal) code = e.code;
        else if (e instanceof LineAbort) code = e.status;
        else if (e instanceof LoopSignal) code = child.status;
        else throw e;
      }
      return await this.exitTrap(cio, child, depth + 1, code);
    } finally {
      this.script$ = outerScript;
      this.curLine = outerLine;
      this.functions.clear();
      for (const [k, v] of outerFunctions) this.functions.set(k, v);
      this.funcFiles = outerFuncFiles;
    }
  }

  /**
   * A child shell's script, read and run one complete command at a time as bash's reader_loop
   * (eval.c) and dash's cmdloop do: the lines before a syntax error have run when it is reported,
   * and the error names the line it is on. bash words it `NAME: -c: line N: syntax error near
   * unexpected token `X'` and then quotes that line (`NAME: -c: line N: `TEXT'`; parse.y
   * report_syntax_error, the `-c: ` only for a -c string), dash `NAME: N: Syntax error: "X"
   * unexpected` (parser.c synexpect). The status is the last command's, or 2 after an error.
   * For a sourced file (see source): `at` words the prefix of a syntax error on line N,
   * `syntax.error` tells the caller one happened, and the shell's `aliases` apply; `quoteLine`
   * false leaves out bash's quoted line (an interactive bash's eval).
   */
  /**
   * A script's commands a line at a time, as bash reads them: a LineAbort (a refused assignment)
   * abandons what is left of its line and the script goes on with the next one.
   */
  private async scriptLines(script: Script, io: Io, st: State, depth: number): Promise<void> {
    const items = script.items;
    for (let i = 0; i < items.length; ) {
      const line = firstLine(items[i]);
      let j = i + 1;
      while (j < items.length && line !== undefined && firstLine(items[j]) === line) j++;
      try {
        await this.script({ items: items.slice(i, j) }, io, st, depth, false);
      } catch (e) {
        if (!(e instanceof LineAbort)) throw e;
        st.status = e.status;
      }
      i = j;
    }
  }

  private async scriptByCommands(text: string, fromString: boolean, io: Io, st: State, depth: number, how: { at?: (line: number) => string; syntax?: { error: boolean }; aliases?: Record<string, string>; quoteLine?: boolean } = {}): Promise<number> {
    const { at, syntax } = how;
    const aliases = how.aliases ?? {};
    const dash = this.isDash();
    const ash = this.isAsh();
    // a script that parses whole runs as one (the same commands in the same order, one parse)
    const lex = { aliases, ...this.lex(), ...(fromString && !dash && !ash ? { cString: true } : {}) };
    const whole = parseScript(text, lex);
    if (whole.ok) {
      await this.scriptLines(whole.script, io, st, depth);
      return st.status;
    }
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    let start = 0;
    let end = 0;
    while (start < lines.length) {
      end++;
      // leading newlines keep the commands' line numbers those of the whole script
      const chunk = '\n'.repeat(start) + lines.slice(start, end).join('\n');
      const parsed = parseScript(chunk, lex);
      if (parsed.ok) {
        await this.scriptLines(parsed.script, io, st, depth);
        start = end;
        continue;
      }
      if (parsed.incomplete && end < lines.length) continue;
      // the text stopped without a newline: dash's and ash's `end of file` rather than `newline`
      const eof = end === lines.length && !text.endsWith('\n');
      // at end of file dash counts the last newline too (its plinno), as it does for an unexpected
      // newline it has read; bash the line after an open construct
      const line = dash ? (parsed.incomplete ? text.split('\n').length : !parsed.incomplete && parsed.eof && !eof ? end + 1 : end) : parsed.incomplete && !QUOTE_REASONS.has(parsed.reason) ? end + 1 : end;
      const sc = this.script$;
      if (ash) {
        // ash.c ash_vmsg: `ARG0: ` alone for a -c string (no commandname), `FILE: line N: ` for a script
        const where = at ? at(line) : !sc ? this.prefix() : sc.fromString ? `${sc.name}: ` : `${sc.name}: line ${line}: `;
        this.write(io.err, `${where}${ashSyntaxError(parsed, eof)}\n`);
        if (syntax) syntax.error = true;
        return 2;
      }
      const where = at ? at(line) : !sc ? this.prefix() : dash ? `${sc.name}: ${line}: ` : `${sc.name}: ${fromString ? '-c: ' : ''}line ${line}: `;
      if (dash) {
        this.write(io.err, `${where}${dashSyntaxError(parsed, eof)}\n`);
      } else if (!parsed.incomplete) {
        this.write(io.err, `${where}${parsed.error.replace(/^bash: /, '')}\n${how.quoteLine === false ? '' : `${where}\`${lines[end - 1]}'\n`}`);
      } else if (QUOTE_REASONS.has(parsed.reason)) {
        this.write(io.err, `${where}unexpected EOF while looking for matching \`${parsed.reason === '(' ? ')' : parsed.reason}'\n`);
      } else {
        this.write(io.err, `${where}syntax error: unexpected end of file\n`);
      }
      if (syntax) syntax.error = true;
      return 2;
    }
    return st.status;
  }

  /**
   * dash's cd (cd.c cdcmd): the first operand only, `cd` without HOME stays put, `cd -` prints
   * where it went, and a failure is `cd: can't cd to DIR` with status 2.
   */
  private dashCd(argv: string[], io: Io, st: State): number {
    const fs = this.opts.fs;
    // -L and -P (nextopt("LP"); an unknown letter was refused in shOptionError) and `--` end
    let skip = 0;
    while (argv[skip] !== undefined && /^-[LP]+$/.test(argv[skip]!)) skip++;
    if (argv[skip] === '--') skip++;
    const args = argv.slice(skip);
    let dest = args[0];
    let print = false;
    if (dest === undefined || dest === '') {
      dest = st.vars.get('HOME');
      if (dest === undefined || dest === '') return 0;
    } else if (dest === '-') {
      dest = st.vars.get('OLDPWD') ?? st.cwd;
      print = true;
    }
    const path = resolvePath(st.cwd, dest);
    if (!fs.isDir(path)) {
      // BusyBox ash's cdcmd adds the reason: ash_msg_and_raise_error("can't cd to %s", …) with errno
      // (ENOTDIR also for a path through a regular file: busybox 1.36.1 `cd /etc/passwd/x`)
      const why = this.isAsh() ? `: ${fs.exists(path) || ancestorIsFile(fs, path) ? 'Not a directory' : 'No such file or directory'}` : '';
      this.write(io.err, `${this.bprefix('cd')}can't cd to ${dest}${why}\n`);
      return 2;
    }
    return this.enterDir(path, print, io, st);
  }

  /** What a `cd` that found its directory does (bash's and dash's alike): OLDPWD, PWD, the cwd, and `cd -` prints it. */
  private enterDir(path: string, print: boolean, io: Io, st: State): number {
    st.vars.set('OLDPWD', st.cwd);
    st.exported.add('OLDPWD');
    st.cwd = path;
    st.vars.set('PWD', path);
    st.exported.add('PWD');
    if (print) this.write(io.out, `${path}\n`);
    return 0;
  }

  /** `source FILE [ARGS]` / `. FILE`: run the file's commands in this shell. */
  /**
   * `eval ARGS`: the arguments joined by blanks run as commands of this shell (its variables,
   * `local` in a function, `return`). Recorded in testdata/quoting.txt (bash 5.2.15, dash 0.5.12):
   * bash counts an error's line on from the eval's own (`bash: line 1: nope: command not found`)
   * and words a syntax error `bash: eval: line 1: …`; dash names `eval` as it names a `.` file
   * (`sh: 1: eval: nope: not found`) and a syntax error ends a non-interactive dash.
   */
  private async evalBuiltin(args: string[], io: Io, st: State, depth: number): Promise<number> {
    const text = args.join(' ');
    if (text.trim() === '') return 0;
    if (depth >= MAX_DEPTH) {
      this.write(io.err, `${this.bprefix('eval')}maximum nesting level exceeded\n`);
      return 1;
    }
    const dash = this.isDash();
    const sc = this.script$;
    const outerLine = this.curLine;
    const outerDot = this.dotFile;
    const shell = sc?.name ?? (dash ? (this.opts.dash ?? 'sh') : this.opts.shell === 'ash' ? 'sh' : 'bash');
    // the text's lines numbered on from the line the eval command ends on, which its quoted
    // newlines moved on (bash's line_number after reading it); blank lines in front keep the count
    const pad = '\n'.repeat(Math.max(0, outerLine - 1 + (dash ? 0 : text.split('\n').length - 1)));
    // an interactive bash words an eval's syntax error as one it read itself: `bash: syntax error …`
    const at = dash ? (n: number): string => `${this.prefix().replace(/\d+: $/, `${n}: `)}eval: ` : sc ? (n: number): string => `${shell}: eval: line ${n - pad.length}: ` : (): string => this.prefix();
    if (dash) this.dotFile = 'eval';
    try {
      const syntax = { error: false };
      const code = await this.scriptByCommands(pad + text, false, io, st, depth + 1, { at, syntax, aliases: sc ? {} : this.aliases, quoteLine: sc !== undefined || dash });
      if (syntax.error && dash && sc) throw new ExitSignal(2);
      return code;
    } finally {
      this.curLine = outerLine;
      this.dotFile = outerDot;
    }
  }

  /**
   * `source FILE` / `. FILE`: the file's commands run in this shell, read one complete command at a
   * time (scriptByCommands), so those before a syntax error have run. Recorded in
   * testdata/sourced.txt (bash 5.2.15, dash 0.5.12): a non-interactive bash names the file in its
   * errors (`FILE: line N:`, N within the file; a function defined there keeps the name), an
   * interactive bash only in a syntax error (`bash: FILE: line N: syntax error …`); dash writes
   * `sh: N: FILE: nosuch: not found` and a syntax error or a file it cannot open ends a
   * non-interactive dash with status 2 (`.` is a special builtin).
   */
  private async source(name: string, args: string[], io: Io, st: State, depth: number): Promise<number> {
    const dash = this.isDash();
    const file = args[0];
    if (file === undefined) {
      this.write(io.err, `${this.prefix()}${name}: filename argument required\n${name}: usage: ${name} filename [arguments]\n`);
      return 2;
    }
    const fs = this.opts.fs;
    const path = resolvePath(st.cwd, file);
    let text: string;
    try {
      text = fs.read(path);
    } catch (e) {
      if (dash) {
        this.write(io.err, `${this.prefix()}.: cannot open ${file}: No such file\n`);
        if (this.script$) throw new ExitSignal(2);
        return 2;
      }
      this.write(io.err, `${this.prefix()}${file}: ${errText(e)}\n`);
      return 1;
    }
    if (depth >= MAX_DEPTH) {
      this.write(io.err, `${this.prefix()}${file}: maximum nesting level exceeded\n`);
      return 1;
    }
    const sc = this.script$;
    const outerLine = this.curLine;
    const outerDot = this.dotFile;
    let where: (line: number) => string;
    if (dash) {
      const shell = sc?.name ?? this.opts.dash ?? 'sh';
      where = (n) => `${shell}: ${n}: ${file}: `;
      this.dotFile = file;
    } else if (sc) {
      where = (n) => `${file}: line ${n}: `;
      const { fnFile: _fn, ...rest } = sc;
      this.script$ = { ...rest, name: file, sourced: true };
    } else {
      const shell = this.prefix();
      where = (n) => `${shell}${file}: line ${n}: `;
    }
    const savedArgs = st.args;
    if (args.length > 1) st.args = args.slice(1);
    this.sourcing++;
    try {
      st.status = 0;
      const syntax = { error: false };
      const code = await this.scriptByCommands(text, false, io, st, depth + 1, { at: where, syntax, aliases: this.aliases });
      if (syntax.error && dash && sc) throw new ExitSignal(2);
      return code;
    } catch (e) {
      if (e instanceof ReturnSignal) return e.code;
      throw e;
    } finally {
      this.sourcing--;
      this.script$ = sc;
      this.curLine = outerLine;
      this.dotFile = outerDot;
      if (args.length > 1) st.args = savedArgs;
    }
  }

  /**
   * Time a command took: applied to the cluster at once when the session lets us, else reported.
   * Time past the line's allowance (`sleep 99999999999999999999`, `sleep inf`) ends the line
   * without moving the clock at all.
   */
  private async consume(ms: number): Promise<void> {
    if (this.handoff && this.opts.jobClock) {
      await this.pauseJob(this.handoff, this.opts.jobClock, ms);
      return;
    }
    if (this.bg) {
      // a background job's sleep passes in the job, not in the shell (background())
      this.bgTime += ms;
      return;
    }
    this.budget.time(ms);
    if (this.opts.advanceClock) await this.opts.advanceClock(ms);
    else this.advanced += ms;
  }

  /** Run argv directly (no parsing), for xargs. */
  private async execArgv(argv: string[], stdin: string, st: State, env: Record<string, string>, emit?: ShellContext['emit']): Promise<ShellResult> {
    const name = argv[0] ?? '';
    if (isShellName(name, this.opts.location.kind === 'pod', this.opts.containerBash)) {
      // `watch CMD`, `xargs sh -c …`, `find -exec sh -c …`: a child shell whose output is captured
      const out: Sink = { kind: 'buffer', text: '' };
      const err: Sink = { kind: 'buffer', text: '' };
      const exitCode = await this.childShell(name, argv, { stdin, cursor: { pos: 0 }, out, err }, { ...st, vars: new Map(Object.entries(env)), exported: new Set(Object.keys(env)) }, 1);
      return { stdout: out.kind === 'buffer' ? out.text : '', stderr: err.kind === 'buffer' ? err.text : '', exitCode };
    }
    const fn = this.opts.lookup(name);
    // true and false are programs too (coreutils' /usr/bin/true, busybox's applets): `xargs false`
    // runs one and reports its status (123), where a builtin-only name (cd, export) is not found
    if (!fn || (BUILTINS.has(name) && name !== 'true' && name !== 'false')) {
      return { stdout: '', stderr: '', exitCode: 127, notFound: true };
    }
    try {
      return await fn({
        argv,
        stdin,
        env,
        cwd: st.cwd,
        user: this.opts.user,
        fs: this.opts.fs,
        location: this.opts.location,
        now: () => this.opts.now() + this.advanced,
        budget: this.budget,
        ...(this.opts.runJobs && this.opts.jobClock && !this.bg ? { jobs: { next: () => this.opts.jobClock?.next(), runDue: this.opts.runJobs } } : {}),
        ...(emit ? { emit } : {}),
      } as ShellContext);
    } catch (e) {
      if (e instanceof BudgetExceeded) throw e;
      return { stdout: '', stderr: `${name}: ${errText(e)}\n`, exitCode: 1 };
    }
  }

  /** Apply redirections in order; returns the new io, or an exit status after printing bash's error. */
  private async redirects(list: Redirect[], io: Io, st: State, depth: number): Promise<Io | number> {
    const cur: Io = { ...io };
    const fs = this.opts.fs;
    for (const r of list) {
      let target = '';
      if (r.op === '<<' || r.op === '<<-') {
        const body = r.heredoc?.body ?? '';
        cur.cursor = { pos: 0 };
        if (r.heredoc && !r.heredoc.expand) cur.stdin = body;
        else {
          try {
            cur.stdin = (await this.expandParts(heredocParts(body, this.lex()), { st, err: io.err, depth, onStatus: () => undefined })).map((f) => unescapeGlob(f.text)).join('');
          } catch (e) {
            if (!(e instanceof ExpansionError)) throw e;
            this.write(io.err, `${this.errPrefix()}${e.message}\n`);
            return 1;
          }
        }
        continue;
      }
      try {
        const fields = await this.expandWord(r.target, { st, err: io.err, depth, onStatus: () => undefined }, true);
        if (fields.length !== 1) {
          this.write(cur.err, `${this.prefix()}${r.target.raw}: ambiguous redirect\n`);
          return 1;
        }
        target = fields[0]!;
      } catch (e) {
        if (!(e instanceof ExpansionError)) throw e;
        this.write(cur.err, `${this.errPrefix()}${e.message}\n`);
        return 1;
      }
      if (r.op === '<<<') {
        cur.stdin = `${target}\n`;
        cur.cursor = { pos: 0 };
        continue;
      }
      if (r.op === '>&' || r.op === '<&') {
        const fd = r.fd ?? (r.op === '>&' ? 1 : 0);
        if (target === '-') {
          if (fd === 1) cur.out = { kind: 'null' };
          else if (fd === 2) cur.err = { kind: 'null' };
          continue;
        }
        if (/^\d+$/.test(target)) {
          const src = Number(target);
          const sink = src === 1 ? cur.out : src === 2 ? cur.err : undefined;
          if (src === 0 && fd === 0) continue;
          if (!sink) {
            this.write(cur.err, `${this.prefix()}${target}: Bad file descriptor\n`);
            return 1;
          }
          if (fd === 1) cur.out = sink;
          else if (fd === 2) cur.err = sink;
          continue;
        }
        if (r.op === '<&' || r.fd !== undefined) {
          this.write(cur.err, `${this.prefix()}${target}: ambiguous redirect\n`);
          return 1;
        }
        // `>&file` is `&>file`.
        const sink = this.openForWrite(target, false, st, cur);
        if (!sink) return 1;
        cur.out = sink;
        cur.err = sink;
        continue;
      }
      if (r.op === '<') {
        const path = resolvePath(st.cwd, target);
        // character devices: no file behind them (devices.ts lists them for ls and test)
        if (path === '/dev/null' || path === '/dev/zero' || path === '/dev/stdin') {
          if ((r.fd ?? 0) === 0 && path !== '/dev/stdin') {
            cur.stdin = '';
            cur.cursor = { pos: 0 };
          }
          continue;
        }
        // the random devices: a bounded read of bytes from the session's seeded source (devices.ts)
        if (RANDOM_DEVICES.has(path) && fs.stat(path)?.rdev) {
          if ((r.fd ?? 0) === 0) {
            cur.stdin = randomBytes(this.opts.random ? this.opts.random() : 0x5eed, RANDOM_READ);
            cur.cursor = { pos: 0 };
          }
          continue;
        }
        try {
          const text = fs.read(path);
          if ((r.fd ?? 0) === 0) {
            cur.stdin = text;
            cur.cursor = { pos: 0 };
          }
        } catch (e) {
          this.write(cur.err, `${this.prefix()}${target}: ${errText(e)}\n`);
          return 1;
        }
        continue;
      }
      const append = r.op === '>>' || r.op === '&>>';
      const sink = this.openForWrite(target, append, st, cur);
      if (!sink) return 1;
      if (r.op === '&>' || r.op === '&>>') {
        cur.out = sink;
        cur.err = sink;
      } else {
        const fd = r.fd ?? 1;
        if (fd === 1) cur.out = sink;
        else if (fd === 2) cur.err = sink;
      }
    }
    return cur;
  }

  /** Create or truncate a file for `>`/`>>`, with bash's errors for a missing directory. */
  private openForWrite(target: string, append: boolean, st: State, cur: Io): Sink | undefined {
    const fs = this.opts.fs;
    const path = resolvePath(st.cwd, target);
    if (path === '/dev/null') return { kind: 'null' };
    if (path === '/dev/stdout') return cur.out;
    if (path === '/dev/stderr') return cur.err;
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    let problem: string | undefined;
    if (fs.isDir(path)) problem = 'Is a directory';
    else if (!fs.isDir(parent)) problem = ancestorIsFile(fs, parent) ? 'Not a directory' : 'No such file or directory';
    if (problem) {
      this.write(cur.err, `${this.prefix()}${target}: ${problem}\n`);
      return undefined;
    }
    if (!append || !fs.isFile(path)) fs.write(path, '');
    return { kind: 'file', path };
  }

  /** Builtins; undefined when `name` is not one. */
  private builtin(name: string, argv: string[], io: Io, st: State): number | undefined {
    const fs = this.opts.fs;
    const args = argv.slice(1);
    switch (name) {
      case 'true':
      case ':':
        return 0;
      case 'break':
      case 'continue': {
        const n = args[0] === undefined ? 1 : Number(args[0]);
        if (!Number.isInteger(n) || n < 1) {
          this.write(io.err, `${this.prefix()}${name}: ${args[0]}: ${Number.isInteger(n) ? 'loop count out of range' : 'numeric argument required'}\n`);
          return 1;
        }
        if (this.loopDepth === 0) return 0;
        throw new LoopSignal(name, n);
      }
      case 'false':
        return 1;
      case 'pwd':
        this.write(io.out, `${st.cwd}\n`);
        return 0;
      case 'cd': {
        if (this.isDash() || this.isAsh()) return this.dashCd(args, io, st);
        if (args.length > 1) {
          this.write(io.err, `${this.bprefix('cd')}too many arguments\n`);
          return 1;
        }
        let dest = args[0];
        let print = false;
        if (dest === undefined || dest === '') {
          dest = st.vars.get('HOME');
          if (dest === undefined) {
            this.write(io.err, `${this.bprefix('cd')}HOME not set\n`);
            return 1;
          }
        } else if (dest === '-') {
          dest = st.vars.get('OLDPWD');
          if (dest === undefined) {
            this.write(io.err, `${this.bprefix('cd')}OLDPWD not set\n`);
            return 1;
          }
          print = true;
        }
        const path = resolvePath(st.cwd, dest);
        if (!fs.isDir(path)) {
          this.write(io.err, `${this.bprefix('cd')}${dest}: ${fs.isFile(path) || ancestorIsFile(fs, path) ? 'Not a directory' : 'No such file or directory'}\n`);
          return 1;
        }
        return this.enterDir(path, print, io, st);
      }
      case 'export': {
        const names = args.filter((a) => a !== '-p' && a !== '-n');
        if (args[0] === '-n') {
          // `export -n NAME`: NAME stays, no longer exported (bash's export.def, BusyBox ash's exportcmd)
          for (const a of names) st.exported.delete(a.replace(/=.*$/s, ''));
          return 0;
        }
        if (names.length === 0) {
          const lines = [...st.exported]
            .filter((k) => st.vars.has(k))
            .sort()
            .map((k) => `declare -x ${k}="${(st.vars.get(k) ?? '').replace(/(["\\$`])/g, '\\$1')}"\n`);
          this.write(io.out, lines.join(''));
          return 0;
        }
        let status = 0;
        for (const a of names) {
          const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$/s.exec(a);
          if (!m) {
            this.write(io.err, `${this.bprefix('export')}\`${a}': not a valid identifier\n`);
            status = 1;
            continue;
          }
          if (m[2] !== undefined) {
            const refused = this.readonlyRefused(m[1]!, io, st, this.isDash() || this.isAsh() ? 'export' : undefined);
            if (refused !== undefined) {
              // bash marks the name exported all the same (bash 5.2 `readonly x=1; export x=3; readonly` lists `declare -rx`)
              if (!this.isDash() && !this.isAsh()) st.exported.add(m[1]!);
              status = refused;
              continue;
            }
            st.vars.set(m[1]!, m[2]);
          }
          st.exported.add(m[1]!);
        }
        return status;
      }
      case 'unset': {
        const fns = args[0] === '-f';
        let status = 0;
        for (const a of args) {
          if (a === '-v' || a === '-f') continue;
          if (fns) {
            this.functions.delete(a);
            continue;
          }
          const el = /^([A-Za-z_][A-Za-z0-9_]*)\[([^]+)\]$/.exec(a);
          if (el) {
            // `unset 'a[k]'`: one element (arrayfunc.c unbind_array_element); a scalar's [0] is the scalar
            const [, n, sub] = el as unknown as [string, string, string];
            const assoc = st.assoc.get(n);
            if (assoc) assoc.delete(sub);
            else if (st.arrays.has(n)) {
              let i = this.arithIndex(sub, st);
              const arr = st.arrays.get(n)!;
              if (i < 0) i += arr.length;
              if (i >= 0) delete arr[i];
            } else if (st.vars.has(n) && this.arithIndex(sub, st) === 0) {
              st.vars.delete(n);
              st.exported.delete(n);
            }
            continue;
          }
          const refused = this.readonlyRefused(a, io, st, 'unset');
          if (refused !== undefined) {
            status = refused;
            continue;
          }
          st.vars.delete(a);
          st.arrays.delete(a);
          st.assoc.delete(a);
          st.exported.delete(a);
        }
        return status;
      }
      case 'alias': {
        const list = args.filter((a) => a !== '-p');
        if (list.length === 0) {
          const lines = Object.keys(this.aliases)
            .sort()
            .map((k) => `alias ${k}=${singleQuote(this.aliases[k] ?? '')}\n`);
          this.write(io.out, lines.join(''));
          return 0;
        }
        let status = 0;
        for (const a of list) {
          const eq = a.indexOf('=');
          if (eq > 0) {
            this.aliases[a.slice(0, eq)] = a.slice(eq + 1);
            continue;
          }
          const v = Object.prototype.hasOwnProperty.call(this.aliases, a) ? this.aliases[a] : undefined;
          if (v === undefined) {
            this.write(io.err, `${this.bprefix('alias')}${a}: not found\n`);
            status = 1;
          } else this.write(io.out, `alias ${a}=${singleQuote(v)}\n`);
        }
        return status;
      }
      case 'unalias': {
        if (args.length === 0) {
          this.write(io.err, 'unalias: usage: unalias [-a] name [name ...]\n');
          return 2;
        }
        if (args[0] === '-a') {
          for (const k of Object.keys(this.aliases)) delete this.aliases[k];
          return 0;
        }
        let status = 0;
        for (const a of args) {
          if (!Object.prototype.hasOwnProperty.call(this.aliases, a)) {
            this.write(io.err, `${this.bprefix('unalias')}${a}: not found\n`);
            status = 1;
          } else delete this.aliases[a];
        }
        return status;
      }
      default:
        return undefined;
    }
  }

  // ---- expansion ----

  /** Expand one word to fields: tilde, parameters, command substitution, splitting, globbing. */
  private async expandWord(w: Word, ctx: ExpandCtx, split: boolean): Promise<string[]> {
    if (split && !this.isDash()) {
      // brace expansion comes first and makes several words (bash manual 3.5.1); dash has none
      const words = braceExpand(w);
      if (words.length > 1) {
        const all: string[] = [];
        for (const x of words) for (const f of await this.expandSplit(x, ctx)) all.push(f);
        return all;
      }
    }
    return this.expandSplit(w, ctx, split);
  }

  private async expandSplit(w: Word, ctx: ExpandCtx, split = true): Promise<string[]> {
    const fields = await this.expandParts(w.parts, ctx, split);
    const out: string[] = [];
    for (const f of fields) {
      if (split && hasGlob(f.text)) {
        const matches = expandGlob(f.text, ctx.st.cwd, this.opts.fs);
        if (matches.length > 0) {
          for (const m of matches) out.push(m);
          continue;
        }
      }
      out.push(unescapeGlob(f.text));
    }
    return out;
  }

  /**
   * Expand parts into fields whose text has quoted glob characters escaped with `\`. Unquoted
   * expansion results are split on blanks and newlines when `split` is set.
   */
  private async expandParts(parts: WordPart[], ctx: ExpandCtx, split = false): Promise<Field[]> {
 const fields: Field[] = [];
    let cur: Field | undefined;
    let emptyMulti = false;
    const esc = (s: string): string => s.replace(/[\\*?[\]]/g, '\\$&');
    const append = (s: string): void => {
      cur ??= { text: '' };
      cur.text += s;
    };
    const ifs = ctx.st.vars.get('IFS') ?? ' \t\n';
    /**
     * Field splitting of an unquoted expansion's result (POSIX 2.6.5; dash expand.c ifsbreakup,
     * bash subst.c list_string): IFS white space at the start of a field is skipped, any IFS
     * character ends the field (an empty one too, so a leading `:` makes an empty field), and the
     * IFS white space after it, with at most one non-white IFS character after white space, goes
     * with it; the text after the last delimiter stays open for what follows the expansion.
     */
    const splitInto = (value: string): void => {
      const keep = (t: string): void => {
        if (t !== '') append(esc(t).replace(/\\([*?[\]])/g, '$1'));
      };
      if (ifs === '') return keep(value);
      const white = (c: string): boolean => (c === ' ' || c === '\t' || c === '\n') && ifs.includes(c);
      let i = 0;
      let from = 0;
      while (i < value.length) {
        const c = value[i]!;
        if (!ifs.includes(c)) {
          i++;
          continue;
        }
        keep(value.slice(from, i));
        let spc = white(c);
        i++;
        if (!(spc && (cur === undefined || cur.text === ''))) {
          fields.push(cur ?? { text: '' });
          cur = undefined;
          for (; i < value.length && ifs.includes(value[i]!); i++) {
            if (white(value[i]!)) continue;
            if (!spc) break;
            spc = false;
          }
        }
        from = i;
      }
      keep(value.slice(from));
    };
    // the unquoted text of a `${u:-WORD}` word spliced in (param's splice): split like a value
    const spliced = new Set<WordPart>();
    let splicedQuoted = false;
    const queue = [...parts];
    for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
      if (p.kind === 'tilde') {
        append(esc(ctx.st.vars.get('HOME') ?? '~'));
        continue;
      }
      if (p.kind === 'text' && !spliced.has(p)) {
        append(p.quoted ? esc(p.value) : p.value);
        continue;
      }
      if (p.kind === 'procsub') {
        append(esc(await this.procsub(p.source, p.dir, ctx)));
        continue;
      }
      if (p.kind === 'var') {
        // unquoted, $* and ${a[*]} split as $@ and ${a[@]} do
        const many = this.multi(!p.quoted && split ? p.name.replace(/^\*(?=$|:)/, '@').replace(/^([A-Za-z_][A-Za-z0-9_]*)\[\*\](?=$|:)/, '$1[@]') : p.name, ctx.st);
        if (many !== undefined && !p.quoted && split) {
          // unquoted $@ / ${a[@]}: each element is split on its own and ends a field
          many.forEach((v, i) => {
            if (i > 0 && cur) {
              fields.push(cur);
              cur = undefined;
            }
            splitInto(v);
          });
          continue;
        }
        if (many !== undefined && (p.quoted || !split)) {
          // "$@" and "${a[@]}": one field per element, even when quoted
          if (many.length === 0) {
            emptyMulti = true;
            continue;
          }
          many.forEach((v, i) => {
            if (i > 0 && p.quoted && split) {
              fields.push(cur ?? { text: '' });
              cur = undefined;
            } else if (i > 0) append(' ');
            append(p.quoted ? esc(v) : v);
          });
          continue;
        }
      }
      let value: string;
      if (p.kind === 'text') value = p.value;
      else if (p.kind === 'var' && !p.quoted && split) {
        const splice: { parts?: WordPart[] } = {};
        value = await this.param(p.name, ctx, false, splice);
        if (splice.parts) {
          for (const q of splice.parts) {
            if (q.kind === 'text' && !q.quoted) spliced.add(q);
            else if (q.kind !== 'tilde' && q.quoted) splicedQuoted = true;
          }
          queue.unshift(...splice.parts);
          continue;
        }
      } else if (p.kind === 'arith') {
        const inner = (await this.expandParts(heredocParts(this.arithSource(p.source), this.lex()), ctx, false)).map((f) => unescapeGlob(f.text)).join('');
        try {
          value = String(
            evalArith(
              inner,
              ...this.arithVars(ctx.st),
              { dash: this.isPlainDash(), ...(this.isAsh() ? { ash: true } : {}) },
            ),
          );
        } catch (e) {
          // dash's arithmetic errors end a non-interactive dash (arith_yacc.c yyerror is sh_error),
          // ash's too (math.c errors raise through ash_msg_and_raise_error)
          if (e instanceof ArithError) throw new ExpansionError(e.message, this.isPlainDash() || this.isAsh());
          throw e;
        }
      } else value = p.kind === 'var' ? await this.param(p.name, ctx, p.quoted) : await this.cmdsub(p.source, ctx);
      if (p.quoted || !split) {
        append(p.quoted ? esc(value) : value);
        continue;
      }
      splitInto(value);
    }
    if (cur) fields.push(cur);
    const hasQuoted = splicedQuoted || parts.some((p) => p.kind !== 'tilde' && p.quoted && !(emptyMulti && p.kind === 'var'));
    if (fields.length === 0 && (hasQuoted || !split)) fields.push({ text: '' });
    return fields;
  }

  /** The elements `$@` / `${a[@]}` stand for; undefined for any other parameter. */
  private multi(name: string, st: State): string[] | undefined {
    // `${@:OFF:LEN}` / `${a[@]:OFF:LEN}`: a slice of the elements (bash/subst.c parameter_brace_substring)
    const sl = /^(@|[A-Za-z_][A-Za-z0-9_]*\[@\]):([^:]*)(?::([^]*))?$/.exec(name);
    if (sl && !/^[-+=?]/.test(sl[2]!)) {
      // dash has no substrings (expand.c subevalvar): `${@:1}` is a fatal `Bad substitution` there
      if (this.isPlainDash()) throw new ExpansionError('Bad substitution', true);
      const all = this.multi(sl[1]!, st) ?? [];
      // $@ counts from $0: ${@:1} is every positional parameter
      const list = sl[1] === '@' ? [st.arg0 ?? 'bash', ...all] : all;
      let off = this.arithIndex(sl[2]!.trim() || '0', st);
      if (off < 0) off += list.length;
      if (off < 0) return [];
      const len = sl[3] === undefined ? list.length : this.arithIndex(sl[3].trim() || '0', st);
      if (len < 0) throw new ExpansionError(`${sl[3]!.trim()}: substring expression < 0`);
      return list.slice(off, off + len);
    }
    if (name === '@') return st.args;
    // `${!a[@]}`: the keys of an associative array, the set indices of an indexed one
    const keys = /^!([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]$/.exec(name);
    if (keys) {
      const assoc = st.assoc.get(keys[1]!);
      if (assoc) return assoc.keys();
      const arr = st.arrays.get(keys[1]!);
      if (arr) return Object.keys(arr);
      return st.vars.has(keys[1]!) ? ['0'] : [];
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\[@\]$/.exec(name);
    if (!m) return undefined;
    const assoc = st.assoc.get(m[1]!);
    if (assoc) return assoc.valuesInOrder();
    const arr = st.arrays.get(m[1]!) ?? this.bashOwnArray(m[1]!);
    if (arr) return arr.filter(() => true);
    const v = st.vars.get(m[1]!) ?? this.bashOwn(m[1]!, st);
    return v === undefined ? [] : [v];
  }

  /** A parameter's value, undefined when unset: names, positional and special parameters, a[i]. */
  private scalar(name: string, st: State): string | undefined {
    if (/^\d+$/.test(name)) return name === '0' ? (st.arg0 ?? 'bash') : st.args[Number(name) - 1];
    switch (name) {
      case '?':
        return String(st.status);
      case '$':
        return String(SHELL_PID);
      case '#':
        return String(st.args.length);
      case '@':
        return st.args.length > 0 ? st.args.join(' ') : undefined;
      case '*':
        return st.args.length > 0 ? st.args.join(joiner(st)) : undefined;
      case '!':
        return this.lastBgPid === undefined ? undefined : String(this.lastBgPid);
      case '-':
        return 'himBHs';
      case 'RANDOM':
        if (this.opts.random && !st.vars.has('RANDOM')) return String(this.opts.random() & 0x7fff);
    }
    const keys = /^!([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]$/.exec(name);
    if (keys) return this.multi(name, st)!.join(' ');
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\[([^]+)\]$/.exec(name);
    const assoc = st.assoc.get(m ? m[1]! : name);
    if (assoc) {
      if (!m) return assoc.get('0');
      if (m[2] === '@' || m[2] === '*') return assoc.valuesInOrder().join(m[2] === '*' ? joiner(st) : ' ');
      return assoc.get(m[2]!);
    }
    if (m) {
      const arr = st.arrays.get(m[1]!) ?? (st.vars.has(m[1]!) ? [st.vars.get(m[1]!)!] : undefined) ?? this.bashOwnArray(m[1]!);
      if (!arr) return undefined;
      if (m[2] === '@' || m[2] === '*') return arr.filter(() => true).join(m[2] === '*' ? joiner(st) : ' ');
      let i = this.arithIndex(m[2]!, st);
      if (i < 0) i += arr.length;
      return arr[i];
    }
    const arr = st.arrays.get(name) ?? this.bashOwnArray(name);
    if (arr) return arr[0];
    return st.vars.get(name) ?? this.bashOwn(name, st);
  }

  /** Whether NAME is one of bash's own read-only variables in this shell (not in dash or ash). */
  private isBashOwn(name: string): boolean {
    return BASH_OWN_READONLY.has(name) && !this.isDash() && !this.isAsh();
  }

  /** BASH_VERSINFO in bash. */
  private bashOwnArray(name: string): string[] | undefined {
    return name === 'BASH_VERSINFO' && this.isBashOwn(name) ? [...BASH_VERSINFO] : undefined;
  }

  /**
   * The value bash gives its own read-only scalars: EUID and UID the user's id (its /etc/passwd
   * line; 0 for root), PPID the process that started the shell (/proc/self agrees: devices.ts),
   * SHELLOPTS the `set -o` options on and BASHOPTS the `shopt` ones, colon-separated in name order.
   */
  private bashOwn(name: string, st: State): string | undefined {
    if (!this.isBashOwn(name)) return undefined;
    switch (name) {
      case 'EUID':
      case 'UID':
        return String(this.userId());
      case 'PPID':
        return String(SHELL_PID - 1);
      case 'SHELLOPTS':
        return [...SET_O_NAMES].sort().filter((n) => this.bashOptionOn(st, n)).join(':');
      case 'BASHOPTS':
        return (this.script$ ? BASHOPTS_DEFAULT : [...BASHOPTS_DEFAULT, 'expand_aliases'].sort()).join(':');
    }
    return undefined;
  }

  /** The shell user's numeric id: its /etc/passwd line on this host, 0 for root, else 1000. */
  private userId(): number {
    const user = this.opts.user;
    if (user === 'root') return 0;
    try {
      const line = this.opts.fs.read('/etc/passwd').split('\n').find((l) => l.startsWith(`${user}:`));
      const uid = Number(line?.split(':')[2]);
      if (Number.isInteger(uid)) return uid;
    } catch {
      /* no passwd file */
    }
    return 1000;
  }

  /**
   * `${…}`: length, the `:-` `:=` `:+` `:?` defaults, `#` `%` trimming and `/` replacing. With
   * `splice`, a `-`/`+` form whose word is used hands the word's parts back there instead of its
   * text (and returns ''), so an unquoted `${u:-'a  b'}` keeps its quoted blanks: bash and dash
   * expand the word in place, and only its unquoted pieces are split and globbed
   * (bash/subst.c parameter_brace_expand_rhs, dash expand.c subevalvar).
   */
  private async param(name: string, ctx: ExpandCtx, quoted = false, splice?: { parts?: WordPart[] }): Promise<string> {
    const st = ctx.st;
    if (name.startsWith('\0bad:')) throw new ExpansionError(`${name.slice(5)}: bad substitution`);
    name = await this.expandSubscriptIn(name, ctx);
    // an unquoted or `[*]` slice of the elements, joined (quoted `[@]` slices stay separate words in expandParts)
    const slice = /^(@|\*|[A-Za-z_][A-Za-z0-9_]*\[[@*]\]):(?![-+=?])/.exec(name);
    if (slice && this.isPlainDash()) throw new ExpansionError('Bad substitution', true);
    if (slice) return (this.multi(name.replace(/^\*|\[\*\]/, (x) => (x === '*' ? '@' : '[@]')), st) ?? []).join(/^\*|\[\*\]/.test(name) ? joiner(st) : ' ');
    // `${!NAME}`: indirection, the value of the variable NAME names
    const ind = /^!([A-Za-z_][A-Za-z0-9_]*)$/.exec(name);
    if (ind && this.isPlainDash()) throw new ExpansionError('Bad substitution', true);
    if (ind) {
      const target = this.scalar(ind[1]!, st) ?? '';
      if (target === '') return '';
      if (!/^(?:[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]+\])?|[0-9]+)$/.test(target)) throw new ExpansionError(`${target}: invalid variable name`);
      return this.scalar(target, st) ?? '';
    }
    if (name.length > 1 && name.startsWith('#') && !/^#[-+=?:#%/]/.test(name.slice(1))) {
      const inner = name.slice(1);
      const many = inner === '@' || inner === '*' ? st.args : this.multi(inner.replace(/\[\*\]$/, '[@]'), st);
      // dash and BusyBox ash measure `${#@}` and `${#*}` as the string `$*` makes (the positional
      // parameters joined by IFS's first character; dash src/expand.c evalvar's VSLENGTH takes the
      // length of varvalue's output, ash.c the same), so `set -- a b c` gives 5 where bash counts 3
      if ((inner === '@' || inner === '*') && (this.isDash() || this.isAsh())) return String([...st.args.join(joiner(st))].length);
      if (many !== undefined) return String(many.length);
      return String([...(this.scalar(inner, st) ?? '')].length);
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*(?:\[(?:[^[\]]|\[[^\]]*\])+\])?|[0-9]+|[@*])(:?[-+=?]|##?|%%?|\/\/?|:|\^\^?|,,?)([^]*)$/.exec(name);
    if (!m) {
      const v = this.scalar(name, st);
      // set -u: an unset parameter is an error (a script ends with status 127)
      if (v === undefined && st.flags?.has('u') && !['@', '*', '#', '?', '$', '!', '-', '0'].includes(name)) throw new ExpansionError(`${name}: ${this.isDash() ? 'parameter not set' : 'unbound variable'}`, true);
      return v ?? '';
    }
    const [, pname, op, arg] = m as unknown as [string, string, string, string];
    // dash has the POSIX forms only (expand.c subevalvar): substrings, replacing and case changes are bash's
    if (this.isPlainDash() && !/^:?[-+=?]$|^##?$|^%%?$/.test(op)) throw new ExpansionError('Bad substitution', true);
    const val = this.scalar(pname, st);
    const word = async (): Promise<string> => (await this.expandParts(paramWordParts(arg, quoted, this.lex()), ctx, false)).map((f) => unescapeGlob(f.text)).join('');
    const unsetOrNull = val === undefined || (op.startsWith(':') && val === '');
    switch (op) {
      case '-':
      case ':-':
        if (unsetOrNull && splice) {
          splice.parts = withTilde(paramWordParts(arg, false, this.lex()));
          return '';
        }
        return unsetOrNull ? word() : val!;
      case '=':
      case ':=': {
        if (!unsetOrNull) return val!;
        const w = await word();
        this.setVar(st, pname, w);
        return w;
      }
      case '+':
      case ':+':
        if (!unsetOrNull && splice) {
          splice.parts = withTilde(paramWordParts(arg, false, this.lex()));
          return '';
        }
        return unsetOrNull ? '' : word();
      case '?':
      case ':?':
        if (!unsetOrNull) return val!;
        // a shell that is not interactive exits (bash manual 3.5.3), as with `set -u`
        throw new ExpansionError(`${pname}: ${arg !== '' ? await word() : op === '?' ? 'parameter not set' : 'parameter null or not set'}`, true);
    }
    const v = val ?? '';
    if (op === ':') {
      // `${x:OFF}` / `${x:OFF:LEN}`: both arithmetic; a negative OFF counts from the end, a negative
      // LEN ends that far from the end (bash/subst.c verify_substring_values)
      const text = await word();
      const colon = text.indexOf(':');
      let off = this.arithIndex((colon < 0 ? text : text.slice(0, colon)).trim() || '0', st);
      const chars = [...v];
      if (off < 0) off += chars.length;
      if (off < 0 || off > chars.length) return '';
      if (colon < 0) return chars.slice(off).join('');
      let end = this.arithIndex(text.slice(colon + 1).trim() || '0', st);
      if (end < 0) {
        end += chars.length;
        if (end < off) throw new ExpansionError(`${text.slice(colon + 1).trim()}: substring expression < 0`);
      } else end += off;
      return chars.slice(off, end).join('');
    }
    if (op.startsWith('^') || op.startsWith(',')) {
      // case modification; an empty pattern matches every character (bash/subst.c parameter_brace_casemod)
      const pat = arg === '' ? undefined : await this.pattern(arg, ctx);
      const up = op.startsWith('^');
      const all = op.length === 2;
      let done = false;
      return [...v]
        .map((ch) => {
          if (done || (pat && !pat.test(ch))) return ch;
          if (!all) done = true;
          return up ? ch.toUpperCase() : ch.toLowerCase();
        })
        .join('');
    }
    if (op === '/' || op === '//') {
      const slash = arg.search(/(?<!\\)\//);
      const pat = await this.pattern(slash < 0 ? arg : arg.slice(0, slash), ctx);
      const rep = slash < 0 ? '' : (await this.expandParts(paramWordParts(arg.slice(slash + 1), quoted, this.lex()), ctx, false)).map((f) => unescapeGlob(f.text)).join('');
      let out = '';
      let i = 0;
      let done = false;
      while (i <= v.length) {
        let len = -1;
        if (!done) for (let j = v.length; j >= i; j--) if (j > i && pat.test(v.slice(i, j))) { len = j - i; break; }
        if (len > 0) {
          out += rep;
          i += len;
          if (op === '/') done = true;
          continue;
        }
        if (i < v.length) out += v[i];
        i++;
      }
      return out;
    }
    const pat = await this.pattern(arg, ctx);
    if (op === '#' || op === '##') {
      const order = op === '#' ? [...Array(v.length + 1).keys()] : [...Array(v.length + 1).keys()].reverse();
      for (const k of order) if (pat.test(v.slice(0, k))) return v.slice(k);
      return v;
    }
    const order = op === '%' ? [...Array(v.length + 1).keys()].reverse() : [...Array(v.length + 1).keys()];
    for (const k of order) if (pat.test(v.slice(k))) return v.slice(0, k);
    return v;
  }

  /** A shell pattern in `${x#pat}` and `[[ x == pat ]]`, after parameter expansion in it. */
  private async pattern(src: string, ctx: ExpandCtx): Promise<RegExp> {
    // quoted characters come back glob-escaped, so `${x#"*"}` removes a literal star; in a pattern
    // single quotes quote even inside "${…}" (bash 5.2: "${v#'a'}" removes the a)
    const text = (await this.expandParts(paramWordParts(src, false, this.lex()), ctx, false)).map((f) => f.text).join('');
    return segmentRegExp(text);
  }

  /** `<(LIST)`: run it now, keep its output in /dev/fd/N for the command that reads it. */
  private async procsub(source: string, dir: '<' | '>', ctx: ExpandCtx): Promise<string> {
    const path = `/dev/fd/${this.nextFd}`;
    this.nextFd = this.nextFd > 20 ? this.nextFd - 1 : 63;
    const text = dir === '<' ? await this.runCaptured(source, ctx) : '';
    this.opts.fs.write(path, text);
    this.procFiles.push(path);
    return path;
  }

  /** Run a list in a subshell and return its whole stdout (command substitution without trimming). */
  private async runCaptured(source: string, ctx: ExpandCtx): Promise<string> {
    if (ctx.depth >= MAX_DEPTH) throw new ExpansionError('maximum nesting level exceeded');
    const parsed = parseScript(source, { aliases: this.aliases, ...this.lex() });
    if (!parsed.ok) {
      this.write(ctx.err, `${parsed.incomplete ? `${this.prefix()}syntax error: unexpected end of file` : parsed.error}\n`);
      ctx.onStatus(2);
      return '';
    }
    const buf: Sink = { kind: 'buffer', text: '' };
    const sub = this.clone(ctx.st);
    try {
      this.substitutions++;
      try {
        await this.script(parsed.script, { stdin: '', out: buf, err: ctx.err }, sub, ctx.depth + 1, false);
      } finally {
        this.substitutions--;
      }
    } catch (e) {
      if (!(e instanceof ExitSignal) && !(e instanceof ReturnSignal) && !(e instanceof LoopSignal) && !(e instanceof LineAbort)) throw e;
      if (e instanceof ExitSignal) sub.status = e.code;
      if (e instanceof LineAbort) sub.status = e.status;
    }
    ctx.onStatus(sub.status);
    return buf.kind === 'buffer' ? buf.text : '';
  }

  /** Evaluate `[[ … ]]` (bash/execute_cmd.c execute_cond_node): no splitting, no globbing. */
  private async cond(e: CondExpr, ctx: ExpandCtx): Promise<boolean> {
    const text = async (w: Word): Promise<string> => (await this.expandParts(w.parts, ctx, false)).map((f) => unescapeGlob(f.text)).join('');
    switch (e.kind) {
      case 'and':
        return (await this.cond(e.left, ctx)) && this.cond(e.right, ctx);
      case 'or':
        return (await this.cond(e.left, ctx)) || this.cond(e.right, ctx);
      case 'not':
        return !(await this.cond(e.expr, ctx));
      case 'word':
        return (await text(e.word)) !== '';
      case 'unary': {
        const a = await text(e.arg);
        if (e.op === '-v') return this.scalar(a, ctx.st) !== undefined;
        return testUnary(e.op, a, { cwd: ctx.st.cwd, fs: this.opts.fs });
      }
      case 'binary': {
        const a = await text(e.left);
        switch (e.op) {
          case '==':
          case '=':
          case '!=': {
            // the right side is a pattern; its quoted parts match literally
            const pat = (await this.expandParts(e.right.parts, ctx, false)).map((f) => f.text).join('');
            const hit = segmentRegExp(pat).test(a);
            return e.op === '!=' ? !hit : hit;
          }
          case '=~': {
            let src = '';
            for (const p of e.right.parts) {
              const v = (await this.expandParts([p], ctx, false)).map((f) => unescapeGlob(f.text)).join('');
              src += p.kind !== 'tilde' && p.quoted ? v.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') : v;
            }
            // bash compiles the right side with regcomp(3) as an ERE: the POSIX translation, matched in linear time
            let re: RegExp;
            try {
              re = compilePosix(src, 'ere', '', this.budget.regexMeter());
            } catch (e) {
              if (e instanceof RegexError) throw new CondError('');
              throw e;
            }
            const m = re.exec(a);
            if (!m) {
              ctx.st.arrays.set('BASH_REMATCH', []);
              return false;
            }
            ctx.st.arrays.set('BASH_REMATCH', [...m].map((x) => x ?? ''));
            return true;
          }
          case '<':
            return a < (await text(e.right));
          case '>':
            return a > (await text(e.right));
        }
        const b = await text(e.right);
        if (['-nt', '-ot', '-ef'].includes(e.op)) {
          const fs = this.opts.fs;
          const pa = resolvePath(ctx.st.cwd, a);
          const pb = resolvePath(ctx.st.cwd, b);
          if (e.op === '-ef') return fs.exists(pa) && fs.follow(pa) === fs.follow(pb);
          const ta = fs.exists(pa) ? fs.mtime(pa) : undefined;
          const tb = fs.exists(pb) ? fs.mtime(pb) : undefined;
          if (e.op === '-nt') return ta !== undefined && (tb === undefined || ta > tb);
          return tb !== undefined && (ta === undefined || ta < tb);
        }
        // arithmetic comparisons evaluate both sides as expressions
        const num = (x: string): number => {
          try {
            return Number(
              evalArith(
                x === '' ? '0' : x,
                ...this.arithVars(ctx.st),
              ),
            );
          } catch (err) {
            if (err instanceof ArithError) throw new CondError(err.message);
            throw err;
          }
        };
        const x = num(a);
        const y = num(b);
        return { '-eq': x === y, '-ne': x !== y, '-lt': x < y, '-le': x <= y, '-gt': x > y, '-ge': x >= y }[e.op] ?? false;
      }
    }
  }

  private async cmdsub(source: string, ctx: ExpandCtx): Promise<string> {
    if (ctx.depth >= MAX_DEPTH) throw new ExpansionError('maximum nesting level exceeded');
    const parsed = parseScript(source, { aliases: this.aliases, ...this.lex() });
    if (!parsed.ok) {
      this.write(ctx.err, `${parsed.incomplete ? `${this.prefix()}syntax error: unexpected end of file` : parsed.error}\n`);
      ctx.onStatus(2);
      return '';
    }
    const buf: Sink = { kind: 'buffer', text: '' };
    const sub = this.clone(ctx.st);
    try {
      this.substitutions++;
      try {
        await this.script(parsed.script, { stdin: '', out: buf, err: ctx.err }, sub, ctx.depth + 1, false);
      } finally {
        this.substitutions--;
      }
    } catch (e) {
      if (e instanceof LineAbort) sub.status = e.status;
      else if (!(e instanceof ExitSignal)) throw e;
      else sub.status = e.code;
    }
    ctx.onStatus(sub.status);
    return (buf.kind === 'buffer' ? buf.text : '').replace(/\n+$/, '');
  }
}

interface Field {
  text: string;
}

interface ExpandCtx {
  st: State;
  err: Sink;
  depth: number;
  onStatus: (s: number) => void;
}

/** What `"$*"` and `"${a[*]}"` put between elements: IFS's first character, a space when IFS is unset, nothing when it is empty (POSIX 2.5.2). */
function joiner(st: State): string {
  return (st.vars.get('IFS') ?? ' ').slice(0, 1);
}

class ExpansionError extends Error {
  /** `set -u`'s unbound variable: a non-interactive shell exits with 127. */
  constructor(
    message: string,
    readonly fatal = false,
  ) {
    super(message);
  }
}

/** How `set -x` shows a word: single-quoted when it holds blanks or shell characters. */
function traceWord(w: string): string {
  return w === '' ? "''" : /[\s'"\\$`*?[\]{}()<>|&;#~!]/.test(w) ? `'${w.replace(/'/g, `'\\''`)}'` : w;
}

/** A `[[ ]]` that cannot be evaluated (bad regex, bad number): status 2, message when there is one. */
class CondError extends Error {}

/** `set` prints values bare when they need no quoting, else in single quotes. */
function singleQuoteIfNeeded(v: string): string {
  return /^[A-Za-z0-9_./:,+=@%-]*$/.test(v) ? v : singleQuote(v);
}

function ancestorIsFile(fs: Vfs, p: string): boolean {
  let cur = p;
  while (cur !== '/' && cur !== '') {
    if (fs.isFile(cur)) return true;
    cur = cur.slice(0, cur.lastIndexOf('/')) || '/';
  }
  return false;
}
