/**
 * kube-proxy in iptables mode: one sync of a node's rules from Services and EndpointSlices.
 *
 * Emulates kubernetes pkg/proxy/iptables/proxier.go syncProxyRules (v1.33–v1.35 line):
 *  1. on a full sync only, ensure the jump rules from built-in chains (EnsureChain +
 *     EnsureRule(Prepend), i.e. `iptables -I CHAIN 1 …` when missing), for iptablesJumpChains then
 *     iptablesKubeletJumpChains;
 *  2. build one `iptables-restore --noflush` payload (filter then nat) with the static chains,
 *     per-service-port rules in kube-proxy's own argument order, stale-chain deletions and the
 *     NodePort tail rule, and apply it — declared chains are flushed and refilled, everything else
 *     on the node (CNI chains, user rules in built-in chains) is kept. A partial sync (KEP-3453)
 *     leaves out the per-service chains of Services that did not change since the last sync;
 *     above 1000 endpoints (large-cluster mode) the endpoint rules carry no comment and stale
 *     chains are looked for at most once per syncPeriod.
 * Services are visited sorted by service-port name (the order upstream tests compare against;
 * the real proxier walks a Go map, so any order is a valid real-world order).
 */
import type { EndpointSlice, Service } from '../../api/types.js';
import type { IptablesState, Table, TableName } from '../iptables.js';
import { TABLE_NAMES, addUserChain, bumpRev, ensureTable, familyOfState, findChain, ownChain } from '../iptables.js';
import type { Family } from '../ipv6.js';
import { parseCidr, parseIPv4, cidrContains } from '../ipv4.js';
import { parseRuleArgs } from '../rule-parse.js';
import { formatRuleBody } from '../render.js';
import { ChainRef, ChainTemplate, applyRestoreLines, chainRef, type KnownLine, type ParsedLine, type RestoreResult } from '../restore.js';
import { FNV_BASIS, fnvJson, fnvStr } from './json-fnv.js';
import { OverlayMap } from '../../../util/overlay-map.js';
import { remember as rememberBounded } from '../../../util/bounded-map.js';
import {
  endpointChainRef,
  externalChainName,
  firewallChainName,
  serviceChainRef,
  serviceLocalChainName,
} from './chain-names.js';
import type { EndpointInfo, ServicePortInfo } from './service-model.js';
import {
  categorizeEndpoints,
  endpointChangeCursor,
  endpointChangesSince,
  endpointsByPortCached,
  portExternallyAccessible,
  portKey,
  servicePortsOf,
  usesLocalEndpoints,
} from './service-model.js';
import { MARK_MASQ_REF, clusterIPLine, commentMatch, dispatchLine, endpointDnatLine, endpointMasqLine } from './parsed-rules.js';

export interface KubeProxyConfig {
  mode?: 'iptables' | 'ipvs' | 'nftables' | '';
  /**
   * clusterCIDR with detectLocalMode ClusterCIDR (kubeadm fills it from podSubnet; one CIDR per
   * family on a dual-stack cluster); empty = no detector.
   */
  clusterCIDR?: string;
  masqueradeAll?: boolean;
  /** iptables.masqueradeBit, default 14 → mark 0x4000. */
  masqueradeBit?: number;
  /** iptables.localhostNodePorts, default true. */
  localhostNodePorts?: boolean;
  /** nodePortAddresses CIDRs; empty / undefined = all local addresses. */
  nodePortAddresses?: string[];
  /** Whether the iptables binary supports --random-fully (≥ 1.6.2; true on real nodes). */
  randomFully?: boolean;
  /** Whether nfacct counters could be created (adds `-m nfacct` matches); default false. */
  nfacct?: boolean;
  /** sysctl net.netfilter.nf_conntrack_tcp_be_liberal != 0 omits the INVALID drop rule. */
  conntrackTCPBeLiberal?: boolean;
}

export interface KubeProxyInput {
  services: readonly Service[];
  endpointSlices: readonly EndpointSlice[];
  node: { name: string; ips: readonly string[] };
  config: KubeProxyConfig;
  /**
   * A partial sync (KEP-3453, proxier.go `doFullSync` false): each Service's fingerprint as the
   * last successful sync saw it (SyncResult.fingerprints). The per-service chains of a Service
   * whose fingerprint is unchanged are neither declared nor written, so they keep whatever is in
   * them; the jump rules are not re-ensured. Undefined: a full sync.
   */
  previous?: ReadonlyMap<string, number>;
  /**
   * In large-cluster mode the stale-chain cleanup runs only when `syncPeriod` has passed since the
   * last one (`time.Since(proxier.lastIPTablesCleanup) > proxier.syncPeriod`); default true.
   */
  staleCleanupDue?: boolean;
}

export interface SyncResult {
  /** The iptables-restore payload kube-proxy wrote (useful for logs and tests). */
  payload: string;
  /** Error text when the restore failed (the ruleset is then unchanged). */
  error?: string;
  /** Each Service's (`ns/name`) fingerprint: the next sync's `previous`. Never changed afterwards. */
  fingerprints?: ReadonlyMap<string, number>;
  /**
   * The Services (`ns/name`) whose fingerprints differ from those of `since`, which has the same
   * Services: given when the sync knew it without comparing them all (see NodeMemo), so the
   * caller can update what it keeps of `since` (kube-proxy's NodeSync.fps) from these alone.
   */
  fingerprintChanges?: FingerprintChanges;
  /** More than largeClusterEndpointsThreshold endpoints: comments dropped from endpoint rules. */
  largeClusterMode?: boolean;
  /** Whether this sync looked for stale chains (iptables-save -t nat). */
  staleCleanup?: boolean;
  /**
   * What the restore was told of each payload line (restore.ts KnownLine, by line index), for
   * parsed-rules.test.ts; not enumerable, so comparisons of results do not see it.
   */
  readonly known?: readonly KnownLine[];
}

export interface FingerprintChanges {
  since: ReadonlyMap<string, number>;
  names: readonly string[];
}

/** proxier.go largeClusterEndpointsThreshold. */
export const LARGE_CLUSTER_ENDPOINTS_THRESHOLD = 1000;

interface JumpChain {
  table: TableName;
  from: string;
  to: string;
  extraArgs: string[];
  comment?: string;
}

/** proxier.go iptablesJumpChains followed by iptablesKubeletJumpChains, in processing order. */
const JUMP_CHAINS: readonly JumpChain[] = [
  { table: 'filter', from: 'INPUT', to: 'KUBE-EXTERNAL-SERVICES', extraArgs: ['-m', 'conntrack', '--ctstate', 'NEW'], comment: 'kubernetes externally-visible service portals' },
  { table: 'filter', from: 'FORWARD', to: 'KUBE-EXTERNAL-SERVICES', extraArgs: ['-m', 'conntrack', '--ctstate', 'NEW'], comment: 'kubernetes externally-visible service portals' },
  { table: 'filter', from: 'INPUT', to: 'KUBE-NODEPORTS', extraArgs: [], comment: 'kubernetes health check service ports' },
  { table: 'filter', from: 'FORWARD', to: 'KUBE-SERVICES', extraArgs: ['-m', 'conntrack', '--ctstate', 'NEW'], comment: 'kubernetes service portals' },
  { table: 'filter', from: 'OUTPUT', to: 'KUBE-SERVICES', extraArgs: ['-m', 'conntrack', '--ctstate', 'NEW'], comment: 'kubernetes service portals' },
  { table: 'filter', from: 'FORWARD', to: 'KUBE-FORWARD', extraArgs: [], comment: 'kubernetes forwarding rules' },
  { table: 'filter', from: 'INPUT', to: 'KUBE-PROXY-FIREWALL', extraArgs: ['-m', 'conntrack', '--ctstate', 'NEW'], comment: 'kubernetes load balancer firewall' },
  { table: 'filter', from: 'OUTPUT', to: 'KUBE-PROXY-FIREWALL', extraArgs: ['-m', 'conntrack', '--ctstate', 'NEW'], comment: 'kubernetes load balancer firewall' },
  { table: 'filter', from: 'FORWARD', to: 'KUBE-PROXY-FIREWALL', extraArgs: ['-m', 'conntrack', '--ctstate', 'NEW'], comment: 'kubernetes load balancer firewall' },
  { table: 'nat', from: 'OUTPUT', to: 'KUBE-SERVICES', extraArgs: [], comment: 'kubernetes service portals' },
  { table: 'nat', from: 'PREROUTING', to: 'KUBE-SERVICES', extraArgs: [], comment: 'kubernetes service portals' },
  { table: 'nat', from: 'POSTROUTING', to: 'KUBE-POSTROUTING', extraArgs: [], comment: 'kubernetes postrouting rules' },
  // iptablesKubeletJumpChains (kubelet normally created these first; kube-proxy only ensures them)
  { table: 'filter', from: 'INPUT', to: 'KUBE-FIREWALL', extraArgs: [] },
  { table: 'filter', from: 'OUTPUT', to: 'KUBE-FIREWALL', extraArgs: [] },
];

const STALE_PREFIXES = ['KUBE-SVC-', 'KUBE-SVL-', 'KUBE-SEP-', 'KUBE-FW-', 'KUBE-EXT-'];

/** Quotes a multi-word comment the way kube-proxy writes it: fmt.Sprintf(`"%s …"`). */
function q(s: string): string {
  return `"${s}"`;
}

/** `fmt.Sprintf("%0.10f", 1.0/n)` (proxier.go computeProbability). */
export function computeProbability(n: number): string {
  return PROBABILITIES[n] ?? (1 / n).toFixed(10);
}
/** The probabilities of the first few positions, made once (computeProbability). */
const PROBABILITIES: readonly string[] = Array.from({ length: 64 }, (_, n) => (1 / n).toFixed(10));

/**
 * The rule body each jump rule formats to, per family, once parsed: JUMP_CHAINS' entries are
 * constants, and their parse reads the table only to ask whether `j.to` is a user chain (the one
 * `-j` target; ensureJump makes it just before), so for the same entry, family and answer it
 * gives the same rule, and the same body. Every full sync of a node (and of each copy of a state,
 * which validate makes many of) finds its jumps already there: this spares it parsing and
 * formatting fourteen rules it only compares. Bounded by JUMP_CHAINS' length times two families.
 */
const JUMP_BODIES = new Map<JumpChain, Map<Family, string>>();
let jumpParses = 0;
let portRenders = 0;

/** How many service ports renderPort has rendered in this process (for the rendered-port memos' tests). */
export function servicePortRenders(): number {
  return portRenders;
}

/** How many jump rules ensureJump has parsed in this process (for the memo's test). */
export function jumpRuleParses(): number {
  return jumpParses;
}

/** `iptables -I FROM 1 <args> -j TO` unless an identical rule is already present (EnsureRule(Prepend)). */
function ensureJump(state: IptablesState, j: JumpChain): void {
  const table = ensureTable(state, j.table);
  addUserChain(table, j.to);
  const family = familyOfState(state);
  const toUser = findChain(table, j.to)?.builtin === false;
  const known = toUser ? JUMP_BODIES.get(j)?.get(family) : undefined;
  if (known !== undefined) {
    // (the parse below would succeed and format to `known`: see JUMP_BODIES)
    const from = findChain(table, j.from);
    if (!from || from.rules.some((r) => formatRuleBody(r, false, family) === known)) return;
  }
  const args = [...j.extraArgs];
  if (j.comment !== undefined) args.push('-m', 'comment', '--comment', j.comment);
  args.push('-j', j.to);
  jumpParses++;
  const parsed = parseRuleArgs(args, { chainExists: (n) => findChain(table, n)?.builtin === false, family });
  if (!parsed.ok) return;
  const from = findChain(table, j.from);
  if (!from) return;
  const want = formatRuleBody(parsed.rule, false, family);
  if (toUser) {
    let byFamily = JUMP_BODIES.get(j);
    if (!byFamily) JUMP_BODIES.set(j, (byFamily = new Map()));
    byFamily.set(family, want);
  }
  if (from.rules.some((r) => formatRuleBody(r, false, family) === want)) return;
  ownChain(table, from).rules.unshift(parsed.rule);
}

/** Ensures the canary chains kube-proxy's iptables Monitor creates in mangle, nat and filter. */
function ensureCanaries(state: IptablesState): void {
  for (const t of ['mangle', 'nat', 'filter'] as const) addUserChain(ensureTable(state, t), 'KUBE-PROXY-CANARY');
}

/** A service port with the keys a sync looks it up by, made once. */
interface PortEntry {
  info: ServicePortInfo;
  /** portKey(spn, protocol): its endpoints in the endpoints map. */
  key: string;
  /** `ns/name`: its Service's fingerprint. */
  nsName: string;
}

interface SortedPorts {
  ports: readonly PortEntry[];
  /** Each Service's ports (indices into `ports`, in order), in order of first appearance. */
  groups: readonly (readonly number[])[];
  /** `ns/name` → its group. */
  byName: ReadonlyMap<string, readonly number[]>;
  /**
   * The ports these were made from by replacing a few Services' ports in place (same names and
   * protocols, so the same order), and the indices replaced: what a sync of the earlier ports
   * needs to redo (servicechangetracker.go: the changes since the last sync). Only the latest
   * step is kept, so old lists can go.
   */
  from?: { sorted: SortedPorts; changed: readonly number[] };
}

/** Port key → the indices of the ports with that key, made once per list of ports (see portsByKey). */
const KEY_INDEXES = new WeakMap<readonly PortEntry[], Map<string, number[]>>();

function portsByKey(sorted: SortedPorts): ReadonlyMap<string, readonly number[]> {
  // a list made by replacing ports in place has the keys of the one it came from
  const src = sorted.from?.sorted.ports;
  let idx = KEY_INDEXES.get(sorted.ports) ?? (src && KEY_INDEXES.get(src));
  if (!idx) {
    idx = new Map();
    for (let i = 0; i < sorted.ports.length; i++) {
      const key = (sorted.ports[i] as PortEntry).key;
      const had = idx.get(key);
      if (had) had.push(i);
      else idx.set(key, [i]);
    }
  }
  KEY_INDEXES.set(sorted.ports, idx);
  return idx;
}

/**
 * The service ports sorted by `spn protocol`, kept for the last list of stored Services seen: the
 * nodes of a cluster sync from the same list, and an EndpointSlice change leaves it as it was.
 */
let lastSorted: { services: readonly Service[]; sorted: SortedPorts } | undefined;

/** A Service whose ports changed is re-sorted with all the others only when the change moves them. */
const MAX_CHANGED_SERVICES = 64;

function sortedServicePorts(services: readonly Service[]): SortedPorts {
  const had = lastSorted;
  if (had && had.services.length === services.length) {
    const changed: number[] = [];
    for (let i = 0; i < services.length && changed.length <= MAX_CHANGED_SERVICES; i++) if (services[i] !== had.services[i]) changed.push(i);
    if (changed.length === 0) return had.sorted;
    const derived = changed.length <= MAX_CHANGED_SERVICES ? replacedPorts(had.sorted, had.services, services, changed) : undefined;
    if (derived) {
      lastSorted = { services: services.slice(), sorted: derived };
      return derived;
    }
  }
  const sorted = sortPorts(services);
  // only stored (frozen) Services stay as they are; others may be changed in place
  lastSorted = services.every((s) => Object.isFrozen(s)) ? { services: services.slice(), sorted } : undefined;
  return sorted;
}

function sortPorts(services: readonly Service[]): SortedPorts {
  const keyed: { k: string; p: ServicePortInfo }[] = [];
  for (const s of services) for (const p of servicePortsOf(s)) keyed.push({ k: `${p.spn} ${p.protocol}`, p });
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const ports = keyed.map(({ p }) => ({ info: p, key: portKey(p.spn, p.protocol), nsName: `${p.namespace}/${p.name}` }));
  const byName = new Map<string, number[]>();
  ports.forEach((e, i) => {
    const g = byName.get(e.nsName);
    if (g) g.push(i);
    else byName.set(e.nsName, [i]);
  });
  return { ports, groups: [...byName.values()], byName };
}

/**
 * `sorted` with the ports of the Services at `changed` (positions in both lists) replaced by those
 * of their new versions, when each new version is a stored Service with the same name and the
 * same port names and protocols as the old (a label, a target port, endpoints policy…): the order
 * stays. Undefined otherwise (the caller sorts again).
 */
function replacedPorts(sorted: SortedPorts, before: readonly Service[], after: readonly Service[], changed: readonly number[]): SortedPorts | undefined {
  const ports = sorted.ports.slice();
  const replaced: number[] = [];
  for (const i of changed) {
    const a = before[i] as Service;
    const b = after[i] as Service;
    if (!Object.isFrozen(b) || a.metadata.name !== b.metadata.name || a.metadata.namespace !== b.metadata.namespace) return undefined;
    const oldPorts = servicePortsOf(a);
    const newPorts = servicePortsOf(b);
    if (oldPorts.length !== newPorts.length) return undefined;
    if (oldPorts.length === 0) continue;
    const group = sorted.byName.get(`${(oldPorts[0] as ServicePortInfo).namespace}/${(oldPorts[0] as ServicePortInfo).name}`);
    if (!group || group.length !== oldPorts.length) return undefined;
    for (const at of group) {
      const entry = ports[at] as PortEntry;
      const j = oldPorts.indexOf(entry.info);
      const p = newPorts[j];
      if (j < 0 || !p || p.spn !== entry.info.spn || p.protocol !== entry.info.protocol) return undefined;
      ports[at] = { info: p, key: entry.key, nsName: entry.nsName };
      replaced.push(at);
    }
  }
  // only the latest step is kept: the list before this one need not stay reachable
  delete sorted.from;
  return { ports, groups: sorted.groups, byName: sorted.byName, from: { sorted, changed: replaced } };
}

/** What a service port's rules depend on besides the port and its endpoints. */
interface RenderContext {
  masqueradeAll: boolean;
  clusterCIDR: string | undefined;
  localhostNodePorts: boolean;
  nfacct: boolean;
  nodeIP: string | undefined;
  largeClusterMode: boolean;
  /** The proxier's family: its rules parse (parsed-rules.ts) as ip6tables' or iptables'. */
  family: Family;
  /** All of the above but nodeIP as one string, for the memo (see renderedPort). */
  sig: string;
  /** The Services are not the stored objects: rendered ports are found by their content (RENDERED_BY_CONTENT). */
  byContent: boolean;
}

/** One service port's part of the payload, in payload order. */
interface RenderedPort {
  /** Its filter rules (top-level chains only). */
  filter: readonly string[];
  /** Its KUBE-SERVICES / KUBE-NODEPORTS rules. */
  natTop: readonly string[];
  /** What each of them parses to, where it was built with it (parsed-rules.ts; restore.ts KnownLine). */
  natTopKnown: readonly KnownLine[];
  /** Its per-service chains (KUBE-SVC/SVL/EXT/FW/SEP), declared when written, active either way. */
  chains: readonly string[];
  /**
   * Their declarations (`:NAME - [0:0]`), made once: the same string objects on every node and at
   * every sync, which iptables-restore's memo of declarations then finds without hashing them anew.
   */
  decls: readonly string[];
  /** Their refs (restore.ts ChainRef): the KnownLines of their declarations. */
  chainRefs: readonly ChainRef[];
  /** The rules of those chains. */
  natChains: readonly string[];
  /** What each of them parses to, where it was built with it. */
  natChainsKnown: readonly KnownLine[];
  /**
   * Per chain (as `chains`): its template (restore.ts ChainTemplate), undefined where a line of it
   * is not built (session affinity's); made with the lines (renderPort: an endpoint chain's with
   * its two lines, the others' scanned for), so every rendered port has the same shape.
   */
  templates: readonly (ChainTemplate | undefined)[];
}

/**
 * The template of chain `ref` from a port's chain lines and what each parses to: its built lines
 * in order, or undefined when a line of it is one the restore parses from its text. Made once with
 * the rendered port (RenderedPort.templates), which every node whose endpoints render the same
 * shares (renderedPort): iptables-restore then puts one frozen chain per name in every node's
 * table (ChainTemplate).
 */
function scannedTemplate(lines: readonly string[], known: readonly KnownLine[], ref: ChainRef): ChainTemplate | undefined {
  // (a port's few lines scanned per chain: a map per port cost more at 10,000 Services; each
  // chain's lines counted first, so that the arrays a template keeps are made at their length)
  let count = 0;
  for (let m = 0; m < known.length; m++) {
    const k = known[m];
    if (!isParsedLine(k)) {
      // a line the restore parses from its text: its chain has no template
      const text = lines[m] as string;
      if (text.slice(3, text.indexOf(' ', 3) >>> 0) === ref.name) return undefined;
    } else if (k.chain === ref.name) count++;
  }
  if (count === 0) return undefined;
  const mine = new Array<ParsedLine>(count);
  for (let m = 0, i = 0; i < count; m++) {
    const k = known[m];
    if (isParsedLine(k) && k.chain === ref.name) mine[i++] = k;
  }
  return ChainTemplate.of(ref, mine);
}

/** A known line the restore takes as built (not one it parses from its text, nor a chain's ref or template). */
function isParsedLine(k: KnownLine): k is ParsedLine {
  return k !== undefined && typeof k !== 'string' && !(k instanceof ChainRef) && !(k instanceof ChainTemplate);
}

/** Adds `entry` to `key`'s few remembered entries (at most RENDERED_PER_PORT, the oldest dropped). */
function remember<K extends object, E>(memo: WeakMap<K, E[]>, key: K, entries: E[] | undefined, entry: E): void {
  // (a key's first entry in an array of its own length: see dispatchLine)
  if (!entries) memo.set(key, [entry]);
  else {
    if (entries.length >= RENDERED_PER_PORT) entries.shift();
    entries.push(entry);
  }
}

/**
 * Rendered ports, kept with the (memoised, see servicePortsOf) port info for the endpoints array
 * and context they were rendered with: an unchanged Service renders to the same lines, so a
 * partial sync of a 10,000-Service cluster assembles its KUBE-SERVICES from kept strings (upstream
 * rewrites every line each time; the text is the same).
 */
const RENDERED = new WeakMap<ServicePortInfo, { eps: readonly EndpointInfo[] | undefined; sig: string; out: RenderedPort }[]>();
/** A few entries per port: one per node that sees its endpoints differently. */
const RENDERED_PER_PORT = 4;

/**
 * The rules of `svc` with `eps`: kept ones when this port info was rendered with these endpoints
 * (or ones that render the same), else by content when `byContent` (see RENDERED_BY_CONTENT),
 * else rendered now.
 */
function renderedPort(svc: ServicePortInfo, eps: readonly EndpointInfo[] | undefined, ctx: RenderContext, byContent = ctx.byContent): RenderedPort {
  const entries = RENDERED.get(svc);
  // the node's IP only matters to a port with loadBalancerSourceRanges (its firewall chain)
  const sig = svc.loadBalancerSourceRanges.length > 0 ? `${ctx.sig}|${ctx.nodeIP ?? ''}` : ctx.sig;
  if (entries) {
    for (const e of entries) if (e.eps === eps && e.sig === sig) return e.out;
  }
  // another node's endpoints that render the same (see sameRendering): its lines, the very strings
  const like = entries?.find((e) => e.sig === sig && sameRendering(svc, e.eps, eps));
  const out = like ? like.out : byContent ? renderedByContent(svc, eps, ctx, sig) : renderPort(svc, eps ?? [], ctx);
  remember(RENDERED, svc, entries, { eps, sig, out });
  return out;
}

/**
 * Rendered ports by what they are rendered from (the port's and endpoints' JSON and the context),
 * for syncs of Services and EndpointSlices that are not the stored objects, whose port infos are
 * new at every sync (the memos above key on the stored objects' infos): a sync of the same
 * Services again (another kube-proxy starting, a test, the bench's first full sync) takes the
 * lines rendered before, the very strings, which iptables-restore then finds without hashing
 * them again. The few ports a partial sync redoes look here too (updatedView): validate copies a
 * state many times and runs the same commands in each copy, whose edited Services are new port
 * infos every time. Exact: renderPort reads only the port's and the endpoints' plain fields (all
 * in their JSON) and the context's (its sig, and the node's IP where it matters: renderedPort).
 * Emptied when it grows past what a large cluster holds.
 */
const RENDERED_BY_CONTENT = new Map<string, RenderedPort>();

/**
 * The JSON of a port info and of an endpoints array, kept with them (both are never changed once
 * made): the content key above writes them, for every port of a sync whose memos by identity miss.
 */
const PORT_JSON = new WeakMap<ServicePortInfo, string>();
const EPS_JSON = new WeakMap<readonly EndpointInfo[], string>();

function portJson(p: ServicePortInfo): string {
  let j = PORT_JSON.get(p);
  if (j === undefined) {
    j = JSON.stringify(p);
    PORT_JSON.set(p, j);
  }
  return j;
}

function epsJson(eps: readonly EndpointInfo[]): string {
  let j = EPS_JSON.get(eps);
  if (j === undefined) {
    j = JSON.stringify(eps);
    EPS_JSON.set(eps, j);
  }
  return j;
}
const RENDERED_BY_CONTENT_LIMIT = 50_000;

function renderedByContent(svc: ServicePortInfo, eps: readonly EndpointInfo[] | undefined, ctx: RenderContext, sig: string): RenderedPort {
  const key = `${sig}\n${portJson(svc)}\n${eps === undefined ? 'null' : epsJson(eps)}`;
  let out = RENDERED_BY_CONTENT.get(key);
  if (out === undefined) {
    out = renderPort(svc, eps ?? [], ctx);
    if (RENDERED_BY_CONTENT.size >= RENDERED_BY_CONTENT_LIMIT) RENDERED_BY_CONTENT.clear();
    RENDERED_BY_CONTENT.set(key, out);
  }
  return out;
}

/**
 * Whether endpoints `a` and `b` give a service port the same rules: renderPort reads an endpoint's
 * address, conditions and, only for a port that uses local endpoints, whether it is local. The
 * node with a Service's endpoints sees them as local, the others not, so their arrays differ
 * while the rules of a port with Cluster traffic policies do not: sharing the rendered lines
 * spares that node rendering 170,000 lines again, and iptables-restore hashing them again.
 */
function sameRendering(svc: ServicePortInfo, a: readonly EndpointInfo[] | undefined, b: readonly EndpointInfo[] | undefined): boolean {
  if (a === undefined || b === undefined || a.length !== b.length) return a === b;
  const local = usesLocalEndpoints(svc);
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as EndpointInfo;
    const y = b[i] as EndpointInfo;
    if (x.endpoint !== y.endpoint || x.ip !== y.ip || x.ready !== y.ready || x.serving !== y.serving || x.terminating !== y.terminating || (local && x.isLocal !== y.isLocal)) return false;
  }
  return true;
}

/** Every service port's endpoints and rules, and each Service's fingerprint, as one sync sees them. */
interface PortsView {
  /** Per port (the sorted ports' order): its endpoints as this node sees them. */
  eps: readonly (readonly EndpointInfo[] | undefined)[];
  /** Per port: its rules. */
  rendered: readonly RenderedPort[];
  ctx: RenderContext;
  /** SyncResult.fingerprints: never changed afterwards. */
  fingerprints: ReadonlyMap<string, number>;
  changes?: FingerprintChanges;
}

/**
 * What a node's last sync computed, kept for its next one, which redoes only the service ports
 * whose Service or endpoints changed since: the proxier keeps its serviceMap and endpointsMap
 * between syncs and applies the change trackers' changes to them (pkg/proxy/iptables/proxier.go
 * syncProxyRules: serviceMap.Update, endpointsMap.Update). Upstream still writes every top-level
 * rule at every sync, and so does this; only the computing is saved, not what is written.
 */
interface NodeMemo {
  /** The render context's signature and the node's IP: another makes every port's rules again. */
  sig: string;
  sorted: SortedPorts;
  epMap: ReadonlyMap<string, readonly EndpointInfo[]>;
  /** How much of epMap's change log this memo has taken in (endpointChangeCursor). */
  epCursor: number;
  eps: (readonly EndpointInfo[] | undefined)[];
  rendered: RenderedPort[];
  totalEndpoints: number;
  /** Each Service's fingerprint, as the last sync handed it out (never changed: a caller keeps it as `previous`). */
  handedOut: ReadonlyMap<string, number>;
}

/** By node name, as the endpoints cache (service-model.ts endpointsByPortCached) it builds on. */
const NODE_MEMOS = new Map<string, NodeMemo>();
const NODE_MEMOS_LIMIT = 16;

function memoSig(ctx: RenderContext): string {
  return `${ctx.sig}|${ctx.nodeIP ?? ''}`;
}

/** The ports view of one sync: from the node's memo when it can say what changed, else computed whole. */
function portsView(nodeName: string, sorted: SortedPorts, epMap: ReadonlyMap<string, readonly EndpointInfo[]>, makeCtx: (totalEndpoints: number) => RenderContext): PortsView {
  const memo = NODE_MEMOS.get(nodeName);
  const step = memo && changedPorts(memo, sorted, epMap);
  const view = memo && step && updatedView(memo, sorted, epMap, step, makeCtx);
  return view || freshView(nodeName, sorted, epMap, makeCtx);
}

/**
 * The ports (indices into `sorted`, maybe repeated) whose Service or endpoints changed since the
 * memo's sync, and the endpoints change log's end now; undefined when that is not known (another
 * list of ports than one step from the memo's, another endpoints map, a log that moved on).
 */
function changedPorts(memo: NodeMemo, sorted: SortedPorts, epMap: ReadonlyMap<string, readonly EndpointInfo[]>): { ports: number[]; cursor: number } | undefined {
  if (epMap !== memo.epMap) return undefined;
  let ports: number[];
  if (sorted === memo.sorted) ports = [];
  else if (sorted.from?.sorted === memo.sorted) ports = sorted.from.changed.slice();
  else return undefined;
  const keys = endpointChangesSince(epMap, memo.epCursor);
  const cursor = endpointChangeCursor(epMap);
  if (!keys || cursor === undefined) return undefined;
  const byKey = portsByKey(sorted);
  for (const k of keys) for (const i of byKey.get(k) ?? []) ports.push(i);
  return { ports, cursor };
}

/** The memo brought up to date with the changed ports; undefined when the render context changed (large-cluster mode). */
function updatedView(
  memo: NodeMemo,
  sorted: SortedPorts,
  epMap: ReadonlyMap<string, readonly EndpointInfo[]>,
  step: { ports: readonly number[]; cursor: number },
  makeCtx: (totalEndpoints: number) => RenderContext,
): PortsView | undefined {
  const dirty = [...new Set(step.ports)];
  const eps = dirty.map((i) => epMap.get((sorted.ports[i] as PortEntry).key));
  let total = memo.totalEndpoints;
  dirty.forEach((i, k) => {
    total += (eps[k]?.length ?? 0) - (memo.eps[i]?.length ?? 0);
  });
  const ctx = makeCtx(total);
  if (memoSig(ctx) !== memo.sig) return undefined;
  const since = memo.handedOut;
  dirty.forEach((i, k) => {
    memo.eps[i] = eps[k];
    // (by content: the few ports a partial sync redoes are most often ones another copy of this
    // state, or another node, already rendered from equal objects, which validate makes many of:
    // the same Service edited the same way in each copy is a new port info each time)
    memo.rendered[i] = renderedPort((sorted.ports[i] as PortEntry).info, eps[k], ctx, true);
  });
  const changed = new Map<string, number>();
  for (const name of new Set(dirty.map((i) => (sorted.ports[i] as PortEntry).nsName))) {
    const fp = fingerprintOf(sorted, sorted.byName.get(name) ?? [], memo.eps);
    if (since.get(name) !== fp) changed.set(name, fp);
  }
  memo.sorted = sorted;
  memo.epCursor = step.cursor;
  memo.totalEndpoints = total;
  if (changed.size > 0) memo.handedOut = OverlayMap.of(since, changed);
  return { eps: memo.eps, rendered: memo.rendered, ctx, fingerprints: memo.handedOut, changes: { since, names: [...changed.keys()] } };
}

/** Every port computed (each through its own memos); kept as the node's memo when its inputs are the stored objects. */
function freshView(nodeName: string, sorted: SortedPorts, epMap: ReadonlyMap<string, readonly EndpointInfo[]>, makeCtx: (totalEndpoints: number) => RenderContext): PortsView {
  const eps = sorted.ports.map((e) => epMap.get(e.key));
  let total = 0;
  for (const x of eps) total += x?.length ?? 0;
  const ctx = makeCtx(total);
  const rendered = sorted.ports.map((e, i) => renderedPort(e.info, eps[i], ctx));
  const fingerprints = serviceFingerprints(sorted, eps);
  const cursor = endpointChangeCursor(epMap);
  NODE_MEMOS.delete(nodeName);
  if (cursor !== undefined && lastSorted?.sorted === sorted) {
    if (NODE_MEMOS.size >= NODE_MEMOS_LIMIT) NODE_MEMOS.clear();
    NODE_MEMOS.set(nodeName, { sig: memoSig(ctx), sorted, epMap, epCursor: cursor, eps, rendered, totalEndpoints: total, handedOut: fingerprints });
  }
  return { eps, rendered, ctx, fingerprints };
}

/**
 * Whether the Service of port `i` has the fingerprint it had in `previous` (a partial sync then
 * leaves its chains alone): from the view's changes when `previous` is what they are relative to,
 * else by comparing.
 */
function unchangedSince(previous: ReadonlyMap<string, number>, view: PortsView, nameOf: (i: number) => string): (i: number) => boolean {
  if (view.changes && view.changes.since === previous) {
    const changed = new Set(view.changes.names);
    return (i) => changed.size === 0 || !changed.has(nameOf(i));
  }
  return (i) => {
    const name = nameOf(i);
    return previous.get(name) === view.fingerprints.get(name);
  };
}

/** proxier.go syncProxyRules' loop body for one service port. */
function renderPort(svc: ServicePortInfo, eps: readonly EndpointInfo[], ctx: RenderContext): RenderedPort {
  portRenders++;
  const { clusterCIDR, localhostNodePorts, nfacct, nodeIP, largeClusterMode } = ctx;
  const filterRules: string[] = [];
  const natRules: string[] = [];
  const chains: string[] = [];
  /** The chains' refs (restore.ts ChainRef), made with them. */
  const chainRefs: ChainRef[] = [];
  const addChain = (ref: ChainRef): void => {
    chains.push(ref.name);
    chainRefs.push(ref);
  };
  const out: string[] = [];
  // (what the nat lines parse to, line by line: built for the frequent ones, parsed-rules.ts)
  const natKnown: KnownLine[] = [];
  const outKnown: KnownLine[] = [];
  const known = (buf: string[]): KnownLine[] | undefined => (buf === natRules ? natKnown : buf === out ? outKnown : undefined);
  const w = (buf: string[], ...parts: string[]): void => {
    buf.push(parts.join(' '));
    known(buf)?.push(undefined);
  };
  /** w of a line whose parse was built (`k`). */
  const wk = (buf: string[], k: KnownLine, ...parts: string[]): void => {
    buf.push(parts.join(' '));
    known(buf)?.push(k);
  };
  const family = ctx.family;
  const N = svc.spn;
  const p = svc.protocol;
  // (the chain names come interned, as the restore's chain index keys them: see chain-names.ts)
  const svcRef = serviceChainRef(N, p);
  const svcChain = svcRef.name;
  // (the other three named only where used: a ClusterIP Service has none of them, and hashing
  // their names was a fifth of a cold sync's render at 10,000 Services)
  const svlChain = (): string => serviceLocalChainName(N, p);
  const extChain = (): string => externalChainName(N, p);
  const fwChain = (): string => firewallChainName(N, p);
  const cat = categorizeEndpoints(eps, svc);
  const hasEndpoints = cat.hasAnyEndpoints;
  const L = cat.localEndpoints;
  const C = cat.clusterEndpoints;

  let internalChain = svcChain;
  let hasInternal = hasEndpoints;
  if (svc.internalPolicyLocal) {
    internalChain = svlChain();
    if (L.length === 0) hasInternal = false;
  }
  let externalPolicyChain = svcChain;
  let hasExternal = hasEndpoints;
  if (svc.externalPolicyLocal) {
    externalPolicyChain = svlChain();
    if (L.length === 0) hasExternal = false;
  }
  const extAccessible = portExternallyAccessible(svc);
  const usesExt = hasEndpoints && extAccessible;
  const usesFW = hasEndpoints && svc.loadBalancerVIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0;
  const usesSVC = C.length > 0 && (!svc.internalPolicyLocal || extAccessible);
  const usesSVL = L.length > 0 && (svc.internalPolicyLocal || (svc.externalPolicyLocal && extAccessible));
  const lbChain = (): string => (usesFW ? fwChain() : extChain());

  let intFilterTarget = '';
  let intFilterComment = '';
  let extFilterTarget = '';
  let extFilterComment = '';
  if (!hasEndpoints) {
    intFilterTarget = 'REJECT';
    intFilterComment = q(`${N} has no endpoints`);
    extFilterTarget = 'REJECT';
    extFilterComment = intFilterComment;
  } else {
    if (!hasInternal) {
      intFilterTarget = 'DROP';
      intFilterComment = q(`${N} has no local endpoints`);
    }
    if (!hasExternal) {
      extFilterTarget = 'DROP';
      extFilterComment = q(`${N} has no local endpoints`);
    }
  }
  const proto = ['-m', p, '-p', p];
  const port = String(svc.port);

  // 1. cluster IP
  const clusterIPComment = hasInternal ? commentMatch(`${N} cluster IP`, true, 0, family) : undefined;
  if (hasInternal) {
    const k = clusterIPLine(KUBE_SERVICES, clusterIPComment, p, svc.clusterIP, port, undefined, internalChain === svcChain ? svcRef : chainRef(internalChain), family);
    wk(natRules, k, '-A', 'KUBE-SERVICES', '-m', 'comment', '--comment', q(`${N} cluster IP`), ...proto, '-d', svc.clusterIP, '--dport', port, '-j', internalChain);
  } else {
    w(filterRules, '-A', 'KUBE-SERVICES', '-m', 'comment', '--comment', intFilterComment, ...proto, '-d', svc.clusterIP, '--dport', port, '-j', intFilterTarget);
  }
  // 2. external IPs
  for (const eip of svc.externalIPs) {
    if (hasEndpoints)
      w(natRules, '-A', 'KUBE-SERVICES', '-m', 'comment', '--comment', q(`${N} external IP`), ...proto, '-d', eip, '--dport', port, '-j', extChain());
    if (!hasExternal)
      w(filterRules, '-A', 'KUBE-EXTERNAL-SERVICES', '-m', 'comment', '--comment', extFilterComment, ...proto, '-d', eip, '--dport', port, '-j', extFilterTarget);
  }
  // 3. load balancer IPs
  for (const lb of svc.loadBalancerVIPs) {
    if (hasEndpoints)
      w(natRules, '-A', 'KUBE-SERVICES', '-m', 'comment', '--comment', q(`${N} loadbalancer IP`), ...proto, '-d', lb, '--dport', port, '-j', lbChain());
    if (usesFW)
      w(filterRules, '-A', 'KUBE-PROXY-FIREWALL', '-m', 'comment', '--comment', q(`${N} traffic not accepted by ${fwChain()}`), ...proto, '-d', lb, '--dport', port, '-j', 'DROP');
  }
  if (!hasExternal) {
    for (const lb of svc.loadBalancerVIPs)
      w(filterRules, '-A', 'KUBE-EXTERNAL-SERVICES', '-m', 'comment', '--comment', extFilterComment, ...proto, '-d', lb, '--dport', port, '-j', extFilterTarget);
  }
  // 4. node port
  if (svc.nodePort !== 0) {
    const np = String(svc.nodePort);
    if (hasEndpoints) {
      if (localhostNodePorts && nfacct)
        w(natRules, '-A', 'KUBE-NODEPORTS', '-m', 'comment', '--comment', N, ...proto, '-d', '127.0.0.0/8', '--dport', np, '-m', 'nfacct', '--nfacct-name', 'localhost_nps_accepted_pkts', '-j', extChain());
      w(natRules, '-A', 'KUBE-NODEPORTS', '-m', 'comment', '--comment', N, ...proto, '--dport', np, '-j', extChain());
    }
    if (!hasExternal)
      w(filterRules, '-A', 'KUBE-EXTERNAL-SERVICES', '-m', 'comment', '--comment', extFilterComment, '-m', 'addrtype', '--dst-type', 'LOCAL', ...proto, '--dport', np, '-j', extFilterTarget);
  }
  // 5. health check node port
  if (svc.healthCheckNodePort !== 0)
    w(filterRules, '-A', 'KUBE-NODEPORTS', '-m', 'comment', '--comment', q(`${N} health check node port`), '-m', 'tcp', '-p', 'tcp', '--dport', String(svc.healthCheckNodePort), '-j', 'ACCEPT');

  if (usesSVC) addChain(svcRef);
  if (usesSVL) addChain(chainRef(svlChain()));
  const internalRef = internalChain === svcChain ? svcRef : chainRef(internalChain);
  // 6. masquerade rule of the internal chain
  if (hasInternal) {
    const args = ['-m', 'comment', '--comment', q(`${N} cluster IP`), ...proto, '-d', svc.clusterIP, '--dport', port];
    if (ctx.masqueradeAll) wk(out, clusterIPLine(internalRef, clusterIPComment, p, svc.clusterIP, port, undefined, MARK_MASQ_REF, family), '-A', internalChain, ...args, '-j', 'KUBE-MARK-MASQ');
    else if (clusterCIDR !== undefined)
      wk(out, clusterIPLine(internalRef, clusterIPComment, p, svc.clusterIP, port, clusterCIDR, MARK_MASQ_REF, family), '-A', internalChain, ...args, '!', '-s', clusterCIDR, '-j', 'KUBE-MARK-MASQ');
  }
  // 7. external chain
  if (usesExt) {
    addChain(chainRef(extChain()));
    if (!svc.externalPolicyLocal) {
      w(out, '-A', extChain(), '-m', 'comment', '--comment', q(`masquerade traffic for ${N} external destinations`), '-j', 'KUBE-MARK-MASQ');
    } else {
      if (clusterCIDR !== undefined)
        w(out, '-A', extChain(), '-m', 'comment', '--comment', q(`pod traffic for ${N} external destinations`), '-s', clusterCIDR, '-j', svcChain);
      w(out, '-A', extChain(), '-m', 'comment', '--comment', q(`masquerade LOCAL traffic for ${N} external destinations`), '-m', 'addrtype', '--src-type', 'LOCAL', '-j', 'KUBE-MARK-MASQ');
      w(out, '-A', extChain(), '-m', 'comment', '--comment', q(`route LOCAL traffic for ${N} external destinations`), '-m', 'addrtype', '--src-type', 'LOCAL', '-j', svcChain);
    }
    if (hasExternal) w(out, '-A', extChain(), '-j', externalPolicyChain);
  }
  // 8. firewall chain
  if (usesFW) {
    addChain(chainRef(fwChain()));
    const head = ['-A', fwChain(), '-m', 'comment', '--comment', q(`${N} loadbalancer IP`)];
    let allowFromNode = false;
    const nodeNum = nodeIP === undefined ? undefined : parseIPv4(nodeIP);
    for (const cidr of svc.loadBalancerSourceRanges) {
      w(out, ...head, '-s', cidr, '-j', extChain());
      const c = parseCidr(cidr);
      if (c && nodeNum !== undefined && cidrContains(c, nodeNum)) allowFromNode = true;
    }
    if (allowFromNode) for (const lb of svc.loadBalancerVIPs) w(out, ...head, '-s', lb, '-j', extChain());
    w(out, '-A', fwChain(), '-m', 'comment', '--comment', q(`other traffic to ${N} will be dropped by KUBE-PROXY-FIREWALL`));
  }
  // 9. service → endpoint dispatch
  // each endpoint's chain name hashed, and its ref found, once per port (the dispatch rules and
  // its chain both name it)
  const sepOf: EndpointInfo[] = [];
  const sepRefs: ChainRef[] = [];
  const sepRef = (ep: EndpointInfo): ChainRef => {
    const k = sepOf.indexOf(ep);
    if (k >= 0) return sepRefs[k] as ChainRef;
    const ref = endpointChainRef(N, p, ep.endpoint);
    sepOf.push(ep);
    sepRefs.push(ref);
    return ref;
  };
  if (usesSVC) writeServiceToEndpointRules(out, outKnown, svc, svcRef, C, largeClusterMode, sepRef, family);
  if (usesSVL) writeServiceToEndpointRules(out, outKnown, svc, chainRef(svlChain()), L, largeClusterMode, sepRef, family);
  // 10. endpoint chains
  const cm = largeClusterMode ? '' : ` -m comment --comment ${N}`;
  // (null: no comment; undefined: none could be built, the lines are parsed)
  const sepComment = largeClusterMode ? null : commentMatch(N, false, 0, family);
  // (each endpoint chain's template made with its two lines, as scannedTemplate would find them:
  // no other line is of that chain; the other chains' are scanned for at the end)
  const headChains = chainRefs.length;
  const sepTemplates = new Array<ChainTemplate | undefined>(cat.allReachable.length);
  for (let e = 0; e < cat.allReachable.length; e++) {
    const ep = cat.allReachable[e] as EndpointInfo;
    const ref = sepRef(ep);
    const sep = ref.name;
    addChain(ref);
    // (as w(out, '-A', sep, ...cmt(N), '-s', ep.ip, …) joins them, written out)
    out.push(['-A ', sep, cm, ' -s ', ep.ip, ' -j KUBE-MARK-MASQ'].join(''));
    const masq = endpointMasqLine(ref, sepComment, ep.ip, family);
    outKnown.push(masq);
    const affinity = svc.sessionAffinityClientIP ? ` -m recent --name ${sep} --set` : '';
    out.push(['-A ', sep, cm, affinity, ' -m ', p, ' -p ', p, ' -j DNAT --to-destination ', ep.endpoint].join(''));
    const dnat = svc.sessionAffinityClientIP ? undefined : endpointDnatLine(ref, sepComment, p, ep.endpoint, family);
    outKnown.push(dnat);
    sepTemplates[e] = masq && dnat ? ChainTemplate.of(ref, [masq, dnat]) : undefined;
  }
  // (the lines above are joined, not concatenated: a concatenation keeps a tree of its pieces,
  // five or six objects a line where a join makes one flat string, and a cold sync at 10,000
  // Services keeps 170,000 lines; their text is the same)
  // (the arrays kept at their lengths: one pushed onto from empty leaves room for 17, and a cold
  // sync at 10,000 Services keeps 80,000 of these)
  const natChains = out.slice();
  const natChainsKnown = outKnown.slice();
  const templates = new Array<ChainTemplate | undefined>(chainRefs.length);
  for (let j = 0; j < chainRefs.length; j++) templates[j] = j < headChains ? scannedTemplate(natChains, natChainsKnown, chainRefs[j] as ChainRef) : sepTemplates[j - headChains];
  return {
    filter: filterRules.length === 0 ? filterRules : filterRules.slice(),
    natTop: natRules.slice(),
    natTopKnown: natKnown.slice(),
    chains: chains.slice(),
    decls: chains.map((c) => [':', c, ' - [0:0]'].join('')),
    chainRefs: chainRefs.slice(),
    natChains,
    natChainsKnown,
    templates,
  };
}

/** KUBE-SERVICES's ref (see renderPort), its name interned. */
const KUBE_SERVICES = chainRef('KUBE-SERVICES');

/**
 * Runs one full sync for `input` against the node's ruleset `state` (mutated in place).
 * Modes other than iptables (and "" = iptables on Linux) write nothing.
 */
export function syncProxyRules(state: IptablesState, input: KubeProxyInput): SyncResult {
  const cfg = input.config;
  if (cfg.mode !== undefined && cfg.mode !== '' && cfg.mode !== 'iptables') return { payload: '' };

  // the jump rules only on a full sync (proxier.go: `if doFullSync`); the canaries are the
  // Monitor's, made when it starts and again after each reload it triggers (both full syncs)
  const partial = input.previous;
  if (!partial) {
    ensureCanaries(state);
    for (const j of JUMP_CHAINS) ensureJump(state, j);
  }

  const markBit = cfg.masqueradeBit ?? 14;
  const mark = `0x${(1 << markBit).toString(16)}`;
  // the IPv6 proxier (ip6tables' ruleset): no localhost NodePorts (route_localnet is IPv4's), so
  // no KUBE-FIREWALL localnet rule and `! -d ::1/128` on the NodePort tail (proxier.go isIPv6)
  const family: Family = familyOfState(state);
  const v6 = family === 'ipv6';
  const localhostNodePorts = !v6 && (cfg.localhostNodePorts ?? true) && nodePortAddressesIncludeLoopback(cfg.nodePortAddresses);
  const nfacct = cfg.nfacct ?? false;
  // each proxier detects local traffic with its family's CIDR (server.go getLocalDetectorPair)
  const clusterCIDR = familyClusterCIDR(cfg.clusterCIDR, v6 ? 'IPv6' : 'IPv4');
  const nodeIP = input.node.ips[0];

  const filterChains = ['KUBE-SERVICES', 'KUBE-EXTERNAL-SERVICES', 'KUBE-FORWARD', 'KUBE-NODEPORTS', 'KUBE-PROXY-FIREWALL'];
  if (localhostNodePorts) filterChains.push('KUBE-FIREWALL');
  const natChains = ['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-POSTROUTING', 'KUBE-MARK-MASQ'];
  // (the rules that do not depend on the Services, made once per configuration: see staticRules)
  const fixed = staticRules(cfg, mark, localhostNodePorts, nfacct, v6, input.node.ips);
  const filterRules: string[] = fixed.firewall.slice();
  /** The static nat rules, written before the service ports'. */
  const natRules = fixed.nat;

  // each family's proxier keeps its own endpoints map
  const epMap = endpointsByPortCached(input.endpointSlices, input.node.name, v6 ? `ipv6/${input.node.name}` : input.node.name);
  const sorted = sortedServicePorts(input.services);
  // (the stored objects are kept as the last sorted list; see RenderContext.byContent)
  const byContent = lastSorted?.sorted !== sorted;
  const ports = sorted.ports;
  const makeCtx = (totalEndpoints: number): RenderContext => {
    // proxier.go: the total over every service port's endpoints decides largeClusterMode
    const largeClusterMode = totalEndpoints > LARGE_CLUSTER_ENDPOINTS_THRESHOLD;
    return {
      masqueradeAll: cfg.masqueradeAll === true,
      clusterCIDR,
      localhostNodePorts,
      nfacct,
      nodeIP,
      largeClusterMode,
      family,
      sig: `${cfg.masqueradeAll === true}|${clusterCIDR ?? ''}|${localhostNodePorts}|${nfacct}|${largeClusterMode}|${family}`,
      byContent,
    };
  };
  const view = portsView(v6 ? `ipv6/${input.node.name}` : input.node.name, sorted, epMap, makeCtx);
  const { rendered, fingerprints } = view;
  const largeClusterMode = view.ctx.largeClusterMode;
  // large-cluster mode looks for stale chains at most once per syncPeriod (iptables-save is slow
  // on big rulesets); without the look, the active chains need not be known
  const staleCleanup = !largeClusterMode || input.staleCleanupDue !== false;
  const unchanged = partial ? unchangedSince(partial, view, (i) => (ports[i] as PortEntry).nsName) : undefined;
  // Pass 1: the filter rules, and which Services' chains this sync writes. The payload is then
  // written straight into one array of lines and one of what the restore is told of each
  // (KnownLine), sized beforehand: gathering the nat rules and their parses in arrays of their own
  // and copying them into the payload after was a fifth of a 10,000-Service full sync (230,000
  // lines, each stored twice, into arrays that kept growing).
  const skip = unchanged ? new Uint8Array(ports.length) : undefined;
  if (skip && unchanged) {
    if (partial && view.changes && view.changes.since === partial) {
      // (the few Services that changed, by name, instead of a look-up per port: see unchangedSince)
      skip.fill(1);
      for (const name of view.changes.names) for (const i of sorted.byName.get(name) ?? []) skip[i] = 0;
    } else for (let i = 0; i < ports.length; i++) if (unchanged(i)) skip[i] = 1;
  }
  let declCount = 0;
  let natPortLines = 0;
  for (let i = 0; i < ports.length; i++) {
    const r = rendered[i] as RenderedPort;
    // (indexed loops, no iterators or calls per line, in the loops over every port here and
    // below: right after a cold sync the partial syncs run them before they are optimised, where
    // each step costs; the first changes after settling 10,000 Services spent 40-60 ms a node here)
    const f = r.filter;
    for (let j = 0; j < f.length; j++) filterRules.push(f[j] as string);
    natPortLines += r.natTop.length;
    // per-service chains: a partial sync writes them only for a Service that changed; the others'
    // names still count as active (upstream computes their rules and throws them away)
    if (skip?.[i]) continue;
    declCount += r.chains.length;
    natPortLines += r.natChains.length;
  }

  // stale chains: existing per-service chains no longer active are declared and deleted
  // (large-cluster mode: at most once per syncPeriod, as iptables-save is slow on big rulesets)
  const natTable = ensureTable(state, 'nat');
  const stale = staleCleanup
    ? staleChains(natTable, (active) => {
        for (const c of natChains) active(c);
        // (chains of unchanged Services count too: upstream computes and discards them)
        for (const r of rendered) for (const c of r.chains) active(c);
      })
    : [];

  // NodePort tail rule, filter KUBE-FORWARD
  const natTail = fixed.tail;
  for (const r of fixed.forward) filterRules.push(r);

  const total = 1 + filterChains.length + filterRules.length + 2 + natChains.length + declCount + stale.length + natRules.length + natPortLines + natTail.length + stale.length + 2;
  const lines = new Array<string>(total);
  // what the restore need not read (restore.ts KnownLine): the per-service chains' declarations
  // (their names, interned) and the rules built with their lines (parsed-rules.ts)
  const known = new Array<KnownLine>(total);
  let at = 0;
  const put = (line: string, k: KnownLine): void => {
    lines[at] = line;
    known[at++] = k;
  };
  put('*filter', undefined);
  for (const c of filterChains) put(declLine(c), undefined);
  for (const r of filterRules) put(r, undefined);
  put('COMMIT', undefined);
  put('*nat', undefined);
  // (every nat declaration through its chain's ref, so that what follows finds the chains on them)
  for (const c of natChains) put(declLine(c), chainRef(c));
  for (let i = 0; i < ports.length; i++) {
    if (skip?.[i]) continue;
    const r = rendered[i] as RenderedPort;
    // (declared through their templates where they have one: see RenderedPort.templates)
    const templates = r.templates;
    const decls = r.decls;
    for (let j = 0; j < decls.length; j++) {
      lines[at] = decls[j] as string;
      known[at++] = templates[j] ?? r.chainRefs[j];
    }
  }
  for (const c of stale) put(`:${c} - [0:0]`, chainRef(c));
  for (const r of natRules) put(r, undefined);
  for (let i = 0; i < ports.length; i++) {
    const r = rendered[i] as RenderedPort;
    const top = r.natTop;
    const topKnown = r.natTopKnown;
    for (let j = 0; j < top.length; j++) {
      lines[at] = top[j] as string;
      known[at++] = topKnown[j];
    }
    if (skip?.[i]) continue;
    const own = r.natChains;
    const ownKnown = r.natChainsKnown;
    for (let j = 0; j < own.length; j++) {
      lines[at] = own[j] as string;
      known[at++] = ownKnown[j];
    }
  }
  for (const r of natTail) put(r, undefined);
  for (const c of stale) put(`-X ${c}`, undefined);
  put('COMMIT', undefined);
  put('', undefined);
  // (exactly `total` lines were put; kept exact should a count above ever miss one)
  lines.length = at;
  known.length = at;
  // (a payload that would change nothing but the revision is not restored again: restoresNothing)
  const again = restoresNothing(state, lines);
  const r = again ? restoredAgain(state) : applyRestoreLines(state, lines, { noflush: true, counters: false }, known);
  noteRestore(state, lines, r, again);
  // the payload text only when someone reads it (tests, logs): the controller does not, and a
  // full sync's is 20 MB at 10,000 Services
  let payload: string | undefined;
  const text = (): string => (payload ??= lines.join('\n'));
  if (r.exitCode !== 0) return withPayload({ error: r.stderr, largeClusterMode, staleCleanup }, text, known);
  return withPayload({ fingerprints, ...(view.changes ? { fingerprintChanges: view.changes } : {}), largeClusterMode, staleCleanup }, text, known);
}

/** The lines of a sync that do not depend on the Services: the static nat rules, KUBE-FIREWALL's, the NodePort tail rule and KUBE-FORWARD's. */
interface StaticRules {
  nat: readonly string[];
  firewall: readonly string[];
  tail: readonly string[];
  forward: readonly string[];
}

/**
 * The static rules by what they are made from (the arguments of staticRules): every sync writes
 * them, and joining them anew was a tenth of a sync that changes nothing; the same strings each
 * time also let restoresNothing compare payloads by identity. Bounded (util/bounded-map.ts remember).
 */
const STATIC_RULES = new Map<string, StaticRules>();
const STATIC_RULES_LIMIT = 64;

function staticRules(cfg: KubeProxyConfig, mark: string, localhostNodePorts: boolean, nfacct: boolean, v6: boolean, nodeIPs: readonly string[]): StaticRules {
  const key = [mark, cfg.randomFully === false, localhostNodePorts, nfacct, cfg.conntrackTCPBeLiberal === true, v6, JSON.stringify(cfg.nodePortAddresses ?? []), JSON.stringify(nodeIPs)].join('|');
  let out = STATIC_RULES.get(key);
  if (out === undefined) {
    out = rememberBounded(STATIC_RULES, key, makeStaticRules(cfg, mark, localhostNodePorts, nfacct, v6, nodeIPs), STATIC_RULES_LIMIT);
  }
  return out;
}

function makeStaticRules(cfg: KubeProxyConfig, mark: string, localhostNodePorts: boolean, nfacct: boolean, v6: boolean, nodeIPs: readonly string[]): StaticRules {
  const w = (buf: string[], ...parts: string[]): void => {
    buf.push(parts.join(' '));
  };
  const filterRules: string[] = [];
  /** The static nat rules, written before the service ports'. */
  const natRules: string[] = [];

  // static nat rules
  w(natRules, '-A', 'KUBE-POSTROUTING', '-m', 'mark', '!', '--mark', `${mark}/${mark}`, '-j', 'RETURN');
  w(natRules, '-A', 'KUBE-POSTROUTING', '-j', 'MARK', '--xor-mark', mark);
  w(
    natRules,
    '-A',
    'KUBE-POSTROUTING',
    '-m',
    'comment',
    '--comment',
    q('kubernetes service traffic requiring SNAT'),
    '-j',
    'MASQUERADE',
    ...(cfg.randomFully === false ? [] : ['--random-fully']),
  );
  w(natRules, '-A', 'KUBE-MARK-MASQ', '-j', 'MARK', '--or-mark', mark);
  if (localhostNodePorts) {
    w(
      filterRules,
      '-A',
      'KUBE-FIREWALL',
      '-m',
      'comment',
      '--comment',
      q('block incoming localnet connections'),
      '-d',
      '127.0.0.0/8',
      '!',
      '-s',
      '127.0.0.0/8',
      '-m',
      'conntrack',
      '!',
      '--ctstate',
      'RELATED,ESTABLISHED,DNAT',
      '-j',
      'DROP',
    );
  }

  // NodePort tail rule
  const natTail: string[] = [];
  const tailComment = q('kubernetes service nodeports; NOTE: this must be the last rule in this chain');
  // nodeport_addresses.go newNodePortAddresses: each proxier keeps its family's CIDRs (none: match all)
  const npa = v6 ? (cfg.nodePortAddresses ?? []).filter((c) => c.includes(':')) : (cfg.nodePortAddresses ?? []);
  if (npa.length === 0) {
    w(natTail, '-A', 'KUBE-SERVICES', '-m', 'comment', '--comment', tailComment, '-m', 'addrtype', '--dst-type', 'LOCAL', ...(v6 ? ['!', '-d', '::1/128'] : localhostNodePorts ? [] : ['!', '-d', '127.0.0.0/8']), '-j', 'KUBE-NODEPORTS');
  } else {
    for (const ip of nodePortIPs(npa, nodeIPs, localhostNodePorts))
      w(natTail, '-A', 'KUBE-SERVICES', '-m', 'comment', '--comment', tailComment, '-d', ip, '-j', 'KUBE-NODEPORTS');
  }

  // filter KUBE-FORWARD
  const forward: string[] = [];
  if (!cfg.conntrackTCPBeLiberal)
    w(forward, '-A', 'KUBE-FORWARD', '-m', 'conntrack', '--ctstate', 'INVALID', ...(nfacct ? ['-m', 'nfacct', '--nfacct-name', 'ct_state_invalid_dropped_pkts'] : []), '-j', 'DROP');
  w(forward, '-A', 'KUBE-FORWARD', '-m', 'comment', '--comment', q('kubernetes forwarding rules'), '-m', 'mark', '--mark', `${mark}/${mark}`, '-j', 'ACCEPT');
  w(forward, '-A', 'KUBE-FORWARD', '-m', 'comment', '--comment', q('kubernetes forwarding conntrack rule'), '-m', 'conntrack', '--ctstate', 'RELATED,ESTABLISHED', '-j', 'ACCEPT');

  return { nat: natRules, firewall: filterRules, tail: natTail, forward };
}

/** The declarations of the top-level chains (a handful of names), made once: the same strings at every sync. */
const DECL_LINES = new Map<string, string>();

function declLine(name: string): string {
  let line = DECL_LINES.get(name);
  if (line === undefined) {
    line = rememberBounded(DECL_LINES, name, `:${name} - [0:0]`, 64);
  }
  return line;
}

/**
 * What kube-proxy's last successful restore into a ruleset left: its payload, the revision it
 * left and the tables as it committed them (each with its chain array and that array's length).
 * See restoresNothing.
 */
interface LastRestore {
  lines: readonly string[];
  rev: number;
  tables: readonly { table: Table; chains: readonly Table['chains'][number][]; length: number }[];
  /** The chains the payload declares, by table, once looked at (payloadShape); null when it does more than declare and append. */
  shape?: readonly { table: TableName; chains: readonly string[] }[] | null;
}

const LAST_RESTORE = new WeakMap<IptablesState, LastRestore>();
/** Longer payloads (a full sync at thousands of Services) are not kept: see restore.ts LAST_PAYLOAD_MAX_LINES. */
const LAST_RESTORE_MAX_LINES = 65_536;
let restoresSkipped = 0;

/** How many of kube-proxy's restores were found to change nothing but the revision (for restoresNothing's test). */
export function restoresFoundUnchanged(): number {
  return restoresSkipped;
}

/** After a restore (or one found to change nothing, `again`): what restoresNothing compares the next one with. */
function noteRestore(state: IptablesState, lines: readonly string[], r: RestoreResult, again: boolean): void {
  const last = LAST_RESTORE.get(state);
  if (again && last) {
    // the same payload (line for line) on the same tables: only the revision moved
    last.rev = state.rev ?? 0;
    return;
  }
  if (r.exitCode !== 0 || lines.length > LAST_RESTORE_MAX_LINES) {
    LAST_RESTORE.delete(state);
    return;
  }
  const tables: { table: Table; chains: Table['chains']; length: number }[] = [];
  for (const t of Object.values(state.tables)) if (t) tables.push({ table: t, chains: t.chains, length: t.chains.length });
  LAST_RESTORE.set(state, { lines, rev: state.rev ?? 0, tables });
}

/**
 * The user chains a payload declares (`:NAME - [0:0]`), by table, when all it does is declare them,
 * append to chains it declared before and commit; null otherwise (`-X`, `-I`, `-D`, `-N`, `-F`,
 * policies, an append to a chain it did not declare: a second restore of such a payload need not
 * leave what the first one did).
 */
function payloadShape(lines: readonly string[]): { table: TableName; chains: string[] }[] | null {
  const out: { table: TableName; chains: string[] }[] = [];
  let cur: { table: TableName; chains: string[] } | undefined;
  let declared = new Set<string>();
  for (const line of lines) {
    if (line === '') continue;
    if (cur === undefined) {
      const name = line.slice(1) as TableName;
      if (!line.startsWith('*') || !(TABLE_NAMES as readonly string[]).includes(name) || out.some((t) => t.table === name)) return null;
      cur = { table: name, chains: [] };
      out.push(cur);
      declared = new Set();
      continue;
    }
    if (line === 'COMMIT') {
      cur = undefined;
      continue;
    }
    if (line.startsWith('-A ')) {
      if (!declared.has(line.slice(3, line.indexOf(' ', 3) >>> 0))) return null;
      continue;
    }
    if (!line.startsWith(':') || !line.endsWith(' - [0:0]')) return null;
    const name = line.slice(1, -8);
    if (name === '' || /\s/.test(name) || declared.has(name)) return null;
    declared.add(name);
    cur.chains.push(name);
  }
  return cur === undefined ? out : null;
}

/**
 * Whether restoring `lines` into `state` (`--noflush`, without counters) would leave it as it is,
 * but for the revision: a partial sync after a Service or EndpointSlice change this node's rules
 * do not show (a headless Service, a slice whose endpoints stay the same) writes the payload its
 * last sync wrote. In a validate of every 4th scenario, 1,101 of kube-proxy's 2,319 syncs changed
 * nothing but the revision, and 705 of them are found here (the others are missed: a ruleset
 * object's first restore by kube-proxy, as in a copy, or one after another write or a count). Exact when
 *  - the payload is the one kube-proxy's last successful restore into this ruleset wrote, line for
 *    line, and the ruleset is as that restore left it: the revision it left (every `iptables` and
 *    `iptables-restore` write bumps it) and the same tables with the same chain arrays at the same
 *    lengths (the writers that bypass the revision, kube-proxy's own ensureJump and cleanup and
 *    the packet path, replace a chain in its place, change a built-in chain's rules, add a chain
 *    or make a new array: iptables.ts ownChain and addUserChain, deleteChainsAsked below);
 *  - the payload only declares user chains and appends to chains it declared (payloadShape):
 *    restoring it again flushes each declared chain and refills it with the rules the last
 *    restore put there, and touches nothing else. So the result differs only where a declared
 *    chain changed since; the only change the checks above let through is counters (the packet
 *    path counts a rule in place, or in a copy of a frozen chain put in its place), which a
 *    restore without counters zeroes: every declared chain and its rules must still count zero.
 * Then the restore would succeed again (the same jumps find the same chains) and change only the
 * revision (restoredAgain).
 */
function restoresNothing(state: IptablesState, lines: readonly string[]): boolean {
  const last = LAST_RESTORE.get(state);
  if (!last || last.rev !== (state.rev ?? 0) || last.lines.length !== lines.length) return false;
  for (let i = 0; i < lines.length; i++) if (last.lines[i] !== lines[i]) return false;
  let tables = 0;
  for (const t of Object.values(state.tables)) if (t) tables++;
  if (tables !== last.tables.length) return false;
  for (const t of last.tables) if (state.tables[t.table.name] !== t.table || t.table.chains !== t.chains || t.chains.length !== t.length) return false;
  // (the same lines as last time: the same shape)
  if (last.shape === undefined) last.shape = payloadShape(lines);
  if (last.shape === null) return false;
  for (const { table: name, chains } of last.shape) {
    const table = state.tables[name];
    if (!table) return false;
    for (const chain of chains) {
      const c = findChain(table, chain);
      if (!c || c.builtin || c.counters.packets !== 0 || c.counters.bytes !== 0) return false;
      for (const rule of c.rules) if (rule.counters.packets !== 0 || rule.counters.bytes !== 0) return false;
    }
  }
  return true;
}

/** What applyRestoreLines does with a payload that changes nothing (restoresNothing): it succeeds and bumps the revision. */
function restoredAgain(state: IptablesState): RestoreResult {
  restoresSkipped++;
  bumpRev(state);
  return { stdout: '', stderr: '', exitCode: 0 };
}

/**
 * The per-service chains of `table` that none of `active` names, in the table's order. The
 * table's such chains are gathered first and the active names taken out of them: on a node's
 * first full sync they are a few, and a set of the 60,000 active names of a 10,000-Service
 * cluster was made for nothing.
 */
function staleChains(table: Table, forEachActive: (active: (name: string) => void) => void): string[] {
  const left = new Set<string>();
  // (the prefixes all start with `KUBE-`: most chains of a table are told apart by that look alone)
  for (const c of table.chains) if (!c.builtin && c.name.startsWith('KUBE-') && isStaleCandidate(c.name)) left.add(c.name);
  if (left.size === 0) return [];
  forEachActive((n) => left.delete(n));
  return table.chains.filter((c) => left.has(c.name)).map((c) => c.name);
}

function isStaleCandidate(name: string): boolean {
  for (const pre of STALE_PREFIXES) if (name.startsWith(pre)) return true;
  return false;
}

function withPayload(r: Omit<SyncResult, 'payload'>, text: () => string, known: readonly KnownLine[]): SyncResult {
  Object.defineProperty(r, 'known', { value: known, enumerable: false });
  return Object.defineProperty(r, 'payload', { get: text, enumerable: true }) as SyncResult;
}

/**
 * What the change trackers compare (pkg/proxy/servicechangetracker.go, endpointschangetracker.go:
 * a change whose previous and current infos are equal is dropped): per Service `ns/name`, its
 * ports' infos and the endpoints this node sees for them, hashed.
 */
function serviceFingerprints(sorted: SortedPorts, eps: readonly (readonly EndpointInfo[] | undefined)[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of sorted.groups) out.set((sorted.ports[g[0] as number] as PortEntry).nsName, fingerprintOf(sorted, g, eps));
  return out;
}

/** One Service's fingerprint: its ports (`group`, indices into the sorted ports) and their endpoints. */
function fingerprintOf(sorted: SortedPorts, group: readonly number[], eps: readonly (readonly EndpointInfo[] | undefined)[]): number {
  if (group.length === 1) {
    const i = group[0] as number;
    return portFingerprint((sorted.ports[i] as PortEntry).info, eps[i]);
  }
  return groupFingerprint(
    group.map((i) => (sorted.ports[i] as PortEntry).info),
    group.map((i) => eps[i]),
  );
}

/**
 * Fingerprints kept with a Service's first (memoised) port info for the ports and endpoint arrays
 * they hashed: the text hashed is the same while those objects are, so only a changed Service
 * (or one whose endpoints changed) is stringified and hashed again.
 */
const FINGERPRINTS = new WeakMap<ServicePortInfo, { ports: readonly ServicePortInfo[]; eps: readonly (readonly EndpointInfo[] | undefined)[]; fp: number }[]>();

function groupFingerprint(ports: readonly ServicePortInfo[], eps: readonly (readonly EndpointInfo[] | undefined)[]): number {
  const first = ports[0] as ServicePortInfo;
  const entries = FINGERPRINTS.get(first);
  const same = (e: { ports: readonly ServicePortInfo[]; eps: readonly (readonly EndpointInfo[] | undefined)[] }): boolean =>
    e.ports.length === ports.length && e.ports.every((p, i) => p === ports[i]) && e.eps.every((x, i) => x === eps[i]);
  const hit = entries?.find(same);
  if (hit) return hit.fp;
  // fnv32a of the ports' and endpoints' JSON, one after the other, without making the text (json-fnv.ts)
  let fp = FNV_BASIS;
  for (let i = 0; i < ports.length; i++) {
    const e = eps[i];
    fp = fnvJson(fp, ports[i]);
    fp = e === undefined ? fnvStr(fp, '[]') : fnvJson(fp, e);
  }
  remember(FINGERPRINTS, first, entries, { ports: ports.slice(), eps: eps.slice(), fp });
  return fp;
}

/**
 * groupFingerprint of a Service with one port (most have one), kept with its (memoised) port info:
 * the hash of the port's JSON, which every node's fingerprint of it starts with (PORT_HEADS), and
 * the fingerprints of the last few endpoint arrays (one per node that sees them differently), so a
 * node that sees other endpoints hashes only those.
 */
const PORT_HEADS = new WeakMap<ServicePortInfo, number>();
const PORT_FINGERPRINTS = new WeakMap<ServicePortInfo, { eps: readonly EndpointInfo[] | undefined; fp: number }[]>();

function portFingerprint(port: ServicePortInfo, eps: readonly EndpointInfo[] | undefined): number {
  const entries = PORT_FINGERPRINTS.get(port);
  if (entries) for (const e of entries) if (e.eps === eps) return e.fp;
  let head = PORT_HEADS.get(port);
  if (head === undefined) PORT_HEADS.set(port, (head = fnvJson(FNV_BASIS, port)));
  const fp = eps === undefined ? fnvStr(head, '[]') : fnvJson(head, eps);
  remember(PORT_FINGERPRINTS, port, entries, { eps, fp });
  return fp;
}

/**
 * iptables CleanupLeftovers (pkg/proxy/iptables/proxier.go), run when kube-proxy starts in a mode
 * that is not iptables-based (cmd/kube-proxy/app/server_linux.go platformCleanup): the jump rules
 * from built-in chains are deleted (the kubelet's KUBE-FIREWALL jumps stay), then nat
 * KUBE-SERVICES, KUBE-NODEPORTS, KUBE-POSTROUTING and every per-service chain, and filter
 * KUBE-SERVICES, KUBE-EXTERNAL-SERVICES, KUBE-FORWARD and KUBE-NODEPORTS are flushed and deleted.
 */
export function cleanupIptablesLeftovers(state: IptablesState): void {
  for (const j of JUMP_CHAINS) {
    if (j.to === 'KUBE-FIREWALL') continue;
    const table = state.tables[j.table];
    const from = table && findChain(table, j.from);
    if (!table || !from) continue;
    const args = [...j.extraArgs];
    if (j.comment !== undefined) args.push('-m', 'comment', '--comment', j.comment);
    args.push('-j', j.to);
    const parsed = parseRuleArgs(args, { chainExists: () => true });
    if (!parsed.ok) continue;
    const want = formatRuleBody(parsed.rule);
    ownChain(table, from).rules = from.rules.filter((r) => formatRuleBody(r) !== want);
  }
  const nat = state.tables.nat;
  if (nat) {
    const doomed = nat.chains
      .filter((c) => !c.builtin && (['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-POSTROUTING'].includes(c.name) || STALE_PREFIXES.some((p) => c.name.startsWith(p))))
      .map((c) => c.name);
    deleteChainsAsked(nat, doomed);
  }
  const filter = state.tables.filter;
  if (filter) deleteChainsAsked(filter, ['KUBE-SERVICES', 'KUBE-EXTERNAL-SERVICES', 'KUBE-FORWARD', 'KUBE-NODEPORTS']);
}

/**
 * Deletes the chains whether or not a rule still jumps to one (upstream's restore would refuse
 * then: a user's rule into kube-proxy's chains). Such rules become new objects, so
 * iptables-restore, which trusts that a rule it restored jumps to a chain that is there (restore.ts
 * reusedRule), looks their chains up again.
 */
function deleteChainsAsked(table: Table, names: readonly string[]): void {
  const gone = new Set(names);
  for (const c of table.chains)
    if (!gone.has(c.name) && c.rules.some((r) => r.target !== undefined && gone.has(r.target.name))) ownChain(table, c).rules = c.rules.map((r) => (r.target !== undefined && gone.has(r.target.name) ? { ...r } : r));
  // one pass (deleteChain per name was quadratic: 80 s for the 70,000 chains of 10,000 Services)
  table.chains = table.chains.filter((c) => !gone.has(c.name));
}

/** proxier.go writeServiceToEndpointRules; appendServiceCommentLocked drops the comment in large-cluster mode. */
function writeServiceToEndpointRules(
  buf: string[],
  known: KnownLine[],
  svc: ServicePortInfo,
  chainRef: ChainRef,
  eps: readonly EndpointInfo[],
  largeClusterMode: boolean,
  sepRef: (ep: EndpointInfo) => ChainRef,
  family: Family,
): void {
  const N = svc.spn;
  const chain = chainRef.name;
  const cmt = (c: string): string[] => (largeClusterMode ? [] : ['-m', 'comment', '--comment', c]);
  if (svc.sessionAffinityClientIP) {
    for (const ep of eps) {
      const sep = sepRef(ep).name;
      buf.push(
        ['-A', chain, ...cmt(q(`${N} -> ${ep.endpoint}`)), '-m', 'recent', '--name', sep, '--rcheck', '--seconds', String(svc.stickyMaxAgeSeconds), '--reap', '-j', sep].join(' '),
      );
      known.push(undefined);
    }
  }
  // (the lines written out, not joined from arrays: a cold full sync at 10,000 Services renders
  // 50,000 of these and as many endpoint chain lines; the same text as the joins above)
  const n = eps.length;
  for (let i = 0; i < n; i++) {
    const ep = eps[i] as EndpointInfo;
    const ref = sepRef(ep);
    const sep = ref.name;
    const comment = largeClusterMode ? undefined : `${N} -> ${ep.endpoint}`;
    const probability = i < n - 1 ? computeProbability(n - i) : undefined;
    const cm = comment === undefined ? '' : ` -m comment --comment ${q(comment)}`;
    const stat = probability === undefined ? '' : ` -m statistic --mode random --probability ${probability}`;
    buf.push(['-A ', chain, cm, stat, ' -j ', sep].join(''));
    known.push(dispatchLine(chainRef, comment, probability, ref, family));
  }
}

/** NewProxier forces localhostNodePorts off when nodePortAddresses has no IPv4 loopback CIDR. */
function nodePortAddressesIncludeLoopback(npa: readonly string[] | undefined): boolean {
  if (!npa || npa.length === 0) return true;
  const lo = parseIPv4('127.0.0.1') as number;
  return npa.some((c) => {
    const p = parseCidr(c);
    return p !== undefined && cidrContains(p, lo);
  });
}

/** Node IPs inside nodePortAddresses (loopback only with localhostNodePorts). */
function nodePortIPs(npa: readonly string[], nodeIPs: readonly string[], localhostNodePorts: boolean): string[] {
  const out: string[] = [];
  const candidates = [...nodeIPs, ...(localhostNodePorts ? ['127.0.0.1'] : [])];
  for (const ip of candidates) {
    const v = parseIPv4(ip);
    if (v === undefined) continue;
    if (npa.some((c) => {
      const p = parseCidr(c);
      return p !== undefined && cidrContains(p, v);
    }) && !out.includes(ip)) out.push(ip);
  }
  return out;
}

/**
 * The cluster CIDR of one family from kube-proxy's comma-separated clusterCIDR: each family's
 * proxier detects local traffic with its own (cmd/kube-proxy/app/server.go getLocalDetectors);
 * none of that family means no detector.
 */
export function familyClusterCIDR(list: string | undefined, family: 'IPv4' | 'IPv6'): string | undefined {
  // (every sync asks, with its config's one value: the last answer is kept)
  const had = lastClusterCIDR;
  if (had !== undefined && had.list === list && had.family === family) return had.cidr;
  const cidr = clusterCIDROf(list, family);
  lastClusterCIDR = { list, family, cidr };
  return cidr;
}

let lastClusterCIDR: { list: string | undefined; family: 'IPv4' | 'IPv6'; cidr: string | undefined } | undefined;

function clusterCIDROf(list: string | undefined, family: 'IPv4' | 'IPv6'): string | undefined {
  const hit = (list ?? '').split(',').find((c) => c !== '' && c.includes(':') === (family === 'IPv6'));
  return hit === undefined ? undefined : hit.trim();
}
