/**
 * What a command of the program touches of the outside world, injected so tests drive main()
 * with in-memory streams, their own environment (XDG_DATA_HOME in a temp dir) and a pinned clock.
 */
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';

export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Whether stdin and stdout are a terminal: menus and readline only then. */
  isTTY: boolean;
  /** Real time, ms since the epoch. */
  realNow: () => number;
}

/**
 * A reader that stops early (`cka-lab list | head -1`, `| grep -q`) closes the pipe: end quietly
 * as coreutils do on SIGPIPE, instead of an unhandled EPIPE error. The session was saved after
 * the last command already.
 */
function quietOnClosedPipe(): void {
  for (const s of [process.stdout, process.stderr]) {
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
}

export function processIo(): CliIo {
  quietOnClosedPipe();
  return {
    // process.stdin is a getter that builds a stream (and loads net for a pipe): a command that
    // never reads stdin (a one-shot `get`) does not pay for it
    get stdin(): Readable {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    isTTY: isatty(0) && isatty(1),
    realNow: () => Date.now(),
  };
}

/** A user-facing failure: printed as `cka-lab: <message>` with an exit code, no stack. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
