/**
 * `kubectl events` (k8s.io/kubectl pkg/cmd/events/events.go, event_printer.go): events sorted by
 * their last time (series.lastObservedTime, lastTimestamp, eventTime), columns LAST SEEN TYPE
 * REASON OBJECT MESSAGE (NAMESPACE first with -A); `--for TYPE/NAME`, `--types`, `--no-headers`.
 */
import type { KEvent } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { errorResult, KubectlError } from '../errors.js';
import { bool, list, str } from '../flags.js';
import { resolveTypes } from '../resource-args.js';
import { translateTimestampSince } from '../../printers/duration.js';
import { renderRows } from '../../printers/tabwriter.js';
import { commandNamespace } from './get.js';

function isZero(ts: string | null | undefined): boolean {
  return !ts || ts.startsWith('0001-01-01');
}

function lastTime(e: KEvent): number {
  const series = e['series'] as { lastObservedTime?: string } | undefined;
  const t = series?.lastObservedTime ?? (isZero(e.lastTimestamp) ? e.eventTime : e.lastTimestamp);
  return t ? Date.parse(t) : 0;
}

function interval(e: KEvent, now: number): string {
  const first = isZero(e.eventTime) ? translateTimestampSince(e.firstTimestamp, now) : translateTimestampSince(e.eventTime, now);
  const series = e['series'] as { lastObservedTime?: string; count?: number } | undefined;
  if (series) return `${translateTimestampSince(series.lastObservedTime, now)} (x${series.count ?? 0} over ${first})`;
  if ((e.count ?? 0) > 1) return `${translateTimestampSince(e.lastTimestamp, now)} (x${e.count} over ${first})`;
  return first;
}

export const eventsVerb: Verb = {
  name: 'events',
  run(inv, env) {
    try {
      const p = inv.parsed;
      env.api.ensureUp();
      const all = bool(p.flags, 'all-namespaces');
      const ns = commandNamespace(env, p);
      let events = [...env.api.list<KEvent>('Event', all ? undefined : ns)];
      const types = list(p.flags, 'types');
      for (const t of types) if (t !== 'Normal' && t !== 'Warning') throw new KubectlError(`valid --types are Normal or Warning`);
      if (types.length > 0) events = events.filter((e) => types.includes(e.type ?? ''));
      const forArg = str(p.flags, 'for');
      if (forArg !== undefined) {
        const [type, name] = forArg.includes('/') ? forArg.split('/', 2) : ['pod', forArg];
        const info = resolveTypes(type ?? '', env.cluster.discovery(), env.shortNames)[0]!;
        events = events.filter((e) => e.involvedObject.kind === info.kind && e.involvedObject.name === name);
      }
      if (events.length === 0) {
        const msg = all ? 'No events found.\n' : `No events found in ${ns} namespace.\n`;
        return { stdout: '', stderr: msg, exitCode: 0 };
      }
      events.sort((a, b) => lastTime(a) - lastTime(b));
      const now = env.cluster.now();
      const rows = events.map((e) => [
        ...(all ? [e.metadata.namespace ?? ''] : []),
        interval(e, now),
        e.type ?? '',
        e.reason ?? '',
        `${e.involvedObject.kind}/${e.involvedObject.name}`,
        (e.message ?? '').trim(),
      ]);
      const header = [...(all ? ['NAMESPACE'] : []), 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'];
      return { stdout: renderRows(bool(p.flags, 'no-headers') ? rows : [header, ...rows]), stderr: '', exitCode: 0 };
    } catch (e) {
      return errorResult(e, 'events');
    }
  },
};
