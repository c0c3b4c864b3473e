/**
 * The clock of an interactive session: simulated time follows wall time. now() is the simulated
 * time the session started at plus the real time elapsed since, so pods age while the learner
 * thinks and an exam timer keeps running.
 *
 * The wall is sampled only at construction and at sync() (the REPL syncs before each command):
 * between samples the clock stands still, because the cluster's controllers settle to a fixed
 * point that includes the time, and a clock moving under a settle would never let it converge.
 * It extends ManualClock so that the cluster can still jump it forward (`sleep 30` advances the
 * simulation by 30 s on top of wall time): set() moves the offset, never the wall. The real time
 * source is injected so tests can pin it.
 */
import { clampClockTime, ManualClock } from '../util/clock.js';

export class WallClock extends ManualClock {
  private base: number;
  private readonly realStart: number;
  private sampled: number;

  constructor(simStart: number, private readonly real: () => number = () => Date.now()) {
    super(simStart);
    this.base = clampClockTime(simStart, 0);
    this.realStart = real();
    this.sampled = this.realStart;
  }

  /**
   * Catch up with the wall; with `limit`, no further than that simulated time (the session stops
   * there to run a background job whose sleep ended while the learner typed, then syncs on).
   */
  sync(limit?: number): void {
    let to = this.real();
    if (limit !== undefined && Number.isFinite(limit)) to = Math.min(to, this.realStart + (limit - this.base));
    this.sampled = Math.max(this.sampled, to);
  }

  override now(): number {
    return clampClockTime(this.base + (this.sampled - this.realStart), this.base);
  }

  /** Jump simulated time to `ms` (never backwards: a clock that follows the wall only moves on). */
  override set(ms: number): void {
    const now = this.now();
    const to = clampClockTime(ms, now);
    if (to > now) this.base += to - now;
  }

  override advance(ms: number): void {
    if (ms > 0) this.set(this.now() + ms);
  }
}

/** Sync a cluster's clock with the wall when it is a WallClock (other clocks are left alone). */
export function syncClock(clock: unknown, limit?: number): void {
  if (clock instanceof WallClock) clock.sync(limit);
}
