/**
 * What `nft list ruleset` shows of the rules iptables-nft (iptables 1.8.x, nf_tables backend) keeps
 * in the kernel: the `ip filter` / `ip nat` / `ip mangle` / `ip raw` tables, each rule as nft 1.0.x
 * decodes its expressions back. Pure: from the iptables model to listing lines.
 *
 * How iptables-nft builds a rule (netfilter iptables 1.8.9 iptables/nft-ipv4.c nft_ipv4_add, nft.c
 * add_match / add_action / add_counters): native expressions for `-i`, `-o` (meta iifname/oifname,
 * `+` as a `*` wildcard), `-p` (meta l4proto), `-s`, `-d` (ip saddr/daddr payload, a /32 without its
 * prefix, 0.0.0.0/0 dropped), `-f` (ip frag-off & 8191), then one expression per match in order:
 * native for `-m mark` (meta mark) and for `-m tcp`/`-m udp` with ports (tcp/udp sport/dport
 * payload), every other match an xtables compat expression; then a counter; then the verdict
 * (native accept/drop/return/jump/goto) or an xtables compat target.
 *
 * How nft prints them (nftables 1.0.6 src/rule.c rule_print, src/xt.c xt_stmt_xlate,
 * src/netlink_delinearize.c rule_parse_postprocess, src/payload.c payload_dependency_kill): the
 * statements of a rule joined by one space; an xt statement prints what the extension's libxtables
 * `xlate` hook writes to its main buffer (a `-m comment` writes only to the comment buffer, so it
 * prints as an empty string and leaves a doubled space), or `xt match NAME` / `xt target NAME`
 * when the extension has no xlate or its xlate gives up. A `meta l4proto tcp` that only guards a
 * following native `tcp dport` is left out ("dependency"), unless a statement other than a plain
 * expression (an xt match, say) came between them.
 *
 * Every form here was checked against the real iptables-nft-restore 1.8.9 and nft 1.0.6
 * (testdata/nft-xlate/, scripts/record-nft-xlate.mjs). The xt forms are the extensions' xlate
 * hooks (iptables extensions/libxt_conntrack.c state_xlate_print, libxt_statistic.c,
 * libxt_addrtype.c, libxt_multiport.c, libipt_icmp.c, libxt_MARK.c, libxt_NAT.c, libipt_REJECT.c,
 * libxt_LOG.c), quirks included: `! --ctstate RELATED,ESTABLISHED,DNAT` lists as `ct status dnat`.
 *
 * What the model cannot know: the kernel lists chains in creation order (handles), and
 * iptables-nft creates a built-in chain only when a rule or a policy needs it. The model keeps every
 * built-in chain and user chains sorted (as iptables-save prints them), so the listing here is that
 * of a node whose rules were loaded from their own iptables-save with iptables-nft-restore: tables in
 * save order (mangle, raw, filter, nat; for the kubelet's tables also the order it creates them),
 * every built-in chain in hook order, then user chains by strcmp.
 */
import type { ExtOption, IptablesState, Match, Rule, Table, TableName, Target } from './iptables.js';

/** One chain as `nft list` prints its body: header lines (base chains: `type filter hook input priority filter; policy accept;`) then one line per rule, without indentation. */
export interface ListedChain {
  name: string;
  lines: string[];
}

/** One table of iptables-nft's, in nft's listing order of chains. */
export interface ListedTable {
  family: 'ip';
  name: string;
  chains: ListedChain[];
}

/** Order of iptables-save (nft_table_type in iptables nft.c), which iptables-nft-restore creates them in. */
const TABLE_ORDER: readonly TableName[] = ['mangle', 'raw', 'filter', 'nat'];

/** Base chain type, hook and priority name of each built-in chain (iptables nft.c xtables_ipv4 builtin tables; nftables src/rule.c std_prio_lookup). */
const BASE_CHAINS: Readonly<Record<TableName, Readonly<Record<string, string>>>> = {
  filter: {
    INPUT: 'type filter hook input priority filter',
    FORWARD: 'type filter hook forward priority filter',
    OUTPUT: 'type filter hook output priority filter',
  },
  nat: {
    PREROUTING: 'type nat hook prerouting priority dstnat',
    INPUT: 'type nat hook input priority 100',
    OUTPUT: 'type nat hook output priority -100',
    POSTROUTING: 'type nat hook postrouting priority srcnat',
  },
  mangle: {
    PREROUTING: 'type filter hook prerouting priority mangle',
    INPUT: 'type filter hook input priority mangle',
    FORWARD: 'type filter hook forward priority mangle',
    OUTPUT: 'type route hook output priority mangle',
    POSTROUTING: 'type filter hook postrouting priority mangle',
  },
  raw: {
    PREROUTING: 'type filter hook prerouting priority raw',
    OUTPUT: 'type filter hook output priority raw',
  },
};

/** /etc/protocols (Debian netbase) as nft prints `meta l4proto` through getprotobynumber. */
const PROTOCOLS: Readonly<Record<number, string>> = {
  0: 'ip',
  1: 'icmp',
  2: 'igmp',
  3: 'ggp',
  4: 'ipencap',
  5: 'st',
  6: 'tcp',
  8: 'egp',
  9: 'igp',
  12: 'pup',
  17: 'udp',
  20: 'hmp',
  22: 'xns-idp',
  27: 'rdp',
  29: 'iso-tp4',
  33: 'dccp',
  36: 'xtp',
  37: 'ddp',
  38: 'idpr-cmtp',
  41: 'ipv6',
  43: 'ipv6-route',
  44: 'ipv6-frag',
  45: 'idrp',
  46: 'rsvp',
  47: 'gre',
  50: 'esp',
  51: 'ah',
  57: 'skip',
  58: 'ipv6-icmp',
  59: 'ipv6-nonxt',
  60: 'ipv6-opts',
  73: 'rspf',
  81: 'vmtp',
  88: 'eigrp',
  89: 'ospf',
  93: 'ax.25',
  94: 'ipip',
  97: 'etherip',
  98: 'encap',
  103: 'pim',
  108: 'ipcomp',
  112: 'vrrp',
  115: 'l2tp',
  124: 'isis',
  132: 'sctp',
  133: 'fc',
  135: 'mobility-header',
  136: 'udplite',
  137: 'mpls-in-ip',
  138: 'manet',
  139: 'hip',
  140: 'shim6',
  141: 'wesp',
  142: 'rohc',
  143: 'ethernet',
};

/**
 * One printed statement of a rule. `xt` marks an xtables compat statement (nft lists the table with
 * a "managed by iptables-nft" warning, and the statement ends a payload dependency); `dep` marks a
 * `meta l4proto P` that a following native P header match makes redundant; `payload` names the
 * transport protocol a native port match reads.
 */
interface Stmt {
  text: string;
  xt: boolean;
  dep?: string;
  payload?: string;
}

const native = (text: string): Stmt => ({ text, xt: false });
const xt = (text: string): Stmt => ({ text, xt: true });

function opt(opts: readonly ExtOption[], flag: string): ExtOption | undefined {
  return opts.find((o) => o.flag === flag);
}

function val(opts: readonly ExtOption[], flag: string): string | undefined {
  return opt(opts, flag)?.values[0];
}

/** `0x%08x`: nft prints a mark (datatype mark_type) zero-padded to 32 bits. */
function mark32(n: number): string {
  return `0x${(n >>> 0).toString(16).padStart(8, '0')}`;
}

/** `0x%x`, as the libxtables xlate hooks print a mark. */
function hex(n: number): string {
  return `0x${(n >>> 0).toString(16)}`;
}

function protoText(num: number): string {
  return PROTOCOLS[num] ?? String(num);
}

/** iptables' `+` wildcard is nft's `*` (iptables nft-shared.c add_iniface: a cmp on the name's prefix, printed by nft as a wildcard string). */
function ifaceText(name: string): string {
  return `"${name.endsWith('+') ? `${name.slice(0, -1)}*` : name}"`;
}

/** `-s`/`-d`: nothing for 0.0.0.0/0 (iptables drops it), a /32 without its prefix. */
function addrStmt(dir: 'saddr' | 'daddr', a: Rule['src']): Stmt | undefined {
  if (!a) return undefined;
  if (a.prefix === 0 && !a.neg) return undefined;
  const addr = a.prefix === 32 ? a.addr : `${a.addr}/${a.prefix}`;
  return native(`ip ${dir} ${a.neg ? '!= ' : ''}${addr}`);
}

/** `80:90` → `80-90` (nft ranges). */
const range = (p: string): string => p.replace(':', '-');

/** `-m tcp`/`-m udp`: native payload matches when ports are given (nft.c add_nft_tcpudp), else an xt match whose xlate prints nothing. */
function portMatch(proto: string, m: Match): Stmt[] {
  if (m.options.length === 0) return [xt('')];
  return m.options
    .filter((o) => o.flag === 'sport' || o.flag === 'dport')
    .map((o) => ({ text: `${proto} ${o.flag} ${o.neg ? '!= ' : ''}${range(o.values[0] ?? '')}`, xt: false, payload: proto }));
}

/** libxt_sctp.c sctp_xlate: ports as tcp/udp print them; nothing to say without ports, so `xt match sctp`. */
function sctpMatch(m: Match): Stmt {
  if (m.options.length === 0) return xt('xt match sctp');
  return xt(m.options.map((o) => `sctp ${o.flag} ${o.neg ? '!= ' : ''}${range(o.values[0] ?? '')}`).join(' '));
}

/** libxt_multiport.c multiport_xlate: one port bare, several as an anonymous set in the given order; `--ports` as `sport . dport` pairs. */
function multiportMatch(proto: string, m: Match): Stmt {
  const o = m.options[0];
  if (!o) return xt('xt match multiport');
  const ports = (o.values[0] ?? '').split(',').map(range);
  const neg = o.neg ? '!= ' : '';
  if (o.flag === 'ports') {
    const pairs = ports.flatMap((p) => [`0-65535 . ${p}`, `${p} . 0-65535`]);
    return xt(`${proto} sport . ${proto} dport ${neg}{ ${pairs.join(', ')} }`);
  }
  const set = ports.length === 1 ? (ports[0] ?? '') : `{ ${ports.join(', ')} }`;
  return xt(`${proto} ${o.flag === 'sports' ? 'sport' : 'dport'} ${neg}${set}`);
}

/** ICMP type names of nft's icmp_type datatype, for the types libipt_icmp.c icmp_xlate names. */
const ICMP_NAMES: Readonly<Record<string, string>> = {
  '0': 'echo-reply',
  '3': 'destination-unreachable',
  '4': 'source-quench',
  '5': 'redirect',
  '8': 'echo-request',
  '9': 'router-advertisement',
  '10': 'router-solicitation',
  '11': 'time-exceeded',
  '12': 'parameter-problem',
  '13': 'timestamp-request',
  '14': 'timestamp-reply',
  '15': 'info-request',
  '16': 'info-reply',
  '17': 'address-mask-request',
  '18': 'address-mask-reply',
};

/** libipt_icmp.c icmp_xlate: `any` is `ip protocol icmp`; a code or an unnamed type gives up (`xt match icmp`). */
function icmpMatch(m: Match): Stmt {
  const o = opt(m.options, 'icmp-type');
  const v = o?.values[0] ?? 'any';
  if (v === 'any') return xt('ip protocol icmp');
  const name = ICMP_NAMES[v];
  if (!name) return xt('xt match icmp');
  return xt(`icmp type ${o?.neg ? '!= ' : ''}${name}`);
}

/** libxt_statistic.c statistic_xlate: random as `meta random & 2147483647 < p` (p the kernel's u32), nth as numgen. */
function statisticMatch(m: Match): Stmt {
  const mode = opt(m.options, 'mode');
  const neg = mode?.neg === true;
  if (mode?.values[0] === 'random') {
    // the model keeps the probability as iptables-save prints it (%.11f of p/2^31): exact enough to get p back
    const fixed = Math.round(Number(val(m.options, 'probability') ?? '0') * 0x80000000);
    return xt(`meta random & 2147483647 ${neg ? '>=' : '<'} ${fixed}`);
  }
  return xt(`numgen inc mod ${val(m.options, 'every') ?? '1'} ${neg ? '!= ' : ''}${val(m.options, 'packet') ?? '0'}`);
}

/** nft's fib_addr_type names, by the order of the kernel's RTN_* (libxt_addrtype.c addrtype_xlate); THROW, NAT, XRESOLVE have none. */
const ADDRTYPE_NAMES: Readonly<Record<string, string>> = {
  UNSPEC: 'unspec',
  UNICAST: 'unicast',
  LOCAL: 'local',
  BROADCAST: 'broadcast',
  ANYCAST: 'anycast',
  MULTICAST: 'multicast',
  BLACKHOLE: 'blackhole',
  UNREACHABLE: 'unreachable',
  PROHIBIT: 'prohibit',
};

/** libxt_addrtype.c addrtype_xlate: only the source type when both are given; `. iif`/`. oif` for --limit-iface-in/out. */
function addrtypeMatch(m: Match): Stmt {
  const src = opt(m.options, 'src-type');
  const o = src ?? opt(m.options, 'dst-type');
  let s = `fib ${src ? 'saddr' : 'daddr'}`;
  if (opt(m.options, 'limit-iface-in')) s += ' . iif';
  else if (opt(m.options, 'limit-iface-out')) s += ' . oif';
  s += ` type${o?.neg ? ' !=' : ''}`;
  const names = (o?.values[0] ?? '')
    .split(',')
    .map((t) => ADDRTYPE_NAMES[t])
    .filter((t): t is string => t !== undefined);
  if (names.length === 1) s += ` ${names[0] ?? ''}`;
  else if (names.length > 1) s += ` { ${names.join(', ')} }`;
  return xt(s);
}

/**
 * libxt_conntrack.c conntrack3_mt_xlate / state_xlate_print: a state set with SNAT or DNAT in it
 * prints as `ct status snat|dnat` alone (its negation dropped); otherwise `ct state [! ]a,b`.
 */
function ctStateStmt(o: ExtOption | undefined): Stmt {
  const states = (o?.values[0] ?? '').split(',');
  if (states.includes('SNAT')) return xt('ct status snat');
  if (states.includes('DNAT')) return xt('ct status dnat');
  const order = ['INVALID', 'NEW', 'RELATED', 'ESTABLISHED', 'UNTRACKED'];
  const names = order.filter((s) => states.includes(s)).map((s) => s.toLowerCase());
  return xt(`ct state ${o?.neg ? '! ' : ''}${names.join(',')}`);
}

/** `-m mark`: native (nft.c add_nft_mark), `meta mark V` or `meta mark & M == V`. */
function markMatch(m: Match): Stmt {
  const o = m.options[0];
  const [v = '0', k = '0xffffffff'] = (o?.values[0] ?? '0').split('/');
  const mark = Number(v);
  const mask = Number(k);
  if (mask === 0xffffffff) return native(`meta mark ${o?.neg ? '!= ' : ''}${mark32(mark)}`);
  return native(`meta mark & ${mark32(mask)} ${o?.neg ? '!=' : '=='} ${mark32(mark)}`);
}

function matchStmts(rule: Rule, m: Match): Stmt[] {
  const proto = rule.proto ? protoText(rule.proto.num) : '';
  switch (m.module) {
    case 'comment':
      return [xt('')];
    case 'tcp':
    case 'udp':
      return portMatch(m.module, m);
    case 'sctp':
      return [sctpMatch(m)];
    case 'multiport':
      return [multiportMatch(proto, m)];
    case 'icmp':
      return [icmpMatch(m)];
    case 'statistic':
      return [statisticMatch(m)];
    case 'addrtype':
      return [addrtypeMatch(m)];
    case 'conntrack':
      return [ctStateStmt(opt(m.options, 'ctstate'))];
    case 'state':
      return [ctStateStmt(opt(m.options, 'state'))];
    case 'mark':
      return [markMatch(m)];
    default:
      // recent, nfacct and whatever else has no xlate hook
      return [xt(`xt match ${m.module}`)];
  }
}

/** libxt_MARK.c mark_tg_xlate (revision 2, `--set-xmark mark/mask`). */
function markTarget(t: Target): string {
  const [v = '0', k = '0'] = (val(t.options, 'set-xmark') ?? '0/0').split('/');
  const mark = Number(v) >>> 0;
  const mask = Number(k) >>> 0;
  if (mask === 0xffffffff) return `meta mark set ${hex(mark)}`;
  if (mark === 0) return `meta mark set mark and ${hex(~mask)}`;
  if (mark === mask) return `meta mark set mark or ${hex(mark)}`;
  if (mask === 0) return `meta mark set mark xor ${hex(mark)}`;
  return `meta mark set mark and ${hex(~mask)} xor ${hex(mark)}`;
}

/** libxt_NAT.c: the range flags after the address, comma-joined in this order. */
function natFlags(t: Target): string {
  const flags = [
    opt(t.options, 'random') ? 'random' : '',
    opt(t.options, 'random-fully') ? 'fully-random' : '',
    opt(t.options, 'persistent') ? 'persistent' : '',
  ].filter((f) => f !== '');
  return flags.length ? ` ${flags.join(',')}` : '';
}

/** libipt_REJECT.c reject_tg_xlate, with nft's icmp_code names. */
const REJECT_NAMES: Readonly<Record<string, string>> = {
  'icmp-net-unreachable': 'net-unreachable',
  'icmp-host-unreachable': 'host-unreachable',
  'icmp-proto-unreachable': 'prot-unreachable',
  'icmp-net-prohibited': 'net-prohibited',
  'icmp-host-prohibited': 'host-prohibited',
  'icmp-admin-prohibited': 'admin-prohibited',
};

function rejectTarget(t: Target): string {
  const w = val(t.options, 'reject-with') ?? 'icmp-port-unreachable';
  if (w === 'icmp-port-unreachable') return 'reject';
  if (w === 'tcp-reset') return 'reject with tcp reset';
  return `reject with icmp type ${REJECT_NAMES[w] ?? w}`;
}

/** nft's log level names (libxt_LOG.c LOG_xlate leaves out the default, warning). */
const LOG_LEVELS = ['emerg', 'alert', 'crit', 'err', 'warn', 'notice', 'info', 'debug'];

function logTarget(t: Target): string {
  let s = 'log';
  const prefix = val(t.options, 'log-prefix');
  if (prefix !== undefined && prefix !== '') s += ` prefix "${prefix}"`;
  const level = val(t.options, 'log-level');
  if (level !== undefined && level !== '4') s += ` level ${LOG_LEVELS[Number(level)] ?? level}`;
  return s;
}

function targetStmt(t: Target | undefined): Stmt | undefined {
  if (!t) return undefined;
  if (t.kind === 'chain') return native(`${t.goto ? 'goto' : 'jump'} ${t.name}`);
  if (t.kind === 'standard') return native(t.name === 'QUEUE' ? 'queue' : t.name.toLowerCase());
  switch (t.name) {
    case 'MARK':
      return xt(markTarget(t));
    case 'MASQUERADE': {
      const ports = val(t.options, 'to-ports');
      return xt(`masquerade${ports !== undefined ? ` to :${ports}` : ''}${natFlags(t)}`);
    }
    case 'DNAT':
      return xt(`dnat to ${val(t.options, 'to-destination') ?? ''}${natFlags(t)}`);
    case 'SNAT':
      return xt(`snat to ${val(t.options, 'to-source') ?? ''}${natFlags(t)}`);
    case 'REJECT':
      return xt(rejectTarget(t));
    case 'LOG':
      return xt(logTarget(t));
    default:
      return xt(`xt target ${t.name}`);
  }
}

/** The statements of one rule, in the order iptables-nft adds them (nft-ipv4.c nft_ipv4_add). */
function ruleStmts(rule: Rule): Stmt[] {
  const out: Stmt[] = [];
  if (rule.inIface) out.push(native(`iifname ${rule.inIface.neg ? '!= ' : ''}${ifaceText(rule.inIface.name)}`));
  if (rule.outIface) out.push(native(`oifname ${rule.outIface.neg ? '!= ' : ''}${ifaceText(rule.outIface.name)}`));
  if (rule.proto && (rule.proto.num !== 0 || rule.proto.neg)) {
    const p = protoText(rule.proto.num);
    out.push(rule.proto.neg ? native(`meta l4proto != ${p}`) : { text: `meta l4proto ${p}`, xt: false, dep: p });
  }
  for (const s of [addrStmt('saddr', rule.src), addrStmt('daddr', rule.dst)]) if (s) out.push(s);
  if (rule.fragment) out.push(native(`ip frag-off & 8191 ${rule.fragment.neg ? '==' : '!='} 0`));
  for (const m of rule.matches) out.push(...matchStmts(rule, m));
  out.push(native(`counter packets ${rule.counters.packets} bytes ${rule.counters.bytes}`));
  const t = targetStmt(rule.target);
  if (t) out.push(t);
  return out;
}

/**
 * nft's payload dependency elimination on listing: a `meta l4proto P` is dropped when a native P
 * header match follows it with only plain expressions between (any xt statement resets the
 * tracked dependency: netlink_delinearize.c rule_maybe_reset_payload_deps).
 */
function dropDependencies(stmts: Stmt[]): Stmt[] {
  const drop = new Set<Stmt>();
  let dep: Stmt | undefined;
  for (const s of stmts) {
    if (s.dep !== undefined) dep = s;
    else if (s.payload !== undefined) {
      if (dep && dep.dep === s.payload) drop.add(dep);
      dep = undefined;
    } else if (s.xt) dep = undefined;
  }
  return stmts.filter((s) => !drop.has(s));
}

/** One rule as `nft list` prints it (statements joined by a space; an empty xt statement leaves a doubled one). */
export function ruleLine(rule: Rule): string {
  return dropDependencies(ruleStmts(rule))
    .map((s) => s.text)
    .join(' ');
}

/** Whether iptables-nft stores the rule with an xtables compat expression (nft then warns the table is iptables-nft's). */
export function ruleHasXt(rule: Rule): boolean {
  return ruleStmts(rule).some((s) => s.xt);
}

function listTable(table: Table): ListedTable {
  const base = BASE_CHAINS[table.name];
  return {
    family: 'ip',
    name: table.name,
    chains: table.chains.map((c) => {
      const lines: string[] = [];
      const hook = c.builtin ? base[c.name] : undefined;
      if (hook) lines.push(`${hook}; policy ${(c.policy ?? 'ACCEPT').toLowerCase()};`);
      for (const r of c.rules) lines.push(ruleLine(r));
      return { name: c.name, lines };
    }),
  };
}

/** The tables iptables-nft has created in the kernel for this ruleset, in the order `nft list ruleset` lists them. */
export function iptablesNftTables(state: IptablesState): ListedTable[] {
  const out: ListedTable[] = [];
  for (const name of TABLE_ORDER) {
    const t = state.tables[name];
    if (t) out.push(listTable(t));
  }
  return out;
}

/**
 * What nft 1.0.6 writes to stderr when it lists tables holding xtables compat expressions, one
 * line per such table in listing order (printed before the listing itself).
 */
export function iptablesNftWarnings(state: IptablesState): string {
  let s = '';
  for (const name of TABLE_ORDER) {
    const t = state.tables[name];
    if (t && t.chains.some((c) => c.rules.some(ruleHasXt))) s += `# Warning: table ip ${name} is managed by iptables-nft, do not touch!\n`;
  }
  return s;
}

/** `nft list ruleset` text of the tables: tab-indented, a blank line between two chains. */
export function renderListedTables(tables: readonly ListedTable[]): string {
  let s = '';
  for (const t of tables) {
    s += `table ${t.family} ${t.name} {\n`;
    s += t.chains.map((c) => `\tchain ${c.name} {\n${c.lines.map((l) => `\t\t${l}\n`).join('')}\t}\n`).join('\n');
    s += '}\n';
  }
  return s;
}
