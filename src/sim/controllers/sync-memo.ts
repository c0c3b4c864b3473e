/**
 * A controller's per-object "nothing changed" memo. The workload controllers (deployment,
 * replicaset, daemonset) watch every Pod, so any pod's change anywhere syncs every object they
 * own, though almost all of those syncs read exactly what the previous one read and write nothing.
 *
 * The store keeps each version of an object frozen (api/store.ts), so the same object means the
 * same content: a sync whose inputs are the very objects a sync read before, at a time at which
 * that sync's outcome still holds, finds what it found then, and that sync wrote nothing
 * (store.generation did not move). Such a sync is skipped; only the wake-up it asked for is asked
 * again (Cluster.wakeAt of a time already pending changes nothing, but a skipped sync must not
 * leave out what a run would do). A sync that wrote anything is not remembered: the next one runs.
 *
 * What a sync finds is a function of the objects it reads and the time alone, so the memo holds in
 * any cluster those objects are in: copies of a cluster (validate's, the grader's) and restores of
 * one snapshot share its frozen objects, and a copy's first sync of an object its original found
 * quiet is skipped too. It is kept by the object synced (a WeakMap: it goes with the object) and
 * never saved: it is only ever a shortcut to what a run would find.
 */
import type { Cluster } from '../cluster.js';
import type { KObject } from '../api/types.js';
import { sameItems } from '../../util/same-items.js';

/** What a sync that wrote nothing says about time: how long its outcome holds, and the wake-up it asked for. */
export interface QuietTimes {
  /**
   * The latest time (inclusive) at which a sync of the same objects finds the same; Infinity: time
   * plays no part; before the sync's time (-Infinity): not even then (the sync is not remembered).
   */
  readonly until: number;
  /** The wake-up the sync asked for (Cluster.wakeAt), if any. */
  readonly wake?: number | undefined;
}

interface Entry {
  readonly read: readonly KObject[];
  readonly at: number;
  readonly until: number;
  readonly wake: number | undefined;
}

const TIMELESS: QuietTimes = { until: Infinity };

export class SyncMemo {
  /** By the object synced (a sync's first read). */
  private readonly entries = new WeakMap<KObject, Entry>();
  /** How many syncs ran and how many were skipped (not saved: for tests and benches). */
  runs = 0;
  skips = 0;

  /**
   * Run `sync` unless the last run for the same object read the same `read` objects (the object
   * synced first, then every other object its sync looks at, in a fixed order), wrote nothing, and
   * holds at this time. `sync` returns how long a run that wrote nothing holds (undefined:
   * time plays no part).
   */
  sync(c: Cluster, read: readonly [KObject, ...KObject[]], sync: () => QuietTimes | undefined | void): void {
    const key = read[0];
    const entries = this.entries;
    const now = c.now();
    const last = entries.get(key);
    if (last && (now === last.at || now <= last.until) && sameItems(last.read, read)) {
      this.skips++;
      if (last.wake !== undefined) c.wakeAt(last.wake);
      return;
    }
    this.runs++;
    const generation = c.store.generation;
    const times = sync() ?? TIMELESS;
    if (c.store.generation !== generation || times.until < now) entries.delete(key);
    else entries.set(key, { read, at: now, until: times.until, wake: times.wake });
  }
}
