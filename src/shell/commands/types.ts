/**
 * What the interpreter adds on top of the shared command contract (src/shell/types.ts): a result
 * may ask the REPL to advance the simulated clock (`sleep`), and a few commands need the shell's
 * own state (history, the command table for `which`, running a command for `xargs`).
 */
import type { CommandContext, CommandResult } from '../types.js';
import { LineBudget } from '../budget.js';

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
}

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
}

/** The line's budget, or a fresh one when a command runs outside a line (tests, one-shot calls). */
export function budgetOf(ctx: CommandContext): LineBudget {
  return shellExtras(ctx).budget ?? new LineBudget();
}

export function shellExtras(ctx: CommandContext): Partial<ShellContext> {
  return ctx as Partial<ShellContext>;
}
