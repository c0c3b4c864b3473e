/**
 * Go's time.Duration String (src/time/time.go) for a number of milliseconds, as kubectl, the
 * kubelet and the Go tools print durations: `0s`, `500ms`, `30.3s`, `3m0s`, `1h0m10s`. Below a
 * second the unit is ms; from there hours, minutes and seconds, the seconds with their fraction
 * and no trailing zeros.
 */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  const sec = `${Number.isInteger(s) ? s : s.toFixed(3).replace(/0+$/, '')}s`;
  return `${sign}${h > 0 ? `${h}h${m}m` : m > 0 ? `${m}m` : ''}${sec}`;
}
