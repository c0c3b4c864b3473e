/**
 * Container processes at run time: each start of a container is a run with its start time, the
 * environment it started with (the kubelet computes it once, at start: a Service created later is
 * not in it), what it will do (exit with a code at a time, get OOM-killed, or run on), and what it
 * printed. Output is produced lazily: `flushPod` replays each running script (script.ts) up to the
 * present and applies what is new since the last flush, in time order across the pod's
 * containers: lines to the run's log (what `kubectl logs` shows, with their times), writes to the
 * container's files (an emptyDir another container reads, a hostPath the node shows), and the
 * lines a `tail -f` in another container sees appended to the file it follows.
 *
 * The kubelet starts and ends runs; the shell flushes before each command line and `kubectl logs`
 * before it reads, so what a learner sees is always up to date without timers.
 *
 * A network tool in a script (`wget`, `nc`, net-tools.ts) is asked of the simulated network once,
 * when the clock reaches its call, and its answer is kept in the run (`net`, by command, 10-second
 * window from the run's start and occurrence in it): every replay gets the same answer even when
 * the network has changed since, and a saved session replays the same bytes. In a container that
 * runs to completion a call still in the future ends the look-ahead there (the kubelet looks again
 * then); a long-running container's client loop is answered as its output is flushed, so its logs
 * show what each request got (`wget: bad address 'web'`, the page).
 */
import type { Cluster } from '../cluster.js';
import { podContainers, type Container, type Pod } from '../api/types.js';
import { lookupImage } from '../images.js';
import { containerScript, imageHas, type ContainerScript } from './program.js';
import { runScript, type NetCall, type NetResult, type RunOptions, type ScriptCheckpoint, type ScriptEnd, type ScriptHost } from './script.js';
import { netToolsOf } from './net-tools.js';
import { containerFs } from './volumes.js';
import { quantityValue } from './quantity.js';
import { resolvePath, VfsError } from '../node/vfs.js';
import { sameJSON } from '../../util/json-copy.js';
import { sameItems } from '../../util/same-items.js';
import { idTool, whoamiTool, type ToolOutput } from './id-tool.js';
import { processIdentity } from './identity.js';
import { scriptPs } from './ps-tool.js';

/** How far ahead a run's end is ever looked for (its step cap usually ends it sooner). */
const HORIZON_MS = 365 * 86_400_000;
/**
 * How far ahead it is looked for when the run starts. A loop that prints every few seconds would
 * take tens of thousands of iterations to reach a year; the kubelet extends the look-ahead,
 * doubling it, when the time gets there (extendPlan).
 */
const FIRST_HORIZON_MS = 3_600_000;
/** Log chunks kept per run (the kubelet rotates container logs at 10 MiB). */
const LOG_CAP = 20_000;

/** A log chunk: when, which stream (0 stdout, 1 stderr), the text. */
export type LogChunk = [t: number, stream: 0 | 1, text: string];

/** What a run will do, known when it starts. */
/** How a container's process ends: `reason` when it is not its own exit (a node reboot: `Unknown`). */
export type RunPlan =
  | { kind: 'exit'; code: number; at: number; reason?: 'Unknown' }
  | { kind: 'oom'; at: number }
  /** `checkedTo`: known to run until then, and looked at again then (absent: runs for ever) */
  | { kind: 'runs'; follow?: string; followAt?: number; checkedTo?: number };

export interface ContainerRun {
  startedAt: number;
  env: [string, string][];
  plan: RunPlan;
  /** Output applied up to this time (exclusive of later events). */
  flushedTo: number;
  logs: LogChunk[];
  /** When the run ended (exit, OOM, kill); absent while it runs. */
  finishedAt?: number;
  /** A `tail -f` run: the file it follows and how much of it it has printed. */
  follow?: { path: string; size: number };
  /** The answers the run's network tool calls got (netAnswers). */
  net?: NetMemo;
}

/**
 * What a run's network tools were answered: each distinct command line and answer once, and per
 * call key (command, window, occurrence) the answer it got.
 */
export interface NetMemo {
  cmds: string[];
  answers: NetResult[];
  calls: [cmd: number, window: number, occ: number, answer: number][];
  /** A long-running run's first remembered window: earlier calls pass silently (forgetOldWindows). */
  from?: number;
}

/** `<pod uid>/<container>` → the container's runs, oldest first (the last two are kept). */
export type ContainerRunsState = Record<string, ContainerRun[]>;

/**
 * The runs' state without their replay points (`flushedTo`), for telling whether anything but
 * the passing of time changed: every flush moves a running script's replay point to the clock,
 * though it applied nothing. A session saved without that move (app/sessions.ts) replays the
 * quiet stretch again when resumed, and finds it as quiet: output, file writes and a follower's
 * position are state of their own and are compared.
 */
export function runsWithoutReplayPoints(runs: ContainerRunsState | undefined): unknown {
  if (!runs) return runs;
  const out: Record<string, unknown> = {};
  for (const [k, list] of Object.entries(runs)) out[k] = list.map(({ flushedTo: _, ...rest }) => rest);
  return out;
}

function table(c: Cluster): ContainerRunsState {
  return (c.state.containerRuns ??= {});
}

function runKey(pod: Pod, container: string): string {
  return `${pod.metadata.uid ?? ''}/${container}`;
}

function allContainers(pod: Pod): Container[] {
  return podContainers(pod);
}

export function containerRuns(c: Cluster, pod: Pod, container: string): ContainerRun[] {
  return c.state.containerRuns?.[runKey(pod, container)] ?? [];
}

export function currentRun(c: Cluster, pod: Pod, container: string): ContainerRun | undefined {
  const runs = containerRuns(c, pod, container);
  return runs[runs.length - 1];
}

export function dropRuns(c: Cluster, uid: string): void {
  const t = c.state.containerRuns;
  if (!t) return;
  for (const k of Object.keys(t)) if (k.startsWith(`${uid}/`)) delete t[k];
}

/**
 * The host a run's script sees. `replay`: a flush's replay, which records the files it reads (a
 * checkpoint holds only while they read the same) and takes up the network calls' counts from the
 * checkpoint it goes on from.
 */
function scriptHost(c: Cluster, pod: Pod, ct: Container, run: ContainerRun, replay?: { log: ReplayLog; seen?: unknown }): ScriptHost {
  const env = run.env;
  const image = lookupImage(ct.image);
  const fs = containerFs(c, pod, ct.name);
  const mem = quantityValue(ct.resources?.limits?.['memory']);
  const net = netAnswers(c, pod, ct, run, runsToCompletion(pod, ct) ? 'completes' : 'long', replay?.seen as [string, number][] | undefined);
  const read = (p: string): string | undefined => fs.tryRead(resolvePath('/', p));
  return {
    env: envRecord(env),
    readFile: replay ? (p) => recordRead(replay.log, p, read(p)) : read,
    hasTool: (n) => (image ? imageHas(image, n) : false),
    daemons: image?.daemons ?? [],
    ...(mem !== undefined ? { memoryLimit: mem } : {}),
    hostname: env.find(([k]) => k === 'HOSTNAME')?.[1] ?? pod.metadata.name,
    net: net.answer,
    save: net.save,
    local: (argv) => localTool(c, pod, ct, argv),
    listDir: (p) => {
      const full = resolvePath('/', p);
      const names = fs.isDir(full) ? fs.list(full) : undefined;
      // a checkpoint holds only while the listing reads the same (usableCheckpoint)
      if (replay) recordRead(replay.log, `${LISTING}${full}`, names?.join('\n'));
      return names;
    },
    ...(image?.dns === 'glibc' ? { gnu: true } : {}),
  };
}

/**
 * A run's environment as the record a script host hands the script, by the run's `env` (frozen at
 * its start and shared by the session's copies: deepFrozen): every flush, look-ahead and exec
 * probe built it again from the pairs, and a pod's environment holds seven variables for every
 * Service of its namespace (most of scriptHost's own time in a validate profile). The script
 * only copies it (script.ts `{ ...host.env }`); it is frozen, so nothing can change it in place.
 * An env that is not frozen (a run read back from a session file, until its first checkpoint)
 * gets a record of its own.
 */
const ENV_RECORDS = new WeakMap<object, Record<string, string>>();

/** How many environment records were built rather than found in ENV_RECORDS (tests). */
export const envRecordBuilds = { count: 0 };

function envRecord(env: [string, string][]): Record<string, string> {
  const had = ENV_RECORDS.get(env);
  if (had) return had;
  envRecordBuilds.count++;
  const record = Object.fromEntries(env) as Record<string, string>;
  if (Object.isFrozen(env)) ENV_RECORDS.set(env, Object.freeze(record));
  return record;
}

/** The key a directory listing is recorded under among a replay's reads. */
const LISTING = '\0ls:';

/** `id` and `whoami` in the container's script: who it runs as (identity.ts, id-tool.ts); `ps`: its PID namespace (ps-tool.ts). */
function localTool(c: Cluster, pod: Pod, ct: Container, argv: readonly string[]): ToolOutput | undefined {
  if (argv[0] === 'ps') return { chunks: [{ stream: 'stdout', text: scriptPs(pod, ct, argv, c) }], exitCode: 0 };
  const tool = argv[0] === 'id' ? idTool : argv[0] === 'whoami' ? whoamiTool : undefined;
  if (!tool) return undefined;
  const dns = lookupImage(ct.image)?.dns;
  return tool(processIdentity(pod, ct), dns === 'busybox' || dns === 'musl', argv.slice(1));
}

/**
 * Where earlier flushes of a run left its script (script.ts ScriptCheckpoint), so the next flush
 * goes on from there instead of replaying the run from its start: a loop that polls every 10 ms
 * (an HPA load generator) made every flush replay up to 20,000 iterations. The replay from the
 * start stays the definition: a checkpoint is used only when that replay would reach the same
 * state, i.e. it is not later than what the run has flushed, every file the run had read still
 * reads the same (a replay reads the files as they are now), and the network answers the run
 * remembers up to it are the same ones (the run's net memo, append-only until forgetOldWindows).
 *
 * Kept beside the runs, not in them, under the run's `env` array: it is frozen at the run's start,
 * so the session copies that grading and validate make share it, and a copy's first flush goes on
 * from where the original had got. A session read back from disk replays once.
 */
interface Resumable {
  cp: ScriptCheckpoint;
  /** Files the replay read before the checkpoint was taken, as read (and whether one read differently twice). */
  reads: ReadonlyMap<string, string | undefined>;
  changed: boolean;
  /** The run's net memo when the checkpoint was taken: its arrays (append-only) and how many calls it had. */
  net: { from: number | undefined; calls: NetMemo['calls']; cmds: string[]; answers: NetResult[]; len: number } | undefined;
}

/** Checkpoints per run (the newest last): copies of one session go on from different times. */
const RESUMABLE = new WeakMap<object, Resumable[]>();
const RESUMABLE_KEEP = 4;

/** What a flush records as it replays: the files read, and the net memo's length at its checkpoints. */
interface ReplayLog {
  reads: Map<string, string | undefined>;
  changed: boolean;
}

function recordRead(r: ReplayLog, path: string, v: string | undefined): string | undefined {
  if (!r.reads.has(path)) r.reads.set(path, v);
  else if (r.reads.get(path) !== v) r.changed = true;
  return v;
}

/** A recorded read as it reads now: a file, or a directory's listing. */
function readNow(fs: ReturnType<typeof containerFs>, key: string): string | undefined {
  if (!key.startsWith(LISTING)) return fs.tryRead(resolvePath('/', key));
  const dir = key.slice(LISTING.length);
  return fs.isDir(dir) ? fs.list(dir).join('\n') : undefined;
}

/** Whether `run` remembers the same network answers as `r`'s checkpoint did, up to it. */
function sameNet(run: ContainerRun, r: Resumable): boolean {
  const n = run.net;
  // no call before the checkpoint: a replay to it asks the network nothing either
  if (!r.net) return true;
  if (!n || n.from !== r.net.from || n.calls.length < r.net.len) return false;
  for (let i = 0; i < r.net.len; i++) {
    const a = n.calls[i]!;
    const b = r.net.calls[i]!;
    if (a === b) continue;
    if (a[0] !== b[0] || a[1] !== b[1] || a[2] !== b[2] || a[3] !== b[3]) return false;
    if (n.cmds[a[0]] !== r.net.cmds[b[0]] || !sameJSON(n.answers[a[3]], r.net.answers[b[3]])) return false;
  }
  return true;
}

/** The newest checkpoint a flush of `run` may go on from (see Resumable), with the files it read. */
function usableCheckpoint(c: Cluster, pod: Pod, ct: Container, run: ContainerRun): Resumable | undefined {
  const list = RESUMABLE.get(run.env);
  if (!list) return undefined;
  const fs = containerFs(c, pod, ct.name);
  next: for (let i = list.length - 1; i >= 0; i--) {
    const r = list[i]!;
    if (r.changed || r.cp.t > run.flushedTo || !sameNet(run, r)) continue;
    for (const [p, v] of r.reads) if (readNow(fs, p) !== v) continue next;
    return r;
  }
  return undefined;
}

/** Keep the newest checkpoint of a flush (a copy of what it had read), dropping older ones beyond RESUMABLE_KEEP. */
function keepCheckpoint(run: ContainerRun, cp: ScriptCheckpoint, log: ReplayLog, netLen: number, store = RESUMABLE): void {
  // the key, shared by the run's copies: frozen (a run read back from disk has it unfrozen), as
  // the store's objects are, so snapshots and copies share it (util/json-copy.ts)
  if (!Object.isFrozen(run.env)) deepFrozen(run.env);
  const n = run.net;
  const entry: Resumable = { cp, reads: new Map(log.reads), changed: log.changed, net: n ? { from: n.from, calls: n.calls, cmds: n.cmds, answers: n.answers, len: netLen } : undefined };
  const list = store.get(run.env) ?? [];
  list.push(entry);
  if (list.length > RESUMABLE_KEEP) list.splice(0, list.length - RESUMABLE_KEEP);
  store.set(run.env, list);
}

/**
 * Where earlier look-aheads of a run that completes left its script (extendPlan): such a run
 * stops its look-ahead at its first network call still in the future, and the kubelet looks
 * again when the clock gets there; replaying it from its start each time made an init container
 * that polls a name every two seconds (`until nslookup db; do sleep 2; done`) cost a replay of
 * every earlier iteration at each one (quadratic in the time it waits). Kept apart from the
 * flushes' checkpoints (a flush goes on only from one at or before what it has applied), under
 * the same conditions: only checkpoints at or before the clock when they were taken (every
 * network call before them was answered and is remembered in the run), used only while the files
 * they read read the same and the run remembers the same answers (lookAheadCheckpoint). The
 * replay from the start stays the definition.
 */
const LOOKAHEAD = new WeakMap<object, Resumable[]>();

/** The newest look-ahead checkpoint of `run` whose replay from the start would reach the same state now. */
function lookAheadCheckpoint(c: Cluster, pod: Pod, ct: Container, run: ContainerRun): Resumable | undefined {
  const list = LOOKAHEAD.get(run.env);
  if (!list) return undefined;
  const fs = containerFs(c, pod, ct.name);
  next: for (let i = list.length - 1; i >= 0; i--) {
    const r = list[i]!;
    if (r.changed || r.cp.t > c.now() || !sameNet(run, r)) continue;
    for (const [p, v] of r.reads) if (readNow(fs, p) !== v) continue next;
    return r;
  }
  return undefined;
}

/**
 * Whether a container runs to completion (init containers, ephemeral ones, pods whose
 * restartPolicy is Never or OnFailure: helm test hooks, Jobs): its outcome may depend on its
 * network tools' answers, so a call still in the future stops the look-ahead there and the
 * kubelet looks again then. A long-running container's tools are answered only once the clock has
 * passed them (netAnswers, `long`): a polling loop (an HPA load generator calling wget every
 * 10 ms) would otherwise cost a replay of its whole run every ten simulated seconds, which made
 * validate four times slower; its plan is looked at as if its future calls succeed silently.
 */
function runsToCompletion(pod: Pod, ct: Container): boolean {
  if (pod.spec.ephemeralContainers?.some((e) => e.name === ct.name)) return true;
  const init = pod.spec.initContainers?.find((i) => i.name === ct.name);
  if (init) return init['restartPolicy'] !== 'Always';
  return (pod.spec.restartPolicy ?? 'Always') !== 'Always';
}

/**
 * How long one answer of the network holds for a run: calls of the same command within one
 * window of NET_WINDOW_MS (counted from the run's start) share their answers, so a client polling
 * many times a second costs one look at the network per window, and a retry loop sees a Service
 * that came up by the next window.
 */
export const NET_WINDOW_MS = 10_000;
/** Calls of one command in one window that get answers of their own (kube-proxy picks an endpoint for each); later ones repeat the last. */
export const NET_CALLS_PER_WINDOW = 8;

/**
 * A long-running container's calls are answered only within this time before the present, when
 * first asked: a session resumed after days does not walk the network for every window since
 * (what those calls printed would come from a network state that has gone by then anyway).
 */
export const LONG_RUN_NET_RECENT_MS = 30 * 60_000;
/** Remembered calls per long-running run before the oldest windows are forgotten. */
const LONG_RUN_NET_CALLS = 2_000;
/** Windows kept when they are: their output has been flushed long since; later replays pass them silently. */
const LONG_RUN_NET_KEEP_WINDOWS = 60;

/** The key of a call's answer: its command, window and occurrence in the window. */
function netKey(cmd: number, window: number, occ: number): string {
  return `${cmd}/${window}/${occ}`;
}

/**
 * The network tool answers of a run (run.net), and the counts of the replay asking: the answer
 * remembered for the call's key; else, once the clock has reached the call, the tool's answer
 * now (remembered). A call still in the future is `later` for a run that completes, and passes
 * silently for a long-running one (runsToCompletion); so does a long-running run's call older
 * than LONG_RUN_NET_RECENT_MS that nothing remembers (before `net.from`, forgotten).
 */
function netAnswers(
  c: Cluster,
  pod: Pod,
  ct: Container,
  run: ContainerRun,
  mode: 'completes' | 'long',
  seenBefore?: [string, number][],
): { answer: (call: NetCall) => { result: NetResult; key: string } | 'later' | undefined; save: (t: number) => [string, number][] } {
  // calls per command and window so far (a checkpoint's, when the replay goes on from one)
  const seen = new Map<string, number>(seenBefore);
  // what a checkpoint at script time t carries: the counts of the window t is in (earlier ones never come back)
  const save = (t: number): [string, number][] => {
    const window = Math.floor((t - run.startedAt) / NET_WINDOW_MS);
    return [...seen].filter(([k]) => Number(k.slice(k.lastIndexOf('\u0000') + 1)) >= window);
  };
  // the remembered answers by key, and the commands by text (this replay's index of run.net)
  const byKey = new Map((run.net?.calls ?? []).map((x) => [netKey(x[0], x[1], x[2]), x[3]]));
  const cmds = new Map((run.net?.cmds ?? []).map((text, i) => [text, i]));
  // the previous call's command text and count key: a polling loop makes the same call again
  // and again (an HPA load generator, a hundred times a second), and serialising it and hashing
  // the new strings was most of a call's cost; equal argv and stdin give the same text
  let last: { argv: readonly string[]; stdin: string; text: string; window: number; counted: string } | undefined;
  const answer = (call: NetCall): { result: NetResult; key: string } | 'later' | undefined => {
    const tools = netToolsOf(c);
    const name = call.argv[0] ?? '';
    const window = Math.floor((call.t - run.startedAt) / NET_WINDOW_MS);
    const again = last !== undefined && last.stdin === call.stdin && sameItems(last.argv, call.argv) ? last : undefined;
    const cmdText = again ? again.text : JSON.stringify([call.argv, call.stdin]);
    let cmd = cmds.get(cmdText) ?? -1;
    const counted = again && again.window === window ? again.counted : `${cmdText}\u0000${window}`;
    last = { argv: again ? again.argv : [...call.argv], stdin: call.stdin, text: cmdText, window, counted };
    const occ = Math.min(seen.get(counted) ?? 0, NET_CALLS_PER_WINDOW - 1);
    seen.set(counted, occ + 1);
    const key = cmd >= 0 ? netKey(cmd, window, occ) : undefined;
    const known = key !== undefined ? byKey.get(key) : undefined;
    if (known !== undefined) return { result: run.net!.answers[known]!, key: key! };
    if (!tools?.names.includes(name)) return undefined;
    if (call.t > c.now()) return mode === 'long' ? undefined : 'later';
    if (mode === 'long' && (window < (run.net?.from ?? 0) || call.t < c.now() - LONG_RUN_NET_RECENT_MS)) return undefined;
    const result = tools.run(c, { namespace: pod.metadata.namespace ?? 'default', pod: pod.metadata.name, container: ct.name }, { argv: call.argv, stdin: call.stdin, cwd: typeof ct['workingDir'] === 'string' ? ct['workingDir'] : '/', readFile: call.readFile });
    if (!result) return undefined;
    const net = (run.net ??= { cmds: [], answers: [], calls: [] });
    if (cmd < 0) {
      cmd = net.cmds.push(cmdText) - 1;
      cmds.set(cmdText, cmd);
    }
    const text = JSON.stringify(result);
    let answer = net.answers.findIndex((a) => answerText(a) === text);
    if (answer < 0) answer = net.answers.push(deepFreeze(result)) - 1;
    net.calls.push(Object.freeze([cmd, window, occ, answer]) as [number, number, number, number]);
    byKey.set(netKey(cmd, window, occ), answer);
    if (mode === 'long' && net.calls.length > LONG_RUN_NET_CALLS) {
      // the answers kept are numbered anew: so is this replay's index of them (a key read again
      // later in this window, a command's eighth call repeating, read another call's answer or
      // none, and the process died), and the forgotten windows' keys go with them
      if (forgetOldWindows(net, window - LONG_RUN_NET_KEEP_WINDOWS)) {
        byKey.clear();
        for (const x of net.calls) byKey.set(netKey(x[0], x[1], x[2]), x[3]);
      }
    }
    return { result, key: netKey(cmd, window, occ) };
  };
  return { answer, save };
}

/**
 * A long-running run's memo without the calls of windows before `from` (and answers no call uses).
 * Whether any call or answer went: then the answers kept are numbered anew.
 */
function forgetOldWindows(net: NetMemo, from: number): boolean {
  const calls = net.calls.filter((x) => x[1] >= from);
  const used = [...new Set(calls.map((x) => x[3]))].sort((a, b) => a - b);
  const index = new Map(used.map((a, i) => [a, i]));
  const dropped = calls.length !== net.calls.length || used.length !== net.answers.length;
  net.answers = used.map((a) => net.answers[a]!);
  net.calls = calls.map(([cmd, w, occ, a]) => [cmd, w, occ, index.get(a)!]);
  net.from = from;
  return dropped;
}

/**
 * The JSON text of remembered answers, by answer object: each new answer is compared with every
 * one the run remembers (a poller's answers were all serialised again at each of its calls). Kept
 * only for an answer frozen to its strings (deepFreeze: it and its files' pairs), whose text can
 * no longer change; one read back from a session file is serialised each time, as before.
 */
const ANSWER_TEXT = new WeakMap<NetResult, string>();

/** How many times a remembered answer was serialised to be compared (not saved: for tests). */
export const answerSerialisations = { count: 0 };

function answerText(a: NetResult): string {
  const had = ANSWER_TEXT.get(a);
  if (had !== undefined) return had;
  answerSerialisations.count++;
  const text = JSON.stringify(a);
  const frozen = Object.isFrozen(a) && Object.isFrozen(a.files) && a.files.every((f) => Object.isFrozen(f));
  if (frozen && Object.values(a).every((v) => v === a.files || v === null || typeof v !== 'object')) ANSWER_TEXT.set(a, text);
  return text;
}

/** A network answer, frozen (its files' pairs too): session copies share it. */
function deepFreeze(r: NetResult): NetResult {
  for (const f of r.files) Object.freeze(f);
  Object.freeze(r.files);
  return Object.freeze(r);
}

function deepFrozen(env: [string, string][]): [string, string][] {
  for (const pair of env) Object.freeze(pair);
  return Object.freeze(env) as [string, string][];
}

function planOf(end: ScriptEnd): RunPlan {
  if (end.kind === 'exit') return { kind: 'exit', code: end.code, at: end.at };
  if (end.kind === 'oom') return { kind: 'oom', at: end.at };
  if (end.kind === 'blocked' && end.follow !== undefined) return { kind: 'runs', follow: end.follow, followAt: end.at };
  return { kind: 'runs' };
}

/** The plan of a script started at `start`, looked at `horizon` ahead (`opts`: from a checkpoint, keeping new ones). */
function lookAhead(script: Extract<ContainerScript, { kind: 'script' }>['script'], host: ScriptHost, start: number, horizon: number, opts: RunOptions = {}): RunPlan {
  const end = runScript(script, host, start, start + horizon, opts).end;
  // stopped at a network call still in the future: look again when the clock gets there
  if (end.kind === 'running' && end.at !== undefined) return { kind: 'runs', checkedTo: end.at };
  if (end.kind === 'running' && end.horizon && horizon < HORIZON_MS) return { kind: 'runs', checkedTo: start + horizon };
  return planOf(end);
}

/**
 * The current run's plan, looked at further ahead when the time has reached what its look-ahead
 * covered: the kubelet then knows whether it ends before the new horizon (a loop of 5,000
 * iterations that sleeps a second ends after 83 minutes).
 */
export function extendPlan(c: Cluster, pod: Pod, ct: Container): RunPlan | undefined {
  const run = currentRun(c, pod, ct.name);
  if (!run) return undefined;
  const p = run.plan;
  const now = c.now();
  if (p.kind !== 'runs' || p.checkedTo === undefined || now < p.checkedTo || run.finishedAt !== undefined) return p;
  const prog = programOf(ct);
  if (!prog || prog.kind !== 'script') return p;
  const horizon = Math.min(HORIZON_MS, Math.max(2 * (p.checkedTo - run.startedAt), now - run.startedAt + FIRST_HORIZON_MS));
  run.plan = runsToCompletion(pod, ct) ? lookAheadFromCheckpoint(c, pod, ct, run, prog.script, horizon) : lookAhead(prog.script, scriptHost(c, pod, ct, run), run.startedAt, horizon);
  return run.plan;
}

/**
 * A look-ahead of a run that completes, from its newest usable look-ahead checkpoint (LOOKAHEAD),
 * keeping the newest one it passes at or before the clock for the next.
 */
function lookAheadFromCheckpoint(c: Cluster, pod: Pod, ct: Container, run: ContainerRun, script: Extract<ContainerScript, { kind: 'script' }>['script'], horizon: number): RunPlan {
  const now = c.now();
  const from = lookAheadCheckpoint(c, pod, ct, run);
  const log: ReplayLog = { reads: new Map(from?.reads), changed: false };
  let last: { cp: ScriptCheckpoint; netLen: number; log: ReplayLog } | undefined;
  const host = scriptHost(c, pod, ct, run, { log, seen: from?.cp.host });
  const plan = lookAhead(script, host, run.startedAt, horizon, {
    ...(from ? { resume: from.cp } : {}),
    keep: (cp) => {
      if (cp.t <= now) last = { cp, netLen: run.net?.calls.length ?? 0, log: { reads: new Map(log.reads), changed: log.changed } };
    },
  });
  if (last && last.cp !== from?.cp) keepCheckpoint(run, last.cp, last.log, last.netLen, LOOKAHEAD);
  return plan;
}

/** The program of a container (undefined for an image not in the catalogue). */
export function programOf(ct: Container): ContainerScript | undefined {
  const image = lookupImage(ct.image);
  return image ? containerScript(ct, image) : undefined;
}

/**
 * Start a run of a container now with this environment: decide what it will do and print what
 * it prints at once. Returns the plan (the kubelet ends the run when the plan says).
 */
export function startRun(c: Cluster, pod: Pod, ct: Container, env: [string, string][]): RunPlan {
  flushPod(c, pod);
  const now = c.now();
  const prog = programOf(ct);
  // the run exists before its look-ahead, which remembers its network answers in it
  // frozen: it never changes, and session copies then share it (the key of its checkpoints)
  const run: ContainerRun = { startedAt: now, env: deepFrozen(env), plan: { kind: 'runs' }, flushedTo: now - 1, logs: [] };
  let plan: RunPlan;
  if (!prog || prog.kind === 'not-found') plan = { kind: 'exit', code: 128, at: now };
  else if (prog.kind === 'default') plan = prog.runs ? { kind: 'runs' } : { kind: 'exit', code: prog.exitCode, at: now };
  else plan = lookAhead(prog.script, scriptHost(c, pod, ct, run), now, FIRST_HORIZON_MS);
  run.plan = plan;
  const runs = (table(c)[runKey(pod, ct.name)] ??= []);
  runs.push(run);
  while (runs.length > 2) runs.shift();
  flushPod(c, pod);
  return plan;
}

/** End the current run of a container at `at` (its exit, an OOM kill, a liveness kill, the pod's deletion). */
/**
 * The container's running process ended now with `code` (its attached shell exited): the run's
 * plan becomes that exit, which the kubelet applies at its next sync as it would a program's.
 */
export function endRun(c: Cluster, pod: Pod, container: string, code: number): boolean {
  const run = currentRun(c, pod, container);
  if (!run || run.finishedAt !== undefined) return false;
  run.plan = { kind: 'exit', code, at: c.now() };
  return true;
}

/**
 * A node rebooted: every container process on it died with its kernel, without an exit of its
 * own. The kubelet that comes back finds them gone and reports what it reports for a container
 * it cannot find (exit code 255, reason Unknown, kuberuntime's "container not found" status),
 * then starts them again under its restart policy.
 */
export function containersLostOnReboot(c: Cluster, nodeName: string, kubeletBackAt: number): void {
  for (const pod of c.store.list<Pod>('Pod')) {
    if (pod.spec.nodeName !== nodeName) continue;
    for (const ct of podContainers(pod)) {
      const run = currentRun(c, pod, ct.name);
      // the API keeps the old status until the kubelet is back and finds the container gone
      if (run && run.finishedAt === undefined) run.plan = { kind: 'exit', code: 255, at: kubeletBackAt, reason: 'Unknown' };
    }
  }
}

export function finishRun(c: Cluster, pod: Pod, container: string, at: number): void {
  const run = currentRun(c, pod, container);
  if (!run || run.finishedAt !== undefined) return;
  flushPod(c, pod, at);
  run.finishedAt = at;
}

type Pending =
  | { t: number; order: number; ct: Container; run: ContainerRun; kind: 'out'; stream: 0 | 1; text: string }
  | { t: number; order: number; ct: Container; run: ContainerRun; kind: 'write'; path: string; text: string; append: boolean }
  | { t: number; order: number; ct: Container; run: ContainerRun; kind: 'mkdir' | 'rm'; path: string }
  | { t: number; order: number; ct: Container; run: ContainerRun; kind: 'follow'; path: string };

/**
 * Runs whose script a flush's replay found blocked for good (`sleep infinity`, a daemon such as
 * kube-proxy's, `echo started; sleep infinity`) without reading anything: no file or directory,
 * no network tool, no tool that looks at the pod (`ps`). Such a replay is a function of the run
 * (its script, start, environment: the key, frozen and shared by the session's copies) and of
 * `inputs` (replayInputs) alone, and every event it makes is at or before the time it blocked:
 * once the run has been flushed past that time, a replay would apply nothing and take the same
 * checkpoints, so the flush only moves the run's replay point. Every shell line flushes every pod,
 * and these replays were most of what flushing cost (a cluster's kube-proxy pods alone, 12,000
 * times in a validate run).
 */
const BLOCKED = new WeakMap<object, { inputs: string; at: number }>();

/** What a replay reads of the container beside its run: the script, the image (its tools, daemons, libc), the memory limit. */
function replayInputs(ct: Container, script: Extract<ContainerScript, { kind: 'script' }>['script']): string {
  const had = INPUTS.get(ct);
  if (had !== undefined) return had;
  const inputs = JSON.stringify([ct.image, script, ct.resources?.limits?.['memory'] ?? null]);
  // a stored pod's containers are frozen and shared by the state's copies: the same object, the same inputs
  if (Object.isFrozen(ct)) INPUTS.set(ct, inputs);
  return inputs;
}

const INPUTS = new WeakMap<Container, string>();

let replays = 0;

/** How many flush replays of a script this process has run (tests). */
export function flushReplays(): number {
  return replays;
}

/** The run keys of a pod's containers (runKey, in podContainers order), by pod object: a stored pod is frozen and shared by the state's copies. */
const RUN_KEYS = new WeakMap<Pod, readonly string[]>();

function runKeysOf(pod: Pod): readonly string[] {
  const had = RUN_KEYS.get(pod);
  if (had) return had;
  const keys = allContainers(pod).map((ct) => runKey(pod, ct.name));
  if (Object.isFrozen(pod)) RUN_KEYS.set(pod, keys);
  return keys;
}

/**
 * Whether a flush of the pod up to `until` can do anything: a container's current run not yet
 * flushed that far, or one that follows a file (`tail -f`: another container, or `kubectl exec`,
 * may have appended to it). Otherwise flushPod would replay nothing, apply nothing, find no
 * follower and move no replay point; every shell line flushes every pod, and most of those
 * flushes (~240,000 in a validate run) were such, each listing the pod's containers twice and
 * building its key strings and lists again.
 */
function flushable(t: ContainerRunsState, pod: Pod, until: number): boolean {
  for (const key of runKeysOf(pod)) {
    const runs = t[key];
    const run = runs?.[runs.length - 1];
    if (!run) continue;
    if (Math.min(until, run.finishedAt ?? until) > run.flushedTo) return true;
    if (run.follow !== undefined && run.finishedAt === undefined) return true;
  }
  return false;
}

/** How many flushes got past flushable (tests). */
export const flushesApplied = { count: 0 };

/**
 * Apply every running container's output of this pod up to `until` (default: now), in time
 * order: log lines, file writes, and what followers see appended to their files.
 */
export function flushPod(c: Cluster, pod: Pod, until = c.now()): void {
  const t = c.state.containerRuns;
  if (!t || !flushable(t, pod, until)) return;
  flushesApplied.count++;
  const pending: Pending[] = [];
  const touched: { run: ContainerRun; upTo: number }[] = [];
  allContainers(pod).forEach((ct, order) => {
    const runs = t[runKey(pod, ct.name)];
    const run = runs?.[runs.length - 1];
    if (!run) return;
    const upTo = Math.min(until, run.finishedAt ?? until);
    if (upTo <= run.flushedTo) return;
    touched.push({ run, upTo });
    const prog = programOf(ct);
    if (!prog || prog.kind !== 'script') return;
    let seq = 0;
    const blocked = BLOCKED.get(run.env);
    if (!blocked || blocked.at > run.flushedTo || blocked.inputs !== replayInputs(ct, prog.script)) {
      const from = usableCheckpoint(c, pod, ct, run);
      const log: ReplayLog = { reads: new Map(from?.reads), changed: false };
      let last: { cp: ScriptCheckpoint; netLen: number; log: ReplayLog } | undefined;
      const base = scriptHost(c, pod, ct, run, { log, seen: from?.cp.host });
      // whether the replay asked anything outside the run (network, `ps`): see BLOCKED
      let outside = false;
      const host: ScriptHost = {
        ...base,
        net: (call) => ((outside = true), base.net!(call)),
        local: (argv) => ((outside = true), base.local!(argv)),
      };
      replays++;
      const res = runScript(prog.script, host, run.startedAt, upTo, {
        ...(from ? { resume: from.cp } : {}),
        keep: (cp) => (last = { cp, netLen: run.net?.calls.length ?? 0, log: { reads: new Map(log.reads), changed: log.changed } }),
      });
      if (last) keepCheckpoint(run, last.cp, last.log, last.netLen);
      if (res.end.kind === 'blocked' && res.end.follow === undefined && log.reads.size === 0 && !outside) BLOCKED.set(run.env, { inputs: replayInputs(ct, prog.script), at: res.end.at });
      // each entry written out member by member: spreading a shared base into every one was most
      // of a flush's own time for a busy logger (an HPA load generator: 100 lines a second)
      for (const e of res.events) {
        if (e.t <= run.flushedTo) continue;
        const order1 = order * 1_000_000 + seq++;
        if (e.kind === 'out') pending.push({ t: e.t, order: order1, ct, run, kind: 'out', stream: e.stream === 'stdout' ? 0 : 1, text: e.text });
        else if (e.kind === 'write') pending.push({ t: e.t, order: order1, ct, run, kind: 'write', path: e.path, text: e.text, append: e.append });
        else pending.push({ t: e.t, order: order1, ct, run, kind: e.kind, path: e.path });
      }
    }
    const p = run.plan;
    if (p.kind === 'runs' && p.follow !== undefined && run.follow === undefined && p.followAt !== undefined && p.followAt > run.flushedTo && p.followAt <= upTo)
      pending.push({ t: p.followAt, order: order * 1_000_000 + seq++, ct, run, kind: 'follow', path: p.follow });
  });
  pending.sort((a, b) => a.t - b.t || a.order - b.order);
  const followers = (): { ct: Container; run: ContainerRun }[] =>
    allContainers(pod)
      .map((ct) => ({ ct, run: t[runKey(pod, ct.name)]?.at(-1) }))
      .filter((x): x is { ct: Container; run: ContainerRun } => x.run?.follow !== undefined && x.run.finishedAt === undefined);
  const checkFollowers = (at: number): void => {
    for (const f of followers()) {
      const content = containerFs(c, pod, f.ct.name).tryRead(resolvePath('/', f.run.follow!.path)) ?? '';
      const size = f.run.follow!.size;
      if (content.length > size) log(f.run, [at, 0, content.slice(size)]);
      else if (content.length < size) log(f.run, [at, 1, `tail: ${f.run.follow!.path}: file truncated\n`]);
      f.run.follow!.size = content.length;
    }
  };
  for (const e of pending) {
    if (e.kind === 'out') {
      log(e.run, [e.t, e.stream, e.text]);
      continue;
    }
    const fs = containerFs(c, pod, e.ct.name);
    const path = resolvePath('/', e.path);
    try {
      if (e.kind === 'follow') {
        e.run.follow = { path: e.path, size: (fs.tryRead(path) ?? '').length };
        continue;
      }
      if (e.kind === 'mkdir') fs.mkdir(path);
      else if (e.kind === 'rm') {
        if (fs.exists(path)) fs.remove(path);
      } else if (e.kind === 'write') {
        if (e.append) fs.append(path, e.text);
        else fs.write(path, e.text);
      }
    } catch (err) {
      const why = err instanceof VfsError && err.code === 'EROFS' ? 'Read-only file system' : 'No such file or directory';
      log(e.run, [e.t, 1, `sh: can't create ${e.path}: ${why}\n`]);
      continue;
    }
    checkFollowers(e.t);
  }
  checkFollowers(until);
  for (const { run, upTo } of touched) run.flushedTo = Math.max(run.flushedTo, upTo);
}

function log(run: ContainerRun, chunk: LogChunk): void {
  if (chunk[2] === '') return;
  // copies of a session share the list frozen (freezeRunLogs): the first chunk after it starts a list of this run's own
  if (Object.isFrozen(run.logs)) run.logs = run.logs.slice();
  // a chunk never changes: frozen, session copies share it (a busy container logs thousands)
  run.logs.push(Object.freeze(chunk) as LogChunk);
  if (run.logs.length > LOG_CAP) run.logs.splice(0, run.logs.length - LOG_CAP);
}

/**
 * Freeze every run's list of log chunks (each chunk is frozen already), so the snapshots and
 * copies of a session share it instead of copying it (util/json-copy.ts): a busy container logs
 * tens of thousands of chunks (an HPA task's load generator, one every 10 ms), which every copy of
 * the session walked and copied. `log` copies a frozen list before it adds to it.
 */
export function freezeRunLogs(runs: ContainerRunsState | undefined): void {
  if (!runs) return;
  for (const list of Object.values(runs)) for (const run of list) if (!Object.isFrozen(run.logs)) Object.freeze(run.logs);
}

/** Flush every pod that has a running container (before a command line reads files or logs). */
export function flushAll(c: Cluster, pods: readonly Pod[]): void {
  if (!c.state.containerRuns) return;
  for (const pod of pods) flushPod(c, pod);
}

/** One line of a container's log with the time it was written. */
export interface LogLine {
  t: number;
  stream: 'stdout' | 'stderr';
  /** The line with its newline (the last may lack one). */
  text: string;
}

/** The lines of a run's log, each with its time. */
export function runLogLines(run: ContainerRun): LogLine[] {
  const out: LogLine[] = [];
  for (const [t, s, text] of run.logs) {
    const parts = text.split(/(?<=\n)/);
    for (const p of parts) if (p !== '') out.push({ t, stream: s === 0 ? 'stdout' : 'stderr', text: p });
  }
  return out;
}

/** What a command run in a container by the runtime's ExecSync did: its exit code and combined output, or that it outlived its timeout. */
export type ExecSyncResult = { kind: 'exit'; exitCode: number; output: string } | { kind: 'timeout' } | { kind: 'not-found'; exe: string };

/**
 * Run a command in a running container the way the kubelet's exec probe does (CRI ExecSync,
 * pkg/probe/exec/exec.go): at simulated time `at`, against the container's files as its own
 * process has left them by then (flushPod up to `at`: what its script created or removed) and its
 * environment, with stdout and stderr combined. A command still running after `timeoutMs` is a
 * timeout (the CRI's DeadlineExceeded); an executable the image does not have cannot start. What
 * the command itself writes is not kept (a probe's side effects are not modelled).
 */
export function execSync(c: Cluster, pod: Pod, ct: Container, argv: readonly string[], at: number, timeoutMs: number): ExecSyncResult {
  const image = lookupImage(ct.image);
  const run = currentRun(c, pod, ct.name);
  const exe = argv[0] ?? '';
  const base = exe.split('/').pop() ?? '';
  if (!image || !run || !imageHas(image, base)) return { kind: 'not-found', exe };
  flushPod(c, pod, at);
  const script = (base === 'sh' || base === 'bash' || base === 'ash') && /^-[a-z]*c[a-z]*$/.test(argv[1] ?? '') ? { sh: argv[2] ?? '' } : { argv: [base, ...argv.slice(1)] };
  const host: ScriptHost = { ...scriptHost(c, pod, ct, run), net: () => undefined };
  const res = runScript(script, host, at, at + timeoutMs);
  if (res.end.kind !== 'exit' || res.end.at > at + timeoutMs) return { kind: 'timeout' };
  let output = '';
  for (const e of res.events) if (e.kind === 'out') output += e.text;
  return { kind: 'exit', exitCode: res.end.code, output };
}

/**
 * When the container's own script next changes its files after `after` (a write, mkdir or rm),
 * looked at up to an hour ahead: the kubelet wakes its exec probes then instead of at every tick.
 * Undefined when nothing changes in that time (or the program is not a script).
 */
export function nextFileChange(c: Cluster, pod: Pod, ct: Container, after: number): number | undefined {
  const run = currentRun(c, pod, ct.name);
  const prog = programOf(ct);
  if (!run || run.finishedAt !== undefined || !prog || prog.kind !== 'script') return undefined;
  const until = after + FIRST_HORIZON_MS;
  const res = runScript(prog.script, { ...scriptHost(c, pod, ct, run), net: () => undefined }, run.startedAt, until);
  for (const e of res.events) if (e.kind !== 'out' && e.t > after) return e.t;
  return res.end.kind === 'running' && res.end.horizon ? until : undefined;
}
