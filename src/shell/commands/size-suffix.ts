/**
 * The counts `head -c/-n` and `tail -c/-n` read, with their size suffixes. GNU coreutils (head.c and
 * tail.c string_to_integer: xdectoumax with "bkKmMGTPEZY0", gnulib xstrtol.c as coreutils 9.1
 * builds it): `b` 512, `k`/`K` 1024, `m`/`M` 1024², up to `Y`; a `B` or `D` after the letter makes
 * the base 1000 (`1KB` 1000), `iB` keeps 1024 (`1KiB`); a bare suffix counts one (`k` is 1024);
 * anything after is invalid, a value past 2^64-1 is "Value too large for defined data type".
 * BusyBox (libbb xatoul_sfx with head/tail's suffix table): digits, then nothing or exactly `b`,
 * `k` or `m`. Recorded from coreutils 9.1 and busybox 1.35.0 (testdata/size-suffix.txt).
 */

/** A count, or why it is refused (`overflow`: GNU's ERANGE, which its message names). */
export type Count = { ok: true; n: number } | { ok: false; overflow: boolean };

const MAX = (1n << 64n) - 1n;
const POWERS: Readonly<Record<string, number>> = { k: 1, K: 1, m: 2, M: 2, G: 3, T: 4, P: 5, E: 6, Z: 7, Y: 8 };

/** GNU's reading of an unsigned count with its suffix (no sign: the caller takes `-`/`+` off). */
export function gnuCount(s: string): Count {
  const m = /^(\d*)(.*)$/s.exec(s)!;
  const [, digits, rest] = m as unknown as [string, string, string];
  if (digits === '' && (rest === '' || !/^[bkKmMGTPEZY]/.test(rest))) return { ok: false, overflow: false };
  let v = digits === '' ? 1n : BigInt(digits);
  if (rest !== '') {
    const c = rest[0]!;
    if (!/[bkKmMGTPEZY]/.test(c)) return { ok: false, overflow: false };
    let base = 1024n;
    let len = 1;
    // `b` takes neither (`1bB` is refused)
    if (c === 'b') len = 1;
    else if (rest[1] === 'i' && rest[2] === 'B') len = 3;
    else if (rest[1] === 'B' || rest[1] === 'D') {
      base = 1000n;
      len = 2;
    }
    if (rest.length > len) return { ok: false, overflow: false };
    v *= c === 'b' ? 512n : base ** BigInt(POWERS[c]!);
  }
  if (v > MAX) return { ok: false, overflow: true };
  return { ok: true, n: Number(v) };
}

/** BusyBox's reading: decimal digits and at most one of its suffixes. */
export function busyboxCount(s: string): Count {
  const m = /^(\d+)([bkm]?)$/.exec(s);
  if (!m) return { ok: false, overflow: false };
  const v = BigInt(m[1]!) * ({ '': 1n, b: 512n, k: 1024n, m: 1048576n } as Record<string, bigint>)[m[2]!]!;
  if (v > MAX) return { ok: false, overflow: false };
  return { ok: true, n: Number(v) };
}

/** The error head or tail prints for a refused count. */
export function countError(cmd: string, spec: string, mode: 'n' | 'c', bb: boolean, overflow: boolean): string {
  if (bb) return `${cmd}: invalid number '${spec}'\n`;
  return `${cmd}: invalid number of ${mode === 'n' ? 'lines' : 'bytes'}: ‘${spec}’${overflow ? ': Value too large for defined data type' : ''}\n`;
}
