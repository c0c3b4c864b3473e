/**
 * Resource quantities as the kubelet reads them (k8s.io/apimachinery pkg/api/resource): `128Mi`,
 * `1G`, `250m`, `0.5`, `1e3`. Values are plain numbers of the base unit (bytes, cores).
 */
const SUFFIX: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  Pi: 1024 ** 5,
  Ei: 1024 ** 6,
};

/** The quantity's value, or undefined when it does not parse. */
export function quantityValue(q: string | number | undefined): number | undefined {
  if (q === undefined) return undefined;
  if (typeof q === 'number') return q;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]?)$/.exec(q.trim());
  if (!m) return undefined;
  return Number(m[1]) * SUFFIX[m[2]!]!;
}
