/**
 * `journalctl` (systemd 255): `-u UNIT` (repeatable), `-n N` / `--lines=N`, `-f` (prints the last
 * 10 lines; the simulation cannot follow), `-e` (the end: last 1000), `--no-pager`, `-x`, `-b`.
 * Without entries it prints "-- No entries --". Lines come from ./journal.ts.
 */
import type { CommandFn } from '../../types.js';
import { nodeEnv, notInstalled } from './host.js';
import type { Entry } from './journal.js';
import { allEntries, unitEntries } from './journal.js';

export const journalctl: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  const units: string[] = [];
  let lines: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-u' || a === '--unit') {
      const u = args[++i];
      if (u === undefined) return { stdout: '', stderr: "journalctl: option requires an argument -- 'u'\n", exitCode: 1 };
      units.push(u);
    } else if (a.startsWith('--unit=')) units.push(a.slice(7));
    else if (a.startsWith('-u') && !a.startsWith('--')) units.push(a.slice(2));
    else if (a === '-n' || a === '--lines') {
      const v = args[i + 1];
      if (v !== undefined && /^\+?\d+$/.test(v)) {
        lines = Number(v.replace('+', ''));
        i++;
      } else lines = 10;
    } else if (a.startsWith('--lines=')) lines = Number(a.slice(8));
    else if (/^-n\d+$/.test(a)) lines = Number(a.slice(2));
    else if (a === '-f' || a === '--follow') lines ??= 10;
    else if (a === '-e' || a === '--pager-end') lines ??= 1000;
    else if (/^-[xbefq]+$/.test(a) || ['--no-pager', '--no-hostname', '--catalog', '--boot', '-xe', '-xeu'].includes(a)) {
      if (a.includes('e')) lines ??= 1000;
      if (a.includes('f')) lines ??= 10;
    } else if (/^-[xe]+u$/.test(a)) {
      const u = args[++i];
      if (u !== undefined) units.push(u);
      lines ??= 1000;
    } else if (a.startsWith('-')) return { stdout: '', stderr: `journalctl: unrecognized option '${a}'\n`, exitCode: 1 };
    else return { stdout: '', stderr: `Failed to add match '${a}': Invalid argument\n`, exitCode: 1 };
  }
  let entries: Entry[] = units.length
    ? units.flatMap((u) => unitEntries(env.cluster, env.host, u.replace(/\.service$/, ''))).sort((a, b) => a.at - b.at)
    : allEntries(env.cluster, env.host);
  if (lines !== undefined) entries = lines === 0 ? [] : entries.slice(-lines);
  if (entries.length === 0) return { stdout: '-- No entries --\n', stderr: '', exitCode: 0 };
  return { stdout: entries.map((e) => `${e.text}\n`).join(''), stderr: '', exitCode: 0 };
};
