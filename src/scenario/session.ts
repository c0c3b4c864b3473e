/**
 * Sessions for a scenario instance: a fresh cluster restored from a cached fixture snapshot (the
 * build runs once per fixture and seed; a restore takes a few milliseconds), the setup applied,
 * the history cleared, and the learner placed on the task's host as the exam's per-task `ssh`.
 */
import { readFileSync } from 'node:fs';
import { Cluster, freezeRunParts, type ControllerMemory, type SettleMarks, type Snapshot } from '../sim/cluster.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { buildSnapshot } from './prebuilt.js';
import { ManualClock, type Clock } from '../util/clock.js';
import { Session, type Editor } from '../shell/session.js';
import { copyJSON } from '../util/json-copy.js';
import type { Instance } from './instance.js';
import { runSetup, SetupError } from './setup/index.js';
import { flushAll, freezeRunLogs } from '../sim/runtime/processes.js';
import { freezeIptables } from '../sim/node/runtime.js';
import { freezeObjects } from '../sim/api/store.js';
import type { Pod } from '../sim/api/types.js';

/** Built fixtures by `name#seed`. Pass your own to control lifetime; a module-wide one is the default. */
export type FixtureCache = Map<string, Snapshot>;

const DEFAULT_CACHE: FixtureCache = new Map();

export interface SetupOptions {
  editor?: Editor;
  fixtureCache?: FixtureCache;
  /** The session's clock (interactive sessions follow wall time); a pinned clock at the fixture's time by default. */
  clock?: Clock;
  /** Where fixtures/<name>.yaml live; the package's fixtures/ by default. */
  fixturesDir?: string;
}

export function fixturePath(name: string, dir?: string): string {
  return dir ? `${dir.replace(/\/$/, '')}/${name}.yaml` : new URL(`../../fixtures/${name}.yaml`, import.meta.url).pathname;
}

/** The settled fixture cluster for a seed, as a snapshot (built once, then cached). */
export function fixtureSnapshot(name: string, seed: number, opts: Pick<SetupOptions, 'fixtureCache' | 'fixturesDir'> = {}): Snapshot {
  const cache = opts.fixtureCache ?? DEFAULT_CACHE;
  const key = `${name}#${seed}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let text: string;
  try {
    text = readFileSync(fixturePath(name, opts.fixturesDir), 'utf8');
  } catch {
    throw new SetupError(`fixture "${name}" not found (${fixturePath(name, opts.fixturesDir)})`);
  }
  const snap = buildSnapshot(text, `${name}.yaml`, seed);
  cache.set(key, snap);
  return snap;
}

/** A fixture snapshot settled once more, with what its controllers remember then (warmStart). */
interface Warm {
  snap: Snapshot;
  memory: ControllerMemory;
  marks: SettleMarks | undefined;
}

/**
 * A restored cluster remembers nothing of the syncs that made its snapshot (the kubelet's quiet
 * pods, Controller.memory), so the first settle of every task's session synced every pod of the
 * fixture again, to write nothing (a whole-library validate: ~14,000 such syncs, and a CoreDNS
 * server rebuilt per copy). So each snapshot is restored once more and settled at its own time;
 * when that settle wrote no object and drew nothing from the random source (the cluster is the
 * snapshot, with the controllers' bookkeeping of having looked), sessions start from that
 * cluster's snapshot and memory, as exact copies of it (what `copier` does for grading and
 * validate's runs). A first settle of a restored snapshot does the same looks and finds the same
 * nothing to do, so a session starting here goes on as one restored from the snapshot would; when
 * it wrote anything, sessions restore the snapshot itself, as before. Only at the snapshot's own
 * time (a session on a clock already past it catches up first). Kept by snapshot, beside it.
 */
const WARM = new WeakMap<Snapshot, Warm | null>();

function warmStart(snap: Snapshot): Warm | undefined {
  let warm = WARM.get(snap);
  if (warm === undefined) {
    const c = Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS);
    const rv = c.store.currentResourceVersion();
    c.settle();
    const settled = c.snapshot();
    const quiet = c.store.currentResourceVersion() === rv && settled.random.every((x, i) => x === snap.random[i]) && settled.now === snap.now;
    warm = quiet ? { snap: settled, memory: c.controllerMemory(), marks: c.settleMarks() } : null;
    WARM.set(snap, warm);
  }
  return warm ?? undefined;
}

/**
 * A cluster restored from a fixture snapshot on `clock`: from its warm start (warmStart) when the
 * clock is at the snapshot's time and one is to be had, else from the snapshot itself.
 */
export function restoreFixture(snap: Snapshot, clock: Clock, warm = true): Cluster {
  const w = warm && clock.now() === snap.now ? warmStart(snap) : undefined;
  const cluster = Cluster.restore(w?.snap ?? snap, clock, CONTROLLERS);
  if (w) {
    cluster.adoptControllerMemory(w.memory);
    cluster.adoptSettleMarks(w.marks);
  }
  return cluster;
}

/** A new session for the instance: fixture restored, setup applied, on the task's host. */
export async function setupSession(instance: Instance, opts: SetupOptions = {}): Promise<Session> {
  const s = instance.resolved;
  const snap = fixtureSnapshot(s.fixture, instance.seed, opts);
  // every task on this fixture and seed restores it: its objects are frozen once and shared
  freezeObjects(snap.store);
  // and so are its hosts' iptables rules (a snapshot read from a prebuilt file is not frozen yet)
  for (const h of snap.hosts) freezeIptables(h.state.iptables);
  // and its containers' runs' environments and plans (Cluster.snapshot freezes a live state's)
  freezeRunParts(snap.state.containerRuns);
  const cluster = restoreFixture(snap, opts.clock ?? new ManualClock(snap.now));
  const session = new Session(cluster, opts.editor ? { editor: opts.editor } : {});
  await runSetup(session, s.setup);
  // containers' output up to now, as the shell's next line would apply it: every copy of this
  // state then starts from the same flushed point (and from the replay checkpoints it left)
  flushAll(cluster, cluster.store.list<Pod>('Pod'));
  if (s.host && s.host !== cluster.meta.workstation) {
    const r = await session.exec(`ssh ${s.host}`);
    if (r.exitCode !== 0) throw new SetupError(`host: ${r.stderr.trim()}`);
  }
  session.history.length = 0;
  return session;
}

/**
 * A private copy of a session at its current simulated time, back on the workstation: what the
 * grader runs its shell lines in, so nothing it does reaches the learner's state.
 */
export function cloneSession(session: Session): Session {
  return copier(session)();
}

/**
 * Copies of a session's current state: the state is serialised once and each copy is a deep copy
 * of that plain tree (what grading and validate do many times per state). The grader's copies are
 * back on the workstation with no history; validate's runs keep the shell (`keepShell`: host,
 * history) to continue where setup or the solution left off. A caller that knows how many copies
 * it takes says so (`uses`): the last one is restored from the serialised tree without copying it.
 */
export function copier(session: Session, keepShell = false, uses = Infinity): () => Session {
  // the containers' logs so far are shared by the state and its copies, not copied for each
  freezeRunLogs(session.cluster.state.containerRuns);
  const data = session.toJSON();
  // what the controllers remember beside the state (the kubelet's quiet pods) holds for each copy too
  const memory = session.cluster.controllerMemory();
  // and so does the settle's bookkeeping: a copy's first settle looks only where the original's would
  const marks = session.cluster.settleMarks();
  const base = keepShell ? data : { ...data, frames: data.frames.slice(0, 1), history: [] };
  let made = 0;
  return () => {
    // the last of `uses` copies takes the serialised tree itself: nothing reads it afterwards
    if (made >= uses) throw new Error(`copier: more than ${uses} copies asked for`);
    const last = ++made === uses;
    const s = Session.fromJSON(last ? base : copyJSON(base), new ManualClock(data.cluster.now), CONTROLLERS, {}, true);
    s.cluster.adoptControllerMemory(memory);
    s.cluster.adoptSettleMarks(marks);
    return s;
  };
}
