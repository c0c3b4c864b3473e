/**
 * Sprig's date functions (github.com/Masterminds/sprig/v3 date.go, functions.go): now, date,
 * dateInZone/date_in_zone, htmlDate, htmlDateInZone, dateModify/date_modify, mustDateModify,
 * toDate, mustToDate, unixEpoch, ago, duration, durationRound. `now` is time.Now, here the
 * caller's clock (the simulation's, never the wall clock). A date argument is a time.Time or Unix
 * seconds (int/int64); anything else means now, as dateInZone's type switch does. An unknown zone
 * falls back to UTC. toDate parses in time.Local, which is UTC on the simulated workstation.
 */
import { FuncError, type FuncDef, type FuncMap } from './funcs.js';
import { durationString, GoTime, GoTimeError, LOCAL, loadLocation, parseDuration, parseInLocation, UTC } from './go-time.js';
import { GoNum, type GoValue } from './value.js';

const f = (params: FuncDef['params'], call: FuncDef['call']): FuncDef => ({ params, call });
const A = 'any' as const;
const S = 'string' as const;
const T = 'time' as const;

/** A Go error as the function's error (`error calling NAME: MSG`). */
function goErr<R>(fn: () => R): R {
  try {
    return fn();
  } catch (e) {
    if (e instanceof GoTimeError) throw new FuncError(e.message);
    throw e;
  }
}

const NS = 1_000_000_000n;
const YEAR = 3600n * 24n * 365n * NS;
const MONTH = 3600n * 24n * 30n * NS;
const DAY = 3600n * 24n * NS;
const HOUR = 3600n * NS;
const MINUTE = 60n * NS;

/** time.Duration.Round(m) for m > 0: halfway values away from zero. */
function round(d: bigint, m: bigint): bigint {
  let r = d % m;
  if (d < 0n) {
    r = -r;
    return r + r < m ? d + r : d - m + r;
  }
  return r + r < m ? d - r : d + m - r;
}

/** Sprig's date functions on the clock `nowMs` (ms since the epoch). */
export function sprigDates(nowMs: () => number): FuncMap {
  const now = (): GoTime => GoTime.fromUnixMs(nowMs());
  /** dateInZone's argument switch: time.Time, or int/int64 Unix seconds; anything else is now. */
  const timeArg = (v: GoValue | undefined): GoTime => {
    if (v instanceof GoTime) return v;
    if (v instanceof GoNum && v.isInt) return new GoTime(v.v, 0, LOCAL);
    return now();
  };
  const dateInZone = (layout: string, d: GoValue | undefined, zone: string): string => timeArg(d).in(loadLocation(zone) ?? UTC).format(layout);
  const since = (t: GoTime): bigint => now().sub(t);
  const dateModify = f([S, T], ([fmt, d]) => {
    try {
      return (d as GoTime).add(parseDuration(fmt as string));
    } catch (e) {
      if (e instanceof GoTimeError) return d as GoTime;
      throw e;
    }
  });
  const mustDateModify = f([S, T], ([fmt, d]) => goErr(() => (d as GoTime).add(parseDuration(fmt as string))));
  const dateInZoneFn = f([S, A, S], ([fmt, d, z]) => dateInZone(fmt as string, d, z as string));
  return {
    now: f([], () => now()),
    date: f([S, A], ([fmt, d]) => dateInZone(fmt as string, d, 'Local')),
    dateInZone: dateInZoneFn,
    date_in_zone: dateInZoneFn,
    htmlDate: f([A], ([d]) => dateInZone('2006-01-02', d, 'Local')),
    htmlDateInZone: f([A, S], ([d, z]) => dateInZone('2006-01-02', d, z as string)),
    dateModify,
    date_modify: dateModify,
    mustDateModify,
    must_date_modify: mustDateModify,
    toDate: f([S, S], ([fmt, s]) => {
      try {
        return parseInLocation(fmt as string, s as string, LOCAL);
      } catch (e) {
        if (e instanceof GoTimeError) return GoTime.zero();
        throw e;
      }
    }),
    mustToDate: f([S, S], ([fmt, s]) => goErr(() => parseInLocation(fmt as string, s as string, LOCAL))),
    unixEpoch: f([T], ([d]) => String((d as GoTime).unix())),
    // dateAgo: time.Since(t).Round(time.Second)
    ago: f([A], ([d]) => {
      const t = d instanceof GoTime ? d : d instanceof GoNum && d.isInt ? new GoTime(d.v, 0, LOCAL) : now();
      return durationString(round(since(t), NS));
    }),
    // duration: a string of seconds or an int64; other types (a template's int literal) are 0
    duration: f([A], ([v]) => {
      let n = 0n;
      if (typeof v === 'string') n = /^[-+]?\d+$/.test(v) && BigInt(v) < 1n << 63n && BigInt(v) >= -(1n << 63n) ? BigInt(v) : 0n;
      else if (v instanceof GoNum && v.t === 'int64') n = BigInt(v.v);
      return durationString(BigInt.asIntN(64, n * NS));
    }),
    durationRound: f([A], ([v]) => {
      let d = 0n;
      if (typeof v === 'string') {
        try {
          d = parseDuration(v);
        } catch (e) {
          if (!(e instanceof GoTimeError)) throw e;
        }
      } else if (v instanceof GoNum && v.t === 'int64') d = BigInt(v.v);
      else if (v instanceof GoTime) d = since(v);
      const u = d < 0n ? -d : d;
      if (u > YEAR) return `${u / YEAR}y`;
      if (u > MONTH) return `${u / MONTH}mo`;
      if (u > DAY) return `${u / DAY}d`;
      if (u > HOUR) return `${u / HOUR}h`;
      if (u > MINUTE) return `${u / MINUTE}m`;
      if (u > NS) return `${u / NS}s`;
      return '0s';
    }),
  };
}
