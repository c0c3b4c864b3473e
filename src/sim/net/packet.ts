/**
 * Walks a packet through the rules actually present in a node's iptables model — no shortcut
 * through Service objects — so a deleted KUBE-SEP chain, a user `-I KUBE-SERVICES -j DROP` or a
 * wrong DNAT changes the outcome exactly as on a real node.
 *
 * Emulates the kernel's ipt_do_table (net/ipv4/netfilter/ip_tables.c): rules in order, a rule
 * matches when its header (addresses, interfaces, protocol) and every match extension match;
 * jumps push a return point, RETURN / end of a user chain pops it, the end of a built-in chain
 * applies its policy; DNAT/SNAT/MASQUERADE are terminal in nat, MARK and LOG are not. Match
 * semantics follow net/netfilter/xt_{tcpudp,statistic,recent,addrtype,conntrack,mark,multiport}.c;
 * trace lines use the `table:chain:rule|return|policy:N` form of the kernel's TRACE target.
 */
import type { AddrMatch, Chain, ExtOption, IptablesState, Match, Rule, Table, TableName } from './iptables.js';
import { findChain, ownChain } from './iptables.js';
import { cidrContains, formatIPv4, parseCidr, parseIPv4, type Cidr } from './ipv4.js';
import { canonicalIPv6, cidr6Contains, formatIPv6, parseIPv6 } from './ipv6.js';
import { PROTO_NAMES } from './rule-parse.js';
import { remember } from '../../util/bounded-map.js';

export interface Packet {
  src: string;
  dst: string;
  proto: 'tcp' | 'udp' | 'sctp' | 'icmp';
  sport?: number;
  dport?: number;
  inIface?: string;
  outIface?: string;
  /** skb mark */
  mark?: number;
  /** conntrack states the packet has, default ['NEW'] */
  ctstates?: string[];
}

/** State of `-m recent` lists (xt_recent's /proc/net/xt_recent/<name>): address → last-seen seconds. */
export interface RecentState {
  lists: Record<string, Record<string, number>>;
}

export function newRecentState(): RecentState {
  return { lists: {} };
}

export interface WalkContext {
  /** Addresses of the node itself (for `-m addrtype --dst-type LOCAL`); 127.0.0.0/8 is always local. */
  localAddrs: readonly string[];
  /** Random source for `-m statistic --mode random` (e.g. util/random.ts Random). */
  rng: { float(): number };
  /** Session-affinity lists; mutated by `--set`/`--update`/`--reap`. */
  recent: RecentState;
  /** Current time in seconds (for `--seconds`). */
  nowSeconds: number;
  /** Increment rule and policy counters of what the packet traverses. */
  count?: { bytes: number };
  /**
   * `false`: leave the results' `trace` empty and give only their `summary` (the packet path
   * prints the summary alone, so its walks spend nothing on lines nobody reads).
   */
  trace?: false;
}

export type Verdict = 'ACCEPT' | 'DROP' | 'REJECT';

export interface FilterResult {
  verdict: Verdict;
  rejectWith?: string;
  mark: number;
  trace: string[];
  /** The chains the walk went through, as summariseTrace(trace) gives them (made during the walk). */
  summary: string;
}

export interface NatResult {
  /** Destination after DNAT, when a DNAT rule fired. */
  dnat?: { ip: string; port?: number };
  /** Whether nat POSTROUTING masquerades the (translated) packet. */
  masquerade: boolean;
  verdict: Verdict;
  mark: number;
  trace: string[];
  /** The chains the walk went through, as summariseTrace(trace) gives them (made during the walk). */
  summary: string;
}

interface Walk {
  table: Table;
  pkt: Required<Pick<Packet, 'src' | 'dst' | 'proto'>> & Packet;
  /** parseIPv4 of pkt.src and pkt.dst (a walk never changes its packet: NAT gives a new one). */
  srcV: number | undefined;
  dstV: number | undefined;
  mark: number;
  ctx: WalkContext;
  /** The trace lines, or undefined when the context asked for none. */
  trace: string[] | undefined;
  /** summariseTrace's labels of the lines so far (the same whether or not `trace` is kept). */
  labels: string[];
}

type Outcome =
  | { kind: 'verdict'; verdict: Verdict; rejectWith?: string; dnat?: { ip: string; port?: number }; masquerade?: boolean }
  | { kind: 'return' };

const MAX_DEPTH = 64;

function optVal(opts: ExtOption[], flag: string): ExtOption | undefined {
  return opts.find((o) => o.flag === flag);
}

function ifaceMatches(pattern: string, name: string | undefined): boolean {
  if (name === undefined) return false;
  if (pattern.endsWith('+')) return name.startsWith(pattern.slice(0, -1));
  return pattern === name;
}

function inRange(spec: string, v: number | undefined): boolean {
  if (v === undefined) return false;
  if (!spec.includes(':')) {
    // one port: lo and hi are both Number(spec) (kube-proxy's every --dport)
    const n = Number(spec);
    return v >= n && v <= n;
  }
  const [lo, hi] = spec.split(':').map(Number);
  return v >= (lo ?? 0) && v <= (hi ?? 65535);
}

/** `v`: parseIPv4(addr), which the walk has at hand for its packet's addresses. */
function isLocal(addr: string, v: number | undefined, ctx: WalkContext): boolean {
  if (v === undefined) return canonicalIPv6(addr) === '::1' || ctx.localAddrs.includes(addr);
  if (v >>> 24 === 127) return true;
  return ctx.localAddrs.includes(addr);
}

/** xt_addrtype's type of an address (IPv6: ::1 and the host's own are LOCAL, ff00::/8 MULTICAST); `v` is parseIPv4(addr). */
function addrTypeOf(addr: string, v: number | undefined, ctx: WalkContext): readonly string[] {
  if (isLocal(addr, v, ctx)) return LOCAL;
  if (v === undefined) return cidr6Contains('ff00::', 8, addr) ? MULTICAST : UNICAST;
  if (v === 0xffffffff) return BROADCAST;
  if (v >>> 28 === 14) return MULTICAST;
  return UNICAST;
}

const LOCAL: readonly string[] = Object.freeze(['LOCAL']);
const MULTICAST: readonly string[] = Object.freeze(['MULTICAST']);
const UNICAST: readonly string[] = Object.freeze(['UNICAST']);
const BROADCAST: readonly string[] = Object.freeze(['BROADCAST']);

/**
 * A match option's value split at `sep` (conntrack's states, addrtype's types, mark's value/mask),
 * by its text: a pure function of it, remembered (bounded) because every packet
 * meets the same few in kube-proxy's and the kubelet's rules. Frozen: shared by every caller.
 */
const SPLITS: Record<',' | '/', Map<string, readonly string[]>> = { ',': new Map(), '/': new Map() };
const SPLITS_MAX = 4096;

let optionSplits = 0;

/** How many match option values were split (for tests). */
export function ruleOptionSplits(): number {
  return optionSplits;
}

function splitOnce(text: string, sep: ',' | '/'): readonly string[] {
  const known = SPLITS[sep];
  const parts = known.get(text);
  if (parts !== undefined) return parts;
  optionSplits++;
  return remember(known, text, Object.freeze(text.split(sep)), SPLITS_MAX);
}

/** `chain` and `index` name the rule (`table:chain:index`) for the match that keys state by it. */
function matchExt(m: Match, w: Walk, chain: string, index: number): boolean {
  const o = m.options;
  const p = w.pkt;
  switch (m.module) {
    case 'comment':
    case 'nfacct':
      return true;
    case 'tcp':
    case 'udp':
    case 'sctp': {
      if (p.proto !== m.module) return false;
      for (const x of o) {
        const hit = inRange(x.values[0] ?? '', x.flag === 'sport' ? p.sport : p.dport);
        if (hit === x.neg) return false;
      }
      return true;
    }
    case 'multiport': {
      const x = o[0];
      if (!x) return true;
      const ports = splitOnce(x.values[0] ?? '', ',');
      const test = (v: number | undefined): boolean => ports.some((s) => inRange(s, v));
      const hit = x.flag === 'sports' ? test(p.sport) : x.flag === 'dports' ? test(p.dport) : test(p.sport) || test(p.dport);
      return hit !== x.neg;
    }
    case 'icmp':
      return p.proto === 'icmp';
    case 'statistic': {
      const mode = optVal(o, 'mode');
      let hit: boolean;
      if (mode?.values[0] === 'random') hit = w.ctx.rng.float() < Number(optVal(o, 'probability')?.values[0] ?? '0');
      else {
        const every = Number(optVal(o, 'every')?.values[0] ?? '1');
        const packet = Number(optVal(o, 'packet')?.values[0] ?? '0');
        const key = `nth:${w.table.name}:${chain}:${index}`;
        const lists = w.ctx.recent.lists;
        const counter = lists[key] ?? { count: 0 };
        lists[key] = counter;
        const c = counter['count'] ?? 0;
        hit = c === packet;
        counter['count'] = (c + 1) % every;
      }
      return hit !== (mode?.neg ?? false);
    }
    case 'recent':
      return matchRecent(o, w);
    case 'addrtype': {
      for (const x of o) {
        if (x.flag !== 'src-type' && x.flag !== 'dst-type') continue;
        const types = splitOnce(x.values[0] ?? '', ',');
        const actual = x.flag === 'src-type' ? addrTypeOf(p.src, w.srcV, w.ctx) : addrTypeOf(p.dst, w.dstV, w.ctx);
        const hit = types.some((t) => actual.includes(t));
        if (hit === x.neg) return false;
      }
      return true;
    }
    case 'conntrack':
    case 'state': {
      const x = o[0];
      if (!x) return true;
      const states = p.ctstates ?? ['NEW'];
      const hit = splitOnce(x.values[0] ?? '', ',').some((s) => states.includes(s));
      return hit !== x.neg;
    }
    case 'mark': {
      const x = o[0];
      if (!x) return true;
      const [v = '0', k = '0xffffffff'] = splitOnce(x.values[0] ?? '0', '/');
      const hit = ((w.mark & Number(k)) >>> 0) === Number(v) >>> 0;
      return hit !== x.neg;
    }
    default:
      return false;
  }
}

/** The address xt_recent files a packet under: its source (or destination) under --mask, per family. */
function recentKey(addr: string, mask: string | undefined): string {
  const v = parseIPv4(addr);
  if (v !== undefined) return formatIPv4((v & (parseIPv4(mask ?? '255.255.255.255') ?? 0xffffffff)) >>> 0);
  const words = parseIPv6(addr) ?? [];
  const m = parseIPv6(mask ?? 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff') ?? [];
  return formatIPv6(words.map((x, i) => x & (m[i] ?? 0xffff)));
}

/** xt_recent: --set adds/refreshes, --rcheck tests, --update tests and refreshes, --remove deletes. */
function matchRecent(o: ExtOption[], w: Walk): boolean {
  const name = optVal(o, 'name')?.values[0] ?? 'DEFAULT';
  const addrRaw = optVal(o, 'rdest') ? w.pkt.dst : w.pkt.src;
  const addr = recentKey(addrRaw, optVal(o, 'mask')?.values[0]);
  const lists = w.ctx.recent.lists;
  const list = lists[name] ?? {};
  lists[name] = list;
  const now = w.ctx.nowSeconds;
  const cmd = o[0];
  const inv = cmd?.neg ?? false;
  const seconds = optVal(o, 'seconds');
  const fresh = (t: number | undefined): boolean =>
    t !== undefined && (seconds === undefined || now - t <= Number(seconds.values[0] ?? '0'));
  let hit: boolean;
  switch (cmd?.flag) {
    case 'set':
      list[addr] = now;
      hit = true;
      break;
    case 'remove':
      hit = list[addr] !== undefined;
      delete list[addr];
      break;
    case 'update':
      hit = fresh(list[addr]);
      if (hit) list[addr] = now;
      break;
    default:
      hit = fresh(list[addr]);
  }
  if (optVal(o, 'reap') && seconds) {
    for (const [a, t] of Object.entries(list)) if (now - t > Number(seconds.values[0] ?? '0')) delete list[a];
  }
  return hit !== inv;
}

/**
 * A rule's address match as a network: set when the rule is parsed and never changed (a rule is
 * replaced, not edited), so the parse of its text is remembered by the match object. Every packet
 * walks kube-proxy's KUBE-SERVICES rules, each with a destination.
 */
const CIDRS = new WeakMap<AddrMatch, Cidr | undefined>();

let cidrParses = 0;

/** How many rule address matches were parsed (for tests). */
export function ruleCidrParses(): number {
  return cidrParses;
}

function cidrOf(m: AddrMatch): Cidr | undefined {
  if (CIDRS.has(m)) return CIDRS.get(m);
  cidrParses++;
  const c = parseCidr(`${m.addr}/${m.prefix}`);
  CIDRS.set(m, c);
  return c;
}

function addrMatches(m: AddrMatch, addr: string, v: number | undefined): boolean {
  // an ip6tables rule holds IPv6 networks, an iptables one IPv4 (a packet only walks its family's tables)
  if (v === undefined) return cidr6Contains(m.addr, m.prefix, addr);
  const c = cidrOf(m);
  return c !== undefined && cidrContains(c, v);
}

function headerMatches(r: Rule, w: Walk): boolean {
  const p = w.pkt;
  if (r.src && addrMatches(r.src, p.src, w.srcV) === r.src.neg) return false;
  if (r.dst && addrMatches(r.dst, p.dst, w.dstV) === r.dst.neg) return false;
  if (r.inIface && ifaceMatches(r.inIface.name, p.inIface) === r.inIface.neg) return false;
  if (r.outIface && ifaceMatches(r.outIface.name, p.outIface) === r.outIface.neg) return false;
  if (r.proto) {
    const hit = PROTO_NAMES[p.proto] === r.proto.num;
    if (hit === r.proto.neg) return false;
  }
  if (r.fragment && !r.fragment.neg) return false;
  return true;
}

/**
 * The chain to count rule `i` of `chain` in, with that rule's counters its own. A rule
 * iptables-restore made from a line parsed before is that line's frozen rule, shared by every
 * ruleset that holds it (restore.ts PARSED): the first count replaces it in its chain with a copy
 * of its own. A chain shared with other rulesets (restore.ts ChainTemplate) is made the table's
 * own first (the chain returned, which the walk goes on with). Only a counting walk asks: a walk
 * that counts nothing leaves the rules as they are.
 */
function countable(table: Table, chain: Chain, i: number): Chain {
  const r = chain.rules[i] as Rule;
  if (!Object.isFrozen(r.counters)) return chain;
  const own: Rule = { ...r, counters: { packets: r.counters.packets, bytes: r.counters.bytes } };
  const mine = ownChain(table, chain);
  mine.rules[i] = own;
  return mine;
}

function bump(c: { packets: number; bytes: number }, ctx: WalkContext): void {
  if (!ctx.count) return;
  c.packets += 1;
  c.bytes += ctx.count.bytes;
}

/**
 * parseNatDest's answers by the option's text (a pure function of it; bounded).
 * Every DNAT a connection takes parses its `--to-destination`, and kube-proxy writes a handful.
 */
const NAT_DESTS = new Map<string, { readonly ip: string; readonly port?: number }>();
const NAT_DESTS_MAX = 4096;

let natDestParses = 0;

/** How many DNAT destinations were parsed (for tests). */
export function ruleNatDestParses(): number {
  return natDestParses;
}

function natDest(s: string): { ip: string; port?: number } {
  let d = NAT_DESTS.get(s);
  if (d === undefined) {
    natDestParses++;
    d = remember(NAT_DESTS, s, Object.freeze(parseNatDest(s)), NAT_DESTS_MAX);
  }
  // a copy: the result goes out in NatResult.dnat
  return d.port === undefined ? { ip: d.ip } : { ip: d.ip, port: d.port };
}

function parseNatDest(s: string): { ip: string; port?: number } {
  // ip6tables writes `[addr]:port` (or a bare address)
  const v6 = /^\[([^\]]+)\](?::(\d+)(?:-\d+)?)?$/.exec(s) ?? (canonicalIPv6(s.split('-')[0] ?? '') ? [s, s.split('-')[0]!] : undefined);
  if (v6) return v6[2] === undefined ? { ip: v6[1]! } : { ip: v6[1]!, port: Number(v6[2]) };
  const [ipPart = '', portPart] = s.split(':');
  const ip = ipPart.split('-')[0] ?? ipPart;
  const port = portPart === undefined ? undefined : Number(portPart.split('-')[0]);
  return port === undefined ? { ip } : { ip, port };
}

/**
 * The label summariseTrace gives a trace line (`nat:KUBE-SERVICES:rule:3` → `KUBE-SERVICES#3`,
 * a policy line → `CHAIN(policy)`), or undefined for the lines it skips (`return`).
 */
function traceLabel(t: string): string | undefined {
  // the 2nd to 4th of the `:`-separated fields, as t.split(':') gives them (no split per line)
  const a = t.indexOf(':');
  const b = a < 0 ? -1 : t.indexOf(':', a + 1);
  const d = b < 0 ? -1 : t.indexOf(':', b + 1);
  const kind = b < 0 ? '' : t.slice(b + 1, d < 0 ? t.length : d);
  if (kind !== 'rule' && kind !== 'policy') return undefined;
  const chain = t.slice(a + 1, b);
  const e = t.indexOf(':', d + 1);
  return kind === 'rule' ? `${chain}#${d < 0 ? '' : t.slice(d + 1, e < 0 ? t.length : e)}` : `${chain}(policy)`;
}

function addLabel(labels: string[], label: string | undefined): void {
  if (label && labels[labels.length - 1] !== label) labels.push(label);
}

function labelsSummary(labels: readonly string[]): string {
  return labels.length > 0 ? labels.join(' → ') : '(no rule matched)';
}

/** Compress a netfilter trace (`nat:KUBE-SERVICES:rule:3`, …) to the chains it went through. */
export function summariseTrace(trace: readonly string[]): string {
  const labels: string[] = [];
  for (const t of trace) addLabel(labels, traceLabel(t));
  return labelsSummary(labels);
}

/**
 * Records the walk's line `table:chain:kind:n`: in the trace when it is kept, and its label. A
 * chain name without a colon gives the label its fields say; one with a colon (which the fields
 * would split) is labelled from the line itself, as summariseTrace reads it.
 */
function traced(w: Walk, chain: string, kind: 'rule' | 'policy' | 'return', n: number): void {
  const line = w.trace !== undefined || chain.includes(':') ? `${w.table.name}:${chain}:${kind}:${n}` : undefined;
  if (w.trace !== undefined) w.trace.push(line!);
  if (kind === 'return') return;
  addLabel(w.labels, line !== undefined ? traceLabel(line) : kind === 'rule' ? `${chain}#${n}` : `${chain}(policy)`);
}

function walkChain(walked: Chain, w: Walk, depth: number): Outcome {
  let chain = walked;
  if (depth > MAX_DEPTH) return { kind: 'verdict', verdict: 'DROP' };
  for (let i = 0; i < chain.rules.length; i++) {
    const r = chain.rules[i] as Rule;
    if (!headerMatches(r, w)) continue;
    const ms = r.matches;
    let all = true;
    for (let k = 0; k < ms.length; k++) {
      if (!matchExt(ms[k]!, w, chain.name, i)) {
        all = false;
        break;
      }
    }
    if (!all) continue;
    if (w.ctx.count) {
      chain = countable(w.table, chain, i);
      bump((chain.rules[i] as Rule).counters, w.ctx);
    }
    const t = r.target;
    traced(w, chain.name, 'rule', i + 1);
    if (!t) continue;
    switch (t.name) {
      case 'ACCEPT':
        return { kind: 'verdict', verdict: 'ACCEPT' };
      case 'DROP':
      case 'QUEUE':
        return { kind: 'verdict', verdict: 'DROP' };
      case 'RETURN':
        return { kind: 'return' };
      default:
        break;
    }
    if (t.kind === 'chain') {
      const sub = findChain(w.table, t.name);
      if (!sub) continue;
      const out = walkChain(sub, w, depth + 1);
      if (out.kind === 'verdict') return out;
      if (t.goto) return { kind: 'return' };
      continue;
    }
    switch (t.name) {
      case 'REJECT':
        return { kind: 'verdict', verdict: 'REJECT', rejectWith: optVal(t.options, 'reject-with')?.values[0] ?? 'icmp-port-unreachable' };
      case 'DNAT': {
        const dest = natDest(optVal(t.options, 'to-destination')?.values[0] ?? '');
        return { kind: 'verdict', verdict: 'ACCEPT', dnat: dest };
      }
      case 'SNAT':
        return { kind: 'verdict', verdict: 'ACCEPT' };
      case 'MASQUERADE':
        return { kind: 'verdict', verdict: 'ACCEPT', masquerade: true };
      case 'MARK': {
        const [mv = '0', mk = '0'] = splitOnce(optVal(t.options, 'set-xmark')?.values[0] ?? '0/0', '/');
        w.mark = ((w.mark & ~Number(mk)) ^ Number(mv)) >>> 0;
        continue;
      }
      default:
        continue; // LOG and other non-terminal targets
    }
  }
  if (chain.builtin) {
    // (a built-in chain frozen with a snapshot's ruleset is made the table's own first: node/runtime.ts freezeIptables)
    if (w.ctx.count && Object.isFrozen(chain.counters)) chain = ownChain(w.table, chain);
    bump(chain.counters, w.ctx);
    traced(w, chain.name, 'policy', chain.rules.length + 1);
    return { kind: 'verdict', verdict: chain.policy === 'DROP' ? 'DROP' : 'ACCEPT' };
  }
  traced(w, chain.name, 'return', chain.rules.length + 1);
  return { kind: 'return' };
}

function walkHook(state: IptablesState, tableName: TableName, hook: string, pkt: Packet, mark: number, ctx: WalkContext, trace: string[] | undefined, labels: string[]): { out: Outcome; mark: number } {
  const table = state.tables[tableName];
  const chain = table ? findChain(table, hook) : undefined;
  if (!table || !chain) return { out: { kind: 'verdict', verdict: 'ACCEPT' }, mark };
  const w: Walk = { table, pkt, srcV: parseIPv4(pkt.src), dstV: parseIPv4(pkt.dst), mark, ctx, trace, labels };
  const out = walkChain(chain, w, 0);
  return { out, mark: w.mark };
}

/** Walks the filter table's INPUT, FORWARD or OUTPUT chain. */
export function walkFilter(state: IptablesState, packet: Packet, hook: 'INPUT' | 'FORWARD' | 'OUTPUT', ctx: WalkContext): FilterResult {
  const trace: string[] = [];
  const labels: string[] = [];
  const { out, mark } = walkHook(state, 'filter', hook, packet, packet.mark ?? 0, ctx, ctx.trace === false ? undefined : trace, labels);
  const verdict = out.kind === 'verdict' ? out.verdict : 'ACCEPT';
  const res: FilterResult = { verdict, mark, trace, summary: labelsSummary(labels) };
  if (out.kind === 'verdict' && out.rejectWith !== undefined) res.rejectWith = out.rejectWith;
  return res;
}

/**
 * Walks nat PREROUTING (packet arriving from a pod or the network) or OUTPUT (locally generated),
 * then nat POSTROUTING with the translated packet and the marks set on the way, which decides
 * masquerading (kube-proxy's KUBE-MARK-MASQ → KUBE-POSTROUTING → MASQUERADE).
 */
export function walkNat(state: IptablesState, packet: Packet, hook: 'PREROUTING' | 'OUTPUT', ctx: WalkContext): NatResult {
  const trace: string[] = [];
  const kept = ctx.trace === false ? undefined : trace;
  const labels: string[] = [];
  const first = walkHook(state, 'nat', hook, packet, packet.mark ?? 0, ctx, kept, labels);
  const out = first.out;
  const verdict = out.kind === 'verdict' ? out.verdict : 'ACCEPT';
  const result: NatResult = { masquerade: false, verdict, mark: first.mark, trace, summary: '' };
  if (out.kind === 'verdict' && out.dnat) result.dnat = out.dnat;
  if (verdict !== 'ACCEPT') {
    result.summary = labelsSummary(labels);
    return result;
  }
  const translated: Packet = { ...packet };
  if (result.dnat) {
    translated.dst = result.dnat.ip;
    if (result.dnat.port !== undefined) translated.dport = result.dnat.port;
  }
  const post = walkHook(state, 'nat', 'POSTROUTING', translated, first.mark, ctx, kept, labels);
  result.mark = post.mark;
  if (post.out.kind === 'verdict') {
    if (post.out.verdict !== 'ACCEPT') result.verdict = post.out.verdict;
    if (post.out.masquerade) result.masquerade = true;
  }
  result.summary = labelsSummary(labels);
  return result;
}
