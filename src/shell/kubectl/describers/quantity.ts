/**
 * Just enough of apimachinery resource.Quantity for `describe node`'s request/limit sums:
 * parse `250m`, `2`, `128Mi`, `1G`, add, and print in canonical form keeping the format
 * (BinarySI / DecimalSI) of the first operand (quantity.go CanonicalizeBytes).
 */
const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

export interface Quantity {
  /** Value in milli-units (exact for the sizes a CKA cluster uses). */
  milli: number;
  format: 'BinarySI' | 'DecimalSI';
}

export const ZERO: Quantity = { milli: 0, format: 'DecimalSI' };

export function parseQuantity(s: string | undefined): Quantity {
  if (!s) return ZERO;
  const m = /^([+-]?[0-9.]+)([a-zA-Z]*)$/.exec(s.trim());
  if (!m) return ZERO;
  const n = Number(m[1]);
  const suffix = m[2] ?? '';
  if (suffix in BINARY) return { milli: Math.round(n * BINARY[suffix]! * 1000), format: 'BinarySI' };
  if (suffix in DECIMAL) return { milli: Math.round(n * DECIMAL[suffix]! * 1000), format: 'DecimalSI' };
  return ZERO;
}

export function addQuantity(a: Quantity, b: Quantity): Quantity {
  return { milli: a.milli + b.milli, format: a.milli === 0 && a === ZERO ? b.format : a.format };
}

/** Quantity.String(). */
export function formatQuantity(q: Quantity): string {
  if (q.milli === 0) return '0';
  if (q.milli % 1000 !== 0) return `${q.milli}m`;
  const v = q.milli / 1000;
  if (q.format === 'BinarySI') {
    for (const [suffix, mult] of Object.entries(BINARY).reverse()) if (v % mult === 0) return `${v / mult}${suffix}`;
    if (v < 1024) return String(v);
  }
  for (const [suffix, mult] of [['E', 1e18], ['P', 1e15], ['T', 1e12], ['G', 1e9], ['M', 1e6], ['k', 1e3]] as const) if (v % mult === 0) return `${v / mult}${suffix}`;
  return String(v);
}
