/**
 * Go's time package as templates see it (golang src/time/format.go, time.go, zoneinfo.go): a
 * time.Time value (Unix seconds, nanoseconds, a Location), Time.Format and time.Parse /
 * ParseInLocation over the reference-time layouts (nextStdChunk's chunks: January/Jan,
 * Monday/Mon, MST, 01…06, 002, 1, 15, 2006, 2, _2, __2, 3, 4, 5, PM/pm, the -0700/Z07:00 offset
 * families, .000/.999 fractions), ParseError's texts (`parsing time "nope" as "2006-01-02": cannot
 * parse "nope" as "2006"`), Time.String(), Duration.String() and time.ParseDuration with its
 * errors (`time: invalid duration "zz"`). Durations are int64 nanoseconds (bigint).
 *
 * Locations: UTC; Local, which is UTC on the simulated workstation (no TZ, no /etc/localtime: Go
 * names it "UTC"); FixedZone; and IANA names resolved through Intl (the offsets of the tz
 * database). Go prints the tz database's abbreviation (JST, CET, EST); Intl's en-US short names
 * give the American ones, ZONE_ABBREVIATIONS the common others, and the rest print as tzdata's
 * numeric abbreviations do (`+03`, `+0530`).
 */

export interface GoZone {
  /** Abbreviation (`UTC`, `JST`, `+03`). */
  name: string;
  /** Seconds east of UTC. */
  offset: number;
}

export interface GoLocation {
  /** Location.String(): `UTC`, `Local`, `Asia/Tokyo`. */
  readonly name: string;
  lookup(unixSec: number): GoZone;
}

export const UTC: GoLocation = { name: 'UTC', lookup: () => ({ name: 'UTC', offset: 0 }) };
/** time.Local of the simulated helm: the workstation runs in UTC. */
export const LOCAL: GoLocation = { name: 'Local', lookup: () => ({ name: 'UTC', offset: 0 }) };

export function fixedZone(name: string, offset: number): GoLocation {
  return { name, lookup: () => ({ name, offset }) };
}

/** tzdata abbreviations (standard, daylight) for zones en-US Intl prints as GMT±h. */
const ZONE_ABBREVIATIONS: Record<string, [string, string]> = {
  'Asia/Tokyo': ['JST', 'JDT'],
  'Asia/Seoul': ['KST', 'KDT'],
  'Asia/Kolkata': ['IST', 'IST'],
  'Asia/Calcutta': ['IST', 'IST'],
  'Asia/Shanghai': ['CST', 'CDT'],
  'Asia/Hong_Kong': ['HKT', 'HKST'],
  'Asia/Taipei': ['CST', 'CDT'],
  'Asia/Manila': ['PST', 'PDT'],
  'Asia/Jakarta': ['WIB', 'WIB'],
  'Asia/Karachi': ['PKT', 'PKST'],
  'Asia/Jerusalem': ['IST', 'IDT'],
  'Europe/London': ['GMT', 'BST'],
  'Europe/Dublin': ['GMT', 'IST'],
  'Europe/Lisbon': ['WET', 'WEST'],
  'Europe/Moscow': ['MSK', 'MSD'],
  'Africa/Johannesburg': ['SAST', 'SAST'],
  'Africa/Lagos': ['WAT', 'WAT'],
  'Africa/Nairobi': ['EAT', 'EAT'],
  'Africa/Cairo': ['EET', 'EEST'],
  'Australia/Sydney': ['AEST', 'AEDT'],
  'Australia/Melbourne': ['AEST', 'AEDT'],
  'Australia/Hobart': ['AEST', 'AEDT'],
  'Australia/Brisbane': ['AEST', 'AEDT'],
  'Australia/Adelaide': ['ACST', 'ACDT'],
  'Australia/Darwin': ['ACST', 'ACDT'],
  'Australia/Perth': ['AWST', 'AWDT'],
  'Pacific/Auckland': ['NZST', 'NZDT'],
};
const CET = ['Paris', 'Berlin', 'Amsterdam', 'Madrid', 'Rome', 'Vienna', 'Stockholm', 'Oslo', 'Copenhagen', 'Brussels', 'Zurich', 'Prague', 'Warsaw', 'Budapest', 'Belgrade', 'Luxembourg', 'Monaco', 'Malta', 'Bratislava', 'Ljubljana', 'Zagreb', 'Andorra', 'Tirane', 'Sarajevo', 'Skopje', 'Podgorica', 'Vaduz', 'San_Marino', 'Vatican', 'Gibraltar'];
const EET = ['Athens', 'Helsinki', 'Kiev', 'Kyiv', 'Bucharest', 'Sofia', 'Riga', 'Tallinn', 'Vilnius', 'Chisinau'];
for (const c of CET) ZONE_ABBREVIATIONS[`Europe/${c}`] = ['CET', 'CEST'];
for (const c of EET) ZONE_ABBREVIATIONS[`Europe/${c}`] = ['EET', 'EEST'];

/** Seconds east of UTC in `zone` at the instant (Intl's wall clock minus the instant). */
function intlOffset(fmt: Intl.DateTimeFormat, unixSec: number): number {
  const ms = Math.max(-8.64e15, Math.min(8.64e15, Math.floor(unixSec) * 1000));
  const p = Object.fromEntries(fmt.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const era = p['era'] === 'BC' ? -1 : 1;
  const y = era < 0 ? 1 - Number(p['year']) : Number(p['year']);
  const wall = daysFromCivil(y, Number(p['month']), Number(p['day'])) * 86400 + Number(p['hour']) * 3600 + Number(p['minute']) * 60 + Number(p['second']);
  return wall - Math.floor(ms / 1000);
}

/** time.LoadLocation: undefined when the name is not a zone. */
export function loadLocation(name: string): GoLocation | undefined {
  if (name === '' || name === 'UTC') return UTC;
  if (name === 'Local') return LOCAL;
  let fmt: Intl.DateTimeFormat;
  let shortFmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', { timeZone: name, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    shortFmt = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'short' });
  } catch {
    return undefined;
  }
  // the tz database's file names are case-sensitive; Intl is not
  if (!/^[A-Z]/.test(name) && !/^(Etc|GMT)/.test(name)) return undefined;
  return {
    name,
    lookup(unixSec: number): GoZone {
      const offset = intlOffset(fmt, unixSec);
      const short = shortFmt.formatToParts(new Date(Math.floor(unixSec) * 1000)).find((x) => x.type === 'timeZoneName')?.value ?? '';
      if (/^[A-Z]{3,5}$/.test(short) && short !== 'GMT') return { name: short, offset };
      const pair = ZONE_ABBREVIATIONS[name];
      if (pair) {
        const year = civilFromDays(Math.floor(unixSec / 86400))[0];
        const jan = intlOffset(fmt, daysFromCivil(year, 1, 1) * 86400);
        const jul = intlOffset(fmt, daysFromCivil(year, 7, 1) * 86400);
        return { name: offset > Math.min(jan, jul) ? pair[1] : pair[0], offset };
      }
      if (offset === 0 && (short === 'GMT' || short === 'UTC')) return { name: /UTC|UCT|Zulu|Universal/.test(name) ? 'UTC' : 'GMT', offset };
      const a = Math.abs(offset);
      const hh = String(Math.floor(a / 3600)).padStart(2, '0');
      const mm = Math.floor((a % 3600) / 60);
      return { name: `${offset < 0 ? '-' : '+'}${hh}${mm ? String(mm).padStart(2, '0') : ''}`, offset };
    },
  };
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** [year, month 1-12, day] of a day count since 1970-01-01 (civil_from_days). */
export function civilFromDays(z0: number): [number, number, number] {
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const daysIn = (m: number, y: number): number => (m === 2 ? (isLeap(y) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!);

const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const SHORT_DAYS = LONG_DAYS.map((d) => d.slice(0, 3));
const SHORT_MONTHS = LONG_MONTHS.map((m) => m.slice(0, 3));

/** The Unix second of Go's zero Time, January 1, year 1, 00:00:00 UTC. */
const ZERO_UNIX = daysFromCivil(1, 1, 1) * 86400;

/** A time.Time: an instant (Unix seconds and nanoseconds) and the Location it displays in. */
export class GoTime {
  constructor(
    readonly sec: number,
    readonly nsec: number,
    readonly loc: GoLocation,
  ) {}

  static zero(): GoTime {
    return new GoTime(ZERO_UNIX, 0, UTC);
  }
  static fromUnixMs(ms: number, loc: GoLocation = LOCAL): GoTime {
    const sec = Math.floor(ms / 1000);
    return new GoTime(sec, Math.round((ms - sec * 1000) * 1e6), loc);
  }
  /** time.Date: the wall clock in `loc` (normalizing out-of-range fields). */
  static date(y: number, mo: number, d: number, h: number, mi: number, s: number, ns: number, loc: GoLocation): GoTime {
    const yy = y + Math.floor((mo - 1) / 12);
    const mm = ((((mo - 1) % 12) + 12) % 12) + 1;
    const wall = (daysFromCivil(yy, mm, 1) + d - 1) * 86400 + h * 3600 + mi * 60 + s + Math.floor(ns / 1e9);
    const nsec = ((ns % 1e9) + 1e9) % 1e9;
    // zoneinfo's lookup twice, as time.Date does around transitions
    let off = loc.lookup(wall).offset;
    const off2 = loc.lookup(wall - off).offset;
    if (off2 !== off) off = off2;
    return new GoTime(wall - off, nsec, loc);
  }

  isZero(): boolean {
    return this.sec === ZERO_UNIX && this.nsec === 0;
  }
  unix(): number {
    return this.sec;
  }
  in(loc: GoLocation): GoTime {
    return new GoTime(this.sec, this.nsec, loc);
  }
  /** t.Add(d) for a Duration in nanoseconds. */
  add(d: bigint): GoTime {
    const total = BigInt(this.nsec) + d;
    const secs = total / 1_000_000_000n - (total % 1_000_000_000n < 0n ? 1n : 0n);
    return new GoTime(this.sec + Number(secs), Number(total - secs * 1_000_000_000n), this.loc);
  }
  /** t.Sub(u) in nanoseconds. */
  sub(u: GoTime): bigint {
    return BigInt(this.sec - u.sec) * 1_000_000_000n + BigInt(this.nsec - u.nsec);
  }

  format(layout: string): string {
    const zone = this.loc.lookup(this.sec);
    const abs = this.sec + zone.offset;
    const days = Math.floor(abs / 86400);
    const secOfDay = abs - days * 86400;
    const [year, month, day] = civilFromDays(days);
    const yday = days - daysFromCivil(year, 1, 1) + 1;
    const hour = Math.floor(secOfDay / 3600);
    const min = Math.floor((secOfDay % 3600) / 60);
    const sec = secOfDay % 60;
    const weekday = (((days + 4) % 7) + 7) % 7;
    let out = '';
    let rest = layout;
    while (rest !== '') {
      const { prefix, std, suffix } = nextStdChunk(rest);
      out += prefix;
      if (std === undefined) break;
      rest = suffix;
      out += formatChunk(std, { year, month, day, yday, hour, min, sec, weekday, nsec: this.nsec, zone });
    }
    return out;
  }

  /** Time.String() (no monotonic reading: the simulated clock has none). */
  toString(): string {
    return this.format('2006-01-02 15:04:05.999999999 -0700 MST');
  }
}

type Std =
  | { k: 'LongMonth' | 'Month' | 'NumMonth' | 'ZeroMonth' | 'LongWeekDay' | 'WeekDay' | 'Day' | 'UnderDay' | 'ZeroDay' | 'UnderYearDay' | 'ZeroYearDay' }
  | { k: 'Hour' | 'Hour12' | 'ZeroHour12' | 'Minute' | 'ZeroMinute' | 'Second' | 'ZeroSecond' | 'LongYear' | 'Year' | 'PM' | 'pm' | 'TZ' }
  | { k: 'ISO8601TZ' | 'ISO8601SecondsTZ' | 'ISO8601ShortTZ' | 'ISO8601ColonTZ' | 'ISO8601ColonSecondsTZ' | 'NumTZ' | 'NumSecondsTz' | 'NumShortTZ' | 'NumColonTZ' | 'NumColonSecondsTZ' }
  | { k: 'Frac0' | 'Frac9'; digits: number; sep: string };

const STD0X = ['ZeroMonth', 'ZeroDay', 'ZeroHour12', 'ZeroMinute', 'ZeroSecond', 'Year'] as const;
const startsLower = (s: string): boolean => /^[a-z]/.test(s);
const isDigitAt = (s: string, i: number): boolean => i < s.length && s[i]! >= '0' && s[i]! <= '9';

/** format.go nextStdChunk: the text before the first layout element, the element, and the rest. */
export function nextStdChunk(layout: string): { prefix: string; std?: Std; stdText: string; suffix: string } {
  const at = (i: number, s: string): boolean => layout.startsWith(s, i);
  const chunk = (i: number, len: number, std: Std, pre = i): { prefix: string; std: Std; stdText: string; suffix: string } => ({ prefix: layout.slice(0, pre), std, stdText: layout.slice(pre, i + len), suffix: layout.slice(i + len) });
  for (let i = 0; i < layout.length; i++) {
    const c = layout[i]!;
    switch (c) {
      case 'J':
        if (at(i, 'Jan')) {
          if (at(i, 'January')) return chunk(i, 7, { k: 'LongMonth' });
          if (!startsLower(layout.slice(i + 3))) return chunk(i, 3, { k: 'Month' });
        }
        break;
      case 'M':
        if (at(i, 'Mon')) {
          if (at(i, 'Monday')) return chunk(i, 6, { k: 'LongWeekDay' });
          if (!startsLower(layout.slice(i + 3))) return chunk(i, 3, { k: 'WeekDay' });
        }
        if (at(i, 'MST')) return chunk(i, 3, { k: 'TZ' });
        break;
      case '0':
        if (i + 1 < layout.length && layout[i + 1]! >= '1' && layout[i + 1]! <= '6') return chunk(i, 2, { k: STD0X[layout.charCodeAt(i + 1) - 49]! });
        if (at(i, '002')) return chunk(i, 3, { k: 'ZeroYearDay' });
        break;
      case '1':
        if (at(i, '15')) return chunk(i, 2, { k: 'Hour' });
        return chunk(i, 1, { k: 'NumMonth' });
      case '2':
        if (at(i, '2006')) return chunk(i, 4, { k: 'LongYear' });
        return chunk(i, 1, { k: 'Day' });
      case '_':
        if (layout[i + 1] === '2') {
          // _2006 is a literal _ then the year
          if (at(i + 1, '2006')) return chunk(i + 1, 4, { k: 'LongYear' }, i + 1);
          return chunk(i, 2, { k: 'UnderDay' });
        }
        if (at(i, '__2')) return chunk(i, 3, { k: 'UnderYearDay' });
        break;
      case '3':
        return chunk(i, 1, { k: 'Hour12' });
      case '4':
        return chunk(i, 1, { k: 'Minute' });
      case '5':
        return chunk(i, 1, { k: 'Second' });
      case 'P':
        if (layout[i + 1] === 'M') return chunk(i, 2, { k: 'PM' });
        break;
      case 'p':
        if (layout[i + 1] === 'm') return chunk(i, 2, { k: 'pm' });
        break;
      case '-':
        if (at(i, '-070000')) return chunk(i, 7, { k: 'NumSecondsTz' });
        if (at(i, '-07:00:00')) return chunk(i, 9, { k: 'NumColonSecondsTZ' });
        if (at(i, '-0700')) return chunk(i, 5, { k: 'NumTZ' });
        if (at(i, '-07:00')) return chunk(i, 6, { k: 'NumColonTZ' });
        if (at(i, '-07')) return chunk(i, 3, { k: 'NumShortTZ' });
        break;
      case 'Z':
        if (at(i, 'Z070000')) return chunk(i, 7, { k: 'ISO8601SecondsTZ' });
        if (at(i, 'Z07:00:00')) return chunk(i, 9, { k: 'ISO8601ColonSecondsTZ' });
        if (at(i, 'Z0700')) return chunk(i, 5, { k: 'ISO8601TZ' });
        if (at(i, 'Z07:00')) return chunk(i, 6, { k: 'ISO8601ColonTZ' });
        if (at(i, 'Z07')) return chunk(i, 3, { k: 'ISO8601ShortTZ' });
        break;
      case '.':
      case ',':
        if (layout[i + 1] === '0' || layout[i + 1] === '9') {
          const ch = layout[i + 1]!;
          let j = i + 1;
          while (j < layout.length && layout[j] === ch) j++;
          if (!isDigitAt(layout, j)) return chunk(i, j - i, { k: ch === '0' ? 'Frac0' : 'Frac9', digits: j - (i + 1), sep: c });
        }
        break;
      default:
        break;
    }
  }
  return { prefix: layout, stdText: '', suffix: '' };
}

const pad = (n: number, w: number): string => (n < 0 ? `-${String(-n).padStart(w, '0')}` : String(n).padStart(w, '0'));

interface Fields {
  year: number;
  month: number;
  day: number;
  yday: number;
  hour: number;
  min: number;
  sec: number;
  weekday: number;
  nsec: number;
  zone: GoZone;
}

function formatChunk(std: Std, t: Fields): string {
  switch (std.k) {
    case 'Year':
      return pad(Math.abs(t.year) % 100, 2);
    case 'LongYear':
      return pad(t.year, 4);
    case 'Month':
      return SHORT_MONTHS[t.month - 1]!;
    case 'LongMonth':
      return LONG_MONTHS[t.month - 1]!;
    case 'NumMonth':
      return String(t.month);
    case 'ZeroMonth':
      return pad(t.month, 2);
    case 'WeekDay':
      return SHORT_DAYS[t.weekday]!;
    case 'LongWeekDay':
      return LONG_DAYS[t.weekday]!;
    case 'Day':
      return String(t.day);
    case 'UnderDay':
      return (t.day < 10 ? ' ' : '') + String(t.day);
    case 'ZeroDay':
      return pad(t.day, 2);
    case 'UnderYearDay':
      return String(t.yday).padStart(3, ' ');
    case 'ZeroYearDay':
      return pad(t.yday, 3);
    case 'Hour':
      return pad(t.hour, 2);
    case 'Hour12':
      return String(t.hour % 12 || 12);
    case 'ZeroHour12':
      return pad(t.hour % 12 || 12, 2);
    case 'Minute':
      return String(t.min);
    case 'ZeroMinute':
      return pad(t.min, 2);
    case 'Second':
      return String(t.sec);
    case 'ZeroSecond':
      return pad(t.sec, 2);
    case 'PM':
      return t.hour >= 12 ? 'PM' : 'AM';
    case 'pm':
      return t.hour >= 12 ? 'pm' : 'am';
    case 'TZ': {
      if (t.zone.name !== '') return t.zone.name;
      const z = Math.trunc(t.zone.offset / 60);
      return `${z < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(z) / 60), 2)}${pad(Math.abs(z) % 60, 2)}`;
    }
    case 'Frac0':
    case 'Frac9': {
      const trim = std.k === 'Frac9';
      if (trim && (std.digits === 0 || t.nsec === 0)) return '';
      let s = std.sep + pad(t.nsec, 9).slice(0, Math.min(9, std.digits));
      if (trim) s = s.replace(/0+$/, '').replace(/[.,]$/, '');
      return s;
    }
    default: {
      const iso = std.k.startsWith('ISO');
      if (t.zone.offset === 0 && iso) return 'Z';
      const colon = /Colon/.test(std.k);
      const short = /Short/.test(std.k);
      const secs = /Seconds/i.test(std.k);
      const off = Math.abs(t.zone.offset);
      const z = Math.floor(off / 60);
      let s = (t.zone.offset < 0 ? '-' : '+') + pad(Math.floor(z / 60), 2);
      if (colon) s += ':';
      if (!short) s += pad(z % 60, 2);
      if (secs) s += (colon ? ':' : '') + pad(off % 60, 2);
      return s;
    }
  }
}

/** format.go quote: Go-quoted, non-ASCII and control bytes as \x escapes. */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

export class GoTimeError extends Error {}

function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigitAt(s, 0)) return undefined;
  if (!isDigitAt(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}
function getnum3(s: string, fixed: boolean): [number, string] | undefined {
  let i = 0;
  while (i < 3 && isDigitAt(s, i)) i++;
  if (i === 0 || (fixed && i !== 3)) return undefined;
  return [Number(s.slice(0, i)), s.slice(i)];
}
function lookupName(tab: readonly string[], val: string): [number, string] | undefined {
  for (let i = 0; i < tab.length; i++) if (val.length >= tab[i]!.length && val.slice(0, tab[i]!.length).toLowerCase() === tab[i]!.toLowerCase()) return [i, val.slice(tab[i]!.length)];
  return undefined;
}
/** format.go skip: the prefix must be in value, runs of spaces matching runs of spaces. */
function skip(value: string, prefix: string): string | undefined {
  let v = value;
  let p = prefix;
  while (p.length > 0) {
    if (p[0] === ' ') {
      if (v.length > 0 && v[0] !== ' ') return undefined;
      p = p.replace(/^ +/, '');
      v = v.replace(/^ +/, '');
      continue;
    }
    if (v.length === 0 || v[0] !== p[0]) return undefined;
    p = p.slice(1);
    v = v.slice(1);
  }
  return v;
}
function parseTimeZone(value: string): number {
  if (value.length < 3) return 0;
  if (value.startsWith('ChST') || value.startsWith('MeST')) return 4;
  if (value.startsWith('GMT')) return 3 + signedOffset(value.slice(3));
  if (value[0] === '+' || value[0] === '-') return signedOffset(value);
  let n = 0;
  while (n < 6 && n < value.length && value[n]! >= 'A' && value[n]! <= 'Z') n++;
  if (n === 3) return 3;
  if (n === 4 && (value[3] === 'T' || value.startsWith('WITA'))) return 4;
  if (n === 5 && value[4] === 'T') return 5;
  return 0;
}
function signedOffset(value: string): number {
  if (value[0] !== '+' && value[0] !== '-') return 0;
  const m = /^\d+/.exec(value.slice(1));
  if (!m || Number(m[0]) > 23) return 0;
  return 1 + m[0].length;
}

/** time.ParseInLocation(layout, value, loc) (also time.Parse with loc = UTC). */
export function parseInLocation(layout: string, value: string, loc: GoLocation): GoTime {
  const alayout = layout;
  const avalue = value;
  const err = (layoutElem: string, valueElem: string, message = ''): never => {
    throw new GoTimeError(message === '' ? `parsing time ${quote(avalue)} as ${quote(alayout)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}` : `parsing time ${quote(avalue)}${message}`);
  };
  let year = 0;
  let month = -1;
  let day = -1;
  let yday = -1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let z: GoLocation | undefined;
  let zoneOffset = -1;
  let zoneName = '';
  let amSet = false;
  let pmSet = false;
  let lay = layout;
  let val = value;
  for (;;) {
    const { prefix, std, stdText, suffix } = nextStdChunk(lay);
    const skipped = skip(val, prefix);
    if (skipped === undefined) err(prefix, val);
    val = skipped!;
    if (std === undefined) {
      if (val.length !== 0) err('', val, `: extra text: ${quote(val)}`);
      break;
    }
    lay = suffix;
    const hold = val;
    let bad = false;
    let range = '';
    const num = (r: [number, string] | undefined): number => {
      if (!r) {
        bad = true;
        return 0;
      }
      val = r[1];
      return r[0];
    };
    switch (std.k) {
      case 'Year':
        if (val.length < 2 || !/^\d\d/.test(val)) bad = true;
        else {
          year = Number(val.slice(0, 2));
          year += year >= 69 ? 1900 : 2000;
          val = val.slice(2);
        }
        break;
      case 'LongYear':
        if (val.length < 4 || !/^\d{4}/.test(val)) bad = true;
        else {
          year = Number(val.slice(0, 4));
          val = val.slice(4);
        }
        break;
      case 'Month':
      case 'LongMonth': {
        const r = lookupName(std.k === 'Month' ? SHORT_MONTHS : LONG_MONTHS, val);
        month = num(r) + 1;
        break;
      }
      case 'NumMonth':
      case 'ZeroMonth':
        month = num(getnum(val, std.k === 'ZeroMonth'));
        if (!bad && (month <= 0 || month > 12)) range = 'month';
        break;
      case 'WeekDay':
      case 'LongWeekDay':
        num(lookupName(std.k === 'WeekDay' ? SHORT_DAYS : LONG_DAYS, val));
        break;
      case 'Day':
      case 'UnderDay':
      case 'ZeroDay':
        if (std.k === 'UnderDay' && val[0] === ' ') val = val.slice(1);
        day = num(getnum(val, std.k === 'ZeroDay'));
        break;
      case 'UnderYearDay':
      case 'ZeroYearDay':
        if (std.k === 'UnderYearDay') val = val.replace(/^ {1,2}/, '');
        yday = num(getnum3(val, std.k === 'ZeroYearDay'));
        break;
      case 'Hour':
        hour = num(getnum(val, false));
        if (hour >= 24) range = 'hour';
        break;
      case 'Hour12':
      case 'ZeroHour12':
        hour = num(getnum(val, std.k === 'ZeroHour12'));
        if (hour > 12) range = 'hour';
        break;
      case 'Minute':
      case 'ZeroMinute':
        min = num(getnum(val, std.k === 'ZeroMinute'));
        if (min >= 60) range = 'minute';
        break;
      case 'Second':
      case 'ZeroSecond': {
        sec = num(getnum(val, std.k === 'ZeroSecond'));
        if (bad) break;
        if (sec >= 60) {
          range = 'second';
          break;
        }
        // a fractional second in the input the layout does not name
        if (val.length >= 2 && (val[0] === '.' || val[0] === ',') && isDigitAt(val, 1)) {
          const next = nextStdChunk(lay).std;
          if (next && (next.k === 'Frac0' || next.k === 'Frac9')) break;
          let n = 2;
          while (n < val.length && isDigitAt(val, n)) n++;
          nsec = fracNanos(val.slice(1, Math.min(n, 10)));
          val = val.slice(n);
        }
        break;
      }
      case 'PM':
      case 'pm': {
        const p = val.slice(0, 2);
        const [am, pm] = std.k === 'PM' ? ['AM', 'PM'] : ['am', 'pm'];
        if (val.length < 2 || (p !== am && p !== pm)) bad = true;
        else {
          if (p === pm) pmSet = true;
          else amSet = true;
          val = val.slice(2);
        }
        break;
      }
      case 'TZ':
        if (val.startsWith('UTC')) {
          z = UTC;
          val = val.slice(3);
          break;
        }
        {
          const n = parseTimeZone(val);
          if (n === 0) bad = true;
          else {
            zoneName = val.slice(0, n);
            val = val.slice(n);
          }
        }
        break;
      case 'Frac0': {
        const ndigit = 1 + std.digits;
        if (val.length < ndigit || (val[0] !== '.' && val[0] !== ',') || !/^\d+$/.test(val.slice(1, ndigit))) bad = true;
        else {
          nsec = fracNanos(val.slice(1, Math.min(ndigit, 10)));
          val = val.slice(ndigit);
        }
        break;
      }
      case 'Frac9': {
        if (val.length < 2 || (val[0] !== '.' && val[0] !== ',') || !isDigitAt(val, 1)) break;
        let i = 0;
        while (i + 1 < val.length && isDigitAt(val, i + 1)) i++;
        nsec = fracNanos(val.slice(1, Math.min(1 + i, 10)));
        val = val.slice(1 + i);
        break;
      }
      default: {
        if (std.k.startsWith('ISO') && val[0] === 'Z') {
          val = val.slice(1);
          z = UTC;
          break;
        }
        const colon = /Colon/.test(std.k);
        const short = /Short/.test(std.k);
        const secs = /Seconds/i.test(std.k);
        const need = 1 + 2 + (short ? 0 : (colon ? 1 : 0) + 2) + (secs ? (colon ? 1 : 0) + 2 : 0);
        const part = val.slice(0, need);
        if (part.length < need || (colon && (part[3] !== ':' || (secs && part[6] !== ':')))) {
          bad = true;
          break;
        }
        const digits = part.slice(1).replace(/:/g, '');
        if (!/^\d+$/.test(digits)) {
          bad = true;
          break;
        }
        const hr = Number(digits.slice(0, 2));
        const mm = short ? 0 : Number(digits.slice(2, 4));
        const ss = secs ? Number(digits.slice(4, 6)) : 0;
        if (hr > 24) range = 'time zone offset hour';
        if (mm > 60) range = 'time zone offset minute';
        if (ss > 60) range = 'time zone offset second';
        zoneOffset = (hr * 60 + mm) * 60 + ss;
        if (part[0] === '-') zoneOffset = -zoneOffset;
        else if (part[0] !== '+') bad = true;
        val = val.slice(need);
        break;
      }
    }
    if (range !== '') err(stdText, val, `: ${range} out of range`);
    if (bad) err(stdText, hold);
  }
  if (pmSet && hour < 12) hour += 12;
  else if (amSet && hour === 12) hour = 0;
  if (yday >= 0) {
    let d = 0;
    let m = 0;
    let yd = yday;
    if (isLeap(year)) {
      if (yd === 31 + 29) {
        m = 2;
        d = 29;
      } else if (yd > 31 + 29) yd--;
    }
    if (yd < 1 || yd > 365) err('', val, ': day-of-year out of range');
    if (m === 0) {
      const before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];
      m = Math.floor((yd - 1) / 31) + 1;
      if (before[m]! < yd) m++;
      d = yd - before[m - 1]!;
    }
    if (month >= 0 && month !== m) err('', val, ': day-of-year does not match month');
    month = m;
    if (day >= 0 && day !== d) err('', val, ': day-of-year does not match day');
    day = d;
  } else {
    if (month < 0) month = 1;
    if (day < 0) day = 1;
  }
  if (day < 1 || day > daysIn(month, year)) err('', val, ': day out of range');
  if (z) return GoTime.date(year, month, day, hour, min, sec, nsec, z);
  if (zoneOffset !== -1) {
    const t = GoTime.date(year, month, day, hour, min, sec, nsec, UTC);
    const utc = new GoTime(t.sec - zoneOffset, t.nsec, UTC);
    const local = loc.lookup(utc.sec);
    if (local.offset === zoneOffset && (zoneName === '' || local.name === zoneName)) return utc.in(loc);
    return utc.in(fixedZone(zoneName, zoneOffset));
  }
  if (zoneName !== '') {
    const t = GoTime.date(year, month, day, hour, min, sec, nsec, UTC);
    const local = loc.lookup(t.sec);
    if (local.name === zoneName) return new GoTime(t.sec - local.offset, t.nsec, loc);
    let offset = 0;
    if (zoneName.length > 3 && zoneName.startsWith('GMT')) offset = Number(zoneName.slice(3)) * 3600;
    return new GoTime(t.sec, t.nsec, fixedZone(zoneName, offset));
  }
  return GoTime.date(year, month, day, hour, min, sec, nsec, loc);
}

function fracNanos(digits: string): number {
  return Number(digits.slice(0, 9).padEnd(9, '0'));
}

/** Duration.String(): `1h0m0s`, `1.5s`, `300ms`, `0s`. */
export function durationString(d: bigint): string {
  if (d === 0n) return '0s';
  const neg = d < 0n;
  const u = neg ? -d : d;
  const frac = (v: bigint, prec: number): string => {
    const p = 10n ** BigInt(prec);
    const f = (v % p).toString().padStart(prec, '0').replace(/0+$/, '');
    return `${v / p}${f ? `.${f}` : ''}`;
  };
  let s: string;
  if (u < 1_000_000_000n) {
    if (u < 1000n) s = `${u}ns`;
    else if (u < 1_000_000n) s = `${frac(u, 3)}µs`;
    else s = `${frac(u, 6)}ms`;
  } else {
    const secs = u / 1_000_000_000n;
    const f = (u % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
    s = `${secs % 60n}${f ? `.${f}` : ''}s`;
    const mins = secs / 60n;
    if (mins > 0n) {
      s = `${mins % 60n}m${s}`;
      const hours = mins / 60n;
      if (hours > 0n) s = `${hours}h${s}`;
    }
  }
  return neg ? `-${s}` : s;
}

const UNITS: Record<string, bigint> = { ns: 1n, us: 1000n, 'µs': 1000n, 'μs': 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };
const MAX_INT64 = (1n << 63n) - 1n;

/** time.ParseDuration: nanoseconds, or GoTimeError with Go's text. */
export function parseDuration(orig: string): bigint {
  const invalid = (): never => {
    throw new GoTimeError(`time: invalid duration ${quote(orig)}`);
  };
  let s = orig;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') invalid();
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || (s[0]! >= '0' && s[0]! <= '9'))) invalid();
    const intPart = /^\d*/.exec(s)![0];
    s = s.slice(intPart.length);
    if (intPart.length > 19 || (intPart !== '' && BigInt(intPart) > 1n << 63n)) invalid();
    const v0 = intPart === '' ? 0n : BigInt(intPart);
    let fracPart = '';
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      fracPart = /^\d*/.exec(s)![0];
      s = s.slice(fracPart.length);
      post = fracPart !== '';
    }
    if (intPart === '' && !post) invalid();
    const unitText = /^[^.\d]*/.exec(s)![0];
    if (unitText === '') throw new GoTimeError(`time: missing unit in duration ${quote(orig)}`);
    s = s.slice(unitText.length);
    const unit = UNITS[unitText];
    if (unit === undefined) throw new GoTimeError(`time: unknown unit ${quote(unitText)} in duration ${quote(orig)}`);
    if (v0 > (1n << 63n) / unit) invalid();
    let v = v0 * unit;
    if (fracPart !== '') {
      const f = fracPart.slice(0, 18);
      v += BigInt(Math.floor(Number(f) * (Number(unit) / 10 ** f.length)));
      if (v > 1n << 63n) invalid();
    }
    d += v;
    if (d > 1n << 63n) invalid();
  }
  if (neg) return -d;
  if (d > MAX_INT64) invalid();
  return d;
}
