/**
 * forward (plugin/forward, pkg/parse/host.go): `forward FROM TO... { except, force_tcp, prefer_udp,
 * max_fails, expire, health_check, policy, max_concurrent, tls, tls_servername }`. TO is IP[:port],
 * dns:// or tls://, or a resolv.conf-style file read from the CoreDNS container. Queries outside FROM
 * go to the next plugin. Upstream replies are returned as they are; when every try fails for the
 * 5 s deadline the answer is SERVFAIL with the network error (logged by `errors`).
 */
import { isSubdomain, parseIPv4, parseIPv6, type DnsMessage } from '../message.js';
import { matchZone, nextOrFailure, normalizeZone, parseGoDuration, type PluginDef, type Plugin } from '../plugin.js';
import { CorefileError, type Dispenser } from '../corefile/dispenser.js';
import type { SetupContext } from '../plugin.js';
import { parseResolvConf } from '../resolv-conf.js';

const DEFAULT_TIMEOUT_MS = 5000;
const MAX_TO = 15;

interface Upstream {
  ip: string;
  port: number;
  tls: boolean;
}

interface ForwardConfig {
  from: string;
  upstreams: Upstream[];
  except: string[];
  forceTcp: boolean;
  preferUdp: boolean;
  policy: 'random' | 'round_robin' | 'sequential';
  maxConcurrent: number;
}

function isIPText(s: string): boolean {
  const noZone = s.replace(/%.*$/, '');
  return parseIPv4(noZone) !== undefined || parseIPv6(noZone) !== undefined;
}

/** Go net.SplitHostPort for "host:port" / "[v6]:port"; undefined if no port. */
function splitHostPort(s: string): { host: string; port: string } | undefined {
  const m = /^\[([^\]]+)\]:(\d*)$/.exec(s);
  if (m) return { host: m[1] ?? '', port: m[2] ?? '' };
  const colon = s.lastIndexOf(':');
  if (colon < 0 || s.indexOf(':') !== colon) return undefined;
  return { host: s.slice(0, colon), port: s.slice(colon + 1) };
}

function hostPortOrFile(to: string[], ctx: SetupContext): Upstream[] {
  const out: Upstream[] = [];
  for (const h of to) {
    let trans = 'dns';
    let host = h;
    const m = /^([a-z0-9]+):\/\//.exec(h);
    if (m) {
      trans = m[1] ?? 'dns';
      host = h.slice(m[0].length);
    }
    if (host.length === 0) throw new CorefileError(`invalid address: "${h}"`);
    if (trans !== 'dns' && trans !== 'tls') throw new CorefileError(`'${trans}' is not supported as a destination protocol in forward: ${h}`);
    const hp = splitHostPort(host);
    const ipPart = hp ? hp.host : host;
    if (!isIPText(ipPart)) {
      const text = ctx.readFile(host);
      if (text === undefined) throw new CorefileError(`not an IP address or file: "${host}"`);
      for (const ns of parseResolvConf(text).nameservers) out.push({ ip: ns, port: 53, tls: false });
      continue;
    }
    out.push({ ip: ipPart, port: hp ? Number(hp.port) : trans === 'tls' ? 853 : 53, tls: trans === 'tls' });
  }
  return out;
}

function parseStanza(c: Dispenser, ctx: SetupContext): ForwardConfig {
  if (!c.nextArg()) throw c.argErr();
  const from = normalizeZone(c.val());
  const to = c.remainingArgs();
  if (to.length === 0) throw c.argErr();
  const upstreams = hostPortOrFile(to, ctx);
  const cfg: ForwardConfig = { from, upstreams, except: [], forceTcp: false, preferUdp: false, policy: 'random', maxConcurrent: 0 };
  while (c.nextBlock()) {
    const v = c.val();
    switch (v) {
      case 'except': {
        const ig = c.remainingArgs();
        if (ig.length === 0) throw c.argErr();
        cfg.except.push(...ig.map(normalizeZone));
        break;
      }
      case 'max_fails': {
        if (!c.nextArg()) throw c.argErr();
        if (!/^\d+$/.test(c.val())) throw new CorefileError(`strconv.ParseUint: parsing "${c.val()}": invalid syntax`);
        break;
      }
      case 'health_check': {
        if (!c.nextArg()) throw c.argErr();
        if (parseGoDuration(c.val()) === undefined) throw new CorefileError(`time: invalid duration "${c.val()}"`);
        while (c.nextArg()) {
          const o = c.val();
          if (o === 'no_rec') continue;
          if (o === 'domain') {
            if (!c.nextArg()) throw c.argErr();
            continue;
          }
          throw new CorefileError(`health_check: unknown option ${o}`);
        }
        break;
      }
      case 'force_tcp':
        if (c.nextArg()) throw c.argErr();
        cfg.forceTcp = true;
        break;
      case 'prefer_udp':
        if (c.nextArg()) throw c.argErr();
        cfg.preferUdp = true;
        break;
      case 'tls':
        if (c.remainingArgs().length > 3) throw c.argErr();
        break;
      case 'tls_servername':
        if (!c.nextArg()) throw c.argErr();
        break;
      case 'expire': {
        if (!c.nextArg()) throw c.argErr();
        if (parseGoDuration(c.val()) === undefined) throw new CorefileError(`time: invalid duration "${c.val()}"`);
        break;
      }
      case 'policy': {
        if (!c.nextArg()) throw c.argErr();
        const x = c.val();
        if (x !== 'random' && x !== 'round_robin' && x !== 'sequential') throw c.err(`unknown policy '${x}'`);
        cfg.policy = x;
        break;
      }
      case 'max_concurrent': {
        if (!c.nextArg()) throw c.argErr();
        if (!/^[+-]?\d+$/.test(c.val())) throw new CorefileError(`strconv.Atoi: parsing "${c.val()}": invalid syntax`);
        const n = Number(c.val());
        if (n < 0) throw new CorefileError(`max_concurrent can't be negative: ${n}`);
        cfg.maxConcurrent = n;
        break;
      }
      default:
        throw c.err(`unknown property '${v}'`);
    }
  }
  if (upstreams.length > MAX_TO) throw new CorefileError(`more than ${MAX_TO} TOs configured: ${upstreams.length}`);
  return cfg;
}

function isSelf(ip: string, podIp: string): boolean {
  return ip.startsWith('127.') || ip === '::1' || ip === podIp;
}

function stanzaHandler(cfg: ForwardConfig, ctx: SetupContext): Plugin['serve'] {
  let rr = 0;
  return (req, next) => {
    const q = req.msg.question[0];
    const name = q?.name ?? '.';
    if (!isSubdomain(cfg.from, name) || matchZone(cfg.except, name) !== undefined) return nextOrFailure('forward', next, req);
    if (cfg.upstreams.length === 0) return { rcode: 'SERVFAIL', error: 'no healthy proxies' };
    let order: Upstream[];
    if (cfg.policy === 'sequential') order = [...cfg.upstreams];
    else if (cfg.policy === 'round_robin') {
      const k = rr++ % cfg.upstreams.length;
      order = [...cfg.upstreams.slice(k), ...cfg.upstreams.slice(0, k)];
    } else {
      order = [...cfg.upstreams];
      for (let i = order.length - 1; i > 0; i--) {
        const j = ctx.random.int(i + 1);
        const t = order[i] as Upstream;
        order[i] = order[j] as Upstream;
        order[j] = t;
      }
    }
    const proto = cfg.forceTcp ? 'tcp' : cfg.preferUdp ? 'udp' : req.client.proto;
    let lastErr = '';
    let spent = 0;
    for (let attempt = 0; spent < DEFAULT_TIMEOUT_MS; attempt++) {
      const up = order[attempt % order.length] as Upstream;
      const query: DnsMessage = { ...req.msg, id: ctx.random.int(65536) };
      const srcPort = 32768 + ctx.random.int(28000);
      const res = isSelf(up.ip, ctx.podIp)
        ? (req.self(query, { ip: up.ip.startsWith('127.') ? '127.0.0.1' : ctx.podIp, port: srcPort, proto }) ?? 'timeout')
        : ctx.transport(up.ip, up.port, proto, query);
      const src = `${up.ip.startsWith('127.') ? '127.0.0.1' : ctx.podIp}:${srcPort}`;
      if (res === 'timeout') {
        lastErr = `read ${proto} ${src}->${up.ip}:${up.port}: i/o timeout`;
        spent += Math.min(2000, DEFAULT_TIMEOUT_MS - spent);
        continue;
      }
      if (res === 'refused') {
        lastErr = `read ${proto} ${src}->${up.ip}:${up.port}: read: connection refused`;
        spent = DEFAULT_TIMEOUT_MS;
        continue;
      }
      const reply: DnsMessage = { ...res, id: req.msg.id, question: req.msg.question.map((x) => ({ ...x })) };
      if (req.msg.edns) reply.edns = { ...req.msg.edns };
      else delete reply.edns;
      // unpacked from the wire: sent as is (no compression asked), with the upstream's OPT
      delete reply.compress;
      if (reply.edns) reply.ownOpt = true;
      else delete reply.ownOpt;
      req.elapsed.ms += spent;
      return { rcode: 'NOERROR', reply };
    }
    req.elapsed.ms += DEFAULT_TIMEOUT_MS;
    return { rcode: 'SERVFAIL', error: lastErr };
  };
}

export const forwardPlugin: PluginDef = {
  name: 'forward',
  setup(c, ctx) {
    const stanzas: ForwardConfig[] = [];
    while (c.next()) stanzas.push(parseStanza(c, ctx));
    const handlers = stanzas.map((s) => stanzaHandler(s, ctx));
    return {
      name: 'forward',
      serve(req, next) {
        // Several forward lines chain in written order; the first whose FROM matches answers.
        const run = (i: number): ReturnType<NonNullable<Plugin['serve']>> => {
          const h = handlers[i];
          if (!h) return next(req);
          return h(req, () => run(i + 1));
        };
        return run(0);
      },
    };
  },
};
