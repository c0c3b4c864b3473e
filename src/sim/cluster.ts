/**
 * The simulated cluster: the object store, the API server in front of it, the hosts, and the
 * controllers that run to a fixed point after every change. Pure and deterministic: the clock and
 * random source are inputs, and the whole thing serializes to JSON (snapshot/restore).
 */
import type { Clock } from '../util/clock.js';
import { clampClockTime, ManualClock, rfc3339 } from '../util/clock.js';
import { Random } from '../util/random.js';
import { Store, type StoreData } from './api/store.js';
import type { KEvent, KObject } from './api/types.js';
import { finishesDeletion, hasFinalizers, markDeleted } from './api/deletion.js';
import { Host, type HostData } from './node/host.js';
import { freezeFiles } from './node/vfs.js';
import type { Discovery } from './api/registry.js';
import { discoveryOf } from './api/crd.js';
import { copyJSON, deepFreeze, freezeIfPlain, toPlainJSONSharing } from '../util/json-copy.js';
import type { ContainerRunsState } from './runtime/processes.js';
import { programOverride, type ProgramOverride } from './runtime/overrides.js';
import type { ClusterState, SnapshotBookkeeping } from './state.js';
import { deferRebuild, derivedRuleNodes } from './controllers/kube-proxy-derived.js';
import { freezeIptables, ip6RulesDerived, nodeIptables } from './node/runtime.js';
import type { EndpointSlice, Service } from './api/types.js';
import { sameItems } from '../util/same-items.js';

/**
 * 2: clusters carry kubeadm's bootstrap RBAC objects and real PKI in their kubeconfigs (wave 2);
 * a version-1 snapshot has neither, so kubectl in it would be Unauthorized: it is not resumed.
 * 3: a saved snapshot may leave a node's iptables rules out (`iptables: null` in its host state)
 * when they are derived, exactly kube-proxy's sync of the saved objects (controllers/kube-proxy-derived.ts),
 * and they are rebuilt on load. Version 2 snapshots, which hold every node's rules, still load.
 */
export const SNAPSHOT_VERSION = 3;
/** Snapshot versions restore() reads: this one and 2, which differs only in always holding the rules. */
const READABLE_SNAPSHOT_VERSIONS: readonly number[] = [2, SNAPSHOT_VERSION];

/** Facts about the lab that are not API objects (from the fixture). */
export interface ClusterMeta {
  name: string;
  kubernetesVersion: string;
  cni: { plugin: 'calico' | 'flannel' | 'weave'; version: string; mtu?: number };
  coreDNSVersion: string;
  /** The name of the workstation host the learner starts on. */
  workstation: string;
  /** Control-plane node name (where the static pods live). */
  controlPlane: string;
  /** kubeconfig user/cluster names. */
  clusterName: string;
  /** What the lab's pkgs.k8s.io serves: minor channel (`v1.35`) → highest patch (sim/node/packages.ts). */
  packageRepos?: Record<string, number>;
}

export interface Controller {
  readonly name: string;
  /**
   * Kinds whose changes wake this controller; 'time' wakes it when a time it asked for with
   * wakeAt() is reached (not on every clock tick: an idle cluster costs nothing; not when another
   * controller's time is reached: a kubelet back-off does not run the HPA), 'hosts' on host file or
   * unit changes, 'podfs' on changes to containers' own files (runtime/podfs.ts: what an exec probe reads).
   */
  readonly watches: readonly string[];
  /**
   * Watches that depend on the cluster's state, as `Kind@namespace` keys or `Kind@namespace/name`
   * for one object (the kubelet cares for the ConfigMaps and Secrets its pods refer to; one object's
   * key follows its resourceVersion, so a missing one wakes its watcher when it is created).
   * `Kind@namespace` may also appear in `watches`: a change of that kind in that namespace only.
   */
  dynamicWatches?(c: Cluster): string[];
  /**
   * The watches (same vocabulary as `watches`) whose changes alone can change the list
   * dynamicWatches returns (the kubelet's follows its Pods). Without it, the list may change with
   * anything a settle sees change, and the controller's signature is recomputed at each change.
   * `run:<controller>` stands for that controller's runs that changed anything (a list made of
   * state that controller keeps beside the store, as static-pods' run records; the controller's
   * own name when it is its own): this one's signature is looked at again after each of them.
   */
  readonly dynamicInputs?: readonly string[];
  /**
   * Controllers that read what this one's timed work changes outside the store: CoreDNS's reload
   * check can end its process and kube-proxy's config check can, and the kubelet (which runs their
   * containers) must see it then. Wake-ups this controller asks for wake them too.
   */
  readonly wakesAlso?: readonly string[];
  /**
   * The control-plane component whose process runs this controller (kube-controller-manager's
   * controllers, the scheduler): while that component's static pod is down the controller does
   * nothing, and it catches up when the component is back (static-pods.ts keeps availability).
   */
  readonly runsIn?: 'controllerManager' | 'scheduler';
  /**
   * The controller's runs are decided by ownership alone (the garbage collector): whether a run
   * changes anything depends on no spec, status, label or annotation, no time, host, container
   * file, state beside the store or memory of its own, only on which objects exist and their
   * uids, ownerReferences, deletionTimestamps and finalizers; and a new object of a kind other
   * than `dependents` cannot make a run that changed nothing change something (it can only be an
   * owner that appears). So once a run changed nothing, a later one changes nothing either while
   * Store.ownership and the creations of the `dependents` kinds (Store.created) are where they
   * were: only status, spec, data, label or annotation writes and other kinds' new objects since
   * (the kubelet's status writes and Events after each probe or back-off wake-up). The settle skips
   * it as that run would have ended (Cluster.ownershipRest); its watches still say when to look.
   */
  readonly ownershipOnly?: { readonly dependents: readonly string[] };
  /**
   * Memory the controller keeps beside the state (never in it: no file holds it) that stays true
   * for an exact in-memory copy of the cluster: `save` takes it (Cluster.controllerMemory) and the
   * copy starts with it (Cluster.adoptControllerMemory), as the original would go on, instead of
   * rebuilding it at its first reconcile.
   */
  readonly memory?: { save(c: Cluster): unknown; load(c: Cluster, saved: unknown): void };
  /**
   * What the controller keeps in memory that a restored cluster starts without, even an in-memory
   * copy (a saved session reloaded does), but that a copy standing for this very cluster going on
   * takes over (Cluster.carried): validate's runs that part after a shared prefix of lines
   * (scenario/validate-runs.ts), each of which must go on as one run would have. `load` of
   * undefined forgets it, as a restore starts (Cluster.forgetCarried).
   */
  readonly carry?: { save(c: Cluster): unknown; load(c: Cluster, saved: unknown): void };
  reconcile(c: Cluster): void;
}

/** What a copy that stands for a cluster going on takes over from it besides its state and memory (Cluster.carried). */
export interface Carried {
  controllers: ControllerMemory;
}

/** A cluster's settle bookkeeping beside its snapshot (Cluster.settleMarks), for an exact copy. */
export interface SettleMarks {
  dirty: readonly boolean[];
  dynamicKeys: readonly (readonly [number, readonly string[]])[];
  seenHostGeneration: number;
  seenPodFs: number;
  seenUps: string;
  atRest: boolean;
}

/** Controllers' memory beside the state, by controller name (Cluster.controllerMemory). */
export type ControllerMemory = Map<string, unknown>;

export interface Snapshot {
  version: number;
  now: number;
  random: [number, number, number, number];
  meta: ClusterMeta;
  store: StoreData;
  hosts: HostData[];
  /** The owners' fields (state.ts) plus the controllers' bookkeeping, under the same JSON keys. */
  state: ClusterState & SnapshotBookkeeping;
}

export interface ClusterOptions {
  clock: Clock;
  random: Random;
  meta: ClusterMeta;
  controllers: readonly Controller[];
}

export class SettleError extends Error {}

/** The store change counter a watch key follows: `Kind` or `Kind@namespace`; one object's (`Kind@namespace/name`) by its kind. */
function counterKey(w: string): string {
  return w.includes('/') ? w.slice(0, w.indexOf('@')) : w;
}

/** A dynamic watch list and the text it made of the signature (Cluster.dynamicSignature). */
interface DynamicPart {
  readonly list: readonly string[];
  /** The kinds of its entries when every one is an object's key (`Kind@namespace/name`), else undefined (never kept). */
  readonly kinds: readonly string[] | undefined;
  /** Those kinds' counters in `store` when `text` was made. */
  readonly counters: number[];
  store: Store | undefined;
  text: string | undefined;
}

function dynamicPartOf(list: readonly string[]): DynamicPart {
  const kinds = new Set<string>();
  for (const w of list) {
    if (!w.includes('/')) return { list, kinds: undefined, counters: [], store: undefined, text: undefined };
    kinds.add(counterKey(w));
  }
  return { list, kinds: [...kinds], counters: [], store: undefined, text: undefined };
}

function eventKey(ns: string, uid: string | undefined, reason: string, message: string): string {
  return `${ns}\u0000${uid ?? '\u0001'}\u0000${reason}\u0000${message}`;
}

/** Who watches what, by controller index: the same for every cluster of one controller registry (wiringOf). */
interface Wiring {
  /** The registry's controllers when it was worked out (a caller's array that changed since is worked out again). */
  controllers: readonly Controller[];
  components: readonly ('controllerManager' | 'scheduler')[];
  byWatch: ReadonlyMap<string, readonly number[]>;
  timeWatchers: readonly number[];
  hostWatchers: readonly number[];
  podfsWatchers: readonly number[];
  anyChange: readonly number[];
  /** Controllers with dynamicWatches and dynamicInputs (Cluster.dynamicKeys). */
  dynamicInputs: readonly number[];
  byComponent: ReadonlyMap<string, readonly number[]>;
  indexOf: ReadonlyMap<string, number>;
  runWatchers: readonly (readonly number[] | undefined)[];
  wakesAlsoOf: ReadonlyMap<string, readonly string[]>;
  wokenBy: ReadonlyMap<string, readonly string[]>;
}

/**
 * The wiring of a controller registry, worked out once per registry: every cluster of it (each
 * copy validate and the grader restore, thousands per run) reads the same tables, never written
 * after they are made.
 */
const WIRINGS = new WeakMap<readonly Controller[], Wiring>();

function wiringOf(controllers: readonly Controller[]): Wiring {
  const known = WIRINGS.get(controllers);
  if (known && known.controllers.length === controllers.length && known.controllers.every((c, i) => c === controllers[i])) return known;
  const byWatch = new Map<string, number[]>();
  const timeWatchers: number[] = [];
  const hostWatchers: number[] = [];
  const podfsWatchers: number[] = [];
  const anyChange: number[] = [];
  const dynamicInputs: number[] = [];
  const byComponent = new Map<string, number[]>();
  const indexOf = new Map<string, number>();
  const runWatchers: (number[] | undefined)[] = controllers.map(() => undefined);
  const wakesAlsoOf = new Map<string, readonly string[]>();
  const wokenBy = new Map<string, string[]>();
  const add = <K>(m: Map<K, number[]>, k: K, i: number): void => {
    const l = m.get(k);
    if (l) l.push(i);
    else m.set(k, [i]);
  };
  controllers.forEach((ctrl, i) => {
    indexOf.set(ctrl.name, i);
    if (ctrl.runsIn) add(byComponent, ctrl.runsIn, i);
    for (const w of ctrl.watches) {
      if (w === 'time') timeWatchers.push(i);
      else if (w === 'hosts') hostWatchers.push(i);
      else if (w === 'podfs') podfsWatchers.push(i);
      else add(byWatch, counterKey(w), i);
    }
    if (ctrl.dynamicWatches) {
      if (ctrl.dynamicInputs) dynamicInputs.push(i);
      else anyChange.push(i);
    }
  });
  controllers.forEach((ctrl, i) => {
    if (!ctrl.dynamicWatches) return;
    for (const w of ctrl.dynamicInputs ?? []) {
      const runner = w.startsWith('run:') ? indexOf.get(w.slice(4)) : undefined;
      if (runner !== undefined) (runWatchers[runner] ??= []).push(i);
    }
  });
  for (const ctrl of controllers) {
    if (!wakesAlsoOf.has(ctrl.name)) wakesAlsoOf.set(ctrl.name, ctrl.wakesAlso ?? []);
    for (const also of new Set(ctrl.wakesAlso ?? [])) {
      if (also === ctrl.name) continue;
      const l = wokenBy.get(also);
      if (l) l.push(ctrl.name);
      else wokenBy.set(also, [ctrl.name]);
    }
  }
  const components = [...new Set(controllers.flatMap((c) => (c.runsIn ? [c.runsIn] : [])))];
  const wiring: Wiring = { controllers: [...controllers], components, byWatch, timeWatchers, hostWatchers, podfsWatchers, anyChange, dynamicInputs, byComponent, indexOf, runWatchers, wakesAlsoOf, wokenBy };
  WIRINGS.set(controllers, wiring);
  return wiring;
}

/** A frozen record of a map's entries (snapshot()'s bookkeeping), with the keys and values it was made from, in order. */
interface FrozenRecord<W> {
  readonly keys: readonly (string | number)[];
  readonly values: readonly W[];
  readonly record: Readonly<Record<string, W>>;
}

const same = <V>(v: V, w: V): boolean => v === w;
const keep = <V>(v: V): V => v;
const sameOwners = (o: ReadonlySet<string>, w: readonly string[]): boolean => {
  if (o.size !== w.length) return false;
  let i = 0;
  for (const x of o) if (x !== w[i++]) return false;
  return true;
};
const frozenOwners = (o: ReadonlySet<string>): readonly string[] => Object.freeze([...o]);

/**
 * `Object.freeze(Object.fromEntries(map))`, with each value made by `make`: the previous record
 * when the map holds the same keys in the same order with values `same` as it was made from. Each
 * snapshot rebuilt these records (most often unchanged between two snapshots of a session: ~80 ms
 * a validate run, kl27). Exact: a record is a function of the map's keys, their order and the
 * values made of them, all compared; it is frozen (strings, numbers, frozen arrays), so sharing it
 * between snapshots is as building it again.
 */
function frozenRecordOf<K extends string | number, V, W>(prev: FrozenRecord<W> | undefined, map: ReadonlyMap<K, V>, same: (v: V, w: W) => boolean, make: (v: V) => W): FrozenRecord<W> {
  if (prev && prev.keys.length === map.size) {
    let i = 0;
    let held = true;
    for (const [k, v] of map) {
      if (prev.keys[i] !== k || !same(v, prev.values[i]!)) {
        held = false;
        break;
      }
      i++;
    }
    if (held) return prev;
  }
  const keys: (string | number)[] = [];
  const values: W[] = [];
  for (const [k, v] of map) {
    keys.push(k);
    values.push(make(v));
  }
  return { keys, values, record: Object.freeze(Object.fromEntries(keys.map((k, i) => [String(k), values[i]!]))) };
}

export class Cluster {
  clock: Clock;
  random: Random;
  readonly meta: ClusterMeta;
  store = new Store();
  readonly hosts = new Map<string, Host>();
  /** Non-API state, one typed field per owner (state.ts): IPAM, kubelet sandboxes, CoreDNS runtimes, …. */
  state: ClusterState = {};
  private readonly controllers: readonly Controller[];
  private lastSeen = new Map<string, string>();
  /** Bumped whenever a host changes in a way controllers care about (files, units). */
  hostGeneration = 0;
  /**
   * Beside hostGeneration, not saved: the touches that name no host (touchHosts(): units,
   * iptables, modules, a new host) and each node's own file changes (its Vfs). hostGenerationOf
   * reads them for one node: the kubelet syncs a pod that reads only its node's host again only
   * when that host may have changed, not at a file change on another node.
   */
  private sharedHostTouches = 0;
  private readonly hostTouches = new Map<string, number>();
  /** Writes to the workstation's files (kubeconfig, answer files): no controller watches them, but a session that holds them changed. */
  workstationGeneration = 0;
  private wakeups: number[] = [];
  /** Who asked for each pending wake-up: controllers by name, `*` for a request made outside any. */
  private wakeOwners = new Map<number, Set<string>>();
  /** Bumped when a wake-up asked for outside any controller is reached: wakes every 'time' watcher. */
  private timeTick = 0;
  /** Per controller, bumped when a wake-up it asked for is reached. */
  private ownTicks = new Map<string, number>();
  /** The bookkeeping records the last snapshot() made (or the restored snapshot held), reused while their maps hold the same entries (frozenRecordOf). */
  private readonly snapRecords: {
    lastSeen?: FrozenRecord<string>;
    changes?: FrozenRecord<number>;
    wakeOwners?: FrozenRecord<readonly string[]>;
    ownTicks?: FrozenRecord<number>;
  } = {};
  /**
   * Per controller (by its index in the registry): whether its signature may differ from the one
   * it last saw. A clean controller's signature is its lastSeen, so a settle skips it without
   * building the signature; a dirty one's is built and compared, as every one's was before.
   * Whatever a signature reads marks the controllers that read it: a store counter bump (Store.onTouch),
   * a wake-up reached (fire), and the host, container-file and component counters polled at the
   * points a settle looks (noteChanges). Everything starts dirty: a new or restored cluster
   * compares every signature once.
   */
  private readonly dirty: boolean[];
  /** Controllers by a static watch of a store counter (`Kind`, `Kind@namespace`; an object's key by its `Kind`). */
  private readonly byWatch: ReadonlyMap<string, readonly number[]>;
  private readonly timeWatchers: readonly number[];
  private readonly hostWatchers: readonly number[];
  private readonly podfsWatchers: readonly number[];
  /** Controllers whose dynamic watch list may change with anything (no dynamicInputs): dirty at every change. */
  private readonly anyChange: readonly number[];
  /** Controllers with dynamicInputs: the counter keys their list and its entries follow (refreshed when their signature is built). */
  private readonly dynamicKeys = new Map<number, Set<string>>();
  /** Per controller with dynamicWatches: the list its signature was last built with, and that list's part of it (dynamicSignature). */
  private readonly dynamicParts = new Map<number, DynamicPart>();
  /** Controllers by the component their process runs in. */
  private readonly byComponent: ReadonlyMap<string, readonly number[]>;
  private readonly indexOf: ReadonlyMap<string, number>;
  /** Per controller: the ones whose dynamic watch list its runs can change (`run:<name>` in their dynamicInputs). */
  private readonly runWatchers: readonly (readonly number[] | undefined)[];
  /** Per controller name (the first of that name, as a search of the registry finds it): the controllers its wake-ups wake too. */
  private readonly wakesAlsoOf: ReadonlyMap<string, readonly string[]>;
  /** Per controller name: the names of the other controllers whose wake-ups wake it too (foreignTimeSignal). */
  private readonly wokenBy: ReadonlyMap<string, readonly string[]>;
  /** Whether `wakeups` is known to be in ascending order (wakeAt then inserts in place instead of sorting). */
  private wakeupsSorted = true;
  /** Bumped at every change any signature could read; equal values mean nothing moved (the settle's quiet check). */
  private changeSerial = 0;
  /** changeSerial when the last settle found every controller at rest. */
  private atRest = -1;
  /** The store whose counter bumps mark controllers, and the function that stops hearing it. */
  private heardStore: Store | undefined;
  private unhear: (() => void) | undefined;
  private seenHostGeneration = -1;
  private seenPodFs = -1;
  private seenUps = '';
  /** The components whose processes run controllers (Controller.runsIn), each once. */
  private readonly components: readonly ('controllerManager' | 'scheduler')[];
  /** The controller whose reconcile is running (the owner of its wakeAt calls). */
  private reconciling: string | undefined;
  private settling = false;
  /** Open batches (Cluster.batch): settles asked for meanwhile wait for the outermost one's end. */
  private batchDepth = 0;
  private batchPending = false;
  /** How many settles ran (not the ones a batch absorbed); not saved: for tests and benches. */
  settles = 0;
  /** How many runs of ownershipOnly controllers a settle skipped (ownershipRest); not saved: for tests and benches. */
  ownershipSkips = 0;
  /**
   * For each ownershipOnly controller (by index) whose last run changed nothing: the store it ran
   * on, that store's ownership counter and creations of the controller's dependent kinds then,
   * and the signature it was left at (lastSeen). While they stand, a run now would change nothing
   * too (Controller.ownershipOnly): the settle records the new signature as that run would
   * (lastSeen) and goes on. Never saved nor handed to a copy (which runs it once, as before).
   */
  private readonly ownershipRest: ({ store: Store; ownership: number; created: number[]; sig: string } | undefined)[] = [];
  private eventIdx: { store: Store; changes: number; byKey: Map<string, string> } | undefined;

  constructor(opts: ClusterOptions) {
    this.clock = opts.clock;
    this.random = opts.random;
    this.meta = opts.meta;
    this.controllers = opts.controllers;
    const w = wiringOf(opts.controllers);
    this.components = w.components;
    this.byWatch = w.byWatch;
    this.timeWatchers = w.timeWatchers;
    this.hostWatchers = w.hostWatchers;
    this.podfsWatchers = w.podfsWatchers;
    this.anyChange = w.anyChange;
    this.byComponent = w.byComponent;
    this.indexOf = w.indexOf;
    this.runWatchers = w.runWatchers;
    this.wakesAlsoOf = w.wakesAlsoOf;
    this.wokenBy = w.wokenBy;
    this.dirty = opts.controllers.map(() => true);
    for (const i of w.dynamicInputs) this.dynamicKeys.set(i, new Set());
  }

  /** Mark controllers whose signature may have moved. */
  private mark(list: readonly number[] | undefined): void {
    if (list) for (const i of list) this.dirty[i] = true;
  }

  /** Something a signature can read moved: every-change watchers are dirty, and the quiet check sees it. */
  private changed(): void {
    this.changeSerial++;
    this.mark(this.anyChange);
  }

  /** A store change counter moved (Store.onTouch). */
  private touched(key: string): void {
    this.changed();
    this.mark(this.byWatch.get(key));
    for (const [i, keys] of this.dynamicKeys) if (keys.has(key)) this.dirty[i] = true;
  }

  /** A non-store signal moved ('time', 'hosts', 'podfs'): its watchers, and dynamic ones that follow it. */
  private signalled(signal: string, watchers: readonly number[]): void {
    this.changed();
    this.mark(watchers);
    for (const [i, keys] of this.dynamicKeys) if (keys.has(signal)) this.dirty[i] = true;
  }

  /**
   * Look at what a signature reads that no event reports: which store (an etcd restore keeps
   * it, Cluster.restore replaces it), the host and container-file generations, and which
   * components are up. Called at the start of a settle and of each round, and after each reconcile.
   */
  private noteChanges(): void {
    if (this.heardStore !== this.store) {
      this.unhear?.();
      this.heardStore = this.store;
      this.unhear = this.store.onTouch((key) => this.touched(key));
      this.dirty.fill(true);
      this.changed();
    }
    if (this.hostGeneration !== this.seenHostGeneration) {
      this.seenHostGeneration = this.hostGeneration;
      this.signalled('hosts', this.hostWatchers);
    }
    const podFs = this.state.podFsGeneration ?? 0;
    if (podFs !== this.seenPodFs) {
      this.seenPodFs = podFs;
      this.signalled('podfs', this.podfsWatchers);
    }
    let ups = '';
    for (const component of this.components) ups += this.state[component]?.up === false ? '0' : '1';
    if (ups !== this.seenUps) {
      this.components.forEach((component, k) => {
        if (ups[k] !== this.seenUps[k]) this.mark(this.byComponent.get(component));
      });
      this.seenUps = ups;
      this.changed();
    }
  }

  now(): number {
    return this.clock.now();
  }

  timestamp(): string {
    return rfc3339(this.now());
  }

  addHost(data: HostData): Host {
    // no controller runs on the workstation (nodeHosts): its files (manifests the learner writes,
    // answer files) wake none of them
    const h = new Host(data, () => this.now(), data.role === 'workstation' ? () => this.workstationGeneration++ : () => this.touchHost(data.name));
    this.hosts.set(data.name, h);
    this.hostGeneration++;
    this.sharedHostTouches++;
    return h;
  }

  host(name: string): Host | undefined {
    return this.hosts.get(name);
  }

  /** Find a host by name or IP (as `ssh` does). */
  findHost(nameOrIp: string): Host | undefined {
    return this.hosts.get(nameOrIp) ?? [...this.hosts.values()].find((h) => h.ip === nameOrIp);
  }

  /**
   * The program a container of this image repository runs, when it is more than the generic
   * model (runtime/overrides.ts). The traffic path asks here instead of importing the table,
   * which would close a module cycle through CoreDNS's transport.
   */
  programOverride(repository: string): ProgramOverride | undefined {
    return programOverride(repository);
  }

  nodeHosts(): Host[] {
    return [...this.hosts.values()].filter((h) => h.data.role !== 'workstation');
  }

  /** Tell controllers that a host's files or units changed. */
  touchHosts(): void {
    this.hostGeneration++;
    this.sharedHostTouches++;
  }

  /** One node's own files changed (its Vfs): every host watcher hears it, as from touchHosts(). */
  private touchHost(name: string): void {
    this.hostGeneration++;
    this.hostTouches.set(name, (this.hostTouches.get(name) ?? 0) + 1);
  }

  /**
   * What may have changed of one node's host: moves with every touch that names no host and with
   * that node's own file changes, never with another node's. Not saved (a restored cluster starts
   * again from its hosts' count): equal values within one cluster mean the host is unchanged.
   */
  hostGenerationOf(name: string): string {
    return `${this.sharedHostTouches}.${this.hostTouches.get(name) ?? 0}`;
  }

  /**
   * Ask to be woken when the clock reaches `at` (timed events: back-off, probes, reloads): the
   * controller whose reconcile asks, or `owner` when it asks on another's behalf (`*`: everyone).
   */
  wakeAt(at: number, owner = this.reconciling ?? '*'): void {
    if (!(at > this.now())) return;
    if (at < this.earliestAsked) this.earliestAsked = at;
    const owners = this.wakeOwners.get(at);
    if (owners) {
      owners.add(owner);
      return;
    }
    this.wakeOwners.set(at, new Set([owner]));
    const w = this.wakeups;
    if (!this.wakeupsSorted) {
      w.push(at);
      w.sort((a, b) => a - b);
      this.wakeupsSorted = true;
      return;
    }
    // in place, after the times not later than it: what pushing and sorting gave, without the sort
    let lo = 0;
    let hi = w.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (w[mid]! <= at) lo = mid + 1;
      else hi = mid;
    }
    if (lo === w.length) w.push(at);
    else w.splice(lo, 0, at);
  }

  /**
   * The earliest wake-up asked for (wakeAt, for any owner) since the last call, Infinity if none:
   * the kubelet brackets each pod's sync with it to know when that pod is next due.
   */
  earliestWakeAsked(): number {
    const at = this.earliestAsked;
    this.earliestAsked = Infinity;
    return at;
  }

  private earliestAsked = Infinity;

  /** A wake-up time is reached: its owners (or, for `*`, every time watcher) run at the next settle. */
  private fire(at: number): void {
    const owners = this.wakeOwners.get(at);
    this.wakeOwners.delete(at);
    if (!owners || owners.has('*')) {
      this.timeTick++;
      this.signalled('time', this.timeWatchers);
      return;
    }
    const woken = new Set(owners);
    for (const o of owners) for (const also of this.wakesAlsoOf.get(o) ?? []) woken.add(also);
    const dirty: number[] = [];
    for (const o of woken) {
      this.ownTicks.set(o, (this.ownTicks.get(o) ?? 0) + 1);
      const i = this.indexOf.get(o);
      if (i !== undefined) dirty.push(i);
    }
    this.signalled('time', dirty);
  }

  /** One object's watch key `Kind@namespace/name`: its resourceVersion, `-` while it does not exist. */
  private watchedObjectVersion(key: string): string {
    const at = key.indexOf('@');
    const slash = key.indexOf('/', at);
    return this.store.get(key.slice(0, at), key.slice(at + 1, slash), key.slice(slash + 1))?.metadata.resourceVersion ?? '-';
  }

  /**
   * The wake-ups a controller has seen: the ticks of wake-ups asked for outside any controller,
   * and of its own. Equal values mean no timed event of its has come since (what its 'time' watch
   * stands for).
   */
  timeSignal(name: string): string {
    return `${this.timeTick}.${this.ownTicks.get(name) ?? 0}`;
  }

  /** The ticks of wake-ups asked for outside any controller, which wake every time watcher (the first half of timeSignal). */
  sharedTimeSignal(): string {
    return String(this.timeTick);
  }

  /**
   * The part of timeSignal(name) that other controllers' wake-ups make: the shared ticks and the
   * own ticks of every controller that wakes `name` too (wakesAlso). Equal values mean that every
   * wake-up `name` has seen since came from its own requests (the kubelet: one pod's probe or
   * back-off, which concerns that pod alone). Made of counters the snapshot already keeps.
   */
  foreignTimeSignal(name: string): string {
    let sig = String(this.timeTick);
    for (const other of this.wokenBy.get(name) ?? []) sig += `.${this.ownTicks.get(other) ?? 0}`;
    return sig;
  }

  /**
   * What a controller watches, now: the counters of its kinds, the versions of its objects, the
   * wake-ups it has seen, the host and container-file generations, its component's state. Equal
   * to the one it last saw (lastSeen) means that nothing it watches changed since.
   */
  private signature(ctrl: Controller, index: number): string {
    let sig = ctrl.runsIn ? `${ctrl.runsIn}:${this.state[ctrl.runsIn]?.up === false ? 'down' : 'up'};` : '';
    let dynamic: string[] | undefined;
    if (ctrl.dynamicWatches) {
      dynamic = ctrl.dynamicWatches(this);
      const had = this.dynamicParts.get(index);
      if (!had || !sameItems(had.list, dynamic)) {
        const keys = this.dynamicKeys.get(index);
        if (keys) {
          keys.clear();
          for (const w of ctrl.dynamicInputs ?? []) if (!w.startsWith('run:')) keys.add(counterKey(w));
          for (const w of dynamic) keys.add(counterKey(w));
        }
        this.dynamicParts.set(index, dynamicPartOf(dynamic));
      }
    }
    sig = this.watchSignature(ctrl.name, ctrl.watches, sig);
    return dynamic ? sig + this.dynamicSignature(ctrl.name, index, dynamic) : sig;
  }

  /**
   * The part of a signature its dynamic watches make (watchSignature of the list), kept with the
   * list when every entry is one object's key: an object's resourceVersion, or its absence, moves
   * only with a write of its kind, which bumps the kind's counter (Store.touch; Store.load bumps
   * every kind), so while the same store's counters of those kinds stand, so does the text. The
   * kubelet's list names every ConfigMap and Secret its pods refer to, looked up at each signature.
   */
  private dynamicSignature(name: string, index: number, dynamic: readonly string[]): string {
    const part = this.dynamicParts.get(index);
    if (!part?.kinds) return this.watchSignature(name, dynamic, '');
    const changes = this.store.changes;
    let same = part.store === this.store;
    for (let k = 0; same && k < part.kinds.length; k++) if ((changes.get(part.kinds[k]!) ?? 0) !== part.counters[k]) same = false;
    if (same && part.text !== undefined) return part.text;
    part.store = this.store;
    for (let k = 0; k < part.kinds.length; k++) part.counters[k] = changes.get(part.kinds[k]!) ?? 0;
    part.text = this.watchSignature(name, dynamic, '');
    return part.text;
  }

  /** `sig` followed by the current value of each watch in `watches` (signature), in order. */
  private watchSignature(name: string, watches: readonly string[], sig: string): string {
    for (const w of watches) {
      if (w === 'time') sig += `t${this.timeTick}.${this.ownTicks.get(name) ?? 0};`;
      else if (w === 'hosts') sig += `h${this.hostGeneration};`;
      else if (w === 'podfs') sig += `p${this.state.podFsGeneration ?? 0};`;
      else if (w.includes('/')) sig += `${w}:${this.watchedObjectVersion(w)};`;
      else sig += `${w}${this.store.changes.get(w) ?? 0};`;
    }
    return sig;
  }

  /**
   * Run controllers until nothing changes. Each controller runs only when something it watches
   * changed since its last run. A bound protects against controllers that never agree.
   */
  settle(): void {
    if (this.settling) return;
    if (this.batchDepth > 0) {
      this.batchPending = true;
      return;
    }
    // nothing any controller watches has changed since the last settle ended at rest: every
    // signature would match (a shell line, a poll and a wait settle many times in a row)
    this.noteChanges();
    if (this.changeSerial === this.atRest) return;
    this.settling = true;
    this.settles++;
    try {
      const dirty = this.dirty;
      for (let round = 0; round < 100; round++) {
        let ran = false;
        this.noteChanges();
        for (let i = 0; i < this.controllers.length; i++) {
          // a clean controller's signature is the one it last saw: nothing it watches changed
          if (!dirty[i]) continue;
          const ctrl = this.controllers[i]!;
          const sig = this.signature(ctrl, i);
          dirty[i] = false;
          if (this.lastSeen.get(ctrl.name) === sig) continue;
          if (ctrl.runsIn && this.state[ctrl.runsIn]?.up === false) {
            // its process is down: nothing happens, and coming back changes the signature
            this.lastSeen.set(ctrl.name, sig);
            continue;
          }
          if (ctrl.ownershipOnly && this.ownershipStands(this.ownershipRest[i], ctrl)) {
            // nothing it decides by changed since a run that changed nothing: this run would change nothing
            this.ownershipSkips++;
            this.lastSeen.set(ctrl.name, sig);
            this.ownershipRest[i]!.sig = sig;
            continue;
          }
          this.reconciling = ctrl.name;
          const before = this.changeSerial;
          try {
            ctrl.reconcile(this);
          } finally {
            this.reconciling = undefined;
          }
          this.noteChanges();
          // a run that changed anything may have changed the lists made of its state (`run:` inputs)
          if (this.changeSerial !== before) this.mark(this.runWatchers[i]);
          // what its own run changed of what it watches makes it run again (`*` matches no signature)
          if (dirty[i] && this.signature(ctrl, i) !== sig) this.lastSeen.set(ctrl.name, `${sig}*`);
          else {
            this.lastSeen.set(ctrl.name, sig);
            dirty[i] = false;
          }
          if (ctrl.ownershipOnly) {
            const created = ctrl.ownershipOnly.dependents.map((k) => this.store.created.get(k) ?? 0);
            this.ownershipRest[i] = this.changeSerial === before ? { store: this.store, ownership: this.store.ownership, created, sig } : undefined;
          }
          ran = true;
        }
        if (!ran) {
          this.atRest = this.changeSerial;
          return;
        }
      }
      throw new SettleError('controllers did not settle after 100 rounds');
    } finally {
      this.settling = false;
    }
  }

  /** Whether an ownershipOnly controller's last run changed nothing and what decides its runs stands since (ownershipRest). */
  private ownershipStands(rest: Cluster['ownershipRest'][number], ctrl: Controller): boolean {
    if (rest === undefined || rest.store !== this.store || rest.ownership !== this.store.ownership || this.lastSeen.get(ctrl.name) !== rest.sig) return false;
    const kinds = ctrl.ownershipOnly!.dependents;
    for (let k = 0; k < kinds.length; k++) if ((this.store.created.get(kinds[k]!) ?? 0) !== rest.created[k]) return false;
    return true;
  }

  /**
   * Run `fn` with the settles it asks for deferred to one at its end (`kubectl apply -f` of many
   * objects: one settle per command, not one per object, which made applying N objects cost N
   * settles of a cluster growing by N). Inside, the controllers have not run since the batch's
   * first write: callers batch only writes whose admission reads nothing a controller makes.
   */
  batch<T>(fn: () => T): T {
    this.batchDepth++;
    try {
      return fn();
    } finally {
      this.batchDepth--;
      if (this.batchDepth === 0 && this.batchPending) {
        this.batchPending = false;
        this.settle();
      }
    }
  }

  /** Inside a batch: run the settle it has deferred so far (before a write that must see a settled cluster). */
  settlePending(): void {
    if (this.batchDepth === 0 || !this.batchPending) return;
    const depth = this.batchDepth;
    this.batchPending = false;
    this.batchDepth = 0;
    try {
      this.settle();
    } finally {
      this.batchDepth = depth;
    }
  }

  /** The earliest pending timed event (waits jump to it: nothing changes between events). */
  nextWakeup(): number | undefined {
    return this.wakeups[0];
  }

  /** Move simulated time forward, firing timed events in order, settling at each. */
  advance(ms: number): void {
    const target = this.now() + Math.max(0, ms);
    this.advanceTo(target);
  }

  /** Move to `target`, bounded to the clock's range (util/clock.ts MAX_CLOCK_MS): never to NaN or Infinity. */
  advanceTo(to: number): void {
    const clock = this.clock;
    const target = clampClockTime(to, this.now());
    // whatever changed before time moves is seen at the time it changed
    this.settle();
    for (let guard = 0; guard < 100000; guard++) {
      const next = this.wakeups[0];
      if (next === undefined || next > target) break;
      this.wakeups.shift();
      if (clock instanceof ManualClock) clock.set(Math.max(clock.now(), next));
      this.fire(next);
      this.settle();
    }
    if (clock instanceof ManualClock && clock.now() < target) clock.set(target);
    this.settle();
  }

  /** Bring the cluster up to the clock's present (for wall-following clocks). */
  catchUp(): void {
    const now = this.now();
    const due = this.wakeups.filter((w) => w <= now);
    this.wakeups = this.wakeups.slice(due.length);
    for (const at of due) this.fire(at);
    this.settle();
  }

  // -------------------------------------------------------------------------------------------
  // Controller-side writes (no admission, no validation: controllers are trusted)

  /** What the API server serves now: the built-in resources and those of Established CRDs. */
  discovery(): Discovery {
    return discoveryOf(this.store);
  }

  /** Stamp metadata of a new object the way the registry does and store it. */
  insert<T extends KObject>(obj: T): T {
    const info = this.discovery().infoForKind(obj.kind);
    const m = obj.metadata;
    if (!m.name && m.generateName) m.name = this.generateName(obj.kind, m.namespace, m.generateName);
    m.uid ??= this.store.nextUid(this.random.nextU32());
    m.creationTimestamp ??= this.timestamp();
    if (!info.namespaced) delete m.namespace;
    // generation is set by the strategies of these kinds, custom resources' and CRDs' among them
    if (info.crd || ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'CronJob', 'NetworkPolicy', 'Ingress', 'GatewayClass', 'Gateway', 'HTTPRoute', 'CustomResourceDefinition', 'FlowSchema', 'PriorityLevelConfiguration'].includes(obj.kind))
      m.generation ??= 1;
    return this.store.put(obj);
  }

  /** A name from generateName + 5 characters of the apimachinery alphabet, unique in its namespace. */
  generateName(kind: string, namespace: string | undefined, prefix: string): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    const pinned = this.state.pins?.find(
      (p) => p.namespace === (namespace ?? '') && prefix.startsWith(p.prefix) && (p.names?.length ?? 0) > 0,
    );
    const next = pinned?.names?.shift();
    if (next && !this.store.get(kind, namespace, next)) return next;
    for (;;) {
      let s = '';
      for (let i = 0; i < 5; i++) s += alphabet[this.random.int(alphabet.length)];
      const name = `${prefix}${s}`;
      if (!this.store.get(kind, namespace, name)) return name;
    }
  }

  /**
   * Store a changed object (an update). An update that takes the last finalizer off an object whose
   * deletion waited on it removes the object (store.go shouldDeleteDuringUpdate, api/deletion.ts).
   */
  write<T extends KObject>(obj: T): T {
    if (finishesDeletion(this.store.get(obj.kind, obj.metadata.namespace, obj.metadata.name), obj)) {
      this.store.remove(obj.kind, obj.metadata.namespace, obj.metadata.name);
      return obj;
    }
    return this.store.put(obj);
  }

  /**
   * DELETE from inside the control plane (a controller's or the API server's, past validation): the
   * object goes at once unless finalizers keep it, marked Terminating (api/deletion.ts markDeleted)
   * with `extraFinalizers` added (the garbage collector's orphan/foregroundDeletion). Returns
   * whether it is gone.
   */
  deleteObject(kind: string, namespace: string | undefined, name: string, extraFinalizers: readonly string[] = []): boolean {
    const old = this.store.get(kind, namespace, name);
    if (!old) return true;
    if (!hasFinalizers(old) && extraFinalizers.length === 0) {
      this.store.remove(kind, namespace, name);
      return true;
    }
    const marked = markDeleted(old, this.timestamp(), extraFinalizers);
    if (marked) this.store.put(marked);
    return false;
  }

  /** Record an Event the way client-go's recorder aggregates them (same object+reason+message → count++). */
  recordEvent(
    involved: KObject,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    component: string,
    host?: string,
  ): void {
    const ns = involved.metadata.namespace ?? 'default';
    const index = this.eventIndex();
    const key = eventKey(ns, involved.metadata.uid, reason, message);
    const existingName = index.byKey.get(key);
    const existing = existingName === undefined ? undefined : this.store.get<KEvent>('Event', ns, existingName);
    const ts = this.timestamp();
    if (existing) {
      const upd: KEvent = { ...existing, count: (existing.count ?? 1) + 1, lastTimestamp: ts };
      this.store.put(upd);
      index.changes = this.store.changes.get('Event') ?? 0;
      return;
    }
    const ev: KEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: this.eventName(involved.metadata.name), namespace: ns },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: involved.metadata.name,
        ...(involved.metadata.namespace ? { namespace: involved.metadata.namespace } : {}),
        ...(involved.metadata.uid ? { uid: involved.metadata.uid } : {}),
      },
      reason,
      message,
      type,
      source: host ? { component, host } : { component },
      count: 1,
      firstTimestamp: ts,
      lastTimestamp: ts,
      eventTime: null,
      reportingComponent: component,
      reportingInstance: host ?? '',
    };
    this.insert(ev);
    index.byKey.set(key, ev.metadata.name);
    index.changes = this.store.changes.get('Event') ?? 0;
  }

  /**
   * Record an Event through the events.k8s.io/v1 recorder (client-go tools/events recorder.go
   * makeEvent, as the API server's own loops use it): named `<regarding>.<UnixNano hex>`, with
   * eventTime (a MicroTime) and the reporting controller and instance, no source, count or
   * first/last timestamps; regarding is reference.GetReference of the object (its resourceVersion
   * included). Stored in the core form the API server keeps (Convert_v1_Event_To_core_Event).
   */
  recordEventV1(
    regarding: KObject,
    e: { type: 'Normal' | 'Warning'; reason: string; action: string; note: string; reportingController: string; reportingInstance: string },
  ): void {
    const m = regarding.metadata;
    const ms = this.now();
    const ev = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: this.eventName(m.name), namespace: m.namespace ?? 'default' },
      involvedObject: {
        apiVersion: regarding.apiVersion,
        kind: regarding.kind,
        name: m.name,
        ...(m.namespace ? { namespace: m.namespace } : {}),
        ...(m.uid ? { uid: m.uid } : {}),
        ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
      },
      reason: e.reason,
      message: e.note,
      type: e.type,
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
      action: e.action,
      reportingComponent: e.reportingController,
      reportingInstance: e.reportingInstance,
    } as unknown as KEvent;
    this.insert(ev);
  }

  /**
   * The recorder's aggregation key (involved object, reason, message) → the Event that holds it,
   * so recording does not scan every Event of the namespace (thousands of FailedScheduling events
   * for a large Deployment). Rebuilt from the store whenever Events changed other than through
   * recordEvent; the first Event in store order wins, as a scan would find it.
   */
  private eventIndex(): { store: Store; changes: number; byKey: Map<string, string> } {
    const changes = this.store.changes.get('Event') ?? 0;
    const cur = this.eventIdx;
    if (cur && cur.store === this.store && cur.changes === changes) return cur;
    const byKey = new Map<string, string>();
    for (const e of this.store.unordered<KEvent>('Event')) {
      const key = eventKey(e.metadata.namespace ?? '\u0002', (e.involvedObject as KEvent['involvedObject'] | undefined)?.uid, String(e.reason), String(e.message));
      const seen = byKey.get(key);
      // same key, same namespace: the smaller name comes first in store order
      if (seen === undefined || e.metadata.name < seen) byKey.set(key, e.metadata.name);
    }
    this.eventIdx = { store: this.store, changes, byKey };
    return this.eventIdx;
  }

  /**
   * client-go's recorder names an event `<object>.<hex UnixNano>` (tools/record/event.go
   * makeEvent), so names sort in time order. Events within one simulated millisecond get
   * increasing nanoseconds.
   */
  private eventName(object: string): string {
    const seq = this.state.eventSeq ?? 0;
    this.state.eventSeq = (seq + 1) % 1_000_000;
    return `${object}.${(BigInt(this.now()) * 1_000_000n + BigInt(seq)).toString(16)}`;
  }

  // -------------------------------------------------------------------------------------------
  // Snapshot

  /**
   * A JSON-only copy of the whole cluster: what a saved session holds (the same tree as a JSON
   * round trip, built without the text). The store's objects are frozen and shared, not copied.
   * `persist`: for a file, leaving out derived state that restore() rebuilds identically (the
   * iptables rules of nodes whose rules are kube-proxy's sync and nothing else); in-memory copies
   * (grading, validate) keep everything, so restoring them rebuilds nothing.
   */
  snapshot(opts: { persist?: boolean } = {}): Snapshot {
    // what is saved to disk leaves out the rules it can rebuild (`iptables: null`, in its place)
    const derived = opts.persist ? new Set(derivedRuleNodes(this)) : undefined;
    // rules a restore left to rebuild (null) that this snapshot holds are rebuilt now
    for (const h of this.hosts.values()) if (h.data.state.iptables === null && !derived?.has(h.name)) nodeIptables(h);
    // the hosts' files maps are frozen and shared by the snapshot (and the copies made of it); each
    // filesystem copies its map at its next change (node/vfs.ts)
    for (const h of this.hosts.values()) freezeFiles(h.data.fs);
    // and so are the pods' volumes' and containers' files (runtime/volumes.ts, runtime/podfs.ts:
    // read and written through a Vfs only, which copies a frozen map at its next change)
    for (const v of Object.values(this.state.podVolumes ?? {})) freezeFiles(v.fs);
    for (const fs of Object.values(this.state.podfs ?? {})) freezeFiles(fs);
    // and the flags each control-plane component started with: a record replaced whole at each
    // start, never changed (controllers/static-pods.ts), read through a copy (controlplane.ts runningFlags)
    for (const flags of Object.values(this.state.componentFlags ?? {})) Object.freeze(flags);
    // and the containers' runs' environments and plans (freezeRunParts)
    freezeRunParts(this.state.containerRuns);
    // and what other owners replace whole and never change in place, where it is plain JSON
    // (util/json-copy.ts freezeIfPlain): the configuration each nginx master loaded (a shared
    // parse result, runtime/nginx/program.ts start and reload; conf.ts parseNginxConfCached), each
    // node's apt package lists (`apt-get update` makes new ones: shell/commands/node/apt-get.ts),
    // and the status manager's conditions per pod (runtime/pod-conditions.ts cacheOwnConditions)
    for (const inst of Object.values(this.state.nginx?.pods ?? {})) freezeIfPlain(inst.loaded);
    for (const h of this.hosts.values()) freezeIfPlain(h.data.state.packages?.lists);
    for (const own of Object.values(this.state.kubeletConditions ?? {})) freezeIfPlain(own);
    const snap = toPlainJSONSharing({
      version: SNAPSHOT_VERSION,
      now: this.now(),
      random: this.random.state(),
      meta: this.meta,
      store: this.store.toJSON(),
      hosts: [...this.hosts.values()].map((h) => withoutDerivedIp6(h, derived?.has(h.name) ? { ...h.data, state: { ...h.data.state, iptables: null } } : h.data)),
      // the settle's bookkeeping, made here for the snapshot alone and only read by a restore:
      // frozen as it is made (strings and numbers), so the snapshot and its copies share it
      state: { ...this.state, __wakeups: this.wakeups, __controllers: Object.freeze({
          lastSeen: (this.snapRecords.lastSeen = frozenRecordOf(this.snapRecords.lastSeen, this.lastSeen, same, keep)).record,
          changes: (this.snapRecords.changes = frozenRecordOf(this.snapRecords.changes, this.store.changes, same, keep)).record,
          hostGeneration: this.hostGeneration,
          timeTick: this.timeTick,
          wakeOwners: (this.snapRecords.wakeOwners = frozenRecordOf(this.snapRecords.wakeOwners, this.wakeOwners, sameOwners, frozenOwners)).record,
          ownTicks: (this.snapRecords.ownTicks = frozenRecordOf(this.snapRecords.ownTicks, this.ownTicks, same, keep)).record,
        }),
      },
    }) as Snapshot;
    // an in-memory snapshot is copied many times (grading, validate): its copies share the hosts'
    // rules, frozen, and a restored cluster copies a node's when it first asks for them (nodeIptables)
    if (!opts.persist) for (const h of snap.hosts) freezeIptables(h.state.iptables);
    return snap;
  }

  /** What the controllers remember beside the state now (Controller.memory), for an exact copy of it. */
  controllerMemory(): ControllerMemory {
    const memory: ControllerMemory = new Map();
    for (const ctrl of this.controllers) if (ctrl.memory) memory.set(ctrl.name, ctrl.memory.save(this));
    return memory;
  }

  /**
   * What a restore starts afresh but a copy that stands for this cluster going on takes over
   * (adoptCarried): the controllers' `carry` (CoreDNS's last-seen change counters). (The store's
   * write count since its restore is not carried: nothing a copy prints depends on it; the token
   * volume's name, which did, is drawn from the saved resourceVersion.)
   */
  carried(): Carried {
    const controllers: ControllerMemory = new Map();
    for (const ctrl of this.controllers) if (ctrl.carry) controllers.set(ctrl.name, ctrl.carry.save(this));
    return { controllers };
  }

  /**
   * Go on as the cluster `carried` was taken from (this one a copy of it, restored with its memory
   * and settle marks, before anything happened here).
   */
  adoptCarried(carried: Carried): void {
    for (const ctrl of this.controllers) if (ctrl.carry && carried.controllers.has(ctrl.name)) ctrl.carry.load(this, carried.controllers.get(ctrl.name));
  }

  /**
   * Go on as a copy restored from this cluster's snapshot would (with its controller memory and
   * settle marks, without what `carried` takes over): each controller's `carry` is loaded with
   * nothing, which a restore starts with (the grader's last line run in place: scenario/grade.ts).
   */
  forgetCarried(): void {
    for (const ctrl of this.controllers) if (ctrl.carry) ctrl.carry.load(this, undefined);
  }

  /**
   * Start with the memory of the cluster this one is an exact copy of (restored from a snapshot
   * taken together with `memory`), before anything changes it.
   */
  adoptControllerMemory(memory: ControllerMemory): void {
    for (const ctrl of this.controllers) if (ctrl.memory && memory.has(ctrl.name)) ctrl.memory.load(this, memory.get(ctrl.name));
  }

  /**
   * The settle's bookkeeping beside the snapshot (which controllers may see a new signature, what
   * the last look saw of the polled counters, whether the last settle ended at rest and nothing
   * moved since), for an exact copy of this cluster (adoptSettleMarks). Undefined while it has
   * not heard its store yet (every controller is dirty then) or in the middle of a settle or batch.
   */
  settleMarks(): SettleMarks | undefined {
    if (this.heardStore !== this.store || this.settling || this.batchDepth > 0) return undefined;
    return {
      dirty: [...this.dirty],
      dynamicKeys: [...this.dynamicKeys].map(([i, keys]) => [i, [...keys]]),
      seenHostGeneration: this.seenHostGeneration,
      seenPodFs: this.seenPodFs,
      seenUps: this.seenUps,
      atRest: this.atRest === this.changeSerial,
    };
  }

  /**
   * Start from the settle bookkeeping of the cluster this one is an exact copy of (restored from a
   * snapshot taken with `marks`), as that one would go on: a controller clean there has the
   * signature it last saw here too (the same objects, counters and state), so the first settle need
   * not build every signature again, and a copy of a cluster at rest settles nothing until something
   * changes (a read-only grading line). Only before anything happened here (else every controller
   * stays dirty, as a restored cluster starts).
   */
  adoptSettleMarks(marks: SettleMarks | undefined): void {
    if (!marks || marks.dirty.length !== this.dirty.length) return;
    if (this.heardStore !== undefined || this.changeSerial !== 0 || this.store.generation !== 0 || this.settles !== 0) return;
    this.heardStore = this.store;
    this.unhear = this.store.onTouch((key) => this.touched(key));
    marks.dirty.forEach((d, i) => (this.dirty[i] = d));
    for (const [i, keys] of marks.dynamicKeys) {
      const mine = this.dynamicKeys.get(i);
      if (mine) for (const k of keys) mine.add(k);
    }
    this.seenHostGeneration = marks.seenHostGeneration;
    this.seenPodFs = marks.seenPodFs;
    this.seenUps = marks.seenUps;
    this.atRest = marks.atRest ? this.changeSerial : -1;
  }

  /**
   * Rebuild a cluster from a snapshot; `clock` may be a fresh clock (it is set to the snapshot's
   * time when manual). The snapshot is copied first, so the caller may keep using it, unless the
   * caller hands it over (`owned`: a tree parsed or copied for this cluster alone).
   */
  static restore(snap: Snapshot, clock: Clock, controllers: readonly Controller[], opts: { owned?: boolean } = {}): Cluster {
    if (!READABLE_SNAPSHOT_VERSIONS.includes(snap.version)) throw new Error(`saved by another cka-lab version (snapshot version ${snap.version}, this one reads ${SNAPSHOT_VERSION})`);
    const data = opts.owned ? snap : copyJSON(snap);
    if (clock instanceof ManualClock && clock.now() < data.now) clock.set(data.now);
    const c = new Cluster({ clock, random: new Random(data.random), meta: data.meta, controllers });
    c.store = Store.fromJSON(data.store);
    for (const h of data.hosts) c.addHost(h);
    const { __wakeups, __controllers, ...rest } = data.state;
    c.state = rest;
    c.wakeups = Array.isArray(__wakeups) ? __wakeups : [];
    // a file's list is in order when this version wrote it; one that is not is sorted at the next wakeAt, as it always was
    c.wakeupsSorted = c.wakeups.every((w, k) => k === 0 || c.wakeups[k - 1]! <= w);
    // Controllers' bookkeeping travels with the snapshot, so a restored cluster that has settled
    // does not re-run every controller on its first settle.
    const ctl = __controllers;
    if (ctl) {
      const e = bookkeepingEntries(ctl);
      c.timeTick = ctl.timeTick;
      c.lastSeen = new Map(e.lastSeen);
      for (const [k, v] of e.changes) c.store.changes.set(k, v);
      c.hostGeneration = ctl.hostGeneration;
      for (const [at, o] of e.wakeOwners) c.wakeOwners.set(at, new Set(o));
      for (const [k, v] of e.ownTicks) c.ownTicks.set(k, v);
      // frozen records (an in-memory snapshot's) are what this cluster's next snapshot makes while
      // its maps hold the same entries (frozenRecordOf compares them): its copies share them too
      if (BOOKKEEPING_ENTRIES.get(ctl) === e) Object.assign(c.snapRecords, recordsOf(ctl, e));
    }
    // derived rules left out of the file: rebuilt from the restored objects when first read
    let objects: { services: readonly Service[]; endpointSlices: readonly EndpointSlice[] } | undefined;
    for (const h of c.hosts.values()) {
      if (h.data.state.iptables !== null) continue;
      objects ??= { services: c.store.list<Service>('Service'), endpointSlices: c.store.list<EndpointSlice>('EndpointSlice') };
      if (!deferRebuild(c, h, objects)) throw new Error(`the iptables rules of ${h.name} were left out of the snapshot but cannot be rebuilt`);
    }
    return c;
  }
}

type Bookkeeping = NonNullable<SnapshotBookkeeping['__controllers']>;

/** A snapshot's settle bookkeeping as the entries a restore fills its maps with, in the records' order. */
interface BookkeepingEntries {
  lastSeen: readonly [string, string][];
  changes: readonly [string, number][];
  wakeOwners: readonly [number, readonly string[]][];
  ownTicks: readonly [string, number][];
}

/**
 * The entries of frozen bookkeeping records (Cluster.snapshot freezes them as it makes them, and
 * copies of the snapshot share them), listed once: every restore of the snapshot fills its maps
 * from them, in the same order Object.entries gives, without listing the records again (a copy's
 * restore spent a third of its own time in Object.entries of these ~90 members). Exact because a
 * frozen record cannot change; records read from a file are not frozen and are listed each time.
 */
const BOOKKEEPING_ENTRIES = new WeakMap<Bookkeeping, BookkeepingEntries>();

/** Frozen bookkeeping as the records Cluster.snapshot would make of the maps a restore fills from it (frozenRecordOf), once per snapshot. */
const BOOKKEEPING_RECORDS = new WeakMap<Bookkeeping, Cluster['snapRecords']>();

function recordsOf(ctl: Bookkeeping, e: BookkeepingEntries): Cluster['snapRecords'] {
  const had = BOOKKEEPING_RECORDS.get(ctl);
  if (had) return had;
  const seed = <W>(entries: readonly (readonly [string | number, W])[], record: Readonly<Record<string, W>>): FrozenRecord<W> => ({ keys: entries.map(([k]) => k), values: entries.map(([, v]) => v), record });
  const records: Cluster['snapRecords'] = { lastSeen: seed(e.lastSeen, ctl.lastSeen), changes: seed(e.changes, ctl.changes) };
  if (ctl.wakeOwners) records.wakeOwners = seed(e.wakeOwners, ctl.wakeOwners);
  if (ctl.ownTicks) records.ownTicks = seed(e.ownTicks, ctl.ownTicks);
  BOOKKEEPING_RECORDS.set(ctl, records);
  return records;
}

/** How many bookkeeping records restores have listed (tests). */
export const bookkeepingListed = { count: 0 };

function bookkeepingEntries(ctl: Bookkeeping): BookkeepingEntries {
  const had = BOOKKEEPING_ENTRIES.get(ctl);
  if (had) return had;
  bookkeepingListed.count++;
  const e: BookkeepingEntries = {
    lastSeen: Object.entries(ctl.lastSeen),
    changes: Object.entries(ctl.changes),
    wakeOwners: Object.entries(ctl.wakeOwners ?? {}).map(([at, o]) => [Number(at), o]),
    ownTicks: Object.entries(ctl.ownTicks ?? {}),
  };
  const frozen = Object.isFrozen(ctl) && Object.isFrozen(ctl.lastSeen) && Object.isFrozen(ctl.changes) && (ctl.wakeOwners === undefined || Object.isFrozen(ctl.wakeOwners)) && (ctl.ownTicks === undefined || Object.isFrozen(ctl.ownTicks));
  // (a wake-up's owners list is frozen with its record: Cluster.snapshot)
  if (frozen && e.wakeOwners.every(([, o]) => Object.isFrozen(o))) BOOKKEEPING_ENTRIES.set(ctl, e);
  return e;
}

/**
 * Freeze each container run's environment and plan where they lie: the environment is set at the
 * run's start and the plan replaced whole (runtime/processes.ts startRun, extendPlan, the kubelet's
 * kills), neither is changed in place. A run started in this process has its environment frozen
 * already (it keys the run's replay memos, shared by the state's copies); one read from a file (a
 * prebuilt fixture's, a saved session's) has not, and each copy of the state copied its ~30 pairs
 * per container (half the objects a copy made). Frozen, the snapshot and its copies share them.
 */
export function freezeRunParts(runs: ContainerRunsState | undefined): void {
  if (!runs) return;
  for (const list of Object.values(runs))
    for (const run of list) {
      deepFreeze(run.env);
      deepFreeze(run.plan);
    }
}

/**
 * A host's data without its ip6tables while they are derived (node/runtime.ts nodeIp6tables
 * builds them again, the same, from the kubelet's chains and HostState.ip6Proxy).
 */
function withoutDerivedIp6(h: Host, data: HostData): HostData {
  if (data.state.ip6tables === undefined || !ip6RulesDerived(h)) return data;
  const { ip6tables: _derived, ...state } = data.state;
  return { ...data, state };
}
