/**
 * Resolve a Kubernetes IntOrString (`3` or `25%`) against a total, as apimachinery's
 * intstr.GetScaledValueFromIntOrPercent does (round up for surge, down for unavailable).
 */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return Number(v) || 0;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}
