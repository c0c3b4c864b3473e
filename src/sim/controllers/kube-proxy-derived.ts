/**
 * Which nodes' iptables rulesets are derived state: exactly what kube-proxy's sync from the
 * kubelet's fresh tables would write for the Services and EndpointSlices in the store, so a saved
 * session leaves them out and rebuilds them on load (Cluster.snapshot `persist`, Cluster.restore).
 * At 1,000 Services the rules were nine tenths of a saved session.
 *
 * A node is derived while its history is a chain of kube-proxy syncs that together left what one
 * full sync would (`DerivedRules`, recorded after each sync by kube-proxy.ts through noteProxySync):
 *  - it starts from the kubelet's fresh tables (the first sync finds nothing else there);
 *  - nobody else wrote between two syncs: the ruleset revision (IptablesState.rev, which every
 *    `iptables` and `iptables-restore` write bumps) is the one the last sync left. A hand edit
 *    makes the node not derived for good: its tables are saved as they are, edit and all;
 *  - a partial sync (KEP-3453) keeps the chains of unchanged Services as they were, which a full
 *    sync would write the same unless large-cluster mode switched between them (endpoint rules
 *    lose their comments), or stale chains stay (large-cluster mode looks for them only once per
 *    syncPeriod) while a Service or endpoint went away: either makes the node not derived until
 *    a full sync (large-cluster mode) or a sync that cleans up (stale chains);
 *  - a sync that failed, or one in another mode (nftables cleans the iptables rules up its own way),
 *    makes it not derived.
 * The record holds the revision and the change counters of that sync: a snapshot leaves a node's
 * rules out only while both still stand (kube-proxy not running, or not yet settled, leaves rules
 * older than the store: those are saved).
 */
import type { Cluster } from '../cluster.js';
import type { Host } from '../node/host.js';
import { deferIptables, nodeIptables } from '../node/runtime.js';
import { newIptablesState, type IptablesState } from '../net/iptables.js';
import { ensureKubeletRules } from '../net/kube-proxy/kubelet-rules.js';
import { syncProxyRules, type FingerprintChanges, type KubeProxyConfig, type SyncResult } from '../net/kube-proxy/sync.js';
import type { EndpointSlice, Service } from '../api/types.js';

/**
 * A node whose rules only kube-proxy's syncs wrote since the kubelet's fresh tables: its last sync
 * ran with `config` at `gen` and left revision `rev`. Derived (`exact`) unless a partial sync kept
 * chains written under the other large-cluster mode, or stale chains may have stayed.
 */
export interface DerivedRules {
  rev: number;
  /** The Service/EndpointSlice change counters of that sync (`services/endpointslices`). */
  gen: string;
  /** Whether it ran in large-cluster mode (endpoint rules without comments). */
  lcm: boolean;
  config: KubeProxyConfig;
  /** Some chains were written in the other large-cluster mode and kept by partial syncs since. */
  lcmMixed?: true;
  /** A chain that is no longer active may still be there (a stale-chain cleanup was skipped). */
  staleMaybe?: true;
}

function records(c: Cluster): Record<string, DerivedRules> {
  return (c.state.derivedRules ??= {});
}

/** The Service/EndpointSlice change counters, as kube-proxy's reconcile writes them. */
function changeGen(c: Cluster): string {
  return `${c.store.changes.get('Service') ?? 0}/${c.store.changes.get('EndpointSlice') ?? 0}`;
}

/** The kubelet's fresh tables (node/runtime.ts nodeIptables on a node that has none). */
function freshTables(): IptablesState {
  const st = newIptablesState();
  ensureKubeletRules(st);
  return st;
}

let freshText: string | undefined;

/** What noteProxySync needs from before a sync: the revision, and whether the tables are still the kubelet's fresh ones. */
export interface BeforeSync {
  rev: number;
  fresh: boolean;
  /** The fingerprints of the node's last sync (kube-proxy's NodeSync.fps), for the stale-chain check. */
  fpsMap: ReadonlyMap<string, number> | undefined;
}

/** Called by kube-proxy's reconcile just before it syncs `host`. */
export function beforeProxySync(c: Cluster, host: Host, fpsMap: ReadonlyMap<string, number> | undefined): BeforeSync {
  const st = host.data.state.iptables === null ? nodeIptables(host) : host.data.state.iptables;
  const rev = st?.rev ?? 0;
  // fresh tables were never written (every write bumps the revision) and look like the kubelet's:
  // the comparison runs on small tables only, before a node's first sync
  const fresh = rev === 0 && records(c)[host.name] === undefined && (st === undefined || JSON.stringify(st) === (freshText ??= JSON.stringify(freshTables())));
  return { rev, fresh, fpsMap };
}

/**
 * Whether a chain of a Service the last sync knew can be stale now: one went away or changed. When
 * the sync said which Services changed since the last one's map (same Services), those tell.
 */
function maybeStale(before: BeforeSync, after: ReadonlyMap<string, number>, changes: FingerprintChanges | undefined): boolean {
  if (changes && before.fpsMap !== undefined && changes.since === before.fpsMap) return changes.names.length > 0;
  return maybeStaleRecord(before.fpsMap, after);
}

function maybeStaleRecord(before: ReadonlyMap<string, number> | undefined, after: ReadonlyMap<string, number>): boolean {
  if (!before) return true;
  for (const [k, v] of before) if (after.get(k) !== v) return true;
  return false;
}

/** Called by kube-proxy's reconcile after it synced `host` (in `mode`, `full` or partial) with `config`. */
export function noteProxySync(c: Cluster, host: Host, before: BeforeSync, mode: string, full: boolean, config: KubeProxyConfig, r: SyncResult): void {
  const recs = records(c);
  const last = recs[host.name];
  delete recs[host.name];
  if (mode !== 'iptables' || r.error !== undefined || r.fingerprints === undefined) return;
  // someone else wrote since the last sync (or before the first): never derived again
  if (!(last ? last.rev === before.rev : before.fresh)) return;
  if (!full && !last) return;
  const lcm = r.largeClusterMode === true;
  const lcmMixed = !full && (last?.lcmMixed === true || last?.lcm !== lcm);
  const staleMaybe = r.staleCleanup === false && !before.fresh && (last?.staleMaybe === true || maybeStale(before, r.fingerprints, r.fingerprintChanges));
  recs[host.name] = { rev: nodeIptables(host).rev ?? 0, gen: changeGen(c), lcm, config, ...(lcmMixed ? { lcmMixed: true } : {}), ...(staleMaybe ? { staleMaybe: true } : {}) };
}

/** The nodes whose rules a snapshot can leave out now: derived, and nothing changed since their sync. */
export function derivedRuleNodes(c: Cluster): string[] {
  const recs = c.state.derivedRules;
  if (!recs) return [];
  const gen = changeGen(c);
  const out: string[] = [];
  for (const [name, rec] of Object.entries(recs)) {
    const host = c.host(name);
    if (!host || rec.lcmMixed || rec.staleMaybe || rec.gen !== gen) continue;
    // rules not rebuilt yet since the restore (null) are the record's
    const st = host.data.state.iptables;
    if (st === null || (st?.rev ?? 0) === rec.rev) out.push(name);
  }
  return out;
}

/**
 * Arrange for the rules a snapshot left out of `host` to be rebuilt when first read (node/runtime.ts
 * nodeIptables): one full kube-proxy sync on the kubelet's fresh tables with the recorded config,
 * of the Services and EndpointSlices as they are now (taken here: the store's objects are frozen,
 * so later changes do not reach them), at the recorded revision. Loading a session costs nothing
 * for rules no command reads. False when the record does not say how (a corrupt file).
 */
export function deferRebuild(c: Cluster, host: Host, objects: { services: readonly Service[]; endpointSlices: readonly EndpointSlice[] }): boolean {
  const rec = c.state.derivedRules?.[host.name];
  if (!rec || rec.lcmMixed || rec.staleMaybe) return false;
  deferIptables(host, () => {
    const st = freshTables();
    const r = syncProxyRules(st, { ...objects, node: { name: host.name, ips: [host.ip] }, config: rec.config });
    if (r.error !== undefined) throw new Error(`the iptables rules of ${host.name} cannot be rebuilt: ${r.error}`);
    st.rev = rec.rev;
    return st;
  }, rec.rev);
  return true;
}
