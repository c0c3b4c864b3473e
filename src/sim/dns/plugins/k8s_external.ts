/**
 * k8s_external (coredns v1.13.1 plugin/k8s_external: setup.go, external.go, apex.go, msg_to_dns.go;
 * the data comes from plugin/kubernetes/external.go): Services' external IPs and LoadBalancer
 * ingress under a zone as <service>.<namespace>.<zone> (A/AAAA/SRV, PTR for the IPs), an apex
 * with SOA/NS and ns1.<apex>.<zone>, `headless` endpoints, and `fallthrough` on NXDOMAIN. The
 * kubernetes plugin of the same server block provides the data; without it the start fails with
 * upstream's OnStartup error.
 */
import { CorefileError } from '../corefile/dispenser.js';
import { fqdn, replyTo, type QType, type RR } from '../message.js';
import { hostType } from './kubernetes.js';
import {
  fallZones,
  matchZone,
  nextOrFailure,
  normalizeZone,
  type ExternalService,
  type Externaler,
  type PluginDef,
  type Request,
  type Result,
} from '../plugin.js';

export interface ExternalConfig {
  zones: string[];
  apex: string;
  ttl: number;
  headless: boolean;
  fall: string[];
}

/** setup.go parse. Errors are the text plugin.Error("k8s_external", err) wraps. */
export function parseExternal(c: import('../corefile/dispenser.js').Dispenser, serverZones: string[]): ExternalConfig {
  const cfg: ExternalConfig = { zones: [], apex: 'dns', ttl: 5, headless: false, fall: [] };
  while (c.next()) {
    const args = c.remainingArgs();
    cfg.zones = args.length > 0 ? args.map(normalizeZone) : [...serverZones];
    while (c.nextBlock()) {
      const v = c.val();
      switch (v) {
        case 'ttl': {
          const a = c.remainingArgs();
          if (a.length === 0) throw c.argErr();
          const s = a[0] ?? '';
          if (!/^[+-]?\d+$/.test(s)) throw new CorefileError(`strconv.Atoi: parsing "${s}": invalid syntax`);
          const t = Number(s);
          if (t < 0 || t > 3600) throw c.err(`ttl must be in range [0, 3600]: ${t}`);
          cfg.ttl = t;
          break;
        }
        case 'apex': {
          const a = c.remainingArgs();
          if (a.length === 0) throw c.argErr();
          cfg.apex = a[0] ?? '';
          break;
        }
        case 'headless':
          cfg.headless = true;
          break;
        case 'fallthrough':
          cfg.fall = fallZones(c.remainingArgs());
          break;
        default:
          throw c.err(`unknown property '${v}'`);
      }
    }
  }
  return cfg;
}

function addrRR(name: string, ttl: number, ip: string): RR {
  return hostType(ip) === 'AAAA' ? { name, ttl, class: 'IN', type: 'AAAA', address: ip } : { name, ttl, class: 'IN', type: 'A', address: ip };
}

/** Labels of `name` below `zone` (dnsutil.TrimZone + dns.CountLabel). */
function labelsBelow(name: string, zone: string): string[] {
  const base = zone === '.' ? name : name.slice(0, name.length - zone.length);
  return base.split('.').filter((l) => l !== '');
}

export const k8sExternalPlugin: PluginDef = {
  name: 'k8s_external',
  setup(c, ctx) {
    const cfg = parseExternal(c, ctx.zones);
    let x: Externaler | undefined;

    const soa = (zone: string): RR => ({
      name: zone,
      ttl: cfg.ttl,
      class: 'IN',
      type: 'SOA',
      mname: `ns1.${cfg.apex}.${zone}`,
      rname: `hostmaster.${cfg.apex}.${zone}`,
      serial: x?.externalSerial() ?? 0,
      refresh: 7200,
      retry: 1800,
      expire: 86400,
      minimum: cfg.ttl,
    });

    const write = (req: Request, build: (reply: ReturnType<typeof replyTo>) => void): Result => {
      const reply = replyTo(req.msg);
      reply.flags.aa = true;
      build(reply);
      return { rcode: reply.rcode, reply };
    };

    /** apex.go serveApex. */
    const serveApex = (req: Request, qname: string, qtype: QType, zone: string): Result =>
      write(req, (m) => {
        if (qtype === 'SOA') m.answer = [soa(zone)];
        else if (qtype === 'NS') {
          m.answer = [{ name: zone, ttl: cfg.ttl, class: 'IN', type: 'NS', target: `ns1.${cfg.apex}.${zone}` }];
          for (const ip of x?.externalAddress(cfg.headless) ?? []) m.additional.push(addrRR(`ns1.${cfg.apex}.${qname}`, cfg.ttl, ip));
        } else m.authority = [soa(zone)];
      });

    /** apex.go serveSubApex: dns.<zone> is an empty non-terminal, ns1.dns.<zone> holds CoreDNS's addresses. */
    const serveSubApex = (req: Request, qname: string, qtype: QType, zone: string): Result =>
      write(req, (m) => {
        const base = labelsBelow(qname.toLowerCase(), zone);
        if (base.length === 1) {
          m.authority = [soa(zone)];
          return;
        }
        if (base.length !== 2 || base[0] !== 'ns1') {
          m.rcode = 'NXDOMAIN';
          m.authority = [soa(zone)];
          return;
        }
        for (const ip of x?.externalAddress(cfg.headless) ?? [])
          if (hostType(ip) === qtype) m.answer.push(addrRR(qname, cfg.ttl, ip));
        if (m.answer.length === 0) m.authority = [soa(zone)];
      });

    /** msg_to_dns.go a/aaaa: addresses, and CNAME plus upstream lookup for a LoadBalancer hostname. */
    const addresses = (req: Request, qname: string, qtype: 'A' | 'AAAA', svcs: ExternalService[], kttl: number): RR[] => {
      const out: RR[] = [];
      const dup = new Set<string>();
      for (const s of svcs) {
        const t = hostType(s.host);
        if (t === 'CNAME') {
          out.push({ name: qname, ttl: kttl, class: 'IN', type: 'CNAME', target: fqdn(s.host) });
          out.push(...req.lookup(fqdn(s.host), qtype).answer);
        } else if (t === qtype && !dup.has(s.host)) {
          dup.add(s.host);
          out.push(addrRR(qname, cfg.ttl, s.host));
        }
      }
      return out;
    };

    /** msg_to_dns.go srv: weights share 100 per priority; targets are the Service (or endpoint) names. */
    const srv = (req: Request, qname: string, zone: string, svcs: ExternalService[], kttl: number): { answer: RR[]; extra: RR[] } => {
      const answer: RR[] = [];
      const extra: RR[] = [];
      const seen = new Set<string>();
      const weight = Math.max(1, Math.floor((100 / (100 * svcs.length)) * 100));
      for (const s of svcs) {
        if (s.port === -1) continue;
        const t = hostType(s.host);
        const target = t === 'CNAME' ? fqdn(s.host) : `${s.key.join('.')}.${zone}`;
        if (!seen.has(`${target}|${s.port}`)) {
          seen.add(`${target}|${s.port}`);
          answer.push({ name: qname, ttl: kttl, class: 'IN', type: 'SRV', priority: 0, weight, port: s.port, target });
        }
        const addrKey = `${target}|addr|${t === 'CNAME' ? target : s.host}`;
        if (seen.has(addrKey)) continue;
        seen.add(addrKey);
        if (t === 'CNAME') extra.push(...req.lookup(target, 'A').answer, ...req.lookup(target, 'AAAA').answer);
        else extra.push(addrRR(target, cfg.ttl, s.host));
      }
      return { answer, extra };
    };

    return {
      name: 'k8s_external',
      startupCheck() {
        // setup.go OnStartup: dnsserver.GetConfig(c).Handler("kubernetes").
        const k = ctx.handler('kubernetes');
        if (!k) return 'plugin/k8s_external: kubernetes plugin not loaded';
        if (!k.externaler) return 'plugin/k8s_external: kubernetes plugin does not implement the Externaler interface';
        x = k.externaler;
        return undefined;
      },
      serve(req, next) {
        const q = req.msg.question[0];
        if (!q || !x) return nextOrFailure('k8s_external', next, req);
        const qname = fqdn(q.name);
        const name = qname.toLowerCase();
        const zone = matchZone(cfg.zones, name);
        if (zone === undefined) return nextOrFailure('k8s_external', next, req);
        for (const z of cfg.zones) {
          if (name === z) return serveApex(req, qname, q.type, zone);
          const sub = `${cfg.apex}.${z}`.toLowerCase();
          if (name === sub || name.endsWith(`.${sub}`)) return serveSubApex(req, qname, q.type, zone);
        }
        const { services, rcode } = x.external(name, q.type, zone, cfg.headless);
        if (services.length === 0) {
          if (rcode === 'NXDOMAIN' && matchZone(cfg.fall, name) !== undefined) return nextOrFailure('k8s_external', next, req);
          return write(req, (m) => {
            m.rcode = rcode;
            m.authority = [soa(zone)];
          });
        }
        const kttl = x.ttl();
        return write(req, (m) => {
          switch (q.type) {
            case 'A':
            case 'AAAA':
              m.answer = addresses(req, qname, q.type, services, kttl);
              break;
            case 'SRV': {
              const r = srv(req, qname, zone, services, kttl);
              m.answer = r.answer;
              m.additional = r.extra;
              break;
            }
            case 'PTR': {
              const dup = new Set<string>();
              for (const s of services) {
                if (dup.has(s.host)) continue;
                dup.add(s.host);
                m.answer.push({ name: qname, ttl: cfg.ttl, class: 'IN', type: 'PTR', target: `${s.host}.${cfg.zones[0] ?? '.'}` });
              }
              break;
            }
            default:
          }
          if (m.answer.length === 0) m.authority = [soa(zone)];
        });
      },
    };
  },
};
