/**
 * `kubectl get -w | --watch-only [--output-watch-events]` (k8s.io/kubectl pkg/cmd/get/get.go
 * watch): print what was listed (not with --watch-only), then one row or document per change of
 * the watched objects as the simulated clock moves, through one tabwriter that remembers column
 * widths across flushes (liggitt/tabwriter RememberWidths), so a longer STATUS widens its column
 * from that row on, as on a real terminal.
 *
 * A real watch runs until Ctrl-C or `--request-timeout`. Here it follows the cluster event by
 * event until the request timeout, or, without one, until the watched objects have been quiet
 * for a minute of simulated time (when a learner would press Ctrl-C; at most ten minutes), and
 * then ends with status 0 as kubectl does when its watch closes. Ctrl-C and the line's budget
 * stop it as any waiting command, what it printed kept; `timeout N kubectl get -w` watches for N
 * seconds and is killed (status 124, what it printed kept).
 *
 * Background jobs paused in a sleep (shell/job-clock.ts: `sleep 5 && kubectl scale … &`) run on
 * when the watch's clock reaches their time: the rows up to then are written first, then the job
 * runs (its output goes to the terminal), and the rows of what it changed follow, so the terminal
 * shows both in clock order. A job still to wake keeps a watch without --request-timeout going
 * (the learner waits for what they started), within the ten minutes.
 *
 * Run as a background job (`kubectl get pods -w &`) it does not wait at all: it lists, and then
 * writes each change it sees after the command that made it, until it is killed (backgroundWatch).
 */
import type { KObject } from '../../../sim/api/types.js';
import type { ResourceInfo } from '../../../sim/api/registry.js';
import type { Cluster } from '../../../sim/cluster.js';
import { LIVE, type LiveOutput, type ShellResult } from '../../commands/types.js';
import type { KubectlEnv } from '../context.js';
import { type Parsed, bool, list, str } from '../flags.js';
import { KubectlError } from '../errors.js';
import { type Selectors, selectObjects } from '../resource-args.js';
import { tableRows, type TableOptions } from '../../printers/table.js';
import { GET_TABWRITER, TabWriter } from '../../printers/tabwriter.js';
import { TemplateFailure } from '../printobj.js';
import { parseGoDuration } from '../duration.js';
import { servedAs } from '../../../sim/api/events-v1.js';
import { BudgetExceeded, DeadlineReached } from '../../budget.js';

/** How long a watch without --request-timeout waits for the next change. */
export const WATCH_QUIET_MS = 60_000;
/** The longest a watch without --request-timeout follows the cluster. */
export const WATCH_MAX_MS = 10 * 60_000;

export interface WatchRequest {
  info: ResourceInfo;
  /** The objects the list or get returned (printed first unless --watch-only). */
  initial: KObject[];
  /** Named objects (`get pod web -w`): only they are watched. */
  names?: ReadonlySet<string>;
  /** undefined: all namespaces. */
  namespace: string | undefined;
  selectors: Selectors;
  table: TableOptions | undefined;
  /**
   * Any other output format, one object (or with --output-watch-events one event of that type) at
   * a time, the printer's state kept across calls (the `---` between YAML documents).
   */
  render: (obj: KObject, eventType: string | undefined) => string;
}

/** get.go watch: a watch covers one resource type. */
export function checkSingleType(infos: readonly ResourceInfo[]): void {
  if (new Set(infos.map((i) => i.kind)).size > 1)
    throw new KubectlError('watch is only supported on individual resources and resource collections - more than 1 resource was found');
}

/**
 * `--request-timeout` (client-go clientcmd ClientConfig): a bare integer is seconds, else a Go
 * duration; 0 means none; anything else, or a negative value, is kubectl's one error.
 */
export function requestTimeoutMs(p: Parsed): number {
  const v = str(p.flags, 'request-timeout');
  if (v === undefined || v === '' || v === '0') return 0;
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    try {
      ms = parseGoDuration(v);
    } catch {
      ms = -1;
    }
  }
  if (!(ms >= 0)) throw new KubectlError('Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)');
  return ms;
}

/** The object without what changes on every write, to tell a real change from a no-op write. */
function contentKey(obj: KObject): string {
  const { resourceVersion: _rv, managedFields: _mf, ...meta } = obj.metadata as unknown as Record<string, unknown>;
  return JSON.stringify({ ...obj, metadata: meta });
}

const keyOf = (o: KObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/**
 * The rows (or documents) of a watch, through one tabwriter that remembers column widths across
 * calls. A printer error is thrown (KubectlError): the caller decides what it ends.
 */
function watchPrinter(w: WatchRequest, events: boolean): (type: string, objs: KObject[], now: number) => string {
  const tw = new TabWriter(GET_TABWRITER);
  let headerDone = false;
  return (type, objs, now) => {
    if (objs.length === 0) return '';
    if (w.table) {
      const rows = tableRows(objs, { ...w.table, now, noHeaders: headerDone || w.table.noHeaders === true });
      const withHeader = !headerDone && w.table.noHeaders !== true;
      rows.forEach((r, i) => {
        const cells = events ? [withHeader && i === 0 ? 'EVENT' : type, ...r] : r;
        tw.write(`${cells.join('\t')}\n`);
      });
      headerDone = true;
      return tw.take();
    }
    // the table is the server's from the stored object; the objects come in the version watched
    return objs.map((o) => w.render(servedAs(w.info, o), events ? type : undefined)).join('');
  };
}

/** Whether a watch of `w` sees `obj`. */
function watched(w: WatchRequest, obj: KObject): boolean {
  if (obj.kind !== w.info.kind) return false;
  if (w.namespace !== undefined && w.info.namespaced && obj.metadata.namespace !== w.namespace) return false;
  if (w.names && !w.names.has(obj.metadata.name ?? '')) return false;
  return selectObjects([obj], w.info, w.selectors).length === 1;
}

export async function runWatch(env: KubectlEnv, p: Parsed, w: WatchRequest): Promise<ShellResult> {
  const events = bool(p.flags, 'output-watch-events');
  const watchOnly = bool(p.flags, 'watch-only');
  const timeout = requestTimeoutMs(p);
  const cluster = env.cluster;
  const start = cluster.now();
  const printer = watchPrinter(w, events);
  let out = '';
  const print = (type: string, objs: KObject[]): void => {
    out += printer(type, objs, cluster.now());
  };
  const matches = (obj: KObject): boolean => watched(w, obj);
  const seen = new Map<string, string>();
  for (const o of w.initial) seen.set(keyOf(o), contentKey(o));
  if (!watchOnly) {
    try {
      print('ADDED', w.initial);
    } catch (e) {
      // get.go watch: a printer error on the listed objects fails the command
      if (!(e instanceof KubectlError)) throw e;
      throw new TemplateFailure(out + (e instanceof TemplateFailure ? e.stdout : ''), `unable to output the provided object: ${e.message}`);
    }
  }
  if (env.background) return { stdout: out, stderr: '', exitCode: 0, keeps: { kind: 'watch', host: env.host ?? '', [LIVE]: backgroundWatch(w, printer, cluster, new Map(w.initial.map((o) => [keyOf(o), o])), timeout > 0 ? start + timeout : undefined) } };
  let lastChange = start;
  // a printer error in the watch ends it (UntilWithoutRetry returns it; get.go drops it: status 0)
  let failed = false;
  const stop = cluster.store.observe((type, obj) => {
    if (failed || !matches(obj)) return;
    const k = keyOf(obj);
    if (type === 'DELETED') seen.delete(k);
    else {
      const c = contentKey(obj);
      if (seen.get(k) === c) return;
      seen.set(k, c);
    }
    lastChange = cluster.now();
    try {
      print(type, [obj]);
    } catch (e) {
      if (!(e instanceof KubectlError)) throw e;
      if (e instanceof TemplateFailure) out += e.stdout;
      failed = true;
    }
  });
  // the rows so far go out before a woken job writes (or the line is interrupted)
  const flush = (): void => {
    if (out === '' || !env.emit) return;
    env.emit('stdout', out);
    out = '';
  };
  try {
    const cap = env.budget ? start + env.budget.timeLeft() : Infinity;
    // under `timeout N` the watch runs to that deadline, as a real one runs until it is killed
    const killedAt = env.budget?.deadlineBinds() ?? false;
    const bounded = timeout > 0 || killedAt;
    const deadline = Math.min(timeout > 0 ? start + timeout : killedAt ? Infinity : start + WATCH_MAX_MS, cap);
    const jobs = env.emit ? env.jobs : undefined;
    for (let guard = 0; guard < 100_000; guard++) {
      env.budget?.step();
      const now = cluster.now();
      if (failed) break;
      const jobAt = jobs?.next();
      if (jobAt !== undefined && jobAt <= now) {
        flush();
        await jobs!.runDue();
        lastChange = cluster.now();
        continue;
      }
      const quietEnd = bounded ? Infinity : Math.max(lastChange + WATCH_QUIET_MS, jobAt ?? -Infinity);
      const until = Math.min(deadline, quietEnd);
      if (now >= until) break;
      const next = cluster.nextWakeup();
      let to = next === undefined ? until : Math.min(Math.max(next, now), until);
      if (jobAt !== undefined) to = Math.min(to, jobAt);
      cluster.advanceTo(to);
      // let an interrupt (the REPL's Ctrl-C) reach the line between events
      if (env.emit && guard % 16 === 15) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } catch (e) {
    // Ctrl-C or the line's limit: what the watch printed stays on the terminal
    if (e instanceof BudgetExceeded && !(e instanceof DeadlineReached)) flush();
    throw e;
  } finally {
    stop();
    env.budget?.time(Math.max(0, cluster.now() - start));
  }
  return { stdout: out, stderr: '', exitCode: 0 };
}

/** The table options of a watch, as get prints its first table (one type: no kind prefix). */
export function watchTableOptions(env: KubectlEnv, p: Parsed, wide: boolean, allNamespaces: boolean, customPrinter: TableOptions['customPrinter']): TableOptions {
  return {
    now: env.cluster.now(),
    wide,
    showLabels: bool(p.flags, 'show-labels'),
    labelColumns: list(p.flags, 'label-columns'),
    noHeaders: bool(p.flags, 'no-headers'),
    allNamespaces,
    withKind: bool(p.flags, 'show-kind'),
    ...(customPrinter ? { customPrinter } : {}),
  };
}

/**
 * A watch run as a background job (`kubectl get pods -w &`): it lists at once (above) and then
 * follows the cluster without moving its clock, as a real one follows the API server while the
 * learner types: each change it sees is written when the shell reports its jobs after a command
 * (shell/background-output.ts), to the terminal or wherever its output was redirected, until
 * `kill %N` (or --request-timeout: then it ends with status 0, as the watch closes). A shell that
 * reloads the cluster (a one-shot command changed it) hands over the new one: the watch then
 * reports what differs from what it last saw, as an informer's relist would.
 */
function backgroundWatch(
  w: WatchRequest,
  printer: (type: string, objs: KObject[], now: number) => string,
  first: Cluster,
  seen: Map<string, KObject>,
  endsAt: number | undefined,
): LiveOutput {
  let cluster = first;
  let out = '';
  let failed = false;
  // stopped (Ctrl-Z): the events wait unread and are printed when it runs again, aged as of then
  let paused = false;
  const queued: Array<[string, KObject]> = [];
  const print = (type: string, obj: KObject): void => {
    try {
      out += printer(type, [obj], cluster.now());
    } catch (e) {
      // a printer error ends the watch (get.go drops it: status 0). It runs inside whichever
      // write it watched (a later command's, a controller's): nothing it throws may reach that.
      if (e instanceof TemplateFailure) out += e.stdout;
      failed = true;
    }
  };
  const see = (type: string, obj: KObject): void => {
    // (the watch closed at its request timeout: later changes are not its own)
    if (failed || !watched(w, obj) || (endsAt !== undefined && cluster.now() >= endsAt)) return;
    const k = keyOf(obj);
    const had = seen.get(k);
    if (type === 'DELETED') seen.delete(k);
    else {
      if (had && contentKey(had) === contentKey(obj)) return;
      seen.set(k, obj);
    }
    if (paused) queued.push([type, structuredClone(obj)]);
    else print(type, obj);
  };
  let stop = first.store.observe(see);
  const follow = (c: Cluster): void => {
    stop();
    cluster = c;
    stop = c.store.observe(see);
    const now = new Map<string, KObject>();
    for (const o of c.store.list(w.info.kind)) if (watched(w, o)) now.set(keyOf(o), o);
    for (const [k, o] of [...seen]) if (!now.has(k)) see('DELETED', o);
    for (const o of now.values()) see(seen.has(keyOf(o)) ? 'MODIFIED' : 'ADDED', o);
  };
  return {
    take(c) {
      if (c !== cluster) follow(c);
      if (!paused) for (const [type, obj] of queued.splice(0)) if (!failed) print(type, obj);
      const text = out;
      out = '';
      const done = failed || (endsAt !== undefined && c.now() >= endsAt);
      if (done) stop();
      return { stdout: text, done };
    },
    stop: () => stop(),
    pause: (stopped) => {
      paused = stopped;
    },
  };
}
