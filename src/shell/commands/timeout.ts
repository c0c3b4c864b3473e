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

function seconds(s: string): number | undefined {
  const m = /^(\d+\.?\d*|\.\d+)([smhd]?)$/.exec(s);
  if (!m) return undefined;
  return Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '']!;
}

export const timeout: CommandFn = async (ctx): Promise<ShellResult> => {
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
