/**
 * resource.Quantity as the API server decodes and re-encodes it (k8s.io/apimachinery
 * pkg/api/resource/quantity.go ParseQuantity, CanonicalizeBytes; suffix.go): a write's
 * `memory: 0.1875Gi` is stored as `192Mi`, `cpu: 0.5` as `500m`, and text that is no quantity is
 * rejected with the package's own error. Values are exact (BigInt nano-units), rounded up to 1n
 * like the server's Quantity.
 */

/** quantity.go ErrFormatWrong. */
export const ERR_FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** quantity.go ErrNumeric. */
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
/** quantity.go ErrSuffix. */
export const ERR_SUFFIX = "unable to parse quantity's suffix";

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DECIMAL_SUFFIX: Record<number, string> = Object.fromEntries(Object.entries(DECIMAL).map(([s, e]) => [e, s]));
const BINARY_SUFFIX: Record<number, string> = Object.fromEntries(Object.entries(BINARY).map(([s, e]) => [e, s]));

export interface Quantity {
  /** The value in nano-units (×10⁹), rounded up away from zero. */
  nano: bigint;
  format: Format;
}

const pow = (b: bigint, e: number): bigint => b ** BigInt(e);

/** ParseQuantity; throws an Error with the package's message. */
export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new Error(ERR_FORMAT_WRONG);
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)$/.exec(str);
  // parseQuantityString: digits, at most one '.', then a suffix made of the suffix letters
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new Error(ERR_FORMAT_WRONG);
  const [, sign, whole, frac = '', suffix = ''] = m;
  let format: Format;
  let num: bigint;
  let den: bigint;
  if (suffix in BINARY) {
    format = 'BinarySI';
    num = pow(2n, BINARY[suffix]!);
    den = 1n;
  } else if (suffix in DECIMAL) {
    format = 'DecimalSI';
    const e = DECIMAL[suffix]!;
    num = e >= 0 ? pow(10n, e) : 1n;
    den = e >= 0 ? 1n : pow(10n, -e);
  } else {
    const x = /^[eE]([-+]?[0-9]+)$/.exec(suffix);
    if (!x) throw new Error(ERR_SUFFIX);
    format = 'DecimalExponent';
    const e = Number(x[1]);
    num = e >= 0 ? pow(10n, e) : 1n;
    den = e >= 0 ? 1n : pow(10n, -e);
  }
  const digits = BigInt(`${whole}${frac}` || '0');
  // value = digits / 10^len(frac) × num / den, in nano-units, rounded up away from zero
  const top = digits * num * 1_000_000_000n;
  const bottom = pow(10n, frac.length) * den;
  let nano = top / bottom;
  if (top % bottom !== 0n) nano += 1n;
  return { nano: sign === '-' ? -nano : nano, format };
}

function stripTens(n: bigint): [bigint, number] {
  let e = 0;
  while (n !== 0n && n % 10n === 0n) {
    n /= 10n;
    e++;
  }
  return [n, e];
}

/** Quantity.String(): CanonicalizeBytes. */
export function formatQuantity(q: Quantity): string {
  if (q.nano === 0n) return '0';
  let format = q.format;
  const abs = q.nano < 0n ? -q.nano : q.nano;
  const sign = q.nano < 0n ? '-' : '';
  if (format === 'BinarySI') {
    // below 1024 or not a whole number: shown as DecimalSI (no rounding)
    if (abs < 1024n * 1_000_000_000n || abs % 1_000_000_000n !== 0n) format = 'DecimalSI';
  }
  if (format === 'BinarySI') {
    let v = abs / 1_000_000_000n;
    let e = 0;
    while (v % 1024n === 0n && e < 60) {
      v /= 1024n;
      e += 10;
    }
    return `${sign}${v}${BINARY_SUFFIX[e] ?? ''}`;
  }
  // AsCanonicalBytes: all factors of ten into the exponent, then down to a multiple of 3
  let [mant, e] = stripTens(abs);
  e -= 9;
  while (((e % 3) + 3) % 3 !== 0) {
    mant *= 10n;
    e--;
  }
  if (format === 'DecimalSI') {
    while (e > 18) {
      mant *= 1000n;
      e -= 3;
    }
    return `${sign}${mant}${DECIMAL_SUFFIX[e] ?? `e${e}`}`;
  }
  return `${sign}${mant}${e === 0 ? '' : `e${e}`}`;
}

/** A quantity as the server stores it: canonical text. */
export function canonicalQuantity(str: string): string {
  return formatQuantity(parseQuantity(str.trim()));
}
