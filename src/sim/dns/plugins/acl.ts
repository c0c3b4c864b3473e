/**
 * acl (coredns v1.13.1 plugin/acl/setup.go, acl.go): per-zone policies, first match wins —
 * `allow` stops checking, `block` answers REFUSED with EDE 15 (Blocked), `filter` answers an empty
 * NOERROR with EDE 17 (Filtered), `drop` sends nothing. A policy matches on its query types
 * (`type`, default every type) and the client's network (`net`, default every address).
 */
import { isQType, parseIPv4, parseIPv6, replyTo, type Edns } from '../message.js';
import { matchZone, nextOrFailure, normalizeZone, type PluginDef, type Request, type Result } from '../plugin.js';

type Action = 'allow' | 'block' | 'filter' | 'drop';

interface Net {
  bits: number[];
  prefix: number;
}

interface Policy {
  action: Action;
  /** undefined = every type (dns.TypeNone in upstream). */
  qtypes: Set<string> | undefined;
  /** undefined = 0.0.0.0/0 and ::/0. */
  nets: Net[] | undefined;
}

interface Rule {
  zones: string[];
  policies: Policy[];
}

/** An address as bits (32 for IPv4, 128 for IPv6), or undefined. */
function ipBits(ip: string): number[] | undefined {
  const v4 = parseIPv4(ip);
  if (v4) return v4.flatMap((o) => Array.from({ length: 8 }, (_, i) => (o >> (7 - i)) & 1));
  const v6 = parseIPv6(ip);
  if (v6) return v6.flatMap((w) => Array.from({ length: 16 }, (_, i) => (w >> (15 - i)) & 1));
  return undefined;
}

/** setup.go normalize + net.ParseCIDR: a bare address is a /32 or /128. */
function parseNet(token: string): Net | undefined {
  const raw = token.includes('/') ? token : token.includes(':') ? `${token}/128` : `${token}/32`;
  const slash = raw.indexOf('/');
  const bits = ipBits(raw.slice(0, slash));
  const p = raw.slice(slash + 1);
  if (!bits || !/^\d+$/.test(p)) return undefined;
  const prefix = Number(p);
  if (prefix > bits.length) return undefined;
  return { bits, prefix };
}

function contains(n: Net, bits: number[]): boolean {
  if (n.bits.length !== bits.length) return false;
  for (let i = 0; i < n.prefix; i++) if (n.bits[i] !== bits[i]) return false;
  return true;
}

function isSection(t: string): boolean {
  const l = t.toLowerCase();
  return l === 'type' || l === 'net';
}

function parse(c: import('../corefile/dispenser.js').Dispenser, serverZones: string[]): Rule[] {
  const rules: Rule[] = [];
  while (c.next()) {
    const args = c.remainingArgs();
    const rule: Rule = { zones: args.length > 0 ? args.map(normalizeZone) : [...serverZones], policies: [] };
    while (c.nextBlock()) {
      const action = c.val().toLowerCase();
      if (action !== 'allow' && action !== 'block' && action !== 'filter' && action !== 'drop')
        throw c.err(`unexpected token ${JSON.stringify(c.val())}; expect 'allow', 'block', 'filter' or 'drop'`);
      const p: Policy = { action, qtypes: undefined, nets: undefined };
      let hasType = false;
      let hasNet = false;
      const types = new Set<string>();
      let nets: Net[] = [];
      let all = false;
      let rest = c.remainingArgs();
      while (rest.length > 0) {
        const head = rest[0] ?? '';
        if (!isSection(head)) throw c.err(`unexpected token ${JSON.stringify(head)}; expect 'type | net'`);
        const section = head.toLowerCase();
        let i = 1;
        const tokens: string[] = [];
        for (; i < rest.length && !isSection(rest[i] ?? ''); i++) tokens.push(rest[i] ?? '');
        rest = rest.slice(i);
        if (tokens.length === 0) throw c.err(`no token specified in ${JSON.stringify(section)} section`);
        if (section === 'type') {
          hasType = true;
          for (const t of tokens) {
            if (t === '*') {
              all = true;
              break;
            }
            // dns.StringToType: upper-case mnemonics only.
            if (!isQType(t) && !OTHER_QTYPES.has(t)) throw c.err(`unexpected token ${JSON.stringify(t)}; expect legal QTYPE`);
            types.add(t);
          }
        } else {
          hasNet = true;
          for (const t of tokens) {
            if (t === '*') {
              nets = [{ bits: new Array<number>(32).fill(0), prefix: 0 }, { bits: new Array<number>(128).fill(0), prefix: 0 }];
              break;
            }
            const raw = t.includes('/') ? t : t.includes(':') ? `${t}/128` : `${t}/32`;
            const n = parseNet(t);
            if (!n) throw c.err(`illegal CIDR notation ${JSON.stringify(raw)}`);
            nets.push(n);
          }
        }
      }
      if (hasType && !all) p.qtypes = types;
      if (hasNet) p.nets = nets;
      rule.policies.push(p);
    }
    rules.push(rule);
  }
  return rules;
}

/** Types miekg/dns knows by name that the simulator's QType does not model (still legal in acl). */
const OTHER_QTYPES: ReadonlySet<string> = new Set(['DS', 'DNSKEY', 'RRSIG', 'NSEC', 'NSEC3', 'SSHFP', 'TLSA', 'SVCB', 'HTTPS', 'NAPTR', 'DNAME', 'OPT', 'SPF', 'URI', 'LOC', 'RP', 'AFSDB', 'CDS', 'CDNSKEY', 'ZONEMD', 'NULL', 'WKS', 'MB', 'MG', 'MR', 'MINFO', 'KEY', 'SIG', 'NXT', 'CERT', 'APL', 'IPSECKEY', 'DHCID', 'HIP', 'TKEY', 'TSIG', 'MAILA', 'MAILB']);

function match(policies: Policy[], req: Request): Action | undefined {
  const bits = ipBits(req.client.ip.split('%')[0] ?? '');
  if (!bits) return 'block';
  const qtype = req.msg.question[0]?.type ?? '';
  for (const p of policies) {
    if (p.qtypes && !p.qtypes.has(qtype)) continue;
    if (p.nets && !p.nets.some((n) => contains(n, bits))) continue;
    return p.action;
  }
  return undefined;
}

/** The OPT of a block/filter reply: SetEdns0(4096, true) plus the EDE, then request.SizeAndDo. */
function ednsWith(req: Request, ede: number): Edns {
  const o = req.msg.edns;
  return o ? { udpSize: o.udpSize, do: o.do, ede } : { udpSize: 4096, do: true, ede };
}

export const aclPlugin: PluginDef = {
  name: 'acl',
  setup(c, ctx) {
    const rules = parse(c, ctx.zones);
    return {
      name: 'acl',
      serve(req, next): Result {
        const name = req.msg.question[0]?.name.toLowerCase() ?? '.';
        for (const rule of rules) {
          if (matchZone(rule.zones, name) === undefined) continue;
          const action = match(rule.policies, req);
          if (action === 'drop') return { rcode: 'NOERROR', dropped: true };
          if (action === 'block' || action === 'filter') {
            const reply = replyTo(req.msg, action === 'block' ? 'REFUSED' : 'NOERROR');
            reply.edns = ednsWith(req, action === 'block' ? 15 : 17);
            reply.ownOpt = true;
            return { rcode: 'NOERROR', reply };
          }
          if (action === 'allow') break;
        }
        return nextOrFailure('acl', next, req);
      },
    };
  },
};
