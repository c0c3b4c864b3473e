/**
 * timeout — GNU coreutils src/timeout.c: run a command and stop it after DURATION (NUMBER[smhd]).
 * In the simulator a command takes time only by sleeping, so a command whose simulated time
 * exceeds the limit is cut off there: status 124 (or 128+9 with -s KILL), and only the limit's
 * worth of time passes. Commands that wait on the cluster (`kubectl get -w`, `kubectl wait`,
 * `rollout status`) see the limit as a deadline of the line's budget: a watch prints until then,
 * a wait is killed there (DeadlineReached).
 */
import { DeadlineReached } from '../budget.js';
import type { CommandFn } from '../types.js';
import type { ShellResult } from './types.js';
import { shellExtras } from './types.js';
import { busyboxOpts, busyboxUsageError, isBusybox } from './busybox.js';

/** The signals busybox's get_signum knows by name (libbb/u_signal_names.c), with their numbers. */
const BB_SIGNALS: Record<string, number> = { HUP: 1, INT: 2, QUIT: 3, ILL: 4, TRAP: 5, ABRT: 6, BUS: 7, FPE: 8, KILL: 9, USR1: 10, SEGV: 11, USR2: 12, PIPE: 13, ALRM: 14, TERM: 15, STKFLT: 16, CHLD: 17, CONT: 18, STOP: 19, TSTP: 20, TTIN: 21, TTOU: 22, URG: 23, XCPU: 24, XFSZ: 25, VTALRM: 26, PROF: 27, WINCH: 28, POLL: 29, IO: 29, PWR: 30, SYS: 31 };
/** What ash says of a foreground job a signal ended (strsignal's words, shell/ash.c sprint_status). */
const SIGNAL_WORDS: Record<number, string> = { 1: 'Hangup', 2: '', 9: 'Killed', 14: 'Alarm clock', 15: 'Terminated', 10: 'User defined signal 1', 12: 'User defined signal 2', 3: 'Quit', 6: 'Aborted' };

/**
 * busybox 1.36.1's timeout (coreutils/timeout.c): getopt32 "+s:k:" then SECS and PROG (else the
 * usage), SECS through parse_duration_str (`invalid number 'x'`), `unknown signal 'X'`, and the
 * program exec'd in timeout's own process, so the shell sees the program killed by the signal:
 * ash prints `Terminated` (or `Killed`) and the status is 128+N; a program it cannot run is
 * `can't execute 'NAME': ERROR`, status 127.
 */
async function busyboxTimeout(ctx: Parameters<CommandFn>[0]): Promise<ShellResult> {
  const b = busyboxOpts('timeout', ctx.argv.slice(1), { short: 's:k:', stopAtOperand: true });
  if (!b.ok) return b.result;
  const [secs, ...argv] = b.opts.operands;
  if (secs === undefined || argv.length === 0) return busyboxUsageError('timeout');
  const sigName = b.opts.list.filter(([k]) => k === 's').pop()?.[1] ?? 'TERM';
  const sig = /^\d+$/.test(sigName) ? Number(sigName) : BB_SIGNALS[sigName.toUpperCase().replace(/^SIG/, '')];
  if (sig === undefined || sig > 64) return { stdout: '', stderr: `timeout: unknown signal '${sigName}'\n`, exitCode: 1 };
  const m = /^(\d+\.?\d*|\.\d+)([smhd]?)$/.exec(secs);
  if (!m) return { stdout: '', stderr: `timeout: invalid number '${secs}'\n`, exitCode: 1 };
  const limitMs = Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '']! * 1000;
  const exec = shellExtras(ctx).exec;
  const budget = shellExtras(ctx).budget;
  const before = budget?.waitedMs ?? 0;
  const killed = (stdout: string, advanceMs?: number): ShellResult => ({ stdout, stderr: SIGNAL_WORDS[sig] ? `${SIGNAL_WORDS[sig]}\n` : '', exitCode: 128 + sig, ...(advanceMs !== undefined ? { advanceMs } : {}) });
  const run = async (): Promise<ShellResult & { notFound?: boolean }> => (exec ? await exec(argv, ctx.stdin) : { stdout: '', stderr: '', exitCode: 127, notFound: true });
  let res: ShellResult & { notFound?: boolean };
  try {
    res = budget && limitMs > 0 ? await budget.withDeadline(limitMs, run) : await run();
  } catch (e) {
    if (e instanceof DeadlineReached) return killed(e.stdout);
    throw e;
  }
  if (res.notFound) return { stdout: '', stderr: `timeout: can't execute '${argv[0]}': No such file or directory\n`, exitCode: 127 };
  const waited = (budget?.waitedMs ?? 0) - before;
  if (limitMs > 0 && waited + (res.advanceMs ?? 0) >= limitMs && (waited > 0 || (res.advanceMs ?? 0) > limitMs)) return killed(res.stdout, Math.max(0, limitMs - waited));
  return res;
}

function seconds(s: string): number | undefined {
  const m = /^(\d+\.?\d*|\.\d+)([smhd]?)$/.exec(s);
  if (!m) return undefined;
  return Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '']!;
}

export const timeout: CommandFn = async (ctx): Promise<ShellResult> => {
  if (isBusybox(ctx)) return busyboxTimeout(ctx);
  const args = ctx.argv.slice(1);
  let signal = 'TERM';
  let preserve = false;
  while (args[0]?.startsWith('-') && args[0] !== '-') {
    const a = args.shift()!;
    if (a === '--') break;
    if (a === '-s' || a === '--signal') signal = (args.shift() ?? '').replace(/^SIG/, '');
    else if (a.startsWith('--signal=')) signal = a.slice(9).replace(/^SIG/, '');
    else if (a === '--preserve-status') preserve = true;
    else if (a === '-k' || a === '--kill-after') args.shift();
    else if (a === '--foreground' || a === '-v' || a === '--verbose' || a.startsWith('--kill-after=')) continue;
    else return { stdout: '', stderr: `timeout: invalid option -- '${a.replace(/^-+/, '')}'\nTry 'timeout --help' for more information.\n`, exitCode: 125 };
  }
  if (args.length === 0) return { stdout: '', stderr: "timeout: missing operand\nTry 'timeout --help' for more information.\n", exitCode: 125 };
  const limit = seconds(args[0]!);
  if (limit === undefined) return { stdout: '', stderr: `timeout: invalid time interval ‘${args[0]}’\nTry 'timeout --help' for more information.\n`, exitCode: 125 };
  const argv = args.slice(1);
  if (argv.length === 0) return { stdout: '', stderr: "timeout: missing operand\nTry 'timeout --help' for more information.\n", exitCode: 125 };
  const exec = shellExtras(ctx).exec;
  const limitMs = limit * 1000;
  const killed = signal === 'KILL' || signal === '9';
  const status = preserve || killed ? (killed ? 137 : 143) : 124;
  const budget = shellExtras(ctx).budget;
  const before = budget?.waitedMs ?? 0;
  const run = async (): Promise<ShellResult & { notFound?: boolean }> => (exec ? await exec(argv, ctx.stdin) : { stdout: '', stderr: '', exitCode: 127, notFound: true });
  let res: ShellResult & { notFound?: boolean };
  try {
    res = budget && limit > 0 ? await budget.withDeadline(limitMs, run) : await run();
  } catch (e) {
    if (e instanceof DeadlineReached) return { stdout: e.stdout, stderr: '', exitCode: status };
    throw e;
  }
  if (res.notFound) return { stdout: '', stderr: `timeout: failed to run command ‘${argv[0]}’: No such file or directory\n`, exitCode: 127 };
  const waited = (budget?.waitedMs ?? 0) - before;
  if (limit > 0 && waited + (res.advanceMs ?? 0) >= limitMs && (waited > 0 || (res.advanceMs ?? 0) > limitMs)) {
    return { stdout: res.stdout, stderr: res.stderr, exitCode: status, advanceMs: Math.max(0, limitMs - waited) };
  }
  return res;
};
