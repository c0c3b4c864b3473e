/**
 * kube-proxy in nftables mode: the `ip kube-proxy` table (its chains, rules, sets and maps as
 * structured records) and the walk of a packet through it. What a sync writes into it is
 * nftables-plan.ts (the pieces), nftables-sync.ts (full and partial syncs) and nftables-tx.ts
 * (the transaction); how `nft list` prints it is nft-list.ts.
 *
 * Emulates kubernetes pkg/proxy/nftables/proxier.go as of v1.35 (setupNFTables + syncProxyRules,
 * after PR #132456 "nftables short-circuit local traffic to external addresses", before the
 * masquerading rework of PR #135800) for IPv4: base chains filter-prerouting-pre-dnat and
 * filter-output-pre-dnat (priority dstnat-10, they see the pre-DNAT destination: the firewall
 * check), filter-input/-forward/-output (priority filter, after DNAT: the no-endpoint and
 * ClusterIP checks), nat-prerouting/-output (dstnat), nat-postrouting (srcnat); dispatch through
 * the `service-ips` verdict map (`ip daddr . meta l4proto . th dport`) and, for addresses in the
 * `nodeport-ips` set, the `service-nodeports` map (`meta l4proto . th dport`); per service port
 * `service-HASH-ns/name/proto/port` (session affinity sets, then numgen random over endpoints),
 * `external-…` (mark-for-masquerade, then the policy chain), `firewall-…` (loadBalancerSourceRanges)
 * and `endpoint-HASH-…__ip/port` (DNAT); no-endpoint verdicts in `no-endpoint-services` /
 * `no-endpoint-nodeports` → reject-chain. The expected table is upstream's
 * proxier_test.go TestOverallNFTablesRules (nftables-overall.test.ts).
 * nodePortAddresses defaults to `primary` in this mode (cmd/kube-proxy/app/server_linux.go
 * platformApplyDefaults): NodePorts answer on the node's primary IP only, never on localhost.
 *
 * Rules are kept as structured records (the forms the proxier writes) with their nft text; the
 * set of rule forms is exactly what the walk interprets. The dual-stack proxier's `ip6 kube-proxy`
 * table holds the fixed part only: the simulated clusters have no IPv6 Services or node addresses.
 */
import { cidrContains, parseCidr, parseIPv4 } from '../ipv4.js';
import { cidr6Contains, parseCidr6 } from '../ipv6.js';

export type NftVerdict = { goto: string } | { jump: string } | 'drop' | 'reject' | 'return';

export type NftRule =
  | { op: 'jump'; ctNew: boolean; chain: string }
  /**
   * A verdict map lookup. For `proto.port`, the destination is one of the `daddrSet` set's, or
   * (nodePortAddresses matching every address) any but loopback, `fib` adding "and local".
   */
  | { op: 'vmap'; key: 'daddr.proto.port' | 'proto.port'; daddrSet?: string; fib?: boolean; map: string }
  | { op: 'daddr-set-reject'; set: string }
  | { op: 'daddr-cidrs-drop'; cidrs: string[] }
  | { op: 'reject' }
  | { op: 'mark-or' }
  | { op: 'mark-zero-return' }
  | { op: 'mark-xor' }
  | { op: 'masquerade' }
  | { op: 'masq-if'; daddr?: string; saddrNot?: string; saddr?: string }
  | { op: 'saddr-not-drop'; cidrs: string[] }
  | { op: 'affinity-goto'; set: string; chain: string }
  | { op: 'affinity-update'; set: string }
  | { op: 'saddr-goto'; cidr: string; chain: string }
  | { op: 'fib-saddr-local'; then: NftVerdict }
  | { op: 'goto'; chain: string }
  | { op: 'numgen'; chains: string[] }
  | { op: 'dnat'; proto: string; to: string };

export interface NftChain {
  name: string;
  base?: { type: 'filter' | 'nat'; hook: 'prerouting' | 'input' | 'forward' | 'output' | 'postrouting'; priority: string };
  comment?: string;
  rules: { rule: NftRule; text: string; comment?: string }[];
  /** The kernel's handle: chains are listed in the order they were created (nft-list.ts). */
  handle?: number;
}

export interface NftElement {
  key: string[];
  value?: string;
  comment?: string;
}

export interface NftSetOrMap {
  name: string;
  kind: 'set' | 'map';
  type: string;
  /** Absent for the affinity sets, which kube-proxy creates without one. */
  comment?: string;
  /** `dynamic,timeout` for the affinity sets, with their default timeout (seconds). */
  flags?: string[];
  timeout?: number;
  elements: NftElement[];
  handle?: number;
}

/** kube-proxy's dual-stack proxier keeps one table per family (NewDualStackProxier). */
export type NftFamily = 'ip' | 'ip6';

/** The `ip kube-proxy` / `ip6 kube-proxy` table (JSON, kept in host.data.state['nftables']). */
export interface NftTable {
  family: NftFamily;
  name: 'kube-proxy';
  comment: string;
  chains: NftChain[];
  sets: NftSetOrMap[];
  /** The last handle the kernel gave out in this table (chains and sets share the counter). */
  lastHandle?: number;
}

export interface NftState {
  tables: NftTable[];
  /**
   * Counts the batches that changed the ruleset (kube-proxy's and anyone's `nft`): a different
   * one after kube-proxy's sync means someone else wrote since (what iptables' rev is for its rules).
   */
  rev?: number;
}

export function newNftState(): NftState {
  return { tables: [] };
}

export function kubeProxyTable(st: NftState, family: NftFamily = 'ip'): NftTable | undefined {
  return st.tables.find((t) => t.family === family && t.name === 'kube-proxy');
}

function verdictText(v: NftVerdict): string {
  return typeof v === 'string' ? v : 'goto' in v ? `goto ${v.goto}` : `jump ${v.jump}`;
}

export function ruleText(r: NftRule, mark: string, family: NftFamily = 'ip'): string {
  const ipX = family;
  const noLocalhost = family === 'ip6' ? 'ip6 daddr != ::1' : 'ip daddr != 127.0.0.0/8';
  switch (r.op) {
    case 'jump':
      return `${r.ctNew ? 'ct state new ' : ''}jump ${r.chain}`;
    case 'vmap':
      return r.key === 'daddr.proto.port'
        ? `${ipX} daddr . meta l4proto . th dport vmap @${r.map}`
        : `${r.daddrSet ? `${ipX} daddr @${r.daddrSet} ` : `${r.fib ? 'fib daddr type local ' : ''}${noLocalhost} `}meta l4proto . th dport vmap @${r.map}`;
    case 'daddr-set-reject':
      return `${ipX} daddr @${r.set} reject`;
    case 'daddr-cidrs-drop':
      return `${ipX} daddr { ${r.cidrs.join(' , ')} } drop`;
    case 'reject':
      return 'reject';
    case 'mark-or':
      return `mark set mark or ${mark}`;
    case 'mark-zero-return':
      return `mark and ${mark} == 0 return`;
    case 'mark-xor':
      return `mark set mark xor ${mark}`;
    case 'masquerade':
      return 'masquerade fully-random';
    case 'masq-if':
      return [
        r.saddr !== undefined ? `${ipX} saddr ${r.saddr}` : '',
        r.daddr !== undefined ? `${ipX} daddr ${r.daddr}` : '',
        r.saddrNot !== undefined ? `${ipX} saddr != ${r.saddrNot}` : '',
        'jump mark-for-masquerade',
      ]
        .filter((x) => x !== '')
        .join(' ');
    case 'saddr-goto':
      return `${ipX} saddr ${r.cidr} goto ${r.chain}`;
    case 'fib-saddr-local':
      return `fib saddr type local ${verdictText(r.then)}`;
    case 'goto':
      return `goto ${r.chain}`;
    case 'numgen':
      // knftables.Concat joins the proxier's tokens with spaces, "," included
      return `numgen random mod ${r.chains.length} vmap { ${r.chains.map((c, i) => `${i} : goto ${c}`).join(' , ')} }`;
    case 'dnat':
      return `meta l4proto ${r.proto} dnat to ${r.to}`;
    case 'saddr-not-drop':
      return `${ipX} saddr != { ${r.cidrs.join(' , ')} } drop`;
    case 'affinity-goto':
      return `${ipX} saddr @${r.set} goto ${r.chain}`;
    case 'affinity-update':
      return `update @${r.set} { ${ipX} saddr }`;
  }
}

/** nftables.CleanupLeftovers: `delete table ip kube-proxy` and `ip6 kube-proxy` (run when kube-proxy starts in an iptables-based mode). */
export function cleanupNftables(st: NftState): void {
  st.tables = st.tables.filter((t) => t.name !== 'kube-proxy');
}

// ---------------------------------------------------------------------------------------------
// Walking a packet

export interface NftPacket {
  src: string;
  dst: string;
  proto: string;
  dport?: number;
}

export interface NftWalkContext {
  /** The node's own addresses (fib … type local); 127.0.0.0/8 is always local. */
  localAddrs: readonly string[];
  rng: { int(n: number): number };
  /** The affinity sets' dynamic elements (`update @set { ip saddr }` adds, `ip saddr @set` tests); none when absent. */
  affinity?: NftAffinity;
}

/** The dynamic contents of the `flags dynamic,timeout` sets: what packets put there. */
export interface NftAffinity {
  has(set: string, ip: string, timeoutSeconds: number): boolean;
  update(set: string, ip: string): void;
}

/**
 * The affinity sets' elements kept on the node (source address → last update, simulated ms); an
 * element lives for the set's timeout after its last update, as the kernel's nft_dynset
 * refreshes it (net/netfilter/nft_dynset.c, NFT_DYNSET_OP_UPDATE).
 */
export type NftAffinityState = Record<string, Record<string, number>>;

export function nftAffinity(state: NftAffinityState, nowMs: number): NftAffinity {
  return {
    has: (set, ip, timeout) => {
      const at = state[set]?.[ip];
      return at !== undefined && nowMs - at < timeout * 1000;
    },
    update: (set, ip) => {
      (state[set] ??= {})[ip] = nowMs;
    },
  };
}

/** The live elements of each affinity set at `nowMs`: address → ms before it expires (what `nft list` shows). */
export function liveAffinity(t: NftTable, state: NftAffinityState, nowMs: number): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const s of t.sets) {
    if (s.timeout === undefined) continue;
    const live = new Map<string, number>();
    for (const [ip, at] of Object.entries(state[s.name] ?? {})) {
      const left = at + s.timeout * 1000 - nowMs;
      if (left > 0) live.set(ip, left);
    }
    out.set(s.name, live);
  }
  return out;
}

export interface NftNatResult {
  dnat?: { ip: string; port: number };
  masquerade: boolean;
  trace: string[];
}

export interface NftFilterResult {
  verdict: 'ACCEPT' | 'DROP' | 'REJECT';
  trace: string[];
}

function isLocal(ip: string, ctx: NftWalkContext): boolean {
  return ip.startsWith('127.') || ctx.localAddrs.includes(ip);
}

function lookupVmap(t: NftTable, map: string, key: string[]): string | undefined {
  const m = t.sets.find((s) => s.name === map);
  const want = key.join(' . ');
  return m?.elements.find((e) => e.key.join(' . ') === want)?.value;
}

function inSet(t: NftTable, set: string, ip: string): boolean {
  return t.sets.find((s) => s.name === set)?.elements.some((e) => e.key[0] === ip) ?? false;
}

type Outcome = { kind: 'continue' } | { kind: 'verdict'; v: NftVerdict } | { kind: 'dnat'; ip: string; port: number } | { kind: 'accept' };

/** Evaluate one rule; undefined = no match (next rule). */
function evalRule(t: NftTable, r: NftRule, p: NftPacket, ctx: NftWalkContext, state: { mark: boolean }): Outcome {
  const parseVerdict = (s: string | undefined): Outcome => {
    if (s === undefined) return { kind: 'continue' };
    if (s === 'drop' || s === 'reject' || s === 'return') return { kind: 'verdict', v: s };
    const [kw, chain = ''] = s.split(' ');
    return { kind: 'verdict', v: kw === 'jump' ? { jump: chain } : { goto: chain } };
  };
  switch (r.op) {
    case 'jump':
      return { kind: 'verdict', v: { jump: r.chain } };
    case 'vmap':
      if (p.dport === undefined) return { kind: 'continue' };
      if (r.key === 'daddr.proto.port') return parseVerdict(lookupVmap(t, r.map, [p.dst, p.proto, String(p.dport)]));
      if (r.daddrSet !== undefined ? !inSet(t, r.daddrSet, p.dst) : (r.fib === true && !isLocal(p.dst, ctx)) || p.dst.startsWith('127.')) return { kind: 'continue' };
      return parseVerdict(lookupVmap(t, r.map, [p.proto, String(p.dport)]));
    case 'daddr-set-reject':
      return inSet(t, r.set, p.dst) ? { kind: 'verdict', v: 'reject' } : { kind: 'continue' };
    case 'daddr-cidrs-drop':
      return r.cidrs.some((c) => inCidr(c, p.dst)) ? { kind: 'verdict', v: 'drop' } : { kind: 'continue' };
    case 'reject':
      return { kind: 'verdict', v: 'reject' };
    case 'mark-or':
      state.mark = true;
      return { kind: 'continue' };
    case 'mark-zero-return':
    case 'mark-xor':
    case 'masquerade':
      return { kind: 'continue' };
    case 'masq-if': {
      if (r.saddr !== undefined && p.src !== r.saddr) return { kind: 'continue' };
      if (r.daddr !== undefined && p.dst !== r.daddr) return { kind: 'continue' };
      if (r.saddrNot !== undefined && inCidr(r.saddrNot, p.src)) return { kind: 'continue' };
      return { kind: 'verdict', v: { jump: 'mark-for-masquerade' } };
    }
    case 'saddr-goto':
      return inCidr(r.cidr, p.src) ? { kind: 'verdict', v: { goto: r.chain } } : { kind: 'continue' };
    case 'fib-saddr-local':
      return isLocal(p.src, ctx) ? { kind: 'verdict', v: r.then } : { kind: 'continue' };
    case 'goto':
      return { kind: 'verdict', v: { goto: r.chain } };
    case 'numgen': {
      const c = r.chains[ctx.rng.int(r.chains.length)];
      return c === undefined ? { kind: 'continue' } : { kind: 'verdict', v: { goto: c } };
    }
    case 'dnat': {
      // `dnat to [addr]:port` in the ip6 table (net.JoinHostPort)
      const i = r.to.lastIndexOf(':');
      return { kind: 'dnat', ip: r.to.slice(0, i).replace(/^\[(.*)\]$/, '$1'), port: Number(r.to.slice(i + 1)) };
    }
    case 'saddr-not-drop':
      return r.cidrs.some((c) => inCidr(c, p.src)) ? { kind: 'continue' } : { kind: 'verdict', v: 'drop' };
    case 'affinity-goto': {
      const timeout = t.sets.find((x) => x.name === r.set)?.timeout ?? 0;
      return ctx.affinity?.has(r.set, p.src, timeout) ? { kind: 'verdict', v: { goto: r.chain } } : { kind: 'continue' };
    }
    case 'affinity-update':
      ctx.affinity?.update(r.set, p.src);
      return { kind: 'continue' };
  }
}

/** Runs base chain `start` (jump pushes a return point, goto does not; a verdict ends the hook). */
function run(t: NftTable, start: string, p: NftPacket, ctx: NftWalkContext, trace: string[]): { out: Outcome; mark: boolean } {
  const state = { mark: false };
  const stack: { chain: string; next: number }[] = [{ chain: start, next: 0 }];
  let guard = 0;
  while (stack.length > 0 && guard++ < 10_000) {
    const frame = stack[stack.length - 1]!;
    const ch = t.chains.find((c) => c.name === frame.chain);
    const entry = ch?.rules[frame.next];
    if (!ch || !entry) {
      stack.pop();
      continue;
    }
    frame.next++;
    const o = evalRule(t, entry.rule, p, ctx, state);
    if (o.kind === 'continue') continue;
    trace.push(`${ch.name}: ${entry.text}`);
    if (o.kind !== 'verdict') return { out: o, mark: state.mark };
    const v = o.v;
    if (v === 'return') {
      stack.pop();
      continue;
    }
    if (v === 'drop' || v === 'reject') return { out: o, mark: state.mark };
    if ('jump' in v) stack.push({ chain: v.jump, next: 0 });
    else {
      stack.pop();
      stack.push({ chain: v.goto, next: 0 });
    }
  }
  return { out: { kind: 'accept' }, mark: state.mark };
}

/** nat prerouting / output of the kube-proxy table: DNAT to an endpoint and the masquerade mark. */
export function walkNftNat(t: NftTable, p: NftPacket, hook: 'prerouting' | 'output', ctx: NftWalkContext): NftNatResult {
  const trace: string[] = [];
  const { out, mark } = run(t, `nat-${hook}`, p, ctx, trace);
  const r: NftNatResult = { masquerade: mark, trace };
  if (out.kind === 'dnat') r.dnat = { ip: out.ip, port: out.port };
  return r;
}

/**
 * The kube-proxy table's filter base chains: `filter-prerouting-pre-dnat` / `filter-output-pre-dnat`
 * before nat (the packet's original destination), `filter-input` / `-forward` / `-output` after it.
 */
export type NftFilterChain = 'filter-prerouting-pre-dnat' | 'filter-output-pre-dnat' | 'filter-input' | 'filter-forward' | 'filter-output';

export function walkNftFilter(t: NftTable, p: NftPacket, chain: NftFilterChain, ctx: NftWalkContext): NftFilterResult {
  const trace: string[] = [];
  const { out } = run(t, chain, p, ctx, trace);
  if (out.kind === 'verdict' && out.v === 'drop') return { verdict: 'DROP', trace };
  if (out.kind === 'verdict' && out.v === 'reject') return { verdict: 'REJECT', trace };
  return { verdict: 'ACCEPT', trace };
}

/** Whether an address lies in a CIDR of its own family (an `ip6` table holds IPv6 ones, an `ip` table IPv4). */
function inCidr(cidr: string, addr: string): boolean {
  const v = parseIPv4(addr);
  if (v !== undefined) {
    const pc = parseCidr(cidr);
    return pc !== undefined && cidrContains(pc, v);
  }
  const c6 = parseCidr6(cidr);
  return c6 !== undefined && c6 !== 'mask' && cidr6Contains(c6.addr, c6.prefix, addr);
}
