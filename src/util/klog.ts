/**
 * klog's line header (k8s.io/klog/v2 internal/buffer FormatHeader): `Lmmdd hh:mm:ss.uuuuuu
 * threadid file:line] `, the thread id right-aligned in seven columns. Every component the
 * simulator runs (kube-proxy, the kubelet, static pods, kubectl itself) writes its log lines
 * with it, stamped with the simulated clock.
 */

/** `mmdd hh:mm:ss.uuuuuu` in UTC; the simulated clock has millisecond resolution. */
export function klogTime(ms: number): string {
  const d = new Date(ms);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  return `${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${String(d.getUTCMilliseconds() * 1000).padStart(6, '0')}`;
}

/** One klog line (without its newline): `E1202 10:00:00.000000       1 proxier.go:1504] msg`. */
export function klogLine(level: 'I' | 'W' | 'E' | 'F', ms: number, threadId: number, where: string, msg: string): string {
  return `${level}${klogTime(ms)} ${String(threadId).padStart(7)} ${where}] ${msg}`;
}
