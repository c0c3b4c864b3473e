/**
 * cache (plugin/cache): `cache [TTL] [ZONES...] { success CAP [TTL [MINTTL]] denial CAP [TTL [MINTTL]]
 * servfail DUR disable success|denial [ZONES...] … }`. Every reply passing through gets its TTLs
 * set to the clamped message TTL; stored replies are served with AA and the remaining TTL, keyed
 * by the simulated clock. `disable` stops storing (clamping still applies).
 */
import { canonical, cloneMessage, type DnsMessage, type RR } from '../message.js';
import { ERR_ONCE, matchZone, nextOrFailure, normalizeZone, parseGoDuration, type PluginDef } from '../plugin.js';
import { CorefileError } from '../corefile/dispenser.js';

type Kind = 'success' | 'denial' | 'servfail' | 'other';

interface Item {
  msg: DnsMessage;
  storedMs: number;
  ttl: number;
}

function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new CorefileError(`strconv.Atoi: parsing "${s}": invalid syntax`);
  return Number(s);
}

function classify(m: DnsMessage): Kind {
  if (m.rcode === 'NXDOMAIN') return 'denial';
  if (m.rcode === 'NOERROR') return m.answer.length === 0 ? 'denial' : 'success';
  if (m.rcode === 'SERVFAIL') return 'servfail';
  return 'other';
}

/** Minimum TTL of the message (answers; for denials the SOA's min(ttl, minimum)). */
function msgTtl(m: DnsMessage, kind: Kind, fallback: number): number {
  const pool: RR[] = kind === 'success' ? [...m.answer, ...m.authority, ...m.additional] : m.authority;
  let min = Number.POSITIVE_INFINITY;
  for (const r of pool) {
    const t = r.type === 'SOA' ? Math.min(r.ttl, r.minimum) : r.ttl;
    if (t < min) min = t;
  }
  return Number.isFinite(min) ? min : fallback;
}

function setTtls(m: DnsMessage, ttl: number): void {
  for (const r of [...m.answer, ...m.authority, ...m.additional]) r.ttl = ttl;
}

export const cachePlugin: PluginDef = {
  name: 'cache',
  setup(c, ctx) {
    let pttl = 3600;
    let nttl = 1800;
    let minpttl = 5;
    let minnttl = 5;
    let failttl = 5;
    let pexcept: string[] = [];
    let nexcept: string[] = [];
    let zones = ctx.zones;
    let j = 0;
    while (c.next()) {
      if (j++ > 0) throw new CorefileError(ERR_ONCE);
      let args = c.remainingArgs();
      if (args[0] !== undefined && /^[+-]?\d+$/.test(args[0])) {
        const ttl = Number(args[0]);
        if (ttl <= 0) throw new CorefileError(`cache TTL can not be zero or negative: ${ttl}`);
        pttl = ttl;
        nttl = ttl;
        args = args.slice(1);
      }
      if (args.length > 0) zones = args.map(normalizeZone);
      while (c.nextBlock()) {
        const v = c.val();
        if (v === 'success' || v === 'denial') {
          const a = c.remainingArgs();
          if (a.length === 0) throw c.argErr();
          atoi(a[0] ?? '');
          if (a[1] !== undefined) {
            const t = atoi(a[1]);
            if (t <= 0) throw new CorefileError(`cache TTL can not be zero or negative: ${t}`);
            if (v === 'success') pttl = t;
            else nttl = t;
            if (a[2] !== undefined) {
              const mt = atoi(a[2]);
              if (mt < 0) throw new CorefileError(`cache min TTL can not be negative: ${mt}`);
              if (v === 'success') minpttl = mt;
              else minnttl = mt;
            }
          }
        } else if (v === 'disable') {
          const a = c.remainingArgs();
          if (a.length < 1) throw c.argErr();
          const zs = a.length > 1 ? a.slice(1).map(normalizeZone) : ['.'];
          if (a[0] === 'denial') nexcept = zs;
          else if (a[0] === 'success') pexcept = zs;
          else throw new CorefileError('cache type for disable must be "success" or "denial"');
        } else if (v === 'servfail') {
          const a = c.remainingArgs();
          if (a.length !== 1) throw c.argErr();
          const d = parseGoDuration(a[0] ?? '');
          if (d === undefined) throw new CorefileError(`time: invalid duration "${a[0] ?? ''}"`);
          if (d > 300000) throw new CorefileError('caching SERVFAIL responses over 5 minutes is not permitted');
          failttl = d / 1000;
        } else if (v === 'prefetch' || v === 'serve_stale') {
          c.remainingArgs();
        } else if (v === 'keepttl') {
          if (c.remainingArgs().length > 0) throw c.argErr();
        } else throw c.argErr();
      }
    }
    const store = new Map<string, Item>();
    return {
      name: 'cache',
      serve(req, next) {
        const q = req.msg.question[0];
        if (!q || matchZone(zones, q.name) === undefined) return nextOrFailure('cache', next, req);
        const key = `${canonical(q.name)}|${q.type}|${req.msg.edns?.do ?? false}|${req.msg.flags.cd}`;
        const hit = store.get(key);
        if (hit) {
          const left = hit.ttl - Math.floor((req.now - hit.storedMs) / 1000);
          if (left > 0) {
            const m = cloneMessage(hit.msg);
            m.id = req.msg.id;
            m.question = req.msg.question.map((x) => ({ ...x }));
            m.flags.aa = true;
            m.flags.rd = req.msg.flags.rd;
            if (req.msg.edns) m.edns = { ...req.msg.edns };
            else delete m.edns;
            // item.go newItem drops the OPT (hop-by-hop): the scrub writer adds the request's
            delete m.ownOpt;
            setTtls(m, left);
            return { rcode: 'NOERROR', reply: m };
          }
          store.delete(key);
        }
        const r = nextOrFailure('cache', next, req);
        if (!r.reply) return r;
        const kind = classify(r.reply);
        let duration: number;
        if (kind === 'success') duration = Math.min(Math.max(msgTtl(r.reply, kind, pttl), minpttl), pttl);
        else if (kind === 'denial') duration = Math.min(Math.max(msgTtl(r.reply, kind, nttl), minnttl), nttl);
        else if (kind === 'servfail') duration = failttl;
        else duration = 0;
        const excepted = (kind === 'success' && matchZone(pexcept, q.name) !== undefined) || (kind === 'denial' && matchZone(nexcept, q.name) !== undefined);
        // cache.go key: truncated replies are never stored
        if (duration > 0 && !excepted && !r.reply.flags.tc) store.set(key, { msg: cloneMessage(r.reply), storedMs: req.now, ttl: duration });
        if (kind === 'success' || kind === 'denial') setTtls(r.reply, duration);
        return r;
      },
    };
  },
};
