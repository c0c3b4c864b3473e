/**
 * One sync of kube-proxy's nftables proxier: the transaction kubernetes
 * pkg/proxy/nftables/proxier.go syncProxyRules builds and runs, full or partial.
 *
 *  - Stale chains first: service chains found unused by an earlier sync (they were flushed then,
 *    since with kernels before 6.2 a chain a deleted map element pointed to cannot be deleted at
 *    once) are deleted in a transaction of their own once more than a second old. If that fails
 *    the sync becomes a full one.
 *  - A full sync (the process' first, a retry after a failure, or one FullSyncPeriod after the
 *    last full one: the caller decides, kube-proxy.ts) runs setupNFTables (nftables-plan.ts) and
 *    reads the containers' elements from the table (nftElementStorage.readOrReset), so elements
 *    someone deleted are added back; every service chain is flushed and rewritten, except, on the
 *    process' first sync, endpoint chains that already exist (epChainSkipUpdate: their name says
 *    all their rules do).
 *  - A partial sync writes only the chains of Services whose Service or endpoints changed since
 *    the last sync (skipServiceUpdate), and elements only where the proxier's own record of the
 *    containers (nftElementStorage) differs from what this sync wants: it never looks at the
 *    table, so an element or rule removed by hand stays removed until its Service changes (for
 *    rules) or the next full sync.
 *  - Service chains (their names contain '/') in the table that no Service uses any more are
 *    flushed and noted as stale (staleChains) for a later sync to delete; elements this sync did
 *    not want are deleted (cleanupLeftoverKeys).
 * A failed transaction (nft refuses to delete what is not there) leaves the table as it was,
 * forgets the stale chains and asks for a full sync (the caller retries after syncPeriod).
 *
 * What the process remembers between syncs (NftProxierMemory) is kept by the caller: it is
 * plain data, and a new process starts without it.
 */
import type { EndpointSlice, Service } from '../../api/types.js';
import { fnv32a } from '../../../util/fnv.js';
import type { NftFamily, NftState, NftTable } from './nftables.js';
import { kubeProxyTable } from './nftables.js';
import type { ContainerName } from './nftables-plan.js';
import { NO_ENDPOINTS, STORED, addrType, containerKind, ensureChainOps, masqueradeMark, portPlanCached, ruleOp, setupOps, type PortPlan } from './nftables-plan.js';
import type { NftOp } from './nftables-tx.js';
import { opText, runNftTransaction, tableHasChain } from './nftables-tx.js';
import { endpointChangeCursor, endpointChangesSince, endpointsByPortCached, portKey, servicePortsOf, type EndpointInfo, type ServicePortInfo } from './service-model.js';
import { OverlayMap } from '../../../util/overlay-map.js';
import type { FingerprintChanges, KubeProxyConfig } from './sync.js';

export interface NftSyncInput {
  services: readonly Service[];
  endpointSlices: readonly EndpointSlice[];
  node: { name: string; ips: readonly string[] };
  config: KubeProxyConfig;
  /** ServiceCIDRs of the cluster (cluster-ips-check drops traffic to unallocated ClusterIPs). */
  serviceCIDRs: readonly string[];
  /** The proxier's family (NewDualStackProxier runs one per family); `ip` when absent. */
  family?: NftFamily;
}

/** What a running nftables proxier remembers between syncs (proxier.go Proxier fields). */
export interface NftProxierMemory {
  /** nftElementStorage.elements per stored container: joined key → joined value ('' for a set). */
  elements: Partial<Record<ContainerName, Record<string, string>>>;
  /** staleChains: chain → when a sync found it unused (ms). */
  staleChains: Record<string, number>;
  /** syncedOnce: a sync ran in this process (endpoint chains are then always rewritten). */
  syncedOnce: boolean;
}

export interface NftSyncOptions {
  /** The clock, for staleChains. */
  now: number;
  /** Each Service's fingerprint at the last successful sync: a partial sync. Undefined: a full sync. */
  previous?: ReadonlyMap<string, number>;
  /** The process' memory, updated in place; undefined for a new process. */
  memory?: NftProxierMemory;
  /** Visit every Service even when the last sync's index would allow less (the reference the memo test compares with). */
  visitAll?: boolean;
}

export interface NftSyncResult {
  /** The main transaction, one operation a line (knftables' transaction text). */
  readonly payload: string;
  /** nft's error when the transaction failed (the table is then as it was). */
  error?: string;
  /** Each Service's (`ns/name`) fingerprint: the next partial sync's `previous`. */
  fingerprints: ReadonlyMap<string, number>;
  /** Which of them differ from `since` (the previous sync's), when this sync knows without comparing. */
  fingerprintChanges?: FingerprintChanges;
  /** The process' memory after this sync. */
  nft: NftProxierMemory;
  /** Whether it ran as a full sync (a failed stale-chain deletion turns a partial one full). */
  full: boolean;
  /** Operations in the main transaction (knftables Fake LastTransaction.NumOperations). */
  operations: number;
  /** Stale chains deleted before it. */
  staleDeleted: number;
  /** The batch that deleted them, one operation a line (empty when there was none). */
  readonly stalePayload: string;
}

/** The stale chains older than a second, deleted in their own transaction; false when that failed. */
function deleteStaleChains(st: NftState, mem: NftProxierMemory, now: number, family: NftFamily): { ok: boolean; deleted: number; ops: NftOp[] } {
  const ops: NftOp[] = [];
  for (const [chain, at] of Object.entries(mem.staleChains)) {
    if (at < now - 1000) {
      ops.push({ verb: 'delete', obj: 'chain', name: chain });
      delete mem.staleChains[chain];
    }
  }
  return { ok: runNftTransaction(st, ops, family) === undefined, deleted: ops.length, ops };
}

/** nftElementStorage.readOrReset: the container's elements as the table has them (none when it is missing). */
function readElements(t: NftTable | undefined, name: ContainerName): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of t?.sets.find((s) => s.name === name)?.elements ?? []) out[e.key.join(' . ')] = e.value ?? '';
  return out;
}

/**
 * A Service's fingerprint, kept per node endpoint map (one per node, changed in place) and Service
 * object, with the endpoint arrays it was computed from: recomputed only when one of them changed.
 */
const FPS = new WeakMap<ReadonlyMap<string, readonly unknown[]>, WeakMap<Service, { eps: (readonly unknown[] | undefined)[]; fp: number }>>();

/** Each port list's endpoint-map keys, kept with the list (one per stored Service). */
const PORT_KEYS = new WeakMap<readonly ServicePortInfo[], string[]>();

function portKeysOf(ports: readonly ServicePortInfo[]): string[] {
  let k = PORT_KEYS.get(ports);
  if (!k) {
    k = ports.map((p) => portKey(p.spn, p.protocol));
    PORT_KEYS.set(ports, k);
  }
  return k;
}

/** Per Service `ns/name`: its ports and the endpoints this node sees for them, hashed (what the change trackers compare). */
export function nftServiceFingerprints(services: readonly Service[], epMap: ReadonlyMap<string, readonly unknown[]>): Map<string, number> {
  const out = new Map<string, number>();
  let memo = FPS.get(epMap);
  if (!memo) FPS.set(epMap, (memo = new WeakMap()));
  for (const s of services) {
    const fp = serviceFingerprint(s, epMap, memo);
    if (fp !== undefined) out.set(nsNameOf(s), fp);
  }
  return out;
}

/** One Service's fingerprint (undefined without ports), through the memo of its node's endpoint map. */
function serviceFingerprint(s: Service, epMap: ReadonlyMap<string, readonly unknown[]>, memo: WeakMap<Service, { eps: (readonly unknown[] | undefined)[]; fp: number }>): number | undefined {
  const ports = servicePortsOf(s);
  if (ports.length === 0) return undefined;
  const had = Object.isFrozen(s) ? memo.get(s) : undefined;
  const keys = portKeysOf(ports);
  let same = had !== undefined && had.eps.length === keys.length;
  for (let i = 0; same && i < keys.length; i++) same = had!.eps[i] === epMap.get(keys[i]!);
  if (same) return had!.fp;
  const eps = keys.map((k) => epMap.get(k));
  let text = '';
  ports.forEach((p, i) => {
    text += `${JSON.stringify(p)}${JSON.stringify(eps[i] ?? [])}`;
  });
  const fp = fnv32a(text);
  if (Object.isFrozen(s)) memo.set(s, { eps, fp });
  return fp;
}

/**
 * The fingerprints of this sync from the last one's without looking at every Service: when the
 * Service list is the last sync's but for a few objects replaced in place (the store lists them
 * in the same order) and the node's endpoint map logged which port keys changed since, only those
 * Services are fingerprinted again. Undefined when that cannot be known (a Service added or
 * deleted, renamed in place, or the log moved on): the caller fingerprints every Service.
 */
function changedFingerprints(index: SyncIndex, services: readonly Service[], epMap: ReadonlyMap<string, readonly EndpointInfo[]>): { fingerprints: ReadonlyMap<string, number>; visit: Service[]; changes: FingerprintChanges } | undefined {
  const last = index.servicesList;
  if (!last || last.length !== services.length || index.epMap !== epMap || index.epCursor === undefined) return undefined;
  const keys = endpointChangesSince(epMap, index.epCursor);
  if (!keys) return undefined;
  const visit = new Map<string, Service>();
  for (let i = 0; i < services.length; i++) {
    const s = services[i]!;
    if (s === last[i]) continue;
    if (!Object.isFrozen(s) || nsNameOf(s) !== nsNameOf(last[i]!)) return undefined;
    visit.set(nsNameOf(s), s);
  }
  for (const k of keys) {
    for (const name of index.keyOwners.get(k) ?? []) {
      const s = index.byName.get(name);
      if (s && !visit.has(name)) visit.set(name, s);
    }
  }
  let memo = FPS.get(epMap);
  if (!memo) FPS.set(epMap, (memo = new WeakMap()));
  const changes = new Map<string, number>();
  for (const [name, s] of visit) {
    const fp = serviceFingerprint(s, epMap, memo);
    if (fp === undefined || !index.fingerprints.has(name)) return undefined;
    if (fp !== index.fingerprints.get(name)) changes.set(name, fp);
  }
  // in the list's order, as visiting every Service would meet them
  const order = [...visit.values()].sort((a, b) => (index.position.get(nsNameOf(a)) ?? 0) - (index.position.get(nsNameOf(b)) ?? 0));
  return { fingerprints: changes.size === 0 ? index.fingerprints : OverlayMap.of(index.fingerprints, changes), visit: order, changes: { since: index.fingerprints, names: [...changes.keys()] } };
}

/** What a sync writes with: its transaction, the proxier's element record, the rule context. */
interface SyncWriter {
  tx: NftOp[];
  stored: (name: ContainerName) => Record<string, string>;
  mark: string;
  family: NftFamily;
  cfg: KubeProxyConfig;
  nodeIP: string | undefined;
}

/**
 * What the last successful sync of a running proxier planned, kept beside its memory (never
 * saved): each Service's plans and how many Services want each element. A partial sync on the
 * table that sync left (the same object: anyone else's write makes a new one), with the
 * fingerprints it handed out, then visits only the changed and deleted Services: what the others
 * want is already in the record, and only the changed ones' old chains, affinity sets and
 * elements can have become unused. It writes what visiting every Service would (nftables-memo.test.ts).
 */
interface SyncIndex {
  table: NftTable | undefined;
  fingerprints: ReadonlyMap<string, number>;
  family: NftFamily;
  /** The Service list, endpoint map and its change-log cursor the last sync saw (changedFingerprints). */
  servicesList?: readonly Service[];
  epMap?: ReadonlyMap<string, readonly EndpointInfo[]>;
  epCursor?: number;
  /** Port key → the Services (`ns/name`) with a port of that key; `ns/name` → its Service object as last seen and its place in the list. */
  keyOwners: Map<string, string[]>;
  byName: Map<string, Service>;
  position: Map<string, number>;

  services: Map<string, { fp: number; plans: PortPlan[] }>;
  /** `container key` → how many Services' plans want it. */
  owners: Map<string, number>;
}

const INDEX = new WeakMap<NftProxierMemory, SyncIndex>();

function ownerKey(set: ContainerName, key: string): string {
  return `${set} ${key}`;
}

/** Adds `by` to the owner count of each element of `ps` (a count reaching 0 is removed). */
function countOwners(m: Map<string, number>, ps: readonly PortPlan[], by: number): void {
  for (const p of ps) {
    for (const e of p.elements) {
      const k = ownerKey(e.set, e.elem.key.join(' . '));
      const n = (m.get(k) ?? 0) + by;
      if (n === 0) m.delete(k);
      else m.set(k, n);
    }
  }
}

/** The owner counts of every Service's plans. */
function ownerCounts(plans: ReadonlyMap<string, { plans: PortPlan[] }>): Map<string, number> {
  const m = new Map<string, number>();
  for (const { plans: ps } of plans.values()) countOwners(m, ps, 1);
  return m;
}

/** Port key → owners and `ns/name` → Service for `services` of the family (SyncIndex.keyOwners, byName). */
function serviceLookup(services: readonly Service[], family: NftFamily): { keyOwners: Map<string, string[]>; byName: Map<string, Service>; position: Map<string, number> } {
  const keyOwners = new Map<string, string[]>();
  const byName = new Map<string, Service>();
  const position = new Map<string, number>();
  for (const [i, svc] of services.entries()) {
    if (!ofFamily(svc, family)) continue;
    const name = nsNameOf(svc);
    byName.set(name, svc);
    position.set(name, i);
    for (const k of portKeysOf(servicePortsOf(svc))) {
      const owners = keyOwners.get(k);
      if (owners) owners.push(name);
      else keyOwners.set(k, [name]);
    }
  }
  return { keyOwners, byName, position };
}

/** The index's lookup with the visited Services' objects and port keys brought up to date. */
function updatedLookup(index: SyncIndex, visit: readonly Service[]): { keyOwners: Map<string, string[]>; byName: Map<string, Service>; position: Map<string, number> } {
  for (const svc of visit) {
    const name = nsNameOf(svc);
    const old = index.byName.get(name);
    if (old === svc) continue;
    if (old) for (const k of portKeysOf(servicePortsOf(old))) index.keyOwners.set(k, (index.keyOwners.get(k) ?? []).filter((n) => n !== name));
    for (const k of portKeysOf(servicePortsOf(svc))) index.keyOwners.set(k, [...(index.keyOwners.get(k) ?? []), name]);
    index.byName.set(name, svc);
  }
  return { keyOwners: index.keyOwners, byName: index.byName, position: index.position };
}

/** A Service whose plans an incremental sync replaced (`now` undefined: deleted). */
interface Replaced {
  name: string;
  old: { fp: number; plans: PortPlan[] } | undefined;
  now: { fp: number; plans: PortPlan[] } | undefined;
}

/** A Service's port plans for this sync, in servicePortsOf order. */
function servicePlans(w: SyncWriter, svc: Service, epMap: ReadonlyMap<string, readonly EndpointInfo[]>): PortPlan[] {
  return servicePortsOf(svc).map((port) => portPlanCached(port, epMap.get(portKey(port.spn, port.protocol)) ?? NO_ENDPOINTS, w.cfg, w.nodeIP));
}

/** nftElementStorage.ensureElem for one plan: only what the proxier does not think is there already. */
function ensureElements(w: SyncWriter, plan: PortPlan, leftover?: Map<ContainerName, Set<string>>): void {
  for (const { set, elem } of plan.elements) {
    const key = elem.key.join(' . ');
    const value = elem.value ?? '';
    const have = w.stored(set)[key];
    const kind = containerKind(set);
    if (have === undefined) w.tx.push({ verb: 'add', obj: 'element', set, kind, elem });
    else if (have !== value) w.tx.push({ verb: 'delete', obj: 'element', set, kind, elem }, { verb: 'add', obj: 'element', set, kind, elem });
    w.stored(set)[key] = value;
    leftover?.get(set)?.delete(key);
  }
}

/** A changed Service's chains declared and flushed, its affinity sets and rules written. */
function writeRules(w: SyncWriter, plan: PortPlan, active: Set<string>, skipEpChain: (chain: string) => boolean): void {
  for (const chain of plan.endpointChains) {
    if (skipEpChain(chain)) active.add(chain);
    else w.tx.push(...ensureChainOps(chain, active));
  }
  for (const chain of plan.policyChains) w.tx.push(...ensureChainOps(chain, active));
}

function writePlanRules(w: SyncWriter, plan: PortPlan, skipEpChain: (chain: string) => boolean): void {
  for (const r of plan.rules) {
    if ('affinitySet' in r) {
      w.tx.push({ verb: 'add', obj: 'set', name: r.affinitySet, kind: 'set', type: addrType(w.family), flags: ['dynamic', 'timeout'], timeout: r.timeout });
      continue;
    }
    if (plan.endpointChains.includes(r.chain) && skipEpChain(r.chain)) continue;
    w.tx.push(ruleOp(r.chain, r.rule, w.mark, r.comment, w.family));
  }
}

/** Whether the proxier of `family` handles `svc` (ServiceChangeTracker's ipFamily filter). */
function ofFamily(svc: Service, family: NftFamily): boolean {
  return (svc.spec.clusterIP ?? '').includes(':') === (family === 'ip6');
}

const NS_NAMES = new WeakMap<Service, string>();

/** `ns/name`, kept per stored (frozen) Service. */
function nsNameOf(svc: Service): string {
  let n = NS_NAMES.get(svc);
  if (n === undefined) {
    n = `${svc.metadata.namespace ?? 'default'}/${svc.metadata.name}`;
    if (Object.isFrozen(svc)) NS_NAMES.set(svc, n);
  }
  return n;
}

/** The sync as upstream runs it: every Service visited, every chain in the table looked at. */
function freshBody(
  w: SyncWriter,
  input: NftSyncInput,
  fingerprints: ReadonlyMap<string, number>,
  epMap: ReadonlyMap<string, readonly EndpointInfo[]>,
  plans: Map<string, { fp: number; plans: PortPlan[] }>,
  mem: NftProxierMemory,
  now: number,
  before: NftTable | undefined,
  full: boolean,
  firstOfProcess: boolean,
  previous: ReadonlyMap<string, number> | undefined,
): void {
  const leftover = new Map<ContainerName, Set<string>>(STORED.map((n) => [n, new Set(Object.keys(w.stored(n)))]));
  // the chains in the table (nft list chains), undefined when there is no table yet
  const existing = before ? new Set(before.chains.map((c) => c.name)) : undefined;
  const epChainSkipUpdate = (chain: string): boolean => firstOfProcess && existing !== undefined && existing.has(chain);
  const active = new Set<string>();
  const activeAffinity = new Set<string>();
  for (const svc of input.services) {
    if (!ofFamily(svc, w.family)) continue;
    const nsName = nsNameOf(svc);
    const fp = fingerprints.get(nsName);
    const skip = !full && previous?.get(nsName) === fp;
    const ps = servicePlans(w, svc, epMap);
    if (fp !== undefined) plans.set(nsName, { fp, plans: ps });
    for (const plan of ps) {
      for (const set of plan.affinitySets) activeAffinity.add(set);
      if (skip) for (const chain of [...plan.endpointChains, ...plan.policyChains]) active.add(chain);
      else writeRules(w, plan, active, epChainSkipUpdate);
      ensureElements(w, plan, leftover);
      if (!skip) writePlanRules(w, plan, epChainSkipUpdate);
    }
  }
  for (const chain of existing ?? []) {
    if (!chain.includes('/')) continue;
    if (!active.has(chain)) {
      w.tx.push({ verb: 'flush', obj: 'chain', name: chain });
      mem.staleChains[chain] = now;
    } else delete mem.staleChains[chain];
  }
  // stale affinity sets can go at once: no map element points at a set
  for (const s of before?.sets ?? []) if (s.name.startsWith('affinity-') && !activeAffinity.has(s.name)) w.tx.push({ verb: 'delete', obj: 'set', name: s.name, kind: 'set' });
  for (const name of STORED) {
    for (const key of leftover.get(name) ?? []) {
      w.tx.push({ verb: 'delete', obj: 'element', set: name, kind: containerKind(name), elem: { key: key.split(' . ') } });
      delete w.stored(name)[key];
    }
  }
}

/**
 * The same sync visiting only the changed and deleted Services (SyncIndex). It updates the index's
 * Service plans in place and returns what it replaced; the caller drops the index when the batch fails.
 */
function incrementalBody(
  w: SyncWriter,
  visit: readonly Service[],
  fingerprints: ReadonlyMap<string, number>,
  epMap: ReadonlyMap<string, readonly EndpointInfo[]>,
  index: SyncIndex,
  mem: NftProxierMemory,
  now: number,
  before: NftTable | undefined,
  mayDelete: boolean,
): Replaced[] {
  const never = (): boolean => false;
  const active = new Set<string>();
  const activeAffinity = new Set<string>();
  const replaced: Replaced[] = [];
  for (const svc of visit) {
    if (!ofFamily(svc, w.family)) continue;
    const nsName = nsNameOf(svc);
    const fp = fingerprints.get(nsName);
    if (fp === undefined) continue;
    const had = index.services.get(nsName);
    if (had !== undefined && had.fp === fp) continue;
    const ps = servicePlans(w, svc, epMap);
    const cur = { fp, plans: ps };
    replaced.push({ name: nsName, old: had, now: cur });
    for (const plan of ps) {
      for (const set of plan.affinitySets) activeAffinity.add(set);
      writeRules(w, plan, active, never);
      ensureElements(w, plan);
      writePlanRules(w, plan, never);
    }
  }
  // (the change-log path visits a list with the same Services: none can be gone)
  if (mayDelete) for (const [name, old] of index.services) if (!fingerprints.has(name)) replaced.push({ name, old, now: undefined });
  for (const r of replaced) {
    if (r.now) index.services.set(r.name, r.now);
    else index.services.delete(r.name);
  }
  /** the chains, affinity sets and elements that changed or deleted Services had */
  const oldChains = new Set<string>();
  const oldAffinity = new Set<string>();
  const oldElements: { set: ContainerName; key: string }[] = [];
  for (const { old } of replaced) {
    for (const p of old?.plans ?? []) {
      for (const c of p.endpointChains) oldChains.add(c);
      for (const c of p.policyChains) oldChains.add(c);
      for (const a of p.affinitySets) oldAffinity.add(a);
      for (const e of p.elements) oldElements.push({ set: e.set, key: e.elem.key.join(' . ') });
    }
  }
  // chains: the changed Services' old ones and those already stale, in the table's (name) order
  // (looked up in the table's chain index: a set of its 60,000 names per sync was a fifth of one)
  const candidates = [...new Set([...oldChains, ...Object.keys(mem.staleChains)])].filter((c) => c.includes('/') && !active.has(c)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const chain of candidates) {
    if (!before || !tableHasChain(before, chain)) continue;
    w.tx.push({ verb: 'flush', obj: 'chain', name: chain });
    mem.staleChains[chain] = now;
  }
  for (const chain of active) delete mem.staleChains[chain];
  if (oldAffinity.size > 0) {
    for (const s of before?.sets ?? []) if (oldAffinity.has(s.name) && !activeAffinity.has(s.name) && !stillWanted(index.services, s.name)) w.tx.push({ verb: 'delete', obj: 'set', name: s.name, kind: 'set' });
  }
  // elements no Service wants any more: the replaced Services' old elements whose owners are gone
  for (const r of replaced) {
    if (r.old) countOwners(index.owners, r.old.plans, -1);
    if (r.now) countOwners(index.owners, r.now.plans, 1);
  }
  const gone = new Map<ContainerName, Set<string>>();
  for (const { set, key } of oldElements) if (!index.owners.has(ownerKey(set, key)) && w.stored(set)[key] !== undefined) (gone.get(set) ?? gone.set(set, new Set()).get(set)!).add(key);
  for (const name of STORED) {
    const keys = gone.get(name);
    if (!keys) continue;
    // in the record's key order, as cleanupLeftoverKeys walks it
    for (const key of Object.keys(w.stored(name))) {
      if (!keys.has(key)) continue;
      w.tx.push({ verb: 'delete', obj: 'element', set: name, kind: containerKind(name), elem: { key: key.split(' . ') } });
      delete w.stored(name)[key];
    }
  }
  return replaced;
}

/** Whether an unchanged Service still uses affinity set `name`. */
function stillWanted(plans: ReadonlyMap<string, { plans: PortPlan[] }>, name: string): boolean {
  for (const { plans: ps } of plans.values()) for (const p of ps) if (p.affinitySets.includes(name)) return true;
  return false;
}

/** syncProxyRules of the nftables proxier; see the file comment. */
export function syncNftablesRules(st: NftState, input: NftSyncInput, opts: NftSyncOptions): NftSyncResult {
  const mem: NftProxierMemory = opts.memory ?? { elements: {}, staleChains: {}, syncedOnce: false };
  const firstOfProcess = !mem.syncedOnce;
  let full = opts.previous === undefined;
  const family = input.family ?? 'ip';
  const stale = Object.keys(mem.staleChains).length > 0 ? deleteStaleChains(st, mem, opts.now, family) : { ok: true, deleted: 0, ops: [] };
  if (!stale.ok) full = true;

  const cfg = input.config;
  const mark = masqueradeMark(cfg);
  const before = kubeProxyTable(st, family);
  const tx: NftOp[] = [];
  if (full) {
    tx.push(...setupOps(cfg, input.node.ips, input.serviceCIDRs, firstOfProcess, family));
    for (const name of STORED) mem.elements[name] = readElements(before, name);
  }
  const stored = (name: ContainerName): Record<string, string> => (mem.elements[name] ??= {});
  // each family's proxier keeps its own endpoints map
  const epMap = endpointsByPortCached(input.endpointSlices, input.node.name, family === 'ip6' ? `nft6/${input.node.name}` : input.node.name);
  const index = INDEX.get(mem);
  const incremental = opts.visitAll !== true && !full && index !== undefined && index.table === before && index.fingerprints === opts.previous && index.family === family;
  const fast = incremental ? changedFingerprints(index, input.services, epMap) : undefined;
  const fingerprints = fast ? fast.fingerprints : nftServiceFingerprints(input.services, epMap);
  const write: SyncWriter = { tx, stored, mark, family, cfg, nodeIP: input.node.ips[0] };
  let services: Map<string, { fp: number; plans: PortPlan[] }>;
  if (incremental) {
    incrementalBody(write, fast ? fast.visit : input.services, fingerprints, epMap, index, mem, opts.now, before, fast === undefined);
    services = index.services;
  } else {
    services = new Map();
    freshBody(write, input, fingerprints, epMap, services, mem, opts.now, before, full, firstOfProcess, opts.previous);
  }
  const error = runNftTransaction(st, tx, family);
  mem.syncedOnce = true;
  if (error !== undefined) {
    mem.staleChains = {};
    INDEX.delete(mem);
  } else {
    const lookup = fast && index ? updatedLookup(index, fast.visit) : serviceLookup(input.services, family);
    const epCursor = endpointChangeCursor(epMap);
    INDEX.set(mem, {
      table: kubeProxyTable(st, family),
      fingerprints,
      family,
      services,
      owners: incremental ? index.owners : ownerCounts(services),
      // a copy: the store may hand out one list it keeps up to date
      servicesList: input.services.slice(),
      epMap,
      ...(epCursor !== undefined ? { epCursor } : {}),
      ...lookup,
    });
  }
  const result: NftSyncResult = {
    get payload(): string {
      return tx.map((op) => `${opText(op, family)}\n`).join('');
    },
    fingerprints,
    ...(fast ? { fingerprintChanges: fast.changes } : {}),
    nft: mem,
    full,
    operations: tx.length,
    staleDeleted: stale.deleted,
    get stalePayload(): string {
      return stale.ops.map((op) => `${opText(op, family)}\n`).join('');
    },
  };
  if (error !== undefined) result.error = error;
  return result;
}

/** One full sync by a new process (the first sync of a kube-proxy that just started). */
export function syncNftables(st: NftState, input: NftSyncInput): NftTable {
  syncNftablesRules(st, input, { now: 0 });
  return kubeProxyTable(st)!;
}
