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
import { NO_ENDPOINTS, STORED, addrType, containerKind, ensureChainOps, masqueradeMark, portPlanCached, ruleOp, setupOps } from './nftables-plan.js';
import type { NftOp } from './nftables-tx.js';
import { opText, runNftTransaction } from './nftables-tx.js';
import { endpointsByPortCached, portKey, servicePortsOf } from './service-model.js';
import type { KubeProxyConfig } from './sync.js';

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
}

export interface NftSyncResult {
  /** The main transaction, one operation a line (knftables' transaction text). */
  readonly payload: string;
  /** nft's error when the transaction failed (the table is then as it was). */
  error?: string;
  /** Each Service's (`ns/name`) fingerprint: the next partial sync's `previous`. */
  fingerprints: Map<string, number>;
  /** The process' memory after this sync. */
  nft: NftProxierMemory;
  /** Whether it ran as a full sync (a failed stale-chain deletion turns a partial one full). */
  full: boolean;
  /** Operations in the main transaction (knftables Fake LastTransaction.NumOperations). */
  operations: number;
  /** Stale chains deleted before it. */
  staleDeleted: number;
}

/** The stale chains older than a second, deleted in their own transaction; false when that failed. */
function deleteStaleChains(st: NftState, mem: NftProxierMemory, now: number, family: NftFamily): { ok: boolean; deleted: number } {
  const ops: NftOp[] = [];
  for (const [chain, at] of Object.entries(mem.staleChains)) {
    if (at < now - 1000) {
      ops.push({ verb: 'delete', obj: 'chain', name: chain });
      delete mem.staleChains[chain];
    }
  }
  return { ok: runNftTransaction(st, ops, family) === undefined, deleted: ops.length };
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

/** Per Service `ns/name`: its ports and the endpoints this node sees for them, hashed (what the change trackers compare). */
export function nftServiceFingerprints(services: readonly Service[], epMap: ReadonlyMap<string, readonly unknown[]>): Map<string, number> {
  const out = new Map<string, number>();
  let memo = FPS.get(epMap);
  if (!memo) FPS.set(epMap, (memo = new WeakMap()));
  for (const s of services) {
    const ports = servicePortsOf(s);
    if (ports.length === 0) continue;
    const eps = ports.map((p) => epMap.get(portKey(p.spn, p.protocol)));
    const had = Object.isFrozen(s) ? memo.get(s) : undefined;
    let fp: number;
    if (had && had.eps.length === eps.length && had.eps.every((e, i) => e === eps[i])) fp = had.fp;
    else {
      let text = '';
      ports.forEach((p, i) => {
        text += `${JSON.stringify(p)}${JSON.stringify(eps[i] ?? [])}`;
      });
      fp = fnv32a(text);
      if (Object.isFrozen(s)) memo.set(s, { eps, fp });
    }
    out.set(`${s.metadata.namespace ?? 'default'}/${s.metadata.name}`, fp);
  }
  return out;
}

/** syncProxyRules of the nftables proxier; see the file comment. */
export function syncNftablesRules(st: NftState, input: NftSyncInput, opts: NftSyncOptions): NftSyncResult {
  const mem: NftProxierMemory = opts.memory ?? { elements: {}, staleChains: {}, syncedOnce: false };
  const firstOfProcess = !mem.syncedOnce;
  let full = opts.previous === undefined;
  const family = input.family ?? 'ip';
  const stale = Object.keys(mem.staleChains).length > 0 ? deleteStaleChains(st, mem, opts.now, family) : { ok: true, deleted: 0 };
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
  const leftover = new Map<ContainerName, Set<string>>(STORED.map((n) => [n, new Set(Object.keys(stored(n)))]));
  // the chains in the table (nft list chains), undefined when there is no table yet
  const existing = before ? new Set(before.chains.map((c) => c.name)) : undefined;
  const epChainSkipUpdate = (chain: string): boolean => firstOfProcess && existing !== undefined && existing.has(chain);

  const epMap = endpointsByPortCached(input.endpointSlices, input.node.name);
  const fingerprints = nftServiceFingerprints(input.services, epMap);
  const active = new Set<string>();
  const activeAffinity = new Set<string>();
  for (const svc of input.services) {
    // each family's proxier sees only its family's Services (ServiceChangeTracker's ipFamily filter)
    if ((svc.spec.clusterIP ?? '').includes(':') !== (family === 'ip6')) continue;
    const nsName = `${svc.metadata.namespace ?? 'default'}/${svc.metadata.name}`;
    const skip = !full && opts.previous?.get(nsName) === fingerprints.get(nsName);
    for (const port of servicePortsOf(svc)) {
      const plan = portPlanCached(port, epMap.get(portKey(port.spn, port.protocol)) ?? NO_ENDPOINTS, cfg, input.node.ips[0]);
      for (const set of plan.affinitySets) activeAffinity.add(set);
      for (const chain of plan.endpointChains) {
        if (skip || epChainSkipUpdate(chain)) active.add(chain);
        else tx.push(...ensureChainOps(chain, active));
      }
      for (const chain of plan.policyChains) {
        if (skip) active.add(chain);
        else tx.push(...ensureChainOps(chain, active));
      }
      // nftElementStorage.ensureElem: only what the proxier does not think is there already
      for (const { set, elem } of plan.elements) {
        const key = elem.key.join(' . ');
        const value = elem.value ?? '';
        const have = stored(set)[key];
        const kind = containerKind(set);
        if (have === undefined) tx.push({ verb: 'add', obj: 'element', set, kind, elem });
        else if (have !== value) tx.push({ verb: 'delete', obj: 'element', set, kind, elem }, { verb: 'add', obj: 'element', set, kind, elem });
        stored(set)[key] = value;
        leftover.get(set)?.delete(key);
      }
      if (skip) continue;
      for (const r of plan.rules) {
        if ('affinitySet' in r) {
          tx.push({ verb: 'add', obj: 'set', name: r.affinitySet, kind: 'set', type: addrType(family), flags: ['dynamic', 'timeout'], timeout: r.timeout });
          continue;
        }
        if (plan.endpointChains.includes(r.chain) && epChainSkipUpdate(r.chain)) continue;
        tx.push(ruleOp(r.chain, r.rule, mark, r.comment, family));
      }
    }
  }
  for (const chain of existing ?? []) {
    if (!chain.includes('/')) continue;
    if (!active.has(chain)) {
      tx.push({ verb: 'flush', obj: 'chain', name: chain });
      mem.staleChains[chain] = opts.now;
    } else delete mem.staleChains[chain];
  }
  // stale affinity sets can go at once: no map element points at a set
  for (const s of before?.sets ?? []) if (s.name.startsWith('affinity-') && !activeAffinity.has(s.name)) tx.push({ verb: 'delete', obj: 'set', name: s.name, kind: 'set' });
  for (const name of STORED) {
    for (const key of leftover.get(name) ?? []) {
      tx.push({ verb: 'delete', obj: 'element', set: name, kind: containerKind(name), elem: { key: key.split(' . ') } });
      delete stored(name)[key];
    }
  }
  const error = runNftTransaction(st, tx, family);
  mem.syncedOnce = true;
  if (error !== undefined) mem.staleChains = {};
  const result: NftSyncResult = {
    get payload(): string {
      return tx.map((op) => `${opText(op, family)}\n`).join('');
    },
    fingerprints,
    nft: mem,
    full,
    operations: tx.length,
    staleDeleted: stale.deleted,
  };
  if (error !== undefined) result.error = error;
  return result;
}

/** One full sync by a new process (the first sync of a kube-proxy that just started). */
export function syncNftables(st: NftState, input: NftSyncInput): NftTable {
  syncNftablesRules(st, input, { now: 0 });
  return kubeProxyTable(st)!;
}
