/**
 * hosts (plugin/hosts): serves A/AAAA (and automatic PTR) from /etc/hosts-style data: a FILE
 * (default /etc/hosts of the CoreDNS container) plus inline lines, which must precede `fallthrough`.
 * A name it cannot answer goes on only with `fallthrough`; otherwise SERVFAIL ("because of
 * /etc/hosts' setup we don't have a SOA"). Known name, other type → NODATA without SOA.
 */
import { addressFromReverse, parseIPv4, parseIPv6, formatIPv6, replyTo, type RR } from '../message.js';
import { ERR_ONCE, fallZones, matchZone, nextOrFailure, normalizeZone, parseGoDuration, type PluginDef } from '../plugin.js';
import { CorefileError } from '../corefile/dispenser.js';

interface HostsMap {
  v4: Map<string, string[]>;
  v6: Map<string, string[]>;
  /** address → names (for PTR) */
  byAddr: Map<string, string[]>;
}

/** Parse hosts-file text, keeping only names inside `origins` (hostsfile.go parse). */
export function parseHostsText(text: string, origins: readonly string[]): HostsMap {
  const map: HostsMap = { v4: new Map(), v6: new Map(), byAddr: new Map() };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const f = line.split(/\s+/);
    if (f.length < 2) continue;
    let addr = f[0] ?? '';
    let family: 'v4' | 'v6';
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
    if (mapped?.[1]) addr = mapped[1];
    if (parseIPv4(addr)) family = 'v4';
    else {
      const w = parseIPv6(addr);
      if (!w) continue;
      addr = formatIPv6(w);
      family = 'v6';
    }
    for (const n of f.slice(1)) {
      const name = normalizeZone(n);
      if (matchZone(origins, name) === undefined) continue;
      const list = map[family].get(name) ?? [];
      if (!list.includes(addr)) list.push(addr);
      map[family].set(name, list);
      const names = map.byAddr.get(addr) ?? [];
      if (!names.includes(name)) names.push(name);
      map.byAddr.set(addr, names);
    }
  }
  return map;
}

export const hostsPlugin: PluginDef = {
  name: 'hosts',
  setup(c, ctx) {
    let path = '/etc/hosts';
    let origins = ctx.zones;
    let fall: string[] = [];
    let ttl = 3600;
    let autoReverse = true;
    const inline: string[] = [];
    let i = 0;
    while (c.next()) {
      if (i++ > 0) throw new CorefileError(ERR_ONCE);
      const args = c.remainingArgs();
      if (args[0] !== undefined) {
        path = args[0];
        if (ctx.readFile(path) === undefined) ctx.log(`[WARNING] plugin/hosts: File does not exist: ${path}`);
        if (args.length > 1) origins = args.slice(1).map(normalizeZone);
      }
      while (c.nextBlock()) {
        const v = c.val();
        if (v === 'fallthrough') fall = fallZones(c.remainingArgs());
        else if (v === 'no_reverse') autoReverse = false;
        else if (v === 'ttl') {
          const r = c.remainingArgs();
          if (r.length < 1) throw c.err('ttl needs a time in second');
          if (!/^[+-]?\d+$/.test(r[0] ?? '')) throw c.err('ttl needs a number of second');
          const n = Number(r[0]);
          if (n <= 0 || n > 65535) throw c.err('ttl provided is invalid');
          ttl = n;
        } else if (v === 'reload') {
          const r = c.remainingArgs();
          if (r.length !== 1) throw c.err('reload needs a duration (zero seconds to disable)');
          const d = parseGoDuration(r[0] ?? '');
          if (d === undefined) throw c.err(`invalid duration for reload '${r[0] ?? ''}'`);
        } else {
          if (fall.length === 0) {
            inline.push([v, ...c.remainingArgs()].join(' '));
            continue;
          }
          throw c.err(`unknown property '${v}'`);
        }
      }
    }
    const inlineMap = parseHostsText(inline.join('\n'), origins);
    const load = (): HostsMap => parseHostsText(ctx.readFile(path) ?? '', origins);
    const lookup = (family: 'v4' | 'v6', name: string): string[] => {
      const n = name.toLowerCase();
      return inlineMap[family].get(n) ?? load()[family].get(n) ?? [];
    };
    const exists = (name: string): boolean => lookup('v4', name).length > 0 || lookup('v6', name).length > 0;
    return {
      name: 'hosts',
      serve(req, next) {
        const q = req.msg.question[0];
        if (!q) return nextOrFailure('hosts', next, req);
        const zone = matchZone(origins, q.name);
        if (zone === undefined && q.type !== 'PTR') return nextOrFailure('hosts', next, req);
        let answers: RR[] = [];
        if (q.type === 'PTR') {
          const addr = addressFromReverse(q.name);
          const names = addr && autoReverse ? (inlineMap.byAddr.get(addr) ?? load().byAddr.get(addr) ?? []) : [];
          if (names.length === 0) return nextOrFailure('hosts', next, req);
          answers = names.map((t) => ({ name: q.name, ttl, class: 'IN', type: 'PTR', target: t }));
        } else if (q.type === 'A') {
          answers = lookup('v4', q.name).map((a) => ({ name: q.name, ttl, class: 'IN', type: 'A', address: a }));
        } else if (q.type === 'AAAA') {
          answers = lookup('v6', q.name).map((a) => ({ name: q.name, ttl, class: 'IN', type: 'AAAA', address: a }));
        }
        if (answers.length === 0 && !exists(q.name)) {
          if (matchZone(fall, q.name) !== undefined) return nextOrFailure('hosts', next, req);
          return { rcode: 'SERVFAIL' };
        }
        const reply = replyTo(req.msg);
        reply.flags.aa = true;
        reply.answer = answers;
        return { rcode: 'NOERROR', reply };
      },
    };
  },
};
