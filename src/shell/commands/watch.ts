/**
 * watch (procps-ng 4.0 watch.c): run a command every `-n` seconds (2 by default) through
 * `sh -c`, showing the latest output under the header `Every 2.0s: CMD` with `HOST: DATE` at the
 * right edge of an 80-column screen (`-t` hides it). The simulated clock moves between runs, so
 * `watch kubectl get pods` shows the pods change. A real watch redraws until Ctrl-C; here the
 * last screen is printed once the output has not changed for a minute of simulated time apart
 * from ages and clocks (at most ten minutes), or, with `-g`, as soon as the output changes. Ctrl-C and the line's
 * budget stop it as any waiting command.
 */
import type { CommandFn } from '../types.js';
import { budgetOf, shellExtras } from './types.js';
import { pollUntil } from '../kubectl/poll.js';
import { DeadlineReached } from '../budget.js';

/** How long unchanged output ends a watch here (a learner presses Ctrl-C). */
export const WATCH_QUIET_MS = 60_000;
export const WATCH_MAX_MS = 10 * 60_000;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** ctime(3): `Thu Dec  3 17:47:53 2026`. */
function ctime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

const USAGE = `
Usage:
 watch [options] command

Options:
  -b, --beep             beep if command has a non-zero exit
  -c, --color            interpret ANSI color and style sequences
  -C, --no-color         do not interpret ANSI color and style sequences
  -d, --differences[=<permanent>]
                         highlight changes between updates
  -e, --errexit          exit if command has a non-zero exit
  -g, --chgexit          exit when output from command changes
  -q, --equexit <cycles>
                         exit when output from command does not change
  -n, --interval <secs>  seconds to wait between updates
  -p, --precise          attempt run command in precise intervals
  -r, --no-rerun         do not rerun program on window resize
  -t, --no-title         turn off header
  -w, --no-wrap          turn off line wrapping
  -x, --exec             pass command to exec instead of "sh -c"

 -h, --help     display this help and exit
 -v, --version  output version information and exit

For more details see watch(1).
`;

/** The output with what changes by itself masked: kubectl ages (5m10s), `(3s ago)`, clock times. */
function settled(text: string): string {
  return text.replace(/\b\d+(?:[smhdy]\d*)+\b/g, '#').replace(/\b\d{1,2}:\d{2}(?::\d{2})?\b/g, '#');
}

export const watch: CommandFn = async (ctx) => {
  const args = ctx.argv.slice(1);
  let interval = 2;
  let title = true;
  let chgexit = false;
  let errexit = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-') break;
    if (a === '--') {
      i++;
      break;
    }
    const long = a.startsWith('--') ? a.slice(2).split('=')[0]! : undefined;
    const value = (): string | undefined => (a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i]);
    if (long !== undefined) {
      if (long === 'interval') interval = Number(value());
      else if (long === 'no-title') title = false;
      else if (long === 'chgexit') chgexit = true;
      else if (long === 'errexit') errexit = true;
      else if (!['differences', 'color', 'no-color', 'beep', 'precise', 'no-wrap', 'no-rerun', 'exec'].includes(long)) return { stdout: '', stderr: `watch: unrecognized option '${a}'${USAGE}`, exitCode: 1 };
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const ch = a[j]!;
      if (ch === 'n') {
        interval = Number(j + 1 < a.length ? a.slice(j + 1) : args[++i]);
        break;
      }
      if (ch === 't') title = false;
      else if (ch === 'g') chgexit = true;
      else if (ch === 'e') errexit = true;
      else if (!'dcCbprwx'.includes(ch)) return { stdout: '', stderr: `watch: invalid option -- '${ch}'${USAGE}`, exitCode: 1 };
    }
  }
  const cmd = args.slice(i);
  if (cmd.length === 0) return { stdout: '', stderr: USAGE.replace(/^\n/, ''), exitCode: 1 };
  if (!Number.isFinite(interval)) return { stdout: '', stderr: `watch: failed to parse argument: '${args[i - 1] ?? ''}'\n`, exitCode: 1 };
  interval = Math.max(0.1, interval);
  const exec = shellExtras(ctx).exec;
  if (!exec) return { stdout: '', stderr: 'watch: cannot run commands here\n', exitCode: 1 };
  const budget = budgetOf(ctx);
  const cluster = ctx.cluster;
  const text = cmd.join(' ');
  const host = shellExtras(ctx).hostname ?? (ctx.location.kind === 'pod' ? ctx.location.pod : ctx.location.host);
  const start = ctx.now();
  let elapsed = 0;
  const screen = async (): Promise<{ text: string; code: number }> => {
    const r = await exec(['sh', '-c', text], '');
    return { text: r.stdout + r.stderr, code: r.exitCode };
  };
  let last = await screen();
  let shownAt = start;
  // the screen on the terminal: the last run's output under the header of its time
  const shown = (): string => {
    if (!title) return last.text;
    const left = `Every ${interval.toFixed(1)}s: ${text}`;
    const right = `${host}: ${ctime(shownAt)}`;
    return `${left}${' '.repeat(Math.max(1, 80 - left.length - right.length))}${right}\n\n${last.text}`;
  };
  let changedAt = 0;
  let exitCode = 0;
  const jobs = shellExtras(ctx).jobs;
  try {
    for (let guard = 0; guard < 100_000; guard++) {
      budget.step();
      if (elapsed - changedAt >= WATCH_QUIET_MS || elapsed >= WATCH_MAX_MS) break;
      if (errexit && last.code !== 0) {
        exitCode = 8;
        break;
      }
      const step = Math.round(interval * 1000);
      // between screens the clock moves as for any foreground wait: a background job due meanwhile
      // runs at its time (kubectl/poll.ts), and the next screen shows what it did
      if (cluster) await pollUntil({ cluster, budget, ...(jobs ? { jobs } : {}) }, cluster.now() + step, () => undefined);
      else budget.time(step);
      elapsed += step;
      const next = await screen();
      shownAt = cluster ? cluster.now() : start + elapsed;
      if (next.text !== last.text) {
        // ages and clocks tick on every screen; only other changes keep a learner watching
        if (settled(next.text) !== settled(last.text)) changedAt = elapsed;
        last = next;
        if (chgexit) break;
      }
    }
  } catch (e) {
    // killed by a `timeout` around it: its last screen stays on the terminal
    if (e instanceof DeadlineReached) e.stdout = shown();
    throw e;
  }
  return { stdout: shown(), stderr: '', exitCode };
};
