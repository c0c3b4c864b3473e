/**
 * The job-control builtins over a JobTable (shell/jobs.ts): `jobs [-lpr]`, `kill [-SIG] %N|PID`,
 * `kill -l`, `wait [%N|PID]`, `fg`, `bg`, `disown` (bash builtins/jobs.def, kill.def, wait.def,
 * fg_bg.def). Messages recorded from bash 5.2.
 */
import { SIGNALS, TRAP_LIST } from './trap-builtin.js';
import type { JobData, JobTable } from './jobs.js';

export interface BuiltinOutput {
  stdout: string;
  /** `fg` in a terminal that can hold a job: the job now holds it (Session.foreground). */
  foreground?: JobData;
  /** Error lines without the `bash: ` prefix (the interpreter adds its own). */
  errors: string[];
  /** Lines bash prints bare (`kill: usage: …`). */
  usage?: string;
  status: number;
  /** `wait`/`fg` let simulated time pass until a job's end. */
  waitUntil?: number;
}

export interface JobContext {
  /** Whether a process that is not a job runs on this host. */
  processExists?: (pid: number) => boolean;
  /**
   * The simulated time, and whether the terminal can hold a job in the foreground until Ctrl-C or
   * Ctrl-Z (an interactive line that is only this builtin): then `fg` hands the job over to it.
   */
  now?: number;
  hold?: boolean;
}

/** Signals whose default action stops a process (signal(7)). */
const STOP_SIGNALS = new Set(['STOP', 'TSTP', 'TTIN', 'TTOU']);

const KILL_USAGE = 'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]';
const JOBS_USAGE = 'jobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]';

function signalOf(spec: string): { name: string; n: number } | undefined {
  if (/^\d+$/.test(spec)) {
    const n = Number(spec);
    if (n === 0) return { name: '0', n: 0 };
    const name = Object.keys(SIGNALS).find((k) => SIGNALS[k] === n);
    return name ? { name, n } : undefined;
  }
  const up = spec.toUpperCase();
  const bare = up.startsWith('SIG') ? up.slice(3) : up;
  const n = SIGNALS[bare];
  return n === undefined ? undefined : { name: bare, n };
}

/** `kill -l [SPEC…]`: the table, or a number's name / a name's number. */
function killList(args: string[]): BuiltinOutput {
  if (args.length === 0) return { stdout: TRAP_LIST, errors: [], status: 0 };
  let stdout = '';
  const errors: string[] = [];
  for (const a of args) {
    const num = /^\d+$/.test(a) ? Number(a) : undefined;
    const sig = signalOf(num !== undefined && num > 128 ? String(num - 128) : a);
    if (!sig || sig.n === 0) errors.push(`kill: ${a}: invalid signal specification`);
    else stdout += num !== undefined ? `${sig.name}\n` : `${sig.n}\n`;
  }
  return { stdout, errors, status: errors.length ? 1 : 0 };
}

function kill(args: string[], table: JobTable, ctx: JobContext): BuiltinOutput {
  let sig = { name: 'TERM', n: 15 };
  let i = 0;
  const first = args[0];
  if (first === '-l' || first === '-L') return killList(args.slice(1));
  if (first === '-s' || first === '-n') {
    const v = args[1];
    if (v === undefined) return { stdout: '', errors: [`kill: ${first}: option requires an argument`], status: 1 };
    const s = signalOf(v);
    if (!s) return { stdout: '', errors: [`kill: ${v}: invalid signal specification`], status: 1 };
    sig = s;
    i = 2;
  } else if (first !== undefined && first.startsWith('-') && first !== '-' && first !== '--') {
    const s = signalOf(first.slice(1));
    if (!s) return { stdout: '', errors: [`kill: ${first.slice(1)}: invalid signal specification`], status: 1 };
    sig = s;
    i = 1;
  }
  if (args[i] === '--') i++;
  const targets = args.slice(i);
  if (targets.length === 0) return { stdout: '', errors: [], usage: KILL_USAGE, status: 2 };
  const errors: string[] = [];
  for (const t of targets) {
    let job: JobData | undefined;
    if (t.startsWith('%')) {
      const found = table.find(t);
      if (typeof found === 'string') {
        errors.push(`kill: ${found}`);
        continue;
      }
      job = found.ended ? undefined : found;
      if (!job) {
        errors.push(`kill: (${found.pid}) - No such process`);
        continue;
      }
    } else if (/^-?\d+$/.test(t)) {
      job = table.byPid(Number(t));
      if (!job) {
        if (ctx.processExists?.(Number(t))) errors.push(`kill: (${t}) - cka-lab does not signal the host's own daemons; use systemctl or crictl`);
        else errors.push(`kill: (${t}) - No such process`);
        continue;
      }
    } else {
      errors.push(`kill: ${t}: arguments must be process or job IDs`);
      continue;
    }
    // kill -CONT continues a stopped job in the background without a word and without moving the
    // marks (recorded: testdata/job-control-signals.txt)
    if (sig.name === 'CONT') {
      if (job.stopped) table.cont(job, ctx.now ?? job.stopped.at, false, true);
      continue;
    }
    // a stop signal's default action stops the process: the job becomes current, and bash tells
    // of it at the end of the next line (it learns of it after this line's prompt)
    if (STOP_SIGNALS.has(sig.name)) {
      table.stopBySignal(job, ctx.now ?? 0);
      continue;
    }
    // signal 0 only asks whether the process exists; CHLD, WINCH and URG are ignored by default
    if (sig.n === 0 || ['CHLD', 'WINCH', 'URG'].includes(sig.name)) continue;
    // a stopped job gets the signal and SIGCONT; bash reports it once more as Stopped before the
    // prompt (notify_of_job_status prints a newline before a stopped job) and its death a line later
    const notice = job.stopped ? `\n${table.line(job)}` : undefined;
    delete job.stopNotice;
    table.end(job, 128 + sig.n, sig.name, true);
    if (notice !== undefined) job.notice = notice;
  }
  return { stdout: '', errors, status: errors.length ? 1 : 0 };
}

function jobs(args: string[], table: JobTable): BuiltinOutput {
  const opts = { long: false, pids: false, running: false, stopped: false };
  const specs: string[] = [];
  for (const a of args) {
    if (a.startsWith('-') && a.length > 1 && specs.length === 0) {
      for (const ch of a.slice(1)) {
        if (ch === 'l') opts.long = true;
        else if (ch === 'p') opts.pids = true;
        else if (ch === 'r') opts.running = true;
        else if (ch === 's') opts.stopped = true;
        else if (ch === 'n') continue;
        else return { stdout: '', errors: [`jobs: -${ch}: invalid option`], usage: JOBS_USAGE, status: 2 };
      }
    } else specs.push(a);
  }
  if (specs.length === 0 && !opts.running && !opts.stopped) return { stdout: table.list(opts), errors: [], status: 0 };
  let stdout = '';
  const errors: string[] = [];
  const picked: JobData[] = [];
  for (const s of specs) {
    const j = table.find(s);
    if (typeof j === 'string') errors.push(`jobs: ${j}`);
    else picked.push(j);
  }
  for (const j of specs.length ? picked : table.listed().filter((x) => !x.ended && !x.foreground)) {
    if (opts.running && (j.ended || j.stopped)) continue;
    if (opts.stopped && !j.stopped) continue;
    stdout += opts.pids ? `${j.pid}\n` : table.line(j, opts.long);
  }
  return { stdout, errors, status: errors.length ? 1 : 0 };
}

/** The job a `wait`/`fg`/`bg`/`disown` argument names (%N or a job's pid). */
export function jobArg(table: JobTable, arg: string | undefined, builtin: string): JobData | string {
  if (arg === undefined) {
    const j = table.find('%+');
    return typeof j === 'string' ? `${builtin}: current: no such job` : j;
  }
  if (/^\d+$/.test(arg)) return table.jobs.find((j) => j.pid === Number(arg)) ?? `${builtin}: pid ${arg} is not a child of this shell`;
  const j = table.find(arg);
  return typeof j === 'string' ? `${builtin}: ${j}` : j;
}

/**
 * `wait`/`fg`: a job that ends at a simulated time is waited for (time passes until then, and
 * its status comes back); one that runs until interrupted (port-forward, proxy) would hold the
 * terminal for ever, which this terminal cannot interrupt, so it is refused with a clear line.
 */
function waitFor(j: JobData, builtin: string, table: JobTable): BuiltinOutput {
  if (j.ended) return { stdout: '', errors: [], status: j.ended.status };
  if (j.holds) return { stdout: '', errors: [`${builtin}: %${j.n} runs until it is interrupted, and Ctrl-C cannot reach a waiting job here: end it with kill %${j.n}`], status: 1 };
  const until = j.until;
  if (!until) return { stdout: '', errors: [], status: 0 };
  table.end(j, until.status);
  return { stdout: '', errors: [], status: until.status, waitUntil: until.at };
}

function wait(args: string[], table: JobTable): BuiltinOutput {
  if (args.length === 0) {
    let at: number | undefined;
    for (const j of table.running()) {
      if (j.holds) return waitFor(j, 'wait', table);
      const r = waitFor(j, 'wait', table);
      if (r.waitUntil !== undefined) at = Math.max(at ?? 0, r.waitUntil);
    }
    for (const j of table.listed()) if (j.ended) table.remove(j);
    return { stdout: '', errors: [], status: 0, ...(at !== undefined ? { waitUntil: at } : {}) };
  }
  let last: BuiltinOutput = { stdout: '', errors: [], status: 0 };
  const errors: string[] = [];
  let at: number | undefined;
  for (const a of args) {
    const j = jobArg(table, a, 'wait');
    if (typeof j === 'string') {
      errors.push(j);
      last = { stdout: '', errors: [], status: 127 };
      continue;
    }
    last = waitFor(j, 'wait', table);
    errors.push(...last.errors);
    if (last.waitUntil !== undefined) at = Math.max(at ?? 0, last.waitUntil);
    // a waited-for job is not reported again
    if (j.ended) table.remove(j);
  }
  return { stdout: '', errors, status: last.status, ...(at !== undefined ? { waitUntil: at } : {}) };
}

export function jobBuiltin(name: string, args: string[], table: JobTable, ctx: JobContext): BuiltinOutput {
  switch (name) {
    case 'kill':
      return kill(args, table, ctx);
    case 'jobs':
      return jobs(args, table);
    case 'wait':
      return wait(args, table);
    case 'fg': {
      const j = jobArg(table, args[0], 'fg');
      if (typeof j === 'string') return { stdout: '', errors: [j], status: 1 };
      if (j.ended) return { stdout: '', errors: [`fg: job has terminated`], status: 1 };
      // a terminal that can hold the job takes it (jobs.c start_job: the command, then wait_for):
      // a watch or port-forward until Ctrl-C, a sleep until its end, either until Ctrl-Z
      if (ctx.hold && (j.holds || j.until || j.stopped)) {
        table.cont(j, ctx.now ?? 0, true);
        return { stdout: `${j.text}\n`, errors: [], status: 0, foreground: j };
      }
      if (j.stopped) table.cont(j, ctx.now ?? j.stopped.at);
      if (j.holds) return { stdout: '', errors: waitFor(j, 'fg', table).errors, status: 1 };
      // fg prints the command, then the job runs in the foreground to its end
      const r = waitFor(j, 'fg', table);
      table.remove(j);
      return { ...r, stdout: `${j.text}\n` };
    }
    case 'bg': {
      const j = jobArg(table, args[0], 'bg');
      if (typeof j === 'string') return { stdout: '', errors: [j], status: 1 };
      if (j.ended) return { stdout: '', errors: [`bg: job has terminated`], status: 1 };
      if (j.stopped) {
        // jobs.c start_job: `[N]+ TEXT &` with the mark it had, then it runs on
        const m = table.mark(j);
        const line = `[${j.n}]${m === ' ' ? '' : m} ${j.text} &\n`;
        table.cont(j, ctx.now ?? j.stopped.at);
        return { stdout: line, errors: [], status: 0 };
      }
      return { stdout: '', errors: [`bg: job ${j.n} already in background`], status: 0 };
    }
    case 'disown': {
      const all = args[0] === '-a';
      const picked = all ? table.listed() : [jobArg(table, args[0], 'disown')];
      const errors: string[] = [];
      for (const j of picked) {
        if (typeof j === 'string') errors.push(j);
        else if (j.ended) table.remove(j);
        else j.disowned = true;
      }
      return { stdout: '', errors, status: errors.length ? 1 : 0 };
    }
  }
  return { stdout: '', errors: [`${name}: not a job builtin`], status: 2 };
}
