/**
 * file (coredns v1.13.1 plugin/file: setup.go fileParse, file.go Parse/ServeDNS, lookup.go,
 * reload.go): authoritative answers from an RFC 1035 zone file read inside the CoreDNS container
 * (e.g. a ConfigMap key mounted under /etc/coredns). Answers carry the apex NS in authority,
 * denials the SOA; a name below a delegation is a referral (aa clear); a missing file only warns
 * and is retried every `reload` interval (default 1m), as is a changed file — which is only taken
 * when its SOA serial changed.
 */
import { CorefileError } from '../corefile/dispenser.js';
import { replyTo, type QType, type RR } from '../message.js';
import { fallZones, matchZone, nextOrFailure, normalizeZone, parseGoDuration, type PluginDef, type Request, type Result } from '../plugin.js';
import { parseZone, ZoneParseError } from '../zonefile.js';
import { goDurationString } from './util.js';

interface Zone {
  origin: string;
  file: string;
  /** undefined until a file with an SOA was loaded. */
  records: RR[] | undefined;
  reloadMs: number;
  nextCheck: number;
}

type Outcome = { answer: RR[]; ns: RR[]; extra: RR[]; result: 'Success' | 'NoData' | 'NameError' | 'Delegation' | 'ServerFailure' };

/** file.go Parse: the records, or the error text (no SOA, syntax). */
function load(text: string, origin: string, file: string): RR[] | string {
  let rrs: RR[];
  try {
    rrs = parseZone(text, origin, file);
  } catch (e) {
    if (e instanceof ZoneParseError) return `failed to parse file "${file}" for origin ${origin} with error ${e.message}`;
    throw e;
  }
  if (!rrs.some((r) => r.type === 'SOA')) return `file "${file}" has no SOA record for origin ${origin}`;
  return rrs;
}

function isSub(parent: string, name: string): boolean {
  return parent === '.' || name === parent || name.endsWith(`.${parent}`);
}

/** lookup.go Zone.Lookup over a flat record list. */
function lookup(z: Zone, records: RR[], qname: string, qtype: QType, req: Request, depth = 0): Outcome {
  const at = (n: string): RR[] => records.filter((r) => r.name === n);
  const soa = records.filter((r) => r.type === 'SOA' && r.name === z.origin).slice(0, 1);
  const apexNs = records.filter((r) => r.type === 'NS' && r.name === z.origin);
  const glue = (rrs: RR[]): RR[] =>
    rrs.flatMap((r) => {
      const t = r.type === 'NS' || r.type === 'CNAME' || r.type === 'PTR' ? r.target : r.type === 'MX' ? r.exchange : r.type === 'SRV' ? r.target : undefined;
      return t && isSub(z.origin, t) ? at(t).filter((x) => x.type === 'A' || x.type === 'AAAA') : [];
    });
  if (qname === z.origin && qtype === 'SOA') return { answer: soa, ns: apexNs, extra: [], result: 'Success' };
  if (qname === z.origin && qtype === 'NS') return { answer: apexNs, ns: [], extra: glue(apexNs), result: 'Success' };
  // Walk from below the apex down to qname: a non-apex NS is a delegation.
  const labels = qname === z.origin ? [] : qname.slice(0, qname.length - z.origin.length).replace(/\.$/, '').split('.');
  for (let i = labels.length - 1; i >= 0; i--) {
    const name = `${labels.slice(i).join('.')}.${z.origin === '.' ? '' : z.origin}`;
    const ns = at(name).filter((r) => r.type === 'NS');
    if (ns.length > 0) return { answer: [], ns, extra: glue(ns), result: 'Delegation' };
  }
  const chase = (owner: RR[], ownerName: string): Outcome => {
    const cname = owner.filter((r) => r.type === 'CNAME');
    if (cname.length > 0 && qtype !== 'CNAME') {
      const c = cname[0] as RR & { type: 'CNAME' };
      const rest: Outcome =
        depth >= 8
          ? { answer: [], ns: apexNs, extra: [], result: 'Success' }
          : isSub(z.origin, c.target)
            ? lookup(z, records, c.target, qtype, req, depth + 1)
            : (() => {
                // doLookup: upstream.Lookup through this server; its rcode decides the result.
                const m = req.lookup(c.target, qtype);
                const result = m.rcode === 'NXDOMAIN' ? 'NameError' : m.rcode === 'SERVFAIL' ? 'ServerFailure' : m.rcode === 'NOERROR' && m.answer.length === 0 ? 'NoData' : 'Success';
                return { answer: m.answer, ns: apexNs, extra: [], result } as Outcome;
              })();
      return { answer: [{ ...c, name: ownerName }, ...rest.answer], ns: apexNs, extra: [], result: rest.result === 'NoData' ? 'Success' : rest.result };
    }
    const rrs = owner.filter((r) => r.type === qtype).map((r) => ({ ...r, name: ownerName }));
    if (rrs.length === 0) return { answer: [], ns: soa, extra: [], result: 'NoData' };
    return { answer: rrs, ns: apexNs, extra: glue(rrs), result: 'Success' };
  };
  const own = at(qname);
  if (own.length > 0) return chase(own, qname);
  // Wildcard at the closest encloser.
  for (let i = 1; i <= labels.length; i++) {
    const parent = i === labels.length ? z.origin : `${labels.slice(i).join('.')}.${z.origin === '.' ? '' : z.origin}`;
    const wild = at(`*.${parent}`);
    if (wild.length > 0) return chase(wild, qname);
    if (at(parent).length > 0 || records.some((r) => r.name.endsWith(`.${parent}`) && r.name !== `*.${parent}` && parent !== z.origin)) break;
  }
  // An empty non-terminal is NOERROR without answers.
  const ent = records.some((r) => r.name.endsWith(`.${qname}`));
  return { answer: [], ns: soa, extra: [], result: ent ? 'Success' : 'NameError' };
}

export const filePlugin: PluginDef = {
  name: 'file',
  setup(c, ctx) {
    const zones = new Map<string, Zone>();
    const names: string[] = [];
    let fall: string[] = [];
    let openErr: string | undefined;
    let reload = 60_000;
    while (c.next()) {
      if (!c.nextArg()) throw c.argErr();
      const file = c.val();
      const args = c.remainingArgs();
      const origins = args.length > 0 ? args.map(normalizeZone) : [...ctx.zones];
      const text = ctx.readFile(file);
      if (text === undefined) openErr = `open ${file}: no such file or directory`;
      const these: Zone[] = [];
      for (const o of origins) {
        const z: Zone = { origin: o, file, records: undefined, reloadMs: 0, nextCheck: 0 };
        if (text !== undefined) {
          const r = load(text, o, file);
          if (typeof r === 'string') throw new CorefileError(r);
          z.records = r;
        }
        zones.set(o, z);
        names.push(o);
        these.push(z);
      }
      while (c.nextBlock()) {
        switch (c.val()) {
          case 'fallthrough':
            fall = fallZones(c.remainingArgs());
            break;
          case 'reload': {
            const t = c.remainingArgs();
            if (t.length < 1) throw new CorefileError('reload duration value is expected');
            const d = parseGoDuration(t[0] ?? '');
            if (d === undefined) throw new CorefileError(`plugin/file: time: invalid duration "${t[0] ?? ''}"`);
            reload = d;
            break;
          }
          case 'upstream':
            c.remainingArgs();
            break;
          default:
            throw c.err(`unknown property '${c.val()}'`);
        }
      }
      for (const z of these) z.reloadMs = reload;
    }
    if (openErr !== undefined) {
      if (reload === 0) throw new CorefileError(openErr);
      ctx.log(`[WARNING] plugin/file: Failed to open "${openErr}": trying again in ${goDurationString(reload)}`);
    }

    /** reload.go: on each tick re-read the file; take it only if it parses and its SOA serial changed. */
    const tick = (z: Zone, now: number): void => {
      if (z.reloadMs <= 0) return;
      if (z.nextCheck === 0) z.nextCheck = now + z.reloadMs;
      if (now < z.nextCheck) return;
      z.nextCheck = now + z.reloadMs - ((now - z.nextCheck) % z.reloadMs);
      const text = ctx.readFile(z.file);
      if (text === undefined) {
        ctx.log(`[ERROR] plugin/file: Failed to open zone "${z.origin}" in "${z.file}": open ${z.file}: no such file or directory`);
        return;
      }
      const r = load(text, z.origin, z.file);
      if (typeof r === 'string') {
        ctx.log(`[ERROR] plugin/file: Parsing zone "${z.origin}": ${r}`);
        return;
      }
      const serial = (rs: RR[] | undefined): number | undefined => {
        const s = rs?.find((x) => x.type === 'SOA');
        return s?.type === 'SOA' ? s.serial : undefined;
      };
      if (serial(r) === serial(z.records)) return;
      z.records = r;
      ctx.log(`[INFO] plugin/file: Successfully reloaded zone "${z.origin}" in "${z.file}" with ${serial(r) ?? 0} SOA serial`);
    };

    return {
      name: 'file',
      serve(req, next): Result {
        const q = req.msg.question[0];
        if (!q) return nextOrFailure('file', next, req);
        const qname = q.name.toLowerCase();
        const zone = matchZone(names, qname);
        if (zone === undefined) return nextOrFailure('file', next, req);
        const z = zones.get(zone);
        if (!z) return { rcode: 'SERVFAIL' };
        for (const x of zones.values()) tick(x, req.now);
        if (q.type === 'AXFR' || q.type === 'IXFR') return { rcode: 'REFUSED' };
        if (!z.records) return { rcode: 'SERVFAIL' };
        const o = lookup(z, z.records, qname, q.type, req);
        if (o.answer.length === 0 && (o.result === 'NameError' || o.result === 'Success') && matchZone(fall, qname) !== undefined)
          return nextOrFailure('file', next, req);
        const m = replyTo(req.msg);
        m.flags.aa = true;
        m.answer = o.answer;
        m.authority = o.ns;
        m.additional = o.extra;
        if (o.result === 'NameError') m.rcode = 'NXDOMAIN';
        if (o.result === 'Delegation') m.flags.aa = false;
        if (o.result === 'ServerFailure') {
          if (m.answer.length === 0) return { rcode: 'SERVFAIL' };
          m.rcode = 'SERVFAIL';
        }
        return { rcode: 'NOERROR', reply: m };
      },
    };
  },
};
