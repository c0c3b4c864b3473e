/**
 * Ages as kubectl prints them. Ports apimachinery pkg/util/duration/duration.go `HumanDuration`
 * and printers.go `translateTimestampSince` (reference §2). Go's integer division truncates toward
 * zero; durations are taken in milliseconds here (Go uses nanoseconds; timestamps are whole seconds).
 */
import { parseTime } from '../../util/clock.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** duration.HumanDuration(d) for d in milliseconds. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    const d = Math.trunc(hours / 24);
    return h === 0 ? `${d}d` : `${d}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** printers.go translateTimestampSince: `<unknown>` for an absent/zero timestamp. */
export function translateTimestampSince(ts: string | null | undefined, now: number): string {
  const t = parseTime(ts ?? undefined);
  if (Number.isNaN(t) || t === ZERO_TIME) return '<unknown>';
  return humanDuration(now - t);
}

/** metav1.Time zero value, as it may appear serialized. */
const ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

/** Go time.RFC1123Z in UTC: `Thu, 15 Jan 2026 11:13:08 +0000` (describe's absolute times). */
export function rfc1123z(ts: string | number): string {
  const ms = typeof ts === 'number' ? ts : parseTime(ts);
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p2 = (n: number): string => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p2(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} +0000`;
}

/** metav1.Time.String() (Go time.Time default format) in UTC: `2026-01-15 10:00:00 +0000 UTC`. */
export function goTimeString(ts: string): string {
  const d = new Date(parseTime(ts));
  const iso = d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000 UTC`;
}
