/**
 * Endpoints (core/v1, deprecated in 1.33+): printers.go endpointColumnDefinitions (:244-249) and
 * formatEndpoints (:743); reference §4.3. Ready addresses only, at most 3 entries.
 */
import type { Endpoints } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME } from './cells.js';
import type { KindPrinter } from './types.js';

/** net.JoinHostPort: IPv6 literals get brackets. */
function joinHostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** formatEndpoints(endpoints, portNames): `portNames` undefined = no filter (as `get`). */
export function formatEndpoints(ep: Endpoints, portNames?: ReadonlySet<string>): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addrs = ss.addresses ?? [];
    const ports = ss.ports ?? [];
    if (ports.length === 0) {
      count += addrs.length;
      for (const a of addrs) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(a.ip);
      }
      continue;
    }
    for (const port of ports) {
      if (portNames === undefined || portNames.has(port.name ?? '')) {
        count += addrs.length;
        for (const a of addrs) {
          if (list.length === max) {
            more = true;
            break;
          }
          list.push(joinHostPort(a.ip, port.port));
        }
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

export const endpoints: KindPrinter = {
  columns: [NAME, { name: 'Endpoints' }, AGE],
  row(obj, now) {
    const ep = obj as Endpoints;
    return [ep.metadata.name, formatEndpoints(ep), translateTimestampSince(ep.metadata.creationTimestamp, now)];
  },
};
