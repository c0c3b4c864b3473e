/**
 * iptables match and target extensions: how each one's options are parsed, normalised, saved
 * (`iptables-save` / `-S`) and printed (`-L`). One small definition per extension, kept in a table,
 * like libxtables' registry of `struct xtables_match` / `struct xtables_target`.
 *
 * Sources (netfilter iptables 1.8.x): extensions/libxt_comment.c, libxt_tcp.c, libxt_udp.c,
 * libxt_sctp.c, libxt_statistic.c, libxt_recent.c, libxt_addrtype.c, libxt_conntrack.c (+state),
 * libxt_mark.c, libxt_nfacct.c, libxt_multiport.c, libipt_icmp.c, libxt_MARK.c, libxt_NAT.c
 * (DNAT/SNAT/MASQUERADE), libipt_REJECT.c, libxt_LOG.c; libxtables/xtables.c (xtables_save_string).
 */
import type { ExtOption } from './iptables.js';
import { parseIPv4 } from './ipv4.js';
import { formatIPv6, parseIPv6, type Family } from './ipv6.js';

/** What the user typed for one option of an extension, before normalisation. */
export interface RawOption {
  flag: string;
  neg: boolean;
  values: string[];
}

export interface FlagDef {
  /** Number of values following the flag. */
  arity: 0 | 1;
  /** Whether `! --flag` is accepted. */
  negatable?: boolean;
  /** Canonical flag name when this is an alias (`--to` → `to-destination`). */
  alias?: string;
}

export interface NormaliseContext {
  /** Protocol number from `-p` (0 when absent). */
  proto: number;
  /** ip6tables loads the IPv6 revision of an extension (libip6t_REJECT.c, libxt_NAT.c's v6 parse); default ipv4. */
  family?: Family;
}

export type Normalised = { ok: true; options: ExtOption[] } | { ok: false; message: string };

export interface Extension {
  name: string;
  kind: 'match' | 'target';
  flags: Readonly<Record<string, FlagDef>>;
  normalise(opts: RawOption[], ctx: NormaliseContext): Normalised;
  /** Save form: everything after `-m name` / `-j NAME`, each part with its leading space. */
  save(opts: ExtOption[]): string;
  /** `-L` form, with its leading space. */
  print(opts: ExtOption[], numeric: boolean): string;
}

// ---------------------------------------------------------------------------------------------
// helpers

const NO_QUOTE = /^[A-Za-z0-9_-]+$/;

/** xtables_save_string: bare when only [A-Za-z0-9_-], otherwise quoted with `"\'` escaped. */
export function saveString(value: string): string {
  if (NO_QUOTE.test(value)) return ` ${value}`;
  return ` "${value.replace(/["\\']/g, (c) => `\\${c}`)}"`;
}

function opt(flag: string, values: string[] = [], neg = false): ExtOption {
  return { flag, neg, values };
}

function get(opts: ExtOption[], flag: string): ExtOption | undefined {
  return opts.find((o) => o.flag === flag);
}

function val(opts: ExtOption[], flag: string): string | undefined {
  return get(opts, flag)?.values[0];
}

function ok(options: ExtOption[]): Normalised {
  return { ok: true, options };
}

function fail(message: string): Normalised {
  return { ok: false, message };
}

/** Rejects a repeated option the way xtables_option_parse does. */
function checkOnce(ext: string, opts: RawOption[]): Normalised | undefined {
  const seen = new Set<string>();
  for (const o of opts) {
    if (seen.has(o.flag)) return fail(`${ext}: option "--${o.flag}" can only be used once.\n`);
    seen.add(o.flag);
  }
  return undefined;
}

function raw(opts: RawOption[], flag: string): RawOption | undefined {
  return opts.find((o) => o.flag === flag);
}

/** Small /etc/services excerpt (netbase) for `-L` without `-n` and for names in `--dport`. */
const SERVICES: Readonly<Record<number, string>> = {
  20: 'ftp-data',
  21: 'ftp',
  22: 'ssh',
  23: 'telnet',
  25: 'smtp',
  53: 'domain',
  80: 'http',
  110: 'pop3',
  123: 'ntp',
  143: 'imap2',
  161: 'snmp',
  443: 'https',
  993: 'imaps',
  995: 'pop3s',
  3306: 'mysql',
  5432: 'postgresql',
};

function parsePort(s: string): number | undefined {
  if (/^[0-9]+$/.test(s)) {
    const n = Number(s);
    return n <= 65535 ? n : undefined;
  }
  for (const [num, name] of Object.entries(SERVICES)) if (name === s) return Number(num);
  return undefined;
}

/** `80`, `80:90`, `:90`, `80:` → canonical `80` / `80:90` / `0:90` / `80:65535`. */
function parsePortRange(s: string): string | undefined {
  const i = s.indexOf(':');
  if (i < 0) {
    const p = parsePort(s);
    return p === undefined ? undefined : String(p);
  }
  const lo = i === 0 ? 0 : parsePort(s.slice(0, i));
  const hi = i === s.length - 1 ? 65535 : parsePort(s.slice(i + 1));
  if (lo === undefined || hi === undefined) return undefined;
  if (lo === hi) return String(lo);
  return `${lo}:${hi}`;
}

function portName(p: string, numeric: boolean): string {
  if (numeric) return p;
  return SERVICES[Number(p)] ?? p;
}

/** Parses a mark/mask number the way strtoul(…, 0) does (0x hex, leading-0 octal, decimal). */
function parseU32(s: string): number | undefined {
  let n: number;
  if (/^0[xX][0-9a-fA-F]+$/.test(s)) n = parseInt(s.slice(2), 16);
  else if (/^0[0-7]*$/.test(s)) n = parseInt(s, 8);
  else if (/^[1-9][0-9]*$/.test(s)) n = Number(s);
  else return undefined;
  return n <= 0xffffffff ? n : undefined;
}

function hex(n: number): string {
  return `0x${(n >>> 0).toString(16)}`;
}

/** `value[/mask]` → [value, mask] with mask defaulting to 0xffffffff. */
function parseMarkMask(s: string): [number, number] | undefined {
  const i = s.indexOf('/');
  const v = parseU32(i < 0 ? s : s.slice(0, i));
  const m = i < 0 ? 0xffffffff : parseU32(s.slice(i + 1));
  if (v === undefined || m === undefined) return undefined;
  return [v, m];
}

function markText(v: number, m: number): string {
  return m === 0xffffffff ? hex(v) : `${hex(v)}/${hex(m)}`;
}

/**
 * `%.11f` of p/2^31 computed exactly with round-half-even, as glibc printf does (JavaScript's
 * toFixed rounds ties up, which differs for a handful of values).
 */
export function probabilityText(fixed: number): string {
  const den = 2n ** 31n;
  const scaled = BigInt(fixed) * 10n ** 11n;
  let q = scaled / den;
  const r = scaled % den;
  if (r * 2n > den || (r * 2n === den && q % 2n === 1n)) q += 1n;
  const s = q.toString().padStart(12, '0');
  return `${s.slice(0, -11)}.${s.slice(-11)}`;
}

// ---------------------------------------------------------------------------------------------
// matches

const comment: Extension = {
  name: 'comment',
  kind: 'match',
  flags: { comment: { arity: 1 } },
  normalise(opts) {
    const once = checkOnce('comment', opts);
    if (once) return once;
    const c = raw(opts, 'comment');
    if (!c) return fail('comment: option "--comment" must be specified\n');
    const text = c.values[0] ?? '';
    if (text.length > 255) return fail('COMMENT must be shorter than 256 characters');
    return ok([opt('comment', [text])]);
  },
  save: (o) => ` --comment${saveString(val(o, 'comment') ?? '')}`,
  print: (o) => ` /* ${val(o, 'comment') ?? ''} */`,
};

function portMatch(name: 'tcp' | 'udp' | 'sctp'): Extension {
  return {
    name,
    kind: 'match',
    flags: {
      sport: { arity: 1, negatable: true },
      'source-port': { arity: 1, negatable: true, alias: 'sport' },
      dport: { arity: 1, negatable: true },
      'destination-port': { arity: 1, negatable: true, alias: 'dport' },
    },
    normalise(opts) {
      const once = checkOnce(name, opts);
      if (once) return once;
      const out: ExtOption[] = [];
      for (const flag of ['sport', 'dport']) {
        const o = raw(opts, flag);
        if (!o) continue;
        const v = o.values[0] ?? '';
        const r = parsePortRange(v);
        if (r === undefined) return fail(`invalid port/service \`${v}' specified`);
        out.push(opt(flag, [r], o.neg));
      }
      return ok(out);
    },
    save(o) {
      let s = '';
      for (const x of o) s += `${x.neg ? ' !' : ''} --${x.flag} ${x.values[0] ?? ''}`;
      return s;
    },
    print(o, numeric) {
      let s = ` ${name}`;
      for (const x of o) {
        const label = x.flag === 'sport' ? 'spt' : 'dpt';
        const v = x.values[0] ?? '';
        const inv = x.neg ? '!' : '';
        if (v.includes(':')) {
          const [lo = '', hi = ''] = v.split(':');
          s += ` ${label}s:${inv}${portName(lo, numeric)}:${portName(hi, numeric)}`;
        } else s += ` ${label}:${inv}${portName(v, numeric)}`;
      }
      return s;
    },
  };
}

const multiport: Extension = {
  name: 'multiport',
  kind: 'match',
  flags: {
    sports: { arity: 1, negatable: true },
    'source-ports': { arity: 1, negatable: true, alias: 'sports' },
    dports: { arity: 1, negatable: true },
    'destination-ports': { arity: 1, negatable: true, alias: 'dports' },
    ports: { arity: 1, negatable: true },
  },
  normalise(opts, ctx) {
    if (opts.length !== 1) return fail('multiport can only have one option');
    if (ctx.proto !== 6 && ctx.proto !== 17 && ctx.proto !== 132)
      return fail('multiport needs `-p tcp\', `-p udp\', `-p udplite\', `-p sctp\' or `-p dccp\'');
    const o = opts[0] as RawOption;
    const parts = (o.values[0] ?? '').split(',');
    if (parts.length > 15) return fail('too many ports specified');
    const out: string[] = [];
    for (const p of parts) {
      const r = parsePortRange(p);
      if (r === undefined) return fail(`invalid port/service \`${p}' specified`);
      out.push(r);
    }
    return ok([opt(o.flag, [out.join(',')], o.neg)]);
  },
  save: (o) => o.map((x) => `${x.neg ? ' !' : ''} --${x.flag} ${x.values[0] ?? ''}`).join(''),
  print(o, numeric) {
    const x = o[0];
    if (!x) return ' multiport';
    const list = (x.values[0] ?? '')
      .split(',')
      .map((p) => p.split(':').map((q) => portName(q, numeric)).join(':'))
      .join(',');
    return ` multiport ${x.flag} ${x.neg ? '!' : ''}${list}`;
  },
};

const ICMP_TYPES: Readonly<Record<string, string>> = {
  'echo-reply': '0',
  pong: '0',
  'destination-unreachable': '3',
  'echo-request': '8',
  ping: '8',
  'time-exceeded': '11',
  any: 'any',
};

const icmp: Extension = {
  name: 'icmp',
  kind: 'match',
  flags: { 'icmp-type': { arity: 1, negatable: true } },
  normalise(opts) {
    const o = raw(opts, 'icmp-type');
    if (!o) return ok([]);
    const v = o.values[0] ?? '';
    const t = ICMP_TYPES[v] ?? (/^[0-9]+(\/[0-9]+)?$/.test(v) ? v : undefined);
    if (t === undefined) return fail(`Invalid ICMP type \`${v}'\n`);
    return ok([opt('icmp-type', [t], o.neg)]);
  },
  save: (o) => o.map((x) => `${x.neg ? ' !' : ''} --icmp-type ${x.values[0] ?? ''}`).join(''),
  print: (o) => {
    const x = o[0];
    if (!x) return ' icmp';
    const v = x.values[0] ?? '';
    return v === 'any' ? ` icmp${x.neg ? ' !' : ''}any` : ` icmptype ${x.neg ? '!' : ''}${v}`;
  },
};

const statistic: Extension = {
  name: 'statistic',
  kind: 'match',
  flags: {
    mode: { arity: 1 },
    probability: { arity: 1, negatable: true },
    every: { arity: 1, negatable: true },
    packet: { arity: 1 },
  },
  normalise(opts) {
    const once = checkOnce('statistic', opts);
    if (once) return once;
    const mode = raw(opts, 'mode');
    if (!mode) return fail('statistic: option "--mode" must be specified\n');
    const m = mode.values[0] ?? '';
    if (m === 'random') {
      const p = raw(opts, 'probability');
      if (!p) return fail('statistic: option "--probability" must be specified\n');
      const f = Number(p.values[0]);
      if (!Number.isFinite(f) || f < 0 || f > 1) return fail('--probability must be between 0 and 1');
      const fixed = Math.round(0x80000000 * f);
      return ok([opt('mode', ['random'], p.neg), opt('probability', [probabilityText(fixed)])]);
    }
    if (m === 'nth') {
      const e = raw(opts, 'every');
      if (!e) return fail('--every must be specified in nth mode');
      const every = Number(e.values[0]);
      const pk = Number(raw(opts, 'packet')?.values[0] ?? '0');
      if (!Number.isInteger(every) || every < 1) return fail('--every cannot be 0');
      if (!Number.isInteger(pk) || pk < 0 || pk > every - 1) return fail('--packet out of range');
      return ok([opt('mode', ['nth'], e.neg), opt('every', [String(every)]), opt('packet', [String(pk)])]);
    }
    return fail(`Bad mode \`${m}'`);
  },
  save(o) {
    const mode = get(o, 'mode');
    const inv = mode?.neg ? ' !' : '';
    if (mode?.values[0] === 'random') return ` --mode random${inv} --probability ${val(o, 'probability') ?? ''}`;
    return ` --mode nth${inv} --every ${val(o, 'every') ?? ''} --packet ${val(o, 'packet') ?? '0'}`;
  },
  print(o) {
    const mode = get(o, 'mode');
    const inv = mode?.neg ? ' !' : '';
    if (mode?.values[0] === 'random') return ` statistic mode random${inv} probability ${val(o, 'probability') ?? ''}`;
    const packet = val(o, 'packet') ?? '0';
    return ` statistic mode nth${inv} every ${val(o, 'every') ?? ''}${packet !== '0' ? ` packet ${packet}` : ''}`;
  },
};

const RECENT_CMDS = ['set', 'rcheck', 'update', 'remove'] as const;

const recent: Extension = {
  name: 'recent',
  kind: 'match',
  flags: {
    set: { arity: 0, negatable: true },
    rcheck: { arity: 0, negatable: true },
    update: { arity: 0, negatable: true },
    remove: { arity: 0, negatable: true },
    seconds: { arity: 1 },
    reap: { arity: 0 },
    hitcount: { arity: 1 },
    rttl: { arity: 0 },
    name: { arity: 1 },
    mask: { arity: 1 },
    rsource: { arity: 0 },
    rdest: { arity: 0 },
  },
  normalise(opts, ctx) {
    const once = checkOnce('recent', opts);
    if (once) return once;
    const cmds = opts.filter((o) => (RECENT_CMDS as readonly string[]).includes(o.flag));
    if (cmds.length === 0)
      return fail("recent: you must specify one of `--set', `--rcheck' `--update' or `--remove'");
    if (cmds.length > 1)
      return fail("recent: only one of `--set', `--rcheck' `--update' or `--remove' may be set");
    const cmd = cmds[0] as RawOption;
    const out: ExtOption[] = [opt(cmd.flag, [], cmd.neg)];
    const seconds = raw(opts, 'seconds');
    if (seconds) out.push(opt('seconds', [String(Number(seconds.values[0]))]));
    if (raw(opts, 'reap')) {
      if (!seconds) return fail('recent: --reap is only valid with --seconds');
      out.push(opt('reap'));
    }
    const hit = raw(opts, 'hitcount');
    if (hit) out.push(opt('hitcount', [String(Number(hit.values[0]))]));
    if (raw(opts, 'rttl')) out.push(opt('rttl'));
    out.push(opt('name', [raw(opts, 'name')?.values[0] ?? 'DEFAULT']));
    if (ctx.family === 'ipv6') {
      // libxt_recent.c: the mask is a full-length address of the family, printed by inet_ntop
      const m6 = raw(opts, 'mask')?.values[0] ?? 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff';
      const w = parseIPv6(m6);
      if (!w) return fail(`recent: bad mask \`${m6}'`);
      out.push(opt('mask', [formatIPv6(w)]));
    } else {
      const mask = raw(opts, 'mask')?.values[0] ?? '255.255.255.255';
      if (parseIPv4(mask) === undefined) return fail(`recent: bad mask \`${mask}'`);
      out.push(opt('mask', [mask]));
    }
    out.push(opt(raw(opts, 'rdest') ? 'rdest' : 'rsource'));
    return ok(out);
  },
  save(o) {
    let s = '';
    for (const x of o) {
      if (x.neg) s += ' !';
      s += ` --${x.flag}${x.values.length ? ` ${x.values[0] ?? ''}` : ''}`;
    }
    return s;
  },
  print(o) {
    const words: Record<string, string> = { set: 'SET', rcheck: 'CHECK', update: 'UPDATE', remove: 'REMOVE' };
    let s = '';
    for (const x of o) {
      if (x.neg) s += ' !';
      const w = words[x.flag];
      if (w) {
        s += ` recent: ${w}`;
        continue;
      }
      if (x.flag === 'seconds') s += ` seconds: ${x.values[0] ?? ''}`;
      else if (x.flag === 'reap') s += ' reap';
      else if (x.flag === 'hitcount') s += ` hit_count: ${x.values[0] ?? ''}`;
      else if (x.flag === 'rttl') s += ' TTL-Match';
      else if (x.flag === 'name') s += ` name: ${x.values[0] ?? ''}`;
      else if (x.flag === 'rsource') s += ' side: source';
      else if (x.flag === 'rdest') s += ' side: dest';
    }
    const mask = val(o, 'mask');
    if (mask !== undefined) s += ` mask: ${mask}`;
    return s;
  },
};

const ADDR_TYPES = [
  'UNSPEC',
  'UNICAST',
  'LOCAL',
  'BROADCAST',
  'ANYCAST',
  'MULTICAST',
  'BLACKHOLE',
  'UNREACHABLE',
  'PROHIBIT',
  'THROW',
  'NAT',
  'XRESOLVE',
];

function parseTypes(s: string): string | undefined {
  const set = new Set<string>();
  for (const t of s.split(',')) {
    const u = t.toUpperCase();
    if (!ADDR_TYPES.includes(u)) return undefined;
    set.add(u);
  }
  return ADDR_TYPES.filter((t) => set.has(t)).join(',');
}

const addrtype: Extension = {
  name: 'addrtype',
  kind: 'match',
  flags: {
    'src-type': { arity: 1, negatable: true },
    'dst-type': { arity: 1, negatable: true },
    'limit-iface-in': { arity: 0 },
    'limit-iface-out': { arity: 0 },
  },
  normalise(opts) {
    const once = checkOnce('addrtype', opts);
    if (once) return once;
    const out: ExtOption[] = [];
    for (const flag of ['src-type', 'dst-type']) {
      const o = raw(opts, flag);
      if (!o) continue;
      const t = parseTypes(o.values[0] ?? '');
      if (t === undefined) return fail(`addrtype: bad type \`${o.values[0] ?? ''}'`);
      out.push(opt(flag, [t], o.neg));
    }
    if (out.length === 0) return fail('addrtype: you must specify --src-type or --dst-type');
    for (const flag of ['limit-iface-in', 'limit-iface-out']) if (raw(opts, flag)) out.push(opt(flag));
    return ok(out);
  },
  save: (o) => o.map((x) => `${x.neg ? ' !' : ''} --${x.flag}${x.values.length ? ` ${x.values[0] ?? ''}` : ''}`).join(''),
  print(o) {
    let s = ' ADDRTYPE match';
    for (const x of o) {
      if (x.flag === 'src-type' || x.flag === 'dst-type') s += ` ${x.flag} ${x.neg ? '!' : ''}${x.values[0] ?? ''}`;
      else s += x.flag === 'limit-iface-in' ? ' limit-in' : ' limit-out';
    }
    return s;
  },
};

const CT_STATES = ['INVALID', 'NEW', 'RELATED', 'ESTABLISHED', 'UNTRACKED', 'SNAT', 'DNAT'];

function parseStates(s: string, allowed: string[]): string | undefined {
  const set = new Set<string>();
  for (const t of s.split(',')) {
    const u = t.toUpperCase();
    if (!allowed.includes(u)) return undefined;
    set.add(u);
  }
  return allowed.filter((t) => set.has(t)).join(',');
}

const conntrack: Extension = {
  name: 'conntrack',
  kind: 'match',
  flags: { ctstate: { arity: 1, negatable: true } },
  normalise(opts) {
    const once = checkOnce('conntrack', opts);
    if (once) return once;
    const o = raw(opts, 'ctstate');
    if (!o) return fail('conntrack: At least one option is required');
    const st = parseStates(o.values[0] ?? '', CT_STATES);
    if (st === undefined) return fail(`Bad ctstate "${o.values[0] ?? ''}"`);
    return ok([opt('ctstate', [st], o.neg)]);
  },
  save: (o) => o.map((x) => `${x.neg ? ' !' : ''} --ctstate ${x.values[0] ?? ''}`).join(''),
  print: (o) => o.map((x) => `${x.neg ? ' !' : ''} ctstate ${x.values[0] ?? ''}`).join(''),
};

const state: Extension = {
  name: 'state',
  kind: 'match',
  flags: { state: { arity: 1, negatable: true } },
  normalise(opts) {
    const o = raw(opts, 'state');
    if (!o) return fail('state: option "--state" must be specified\n');
    const st = parseStates(o.values[0] ?? '', CT_STATES.slice(0, 5));
    if (st === undefined) return fail(`Bad state "${o.values[0] ?? ''}"`);
    return ok([opt('state', [st], o.neg)]);
  },
  save: (o) => o.map((x) => `${x.neg ? ' !' : ''} --state ${x.values[0] ?? ''}`).join(''),
  print: (o) => o.map((x) => ` ${x.neg ? '! ' : ''}state ${x.values[0] ?? ''}`).join(''),
};

const mark: Extension = {
  name: 'mark',
  kind: 'match',
  flags: { mark: { arity: 1, negatable: true } },
  normalise(opts) {
    const o = raw(opts, 'mark');
    if (!o) return fail('mark: option "--mark" must be specified\n');
    const mm = parseMarkMask(o.values[0] ?? '');
    if (!mm) return fail(`mark: Bad value for "--mark" option: "${o.values[0] ?? ''}"`);
    return ok([opt('mark', [markText(mm[0], mm[1])], o.neg)]);
  },
  save: (o) => o.map((x) => `${x.neg ? ' !' : ''} --mark ${x.values[0] ?? ''}`).join(''),
  print: (o) => o.map((x) => ` mark match${x.neg ? ' !' : ''} ${x.values[0] ?? ''}`).join(''),
};

const nfacct: Extension = {
  name: 'nfacct',
  kind: 'match',
  flags: { 'nfacct-name': { arity: 1 } },
  normalise(opts) {
    const o = raw(opts, 'nfacct-name');
    if (!o) return fail('nfacct: option "--nfacct-name" must be specified\n');
    return ok([opt('nfacct-name', [o.values[0] ?? ''])]);
  },
  save: (o) => ` --nfacct-name ${saveString(val(o, 'nfacct-name') ?? '')}`,
  print: (o) => ` nfacct-name ${saveString(val(o, 'nfacct-name') ?? '')}`,
};

// ---------------------------------------------------------------------------------------------
// targets

const REJECT_TYPES: Readonly<Record<string, string>> = {
  'icmp-net-unreachable': 'icmp-net-unreachable',
  'net-unreach': 'icmp-net-unreachable',
  'icmp-host-unreachable': 'icmp-host-unreachable',
  'host-unreach': 'icmp-host-unreachable',
  'icmp-proto-unreachable': 'icmp-proto-unreachable',
  'proto-unreach': 'icmp-proto-unreachable',
  'icmp-port-unreachable': 'icmp-port-unreachable',
  'port-unreach': 'icmp-port-unreachable',
  'icmp-net-prohibited': 'icmp-net-prohibited',
  'net-prohib': 'icmp-net-prohibited',
  'icmp-host-prohibited': 'icmp-host-prohibited',
  'host-prohib': 'icmp-host-prohibited',
  'icmp-admin-prohibited': 'icmp-admin-prohibited',
  'admin-prohib': 'icmp-admin-prohibited',
  'tcp-reset': 'tcp-reset',
  'tcp-rst': 'tcp-reset',
};

/** libip6t_REJECT.c reject_table: the ICMPv6 types and their short aliases. */
const REJECT6_TYPES: Readonly<Record<string, string>> = {
  'icmp6-no-route': 'icmp6-no-route',
  'no-route': 'icmp6-no-route',
  'icmp6-adm-prohibited': 'icmp6-adm-prohibited',
  'adm-prohibited': 'icmp6-adm-prohibited',
  'icmp6-addr-unreachable': 'icmp6-addr-unreachable',
  'addr-unreach': 'icmp6-addr-unreachable',
  'icmp6-port-unreachable': 'icmp6-port-unreachable',
  'port-unreach': 'icmp6-port-unreachable',
  'icmp6-policy-fail': 'icmp6-policy-fail',
  'policy-fail': 'icmp6-policy-fail',
  'icmp6-reject-route': 'icmp6-reject-route',
  'reject-route': 'icmp6-reject-route',
  'tcp-reset': 'tcp-reset',
};

const REJECT: Extension = {
  name: 'REJECT',
  kind: 'target',
  flags: { 'reject-with': { arity: 1 } },
  normalise(opts, ctx) {
    const o = raw(opts, 'reject-with');
    const v6 = ctx.family === 'ipv6';
    const v = o?.values[0] ?? (v6 ? 'icmp6-port-unreachable' : 'icmp-port-unreachable');
    const t = (v6 ? REJECT6_TYPES : REJECT_TYPES)[v];
    if (!t) return fail(`unknown reject type "${v}"`);
    return ok([opt('reject-with', [t])]);
  },
  save: (o) => ` --reject-with ${val(o, 'reject-with') ?? ''}`,
  print: (o) => ` reject-with ${val(o, 'reject-with') ?? ''}`,
};

/** `ip[-ip][:port[-port]]` of DNAT/SNAT. */
function validNatRange(s: string): boolean {
  const m = /^([0-9.]+)(?:-([0-9.]+))?(?::([0-9]+)(?:-([0-9]+))?)?$/.exec(s);
  if (!m) return false;
  if (parseIPv4(m[1] ?? '') === undefined) return false;
  if (m[2] !== undefined && parseIPv4(m[2]) === undefined) return false;
  for (const p of [m[3], m[4]]) if (p !== undefined && Number(p) > 65535) return false;
  return true;
}

/**
 * libxt_NAT.c's IPv6 range: `addr[-addr]` or `[addr[-addr]]:port[-port]` (brackets are needed
 * before a port); the save form prints each address through inet_ntop and brackets only with a
 * port. Undefined when invalid (`Bad IP address "…"`).
 */
function natRange6(s: string): string | undefined {
  const m = /^\[([^\]]+)\](?::([0-9]+)(?:-([0-9]+))?)?$/.exec(s) ?? /^([^[\]]+)()()$/.exec(s);
  if (!m) return undefined;
  const addrs = (m[1] ?? '').split('-');
  if (addrs.length > 2) return undefined;
  const words = addrs.map((a) => parseIPv6(a));
  if (words.some((w) => w === undefined)) return undefined;
  const text = words.map((w) => formatIPv6(w as number[])).join('-');
  const ports = [m[2], m[3]].filter((p): p is string => p !== undefined && p !== '');
  if (ports.some((p) => Number(p) > 65535)) return undefined;
  return ports.length ? `[${text}]:${ports.map((p) => String(Number(p))).join('-')}` : text;
}

function natTarget(name: 'DNAT' | 'SNAT'): Extension {
  const flag = name === 'DNAT' ? 'to-destination' : 'to-source';
  return {
    name,
    kind: 'target',
    flags: { [flag]: { arity: 1 }, to: { arity: 1, alias: flag }, random: { arity: 0 }, persistent: { arity: 0 } },
    normalise(opts, ctx) {
      const o = raw(opts, flag);
      if (!o) return fail(`${name}: option "--${flag}" must be specified\n`);
      const v = o.values[0] ?? '';
      const v6 = ctx.family === 'ipv6' ? natRange6(v) : undefined;
      if (ctx.family === 'ipv6' ? v6 === undefined : !validNatRange(v)) return fail(`Bad IP address "${v}"\n`);
      const out = [opt(flag, [v6 ?? v])];
      if (raw(opts, 'random')) out.push(opt('random'));
      if (raw(opts, 'persistent')) out.push(opt('persistent'));
      return ok(out);
    },
    save: (o) => o.map((x) => ` --${x.flag}${x.values.length ? ` ${x.values[0] ?? ''}` : ''}`).join(''),
    print: (o) => o.map((x) => (x.flag === flag ? ` to:${x.values[0] ?? ''}` : ` ${x.flag}`)).join(''),
  };
}

const MASQUERADE: Extension = {
  name: 'MASQUERADE',
  kind: 'target',
  flags: { 'to-ports': { arity: 1 }, random: { arity: 0 }, 'random-fully': { arity: 0 } },
  normalise(opts) {
    const out: ExtOption[] = [];
    const p = raw(opts, 'to-ports');
    if (p) {
      if (!/^[0-9]+(-[0-9]+)?$/.test(p.values[0] ?? '')) return fail(`Port "${p.values[0] ?? ''}" not valid\n`);
      out.push(opt('to-ports', [p.values[0] ?? '']));
    }
    if (raw(opts, 'random')) out.push(opt('random'));
    if (raw(opts, 'random-fully')) out.push(opt('random-fully'));
    return ok(out);
  },
  save: (o) => o.map((x) => ` --${x.flag}${x.values.length ? ` ${x.values[0] ?? ''}` : ''}`).join(''),
  print: (o) => o.map((x) => (x.flag === 'to-ports' ? ` masq ports: ${x.values[0] ?? ''}` : ` ${x.flag}`)).join(''),
};

/**
 * MARK revision 2 stores (mark, mask) and the kernel computes `(old & ~mask) ^ mark`; every input
 * form collapses to `--set-xmark mark/mask` in save output (libxt_MARK.c mark_tg_parse/save).
 */
const MARK: Extension = {
  name: 'MARK',
  kind: 'target',
  flags: {
    'set-xmark': { arity: 1 },
    'set-mark': { arity: 1 },
    'and-mark': { arity: 1 },
    'or-mark': { arity: 1 },
    'xor-mark': { arity: 1 },
  },
  normalise(opts) {
    if (opts.length === 0) return fail('MARK target: Parameter --set/and/or/xor-mark is required');
    if (opts.length > 1) return fail('MARK target: Can specify only one action');
    const o = opts[0] as RawOption;
    const v = o.values[0] ?? '';
    let markV: number;
    let maskV: number;
    if (o.flag === 'set-xmark' || o.flag === 'set-mark') {
      const mm = parseMarkMask(v);
      if (!mm) return fail(`MARK: Bad value for "--${o.flag}" option: "${v}"`);
      markV = mm[0];
      maskV = o.flag === 'set-mark' ? (mm[1] | mm[0]) >>> 0 : mm[1];
    } else {
      const n = parseU32(v);
      if (n === undefined) return fail(`MARK: Bad value for "--${o.flag}" option: "${v}"`);
      if (o.flag === 'and-mark') [markV, maskV] = [0, ~n >>> 0];
      else if (o.flag === 'or-mark') [markV, maskV] = [n, n];
      else [markV, maskV] = [n, 0];
    }
    return ok([opt('set-xmark', [`${hex(markV)}/${hex(maskV)}`])]);
  },
  save: (o) => ` --set-xmark ${val(o, 'set-xmark') ?? ''}`,
  print(o) {
    const [mv = '0', mk = '0'] = (val(o, 'set-xmark') ?? '0/0').split('/');
    const m = Number(mv);
    const k = Number(mk);
    if (m === 0) return ` MARK and ${hex(~k >>> 0)}`;
    if (m === k) return ` MARK or ${hex(m)}`;
    if (k === 0) return ` MARK xor ${hex(m)}`;
    if (k === 0xffffffff) return ` MARK set ${hex(m)}`;
    return ` MARK xset ${hex(m)}/${hex(k)}`;
  },
};

const LOG_LEVELS = ['emerg', 'alert', 'crit', 'error', 'warning', 'notice', 'info', 'debug'];

const LOG: Extension = {
  name: 'LOG',
  kind: 'target',
  flags: { 'log-prefix': { arity: 1 }, 'log-level': { arity: 1 } },
  normalise(opts) {
    const out: ExtOption[] = [];
    const p = raw(opts, 'log-prefix');
    if (p) {
      const v = p.values[0] ?? '';
      if (v.length > 29) return fail('Maximum prefix length 29 for --log-prefix');
      out.push(opt('log-prefix', [v]));
    }
    const l = raw(opts, 'log-level');
    if (l) {
      const v = l.values[0] ?? '';
      const n = /^[0-7]$/.test(v) ? Number(v) : LOG_LEVELS.indexOf(v === 'panic' ? 'emerg' : v === 'warn' ? 'warning' : v);
      if (n < 0) return fail(`log-level \`${v}' unknown`);
      if (n !== 4) out.push(opt('log-level', [String(n)]));
    }
    return ok(out);
  },
  save: (o) =>
    o.map((x) => (x.flag === 'log-prefix' ? ` --log-prefix${saveString(x.values[0] ?? '')}` : ` --log-level ${x.values[0] ?? ''}`)).join(''),
  print(o, numeric) {
    const level = Number(val(o, 'log-level') ?? '4');
    let s = numeric ? ` LOG flags 0 level ${level}` : ` LOG level ${LOG_LEVELS[level] ?? level}`;
    const prefix = val(o, 'log-prefix');
    if (prefix !== undefined && prefix !== '') s += ` prefix "${prefix}"`;
    return s;
  },
};

// ---------------------------------------------------------------------------------------------
// registry

const MATCHES: readonly Extension[] = [
  comment,
  portMatch('tcp'),
  portMatch('udp'),
  portMatch('sctp'),
  multiport,
  icmp,
  statistic,
  recent,
  addrtype,
  conntrack,
  state,
  mark,
  nfacct,
];

const TARGETS: readonly Extension[] = [REJECT, natTarget('DNAT'), natTarget('SNAT'), MASQUERADE, MARK, LOG];

export function findMatch(name: string): Extension | undefined {
  return MATCHES.find((m) => m.name === name);
}

export function findTarget(name: string): Extension | undefined {
  return TARGETS.find((t) => t.name === name);
}

/** Verdicts that need no extension. */
export const STANDARD_TARGETS: readonly string[] = ['ACCEPT', 'DROP', 'RETURN', 'QUEUE'];
