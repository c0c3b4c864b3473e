/**
 * Duration flags (`--timeout=30s`): pflag's DurationVar parses with Go's time.ParseDuration and
 * reports `invalid argument "abc" for "--timeout" flag: time: invalid duration "abc"`. The specs
 * declare these flags as strings (the recorder cannot tell a duration apart), so verbs parse the
 * value here; the FlagError prints with the `See 'kubectl X --help' for usage.` line like any other
 * bad flag value.
 */
import { FlagError, str, type Parsed } from './flags.js';

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** time.ParseDuration in milliseconds; throws Error with Go's message. */
export function parseGoDuration(s: string): number {
  const quoted = JSON.stringify(s);
  let rest = s;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest[0] === '-') sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw new Error(`time: invalid duration ${quoted}`);
  let total = 0;
  while (rest !== '') {
    const num = /^([0-9]*)(?:\.([0-9]*))?/.exec(rest)!;
    if (num[0] === '' || num[0] === '.') throw new Error(`time: invalid duration ${quoted}`);
    rest = rest.slice(num[0].length);
    const unit = /^[^0-9.]*/.exec(rest)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`);
    const mult = UNITS[unit];
    if (mult === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    rest = rest.slice(unit.length);
    total += Number(num[0]) * mult;
    // Go keeps durations in int64 nanoseconds: anything past ~292 years does not parse
    if (total * 1e6 > 2 ** 63 - 1) throw new Error(`time: invalid duration ${quoted}`);
  }
  return sign * total;
}

/** A duration flag's value in milliseconds (its declared default when not given). */
export function durationFlag(p: Parsed, name: string, fallback: number): number {
  const v = str(p.flags, name);
  if (v === undefined || v === '') return fallback;
  try {
    return parseGoDuration(v);
  } catch (e) {
    throw new FlagError(`invalid argument ${JSON.stringify(v)} for "--${name}" flag: ${(e as Error).message}`);
  }
}
