/**
 * `journalctl` (systemd 255): `-u UNIT` (repeatable), `-n N` / `--lines=N`, `-f` (prints the last
 * 10 lines; in the background it keeps running as a job until killed, printing nothing later), `-e` (the end: last 1000), `--no-pager`, `-x`, `-b`.
 * `--since`/`-S` and `--until`/`-U` with systemd's timestamp syntax (src/basic/time-util.c
 * parse_timestamp: "10 min ago", "-5m", "HH:MM[:SS]" today, "YYYY-MM-DD [HH:MM[:SS]]", "today",
 * "yesterday", "now"). Without entries it prints "-- No entries --". Lines come from ./journal.ts.
 */
import type { CommandFn } from '../../types.js';
import type { ShellContext, ShellResult } from '../types.js';
import { nodeEnv, notInstalled } from './host.js';
import type { Entry } from './journal.js';
import { allEntries, unitEntries } from './journal.js';

export const journalctl: CommandFn = (ctx: ShellContext): ShellResult => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  const units: string[] = [];
  let lines: number | undefined;
  let since: number | undefined;
  let until: number | undefined;
  let follow = false;
  const now = env.cluster.now();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-u' || a === '--unit') {
      const u = args[++i];
      if (u === undefined) return { stdout: '', stderr: "journalctl: option requires an argument -- 'u'\n", exitCode: 1 };
      units.push(u);
    } else if (a.startsWith('--unit=')) units.push(a.slice(7));
    else if (['--since', '-S', '--until', '-U'].includes(a) || /^--(since|until)=/.test(a)) {
      const eq = a.indexOf('=');
      const v = eq > 0 ? a.slice(eq + 1) : args[++i];
      if (v === undefined) return { stdout: '', stderr: `journalctl: option '${a}' requires an argument\n`, exitCode: 1 };
      const t = parseTimestamp(v, now);
      if (t === undefined) return { stdout: '', stderr: `Failed to parse timestamp: ${v}\n`, exitCode: 1 };
      if (a.startsWith('--since') || a === '-S') since = t;
      else until = t;
    }
    else if (a.startsWith('-u') && !a.startsWith('--')) units.push(a.slice(2));
    else if (a === '-n' || a === '--lines') {
      const v = args[i + 1];
      if (v !== undefined && /^\+?\d+$/.test(v)) {
        lines = Number(v.replace('+', ''));
        i++;
      } else lines = 10;
    } else if (a.startsWith('--lines=')) lines = Number(a.slice(8));
    else if (/^-n\d+$/.test(a)) lines = Number(a.slice(2));
    else if (a === '-f' || a === '--follow') {
      lines ??= 10;
      follow = true;
    }
    else if (a === '-e' || a === '--pager-end') lines ??= 1000;
    else if (/^-[xbefq]+$/.test(a) || ['--no-pager', '--no-hostname', '--catalog', '--boot', '-xe', '-xeu'].includes(a)) {
      if (a.includes('e')) lines ??= 1000;
      if (a.includes('f')) {
        lines ??= 10;
        follow = true;
      }
    } else if (/^-[xbefq]+u$/.test(a)) {
      // bundled short options ending in -u take the unit next (-xeu kubelet, -fu kubelet)
      const u = args[++i];
      if (u === undefined) return { stdout: '', stderr: "journalctl: option requires an argument -- 'u'\n", exitCode: 1 };
      units.push(u);
      if (a.includes('e')) lines ??= 1000;
      if (a.includes('f')) {
        lines ??= 10;
        follow = true;
      }
    } else if (a.startsWith('-')) return { stdout: '', stderr: `journalctl: unrecognized option '${a}'\n`, exitCode: 1 };
    else return { stdout: '', stderr: `Failed to add match '${a}': Invalid argument\n`, exitCode: 1 };
  }
  let entries: Entry[] = units.length
    ? units.flatMap((u) => unitEntries(env.cluster, env.host, u.replace(/\.service$/, ''))).sort((a, b) => a.at - b.at)
    : allEntries(env.cluster, env.host);
  if (since !== undefined) entries = entries.filter((e) => e.at >= since);
  if (until !== undefined) entries = entries.filter((e) => e.at <= until);
  if (lines !== undefined) entries = lines === 0 ? [] : entries.slice(-lines);
  const stdout = entries.length === 0 ? '-- No entries --\n' : entries.map((e) => `${e.text}\n`).join('');
  // `-f` keeps running until it is interrupted: in the background it stays a running job that
  // `kill %N` ends (it prints no later lines here); in the foreground the lab returns at once
  if (follow && ctx.background) return { stdout, stderr: '', exitCode: 0, keeps: { kind: 'follow', host: env.host.name } };
  return { stdout, stderr: '', exitCode: 0 };
};

const UNIT_MS: [RegExp, number][] = [
  [/^(us|usec|\u00b5s)$/, 0.001],
  [/^(ms|msec)$/, 1],
  [/^(s|sec|secs|second|seconds)$/, 1000],
  [/^(m|min|mins|minute|minutes)$/, 60_000],
  [/^(h|hr|hrs|hour|hours)$/, 3_600_000],
  [/^(d|day|days)$/, 86_400_000],
  [/^(w|week|weeks)$/, 604_800_000],
];

/** "10 min 30s" → ms (systemd parse_sec: a bare number is seconds). */
function parseSpan(s: string): number | undefined {
  let total = 0;
  let any = false;
  for (const m of s.trim().matchAll(/(\d+(?:\.\d+)?)\s*([a-z\u00b5]*)\s*/g)) {
    const unit = m[2] ?? '';
    const mul = unit === '' ? 1000 : UNIT_MS.find(([re]) => re.test(unit))?.[1];
    if (mul === undefined) return undefined;
    total += Number(m[1]) * mul;
    any = true;
  }
  const rest = s.trim().replace(/(\d+(?:\.\d+)?)\s*([a-z\u00b5]*)\s*/g, '');
  return any && rest === '' ? total : undefined;
}

/** systemd's parse_timestamp for the forms people type (the lab's nodes run in UTC). */
export function parseTimestamp(v: string, now: number): number | undefined {
  const s = v.trim();
  const midnight = now - (now % 86_400_000);
  if (s === 'now') return now;
  if (s === 'today') return midnight;
  if (s === 'yesterday') return midnight - 86_400_000;
  if (s === 'tomorrow') return midnight + 86_400_000;
  const ago = /^(.+?)\s+ago$/.exec(s);
  if (ago) {
    const d = parseSpan(ago[1]!);
    return d === undefined ? undefined : now - d;
  }
  if (/^[-+]/.test(s)) {
    const d = parseSpan(s.slice(1));
    return d === undefined ? undefined : s.startsWith('-') ? now - d : now + d;
  }
  const m = /^(?:(\d{4})-(\d{2})-(\d{2}))?\s*(?:(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (!m || (m[1] === undefined && m[4] === undefined)) return undefined;
  const day = m[1] !== undefined ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : midnight;
  const [h, mi, se] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (h > 23 || mi > 59 || se > 59 || Number.isNaN(day)) return undefined;
  return day + ((h * 60 + mi) * 60 + se) * 1000;
}
