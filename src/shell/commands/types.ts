/**
 * What the interpreter adds on top of the shared command contract (src/shell/types.ts): a result
 * may ask the REPL to advance the simulated clock (`sleep`), and a few commands need the shell's
 * own state (history, the command table for `which`, running a command for `xargs`).
 */
import type { CommandContext, CommandResult } from '../types.js';
import { LineBudget } from '../budget.js';
import type { Cluster } from '../../sim/cluster.js';

export interface ShellResult extends CommandResult {
  /** Simulated milliseconds this command took (sleep); the REPL advances its clock by it. */
  advanceMs?: number;
  /** Set by ShellContext.exec when argv[0] is not a command (xargs/env word the error themselves). */
  notFound?: boolean;
  /**
   * stdout and stderr in the order the command wrote them, when it matters (`cat a nope b`).
   * When present the interpreter replays these instead of stdout-then-stderr.
   */
  chunks?: Array<{ stream: 'stdout' | 'stderr'; text: string }>;
  /**
   * The process keeps running after it started (only asked of a background job, ShellContext.background):
   * `kubectl port-forward … &` listening until the job ends (shell/jobs.ts).
   */
  keeps?: Held;
}

/**
 * The order to write a result in: its chunks when they account for exactly the stdout and stderr it
 * returned, else stdout then stderr (both the shell and one-shot `cka-lab kubectl` write this way).
 */
export function writeOrder(res: ShellResult | CommandResult): Array<{ stream: 'stdout' | 'stderr'; text: string }> {
  const chunks = (res as ShellResult).chunks;
  const join = (s: 'stdout' | 'stderr'): string => (chunks ?? []).filter((c) => c.stream === s).map((c) => c.text).join('');
  if (chunks && join('stdout') === res.stdout && join('stderr') === res.stderr) return chunks;
  return [
    { stream: 'stdout', text: res.stdout },
    { stream: 'stderr', text: res.stderr },
  ];
}

/**
 * The in-memory side of a held process that writes as the cluster changes (a background
 * `kubectl get -w`): kept under this symbol, which a saved session's JSON leaves out, so a job
 * read back from disk has none (its process ended with the shell that ran it).
 */
export const LIVE = Symbol('live');

export interface LiveOutput {
  /**
   * What it wrote since the last call, as of cluster `c` (the shell's, which a reload replaces);
   * `done`: the process ended, with `status` (0 unless given) after writing `stderr`.
   */
  take(c: Cluster): { stdout: string; done: boolean; stderr?: string; status?: number };
  /** The process ends: stop following the cluster. */
  stop(): void;
  /**
   * Stopped (Ctrl-Z) or continued (bg, fg): a stopped process reads nothing, so what happens
   * meanwhile waits in its socket and is written, as of then, when it runs again.
   */
  pause?(stopped: boolean): void;
  /**
   * Work it does as time passes that needs the shell (`watch` runs its command again each
   * interval): the session awaits it, with the cluster at the time the wall reached, before take.
   */
  refresh?(c: Cluster): Promise<void>;
  /**
   * A full-screen program (ncurses: `watch`): the terminal is in noecho mode, so `^C`/`^Z` are not
   * echoed; `leave` is what it writes as it gives the screen back (endwin), on SIGTSTP before
   * bash's `Stopped` line and as it exits.
   */
  screen?: { leave: string };
  /**
   * It catches SIGINT and exits on its own terms (procps watch: die() then exit 0), with what it
   * writes as it does; without it, Ctrl-C kills it (status 130).
   */
  interrupt?(): { stdout: string; status: number };
  /**
   * Started with `&`, it stops at once (SIGTTOU: a background process may not set the terminal's
   * modes, as ncurses' initscr does), and stays stopped until `fg`.
   */
  needsTerminal?: true;
}

/** What a process that keeps running holds, so its job can watch and release it. */
export interface Held {
  /** `journalctl -f` follows the host's journal until it is killed; `watch`: `kubectl get -w`. */
  kind: 'port-forward' | 'proxy' | 'follow' | 'watch';
  /** The host whose sockets it listens on (node/user-sockets.ts). */
  host: string;
  /** port-forward: the pod it forwards to; the process ends when that pod does. */
  pod?: { namespace: string; name: string; uid: string };
  /** Connections it has already reported ("Handling connection for PORT"), per local port. */
  reported?: Record<string, number>;
  /** Where its later output goes: the terminal (default), a file it was redirected to, or nowhere. */
  stdout?: JobSink;
  stderr?: JobSink;
  [LIVE]?: LiveOutput;
  /** Output waiting for the pipeline's later members (stdout sink `pipe`). */
  piped?: string;
}

/** A held pipeline's later members, run on text its first member wrote (shell/jobs.ts JobData[PIPE]). */
export type PipeRest = (text: string, budget: LineBudget) => Promise<Array<{ stream: 'stdout' | 'stderr'; text: string }>>;

/**
 * `pipe`: the later members of a pipeline the terminal holds (`kubectl get po -w | grep x`): what
 * the process writes waits in `Held.piped` for them (Session runs them through Held[PIPE]); `flows`:
 * they show it line by line as it comes, else only at the process's end.
 */
export type JobSink = { kind: 'file'; path: string } | { kind: 'null' } | { kind: 'pipe'; flows: boolean };

/** Where a job keeps its pipeline's later members (PipeRest), in memory only: a saved session's JSON leaves it out, as LIVE. */
export const PIPE = Symbol('pipe');

export interface ShellContext extends CommandContext {
  /** Lines typed so far in this session, oldest first (for `history`). */
  history?: readonly string[];
  /** Whether a name resolves to a command, and its path (for `which`). */
  resolveCommand?: (name: string) => string | undefined;
  /** Run another command with argv and stdin, optionally with a replaced environment (xargs, env). */
  exec?: (argv: string[], stdin: string, env?: Record<string, string>) => Promise<ShellResult>;
  /** Hostname of the machine the shell is on (for `hostname`). */
  hostname?: string;
  /** True when stdout goes to the terminal (ls prints columns then, one name per line otherwise). */
  stdoutIsTTY?: boolean;
  /** The running line's allowance of steps, output and simulated time (shell/budget.ts). */
  budget?: LineBudget;
  /**
   * Set when the command runs as (part of) a background job, or as the line the terminal may hold
   * (`foreground`: an interactive prompt's one command, Interpreter.holdTerminal): the job's process id.
   */
  background?: { pid: number; foreground?: true };
  /**
   * Background jobs paused in a sleep (shell/job-clock.ts), for a foreground command that moves
   * the clock itself (`kubectl get -w`): when the next one wakes, and run those whose time has come.
   */
  jobs?: { next(): number | undefined; runDue(): Promise<void> };
  /** Write part of the command's output now, before what runs next (a paused job that wakes) writes its own. */
  emit?: (stream: 'stdout' | 'stderr', text: string) => void;
  /**
   * The other commands of the pipeline this one is part of, as processes would show them
   * (argv after expansion; absent for one whose words run commands to expand): bash starts every
   * member at once, so `ps aux | grep kubelet` lists the grep too. Only the members after this one:
   * they wait on its output, while earlier ones have usually exited.
   */
  pipelinePeers?: string[][];
  /** The command line of the exec'd shell this command runs in (`kubectl exec -it POD -- sh`): a process of the container. */
  execShell?: readonly string[];
}

/** The line's budget, or a fresh one when a command runs outside a line (tests, one-shot calls). */
export function budgetOf(ctx: CommandContext): LineBudget {
  return shellExtras(ctx).budget ?? new LineBudget();
}

export function shellExtras(ctx: CommandContext): Partial<ShellContext> {
  return ctx as Partial<ShellContext>;
}
