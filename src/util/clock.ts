/**
 * Time as an input. The simulation never reads wall time: it asks a Clock. Interactive sessions
 * use a clock that follows wall time (see src/shell/session.ts); tests and scenarios pin it.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/**
 * The latest time a simulated clock may show: 9999-12-31T23:59:59Z, the last instant RFC 3339
 * (and so metav1.Time, x509 validity and `date`) can write with four year digits. A clock is
 * never set past it, nor to a value that is not a finite number.
 */
export const MAX_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/** Whether `ms` is a time a simulated clock may show. */
export function validClockTime(ms: unknown): ms is number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 && ms <= MAX_CLOCK_MS;
}

/** `ms` bounded to the clock's range; `fallback` when it is not a number at all (NaN). */
export function clampClockTime(ms: number, fallback: number): number {
  if (Number.isNaN(ms)) return fallback;
  return Math.min(Math.max(ms, 0), MAX_CLOCK_MS);
}

/** A clock that only moves when told to. Deterministic by construction. */
export class ManualClock implements Clock {
  private ms: number;
  constructor(ms: number) {
    this.ms = clampClockTime(ms, 0);
  }
  now(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = clampClockTime(ms, this.ms);
  }
  advance(ms: number): void {
    if (ms > 0) this.ms = clampClockTime(this.ms + ms, this.ms);
  }
}

/** RFC 3339 with second precision and a Z, as Kubernetes writes metav1.Time. */
export function rfc3339(ms: number): string {
  const sec = Math.floor(ms / 1000);
  // controllers stamp many objects at one simulated instant: the last second's text is kept
  if (sec !== lastSecond) {
    lastSecond = sec;
    lastText = new Date(sec * 1000).toISOString().replace('.000Z', 'Z');
  }
  return lastText;
}

let lastSecond = Number.NaN;
let lastText = '';

/** Parse an RFC 3339 timestamp; NaN when absent or malformed. */
export function parseTime(s: string | undefined): number {
  if (!s) return Number.NaN;
  return Date.parse(s);
}
