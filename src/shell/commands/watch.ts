/**
 * watch (procps-ng 4.0 watch.c): run a command every `-n` seconds (2 by default) through
 * `sh -c`, showing the latest output under the header `Every 2.0s: CMD` with `HOST: DATE` at the
 * right edge of an 80-column screen (`-t` hides it). The simulated clock moves between runs, so
 * `watch kubectl get pods` shows the pods change. A real watch redraws until Ctrl-C; here the
 * last screen is printed once the output has not changed for a minute of simulated time apart
 * from ages and clocks (at most ten minutes), or, with `-g`, as soon as the output changes. Ctrl-C and the line's
 * budget stop it as any waiting command. At an interactive prompt it is a job the terminal holds
 * (watchLive): it redraws as the wall clock moves until Ctrl-C, and `watch … &` stops at once, as
 * the real one does (recorded from procps-ng 4.0.2 under bash 5.2.15 on a pty: src/shell/testdata/watch-pty.txt).
 */
import type { CommandFn } from '../types.js';
import { budgetOf, LIVE, shellExtras, type LiveOutput } from './types.js';
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

/** One screen: the command's output under the header of its time (`-t`: without it). */
function draw(title: boolean, interval: number, text: string, host: string, out: string, at: number): string {
  if (!title) return out;
  const left = `Every ${interval.toFixed(1)}s: ${text}`;
  const right = `${host}: ${ctime(at)}`;
  return `${left}${' '.repeat(Math.max(1, 80 - left.length - right.length))}${right}\n\n${out}`;
}

/**
 * xterm's terminfo smcup/rmcup, which ncurses' initscr/endwin write (recorded from procps-ng
 * 4.0.2 watch on a pty, TERM=xterm-256color): the screen is drawn on the alternate screen, and
 * what was on the terminal before comes back when watch ends or stops. Each screen is drawn whole
 * (home, clear); ncurses sends only the cells that changed, which looks the same.
 */
const ENTER = '\x1b[?1049h';
const LEAVE = '\x1b[?1049l';
const CLEAR = '\x1b[H\x1b[2J';

interface WatchState {
  first: { text: string; code: number };
  startedAt: number;
  step: number;
  chgexit: boolean;
  errexit: boolean;
  screen: () => Promise<{ text: string; code: number }>;
  draw: (text: string, at: number) => string;
}

/**
 * `watch` as a process the terminal holds: every `-n` seconds of the clock it runs the command
 * again (refresh, which the session awaits as the wall moves) and draws the new screen; Ctrl-C
 * ends it with status 0 (watch.c installs die() for SIGINT and exits through endwin), giving the
 * screen back; Ctrl-Z gives the screen back (ncurses' SIGTSTP handler) and stops it; `fg`
 * redraws it whole. `-g` ends it when the output changes; `-e` when the command fails (status 8).
 */
function watchLive(w: WatchState): LiveOutput {
  let last = w.first;
  let next = w.startedAt + w.step;
  let pending = '';
  let paused = false;
  let redraw = false;
  let shownAt = w.startedAt;
  let end: number | undefined = w.errexit && last.code !== 0 ? 8 : undefined;
  return {
    async refresh(c) {
      if (paused || end !== undefined) return;
      for (let guard = 0; guard < 10_000 && c.now() >= next; guard++) {
        const r = await w.screen();
        shownAt = c.now();
        next += w.step;
        if (next <= c.now()) next = c.now() + w.step;
        const changed = r.text !== last.text;
        last = r;
        pending = `${CLEAR}${w.draw(last.text, shownAt)}`;
        if (w.chgexit && changed) end = 0;
        else if (w.errexit && r.code !== 0) end = 8;
        if (end !== undefined) break;
      }
    },
    take() {
      if (paused) return { stdout: '', done: false };
      let out = pending;
      pending = '';
      if (redraw) {
        out = `${ENTER}${CLEAR}${w.draw(last.text, shownAt)}`;
        redraw = false;
      }
      if (end !== undefined) return { stdout: out + LEAVE, done: true, status: end };
      return { stdout: out, done: false };
    },
    stop: () => undefined,
    pause(stopped) {
      paused = stopped;
      if (!stopped) redraw = true;
    },
    screen: { leave: LEAVE },
    interrupt: () => ({ stdout: LEAVE, status: 0 }),
  };
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
  const shown = (): string => draw(title, interval, text, host, last.text, shownAt);
  const bg = shellExtras(ctx).background;
  if (bg && cluster && (!bg.foreground || shellExtras(ctx).stdoutIsTTY)) {
    // a process that keeps running: held by the terminal it draws on, or stopped at once with `&`
    const live = watchLive({ first: last, startedAt: shownAt, step: Math.round(interval * 1000), chgexit, errexit, screen, draw: (t, at) => draw(title, interval, text, host, t, at) });
    if (!bg.foreground) return { stdout: '', stderr: '', exitCode: 0, keeps: { kind: 'watch', host, [LIVE]: { ...live, needsTerminal: true } } };
    return { stdout: `${ENTER}${CLEAR}${draw(title, interval, text, host, last.text, shownAt)}`, stderr: '', exitCode: 0, keeps: { kind: 'watch', host, [LIVE]: live } };
  }
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
