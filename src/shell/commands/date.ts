/**
 * date — GNU coreutils src/date.c on the simulated clock (ctx.now()), always UTC: the default
 * `Wed Dec  2 10:00:00 UTC 2026` format, `+FORMAT` with the common strftime conversions, -u,
 * -d @SECONDS / -d 'RFC 3339' / --date, -I / --iso-8601, -R.
 */
import type { CommandFn } from '../types.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];


/** strftime over a UTC instant. */
export function strftime(fmt: string, ms: number): string {
  const d = new Date(ms);
  const Y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const day = d.getUTCDate();
  const H = d.getUTCHours();
  const M = d.getUTCMinutes();
  const S = d.getUTCSeconds();
  const wd = d.getUTCDay();
  const yday = Math.floor((Date.UTC(Y, m, day) - Date.UTC(Y, 0, 1)) / 86400000) + 1;
  const h12 = H % 12 === 0 ? 12 : H % 12;
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== '%' || i + 1 >= fmt.length) {
      out += c;
      continue;
    }
    let f = fmt[++i]!;
    let padMode: '' | '-' | '_' | '0' = '';
    if (f === '-' || f === '_' || f === '0') {
      padMode = f;
      f = fmt[++i] ?? '';
    }
    const num = (n: number, width: number, padChar = '0'): string => {
      if (padMode === '-') return String(n);
      return String(n).padStart(width, padMode === '_' ? ' ' : padMode === '0' ? '0' : padChar);
    };
    switch (f) {
      case 'a': out += DAYS[wd]!.slice(0, 3); break;
      case 'A': out += DAYS[wd]; break;
      case 'b': case 'h': out += MONTHS[m]!.slice(0, 3); break;
      case 'B': out += MONTHS[m]; break;
      case 'c': out += strftime('%a %b %e %H:%M:%S %Y', ms); break;
      case 'C': out += num(Math.floor(Y / 100), 2); break;
      case 'd': out += num(day, 2); break;
      case 'D': out += strftime('%m/%d/%y', ms); break;
      case 'e': out += num(day, 2, ' '); break;
      case 'F': out += strftime('%Y-%m-%d', ms); break;
      case 'H': out += num(H, 2); break;
      case 'I': out += num(h12, 2); break;
      case 'j': out += num(yday, 3); break;
      case 'k': out += num(H, 2, ' '); break;
      case 'l': out += num(h12, 2, ' '); break;
      case 'm': out += num(m + 1, 2); break;
      case 'M': out += num(M, 2); break;
      case 'n': out += '\n'; break;
      case 'N': out += String((ms % 1000) * 1_000_000).padStart(9, '0'); break;
      case 'p': out += H < 12 ? 'AM' : 'PM'; break;
      case 'P': out += H < 12 ? 'am' : 'pm'; break;
      case 'r': out += strftime('%I:%M:%S %p', ms); break;
      case 'R': out += strftime('%H:%M', ms); break;
      case 's': out += String(Math.floor(ms / 1000)); break;
      case 'S': out += num(S, 2); break;
      case 't': out += '\t'; break;
      case 'T': out += strftime('%H:%M:%S', ms); break;
      case 'u': out += String(wd === 0 ? 7 : wd); break;
      case 'w': out += String(wd); break;
      case 'x': out += strftime('%m/%d/%y', ms); break;
      case 'X': out += strftime('%H:%M:%S', ms); break;
      case 'y': out += num(Y % 100, 2); break;
      case 'Y': out += String(Y); break;
      case 'z': out += '+0000'; break;
      case ':': if (fmt[i + 1] === 'z') { i++; out += '+00:00'; } else out += '%:'; break;
      case 'Z': out += 'UTC'; break;
      case '%': out += '%'; break;
      default: out += `%${f}`;
    }
  }
  return out;
}

function parseDate(s: string, now: number): number | undefined {
  const t = s.trim();
  if (t.startsWith('@')) {
    // parse_datetime: `@` then a decimal number of seconds, nothing else (`@1e30` is invalid)
    if (!/^@[-+]?(\d+(\.\d*)?|\.\d+)$/.test(t)) return undefined;
    return Number(t.slice(1)) * 1000;
  }
  if (t === 'now' || t === '') return now;
  if (t === 'today') return now;
  if (t === 'yesterday') return now - 86400000;
  if (t === 'tomorrow') return now + 86400000;
  const rel = /^([+-]?\d+) ?(second|minute|hour|day|week)s?( ago)?$/.exec(t);
  if (rel) {
    const unit = { second: 1e3, minute: 6e4, hour: 3.6e6, day: 8.64e7, week: 6.048e8 }[rel[2] as 'second'];
    return now + Number(rel[1]) * unit * (rel[3] ? -1 : 1);
  }
  const iso = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(t);
  if (iso) {
    const norm = t.replace(' ', 'T');
    const v = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(norm) || norm.length === 10 ? (norm.length === 10 ? `${norm}T00:00:00Z` : norm) : `${norm}Z`);
    return Number.isNaN(v) ? undefined : v;
  }
  return undefined;
}

export const date: CommandFn = (ctx) => {
  let ms = ctx.now();
  let fmt: string | undefined;
  /** The -d text, for the out-of-range message (it names the seconds as given). */
  let given: string | undefined;
  const args = ctx.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('+')) {
      if (fmt !== undefined) return { stdout: '', stderr: `date: extra operand ‘${a}’\nTry 'date --help' for more information.\n`, exitCode: 1 };
      fmt = a.slice(1);
      continue;
    }
    if (a === '-u' || a === '--utc' || a === '--universal') continue;
    if (a === '-d' || a === '--date' || a.startsWith('--date=') || (a.startsWith('-d') && a.length > 2)) {
      const v = a === '-d' || a === '--date' ? args[++i] : a.startsWith('--date=') ? a.slice(7) : a.slice(2);
      if (v === undefined) return { stdout: '', stderr: `date: option requires an argument -- 'd'\nTry 'date --help' for more information.\n`, exitCode: 1 };
      const t = parseDate(v, ctx.now());
      if (t === undefined) return { stdout: '', stderr: `date: invalid date ‘${v}’\n`, exitCode: 1 };
      ms = t;
      given = v.trim();
      continue;
    }
    if (a === '-I' || a === '--iso-8601' || a === '-Idate' || a === '--iso-8601=date') {
      fmt = '%Y-%m-%d';
      continue;
    }
    if (a === '-Iseconds' || a === '--iso-8601=seconds') {
      fmt = '%Y-%m-%dT%H:%M:%S%:z';
      continue;
    }
    if (a === '-R' || a === '--rfc-email') {
      fmt = '%a, %d %b %Y %H:%M:%S %z';
      continue;
    }
    if (a.startsWith('-')) return { stdout: '', stderr: `date: invalid option -- '${a.slice(1, 2)}'\nTry 'date --help' for more information.\n`, exitCode: 1 };
    return { stdout: '', stderr: `date: invalid date ‘${a}’\n`, exitCode: 1 };
  }
  // date.c show_date: a time gmtime cannot represent; here, what a JavaScript Date cannot hold
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
    const secs = given?.startsWith('@') ? given.slice(1).replace(/^\+/, '').replace(/\..*$/, '') : BigInt(Math.trunc(ms / 1000)).toString();
    return { stdout: '', stderr: `date: time ‘${secs}’ is out of range\n`, exitCode: 1 };
  }
  return { stdout: `${strftime(fmt ?? '%a %b %e %H:%M:%S %Z %Y', ms)}\n`, stderr: '', exitCode: 0 };
};
