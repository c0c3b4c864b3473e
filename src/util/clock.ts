/**
 * Time as an input. The simulation never reads wall time: it asks a Clock. Interactive sessions
 * use a clock that follows wall time (see src/shell/session.ts); tests and scenarios pin it.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** A clock that only moves when told to. Deterministic by construction. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    if (ms > 0) this.ms += ms;
  }
}

/** RFC 3339 with second precision and a Z, as Kubernetes writes metav1.Time. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Parse an RFC 3339 timestamp; NaN when absent or malformed. */
export function parseTime(s: string | undefined): number {
  if (!s) return Number.NaN;
  return Date.parse(s);
}
