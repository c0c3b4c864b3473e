/**
 * The contract every shell command implements: it receives its argv and a context, and returns
 * what it printed and its exit status. Commands never write to the terminal themselves; the
 * interpreter wires stdout/stderr into pipes, redirects and the screen.
 */
import type { Vfs } from '../sim/node/vfs.js';
import type { Cluster } from '../sim/cluster.js';

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /**
   * The command opened an interactive shell in a container (`kubectl exec -it TARGET -- sh`):
   * the session continues there. Set by the command that resolved the target, so the session
   * never re-reads the command line.
   */
  enter?: Extract<ExecLocation, { kind: 'pod' }>;
  /** With `enter`: the command that started the shell (`sh`, `/bin/bash`), the process `ps` in the container lists. */
  enterArgv?: string[];
  /**
   * The shell entered is the container's own process (`kubectl debug -it`, attach), not an exec:
   * leaving it ends the container, and kubectl prints `reattach` (when set) after the session.
   */
  attached?: Attached;
}

/** What ends with an attached shell: kubectl's reattach hint, and the pod `run --rm` deletes. */
export interface Attached {
  reattach?: string;
  remove?: { namespace: string; pod: string; message: string };
}

/** Where a command runs: the exam workstation, a node (after `ssh`), or a container (`kubectl exec`). */
export type ExecLocation =
  | { kind: 'workstation'; host: string }
  | { kind: 'node'; host: string }
  | { kind: 'pod'; namespace: string; pod: string; container: string };

export interface CommandContext {
  /** argv[0] is the command name as typed. */
  argv: string[];
  stdin: string;
  env: Record<string, string>;
  cwd: string;
  user: string;
  /** The filesystem of the host or container the command runs in. */
  fs: Vfs;
  location: ExecLocation;
  /** Simulated wall clock, ms since epoch. */
  now(): number;
  /** The simulated cluster, for commands that look at nodes, pods and the network. */
  cluster?: Cluster;
}

export type CommandFn = (ctx: CommandContext) => CommandResult | Promise<CommandResult>;

export function ok(stdout = ''): CommandResult {
  return { stdout, stderr: '', exitCode: 0 };
}

export function fail(stderr: string, exitCode = 1): CommandResult {
  return { stdout: '', stderr, exitCode };
}
