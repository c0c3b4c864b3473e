/**
 * The typed node runtime: what a node owns while it runs, beyond its files (host.fs), systemd
 * units and journal (host.ts). The kernel's iptables tables and `recent` lists live in the
 * host's state; the kubelet's pod sandboxes and its record of each static pod run live in the
 * cluster state (one field per owner, src/sim/state.ts). Controllers write these (kube-proxy the
 * rules, the kubelet the sandboxes, the static-pods controller the run records); node tools, the
 * traffic path and `kubectl logs` read them here, never through a controller's internals.
 * Everything is plain JSON, so it travels with snapshots unchanged.
 */
import type { Cluster } from '../cluster.js';
import type { Host } from './host.js';
import { newIptablesState, type IptablesState } from '../net/iptables.js';
import { newRecentState, type RecentState } from '../net/packet.js';
import { ensureKubeletRules } from '../net/kube-proxy/kubelet-rules.js';
import { syncProxyRules } from '../net/kube-proxy/sync.js';
import { newNftState, type NftAffinityState, type NftState } from '../net/kube-proxy/nftables.js';
import { snapshotKubeletConfig } from '../controlplane.js';
import { deepFreeze } from '../../util/json-copy.js';

// ---------------------------------------------------------------------------------------------
// Kernel state of the host (host.data.state)

/** Rules a restored snapshot left out (`iptables: null`), rebuilt when first read (Cluster.restore), and the revision the rebuilt rules will have. */
const DEFERRED_RULES = new WeakMap<Host, { build: () => IptablesState; rev: number }>();

/** Rebuild the node's rules with `build` when they are first read; until then they stay null. `rev` is the revision `build` gives them. */
export function deferIptables(host: Host, build: () => IptablesState, rev: number): void {
  DEFERRED_RULES.set(host, { build, rev });
}

/**
 * The revision of the node's ruleset (IptablesState.rev) without rebuilding rules a snapshot left
 * out: kube-proxy compares it at every wake-up, and a one-shot command that reads no rules should
 * not pay for a full sync per node to learn the number the rebuild would set.
 */
export function iptablesRev(host: Host): number {
  const st = host.data.state.iptables;
  const deferred = st === null ? DEFERRED_RULES.get(host) : undefined;
  // (a ruleset still frozen from a snapshot is read as it is: see freezeIptables)
  return deferred ? deferred.rev : ((st ?? nodeIptables(host)).rev ?? 0);
}

/**
 * The node's ruleset: rebuilt first if it was left out of the snapshot the cluster was restored
 * from, created as the kubelet leaves it on a fresh node when absent.
 */
export function nodeIptables(host: Host): IptablesState {
  let st = host.data.state.iptables;
  if (st && Object.isFrozen(st)) {
    st = thawIptables(st);
    host.data.state.iptables = st;
  } else if (!st) {
    const deferred = DEFERRED_RULES.get(host);
    DEFERRED_RULES.delete(host);
    if (deferred && st === null) st = deferred.build();
    else {
      st = newIptablesState();
      ensureKubeletRules(st);
    }
    host.data.state.iptables = st;
  }
  return st;
}

/**
 * Freezes a ruleset held by a snapshot, whole (tables, chains, rules and their parts), so that every
 * copy of the snapshot (util/json-copy.ts copyJSON: grading and validate copy one state many
 * times) shares it instead of walking it: the hosts' rules were two thirds of what such a copy
 * copied. A cluster restored from the copy makes it writable when it first asks for it
 * (nodeIptables: thawIptables); below the tables, every writer already copies a frozen chain
 * (iptables.ts ownChain, restore.ts TableTx.writable) or rule (packet.ts countable) before it
 * changes it, as it does for the chains and rules iptables-restore shares between rulesets.
 * Only for a tree nothing else holds: a snapshot's own copy of the live ruleset.
 */
export function freezeIptables(st: IptablesState | null | undefined): void {
  if (st) deepFreeze(st);
}

/**
 * A frozen ruleset (freezeIptables) made writable down to its tables' chain arrays: the state,
 * its tables map and each table are copies (same members, in the same order, so it saves and
 * prints as it was); the chains stay frozen and shared until a writer makes one its own.
 */
function thawIptables(st: IptablesState): IptablesState {
  const tables: IptablesState['tables'] = {};
  for (const k of Object.keys(st.tables) as (keyof IptablesState['tables'])[]) {
    const t = st.tables[k];
    if (t) tables[k] = { ...t, chains: t.chains.slice() };
  }
  return { ...st, tables };
}

/** Derived IPv6 rulesets as built, with the revision they had: untouched while it is the same. */
const PRISTINE6 = new WeakMap<IptablesState, number>();

/**
 * The node's ip6tables ruleset. Absent it is derived state, built here on first read as a real
 * node has it: the kubelet's IPv6 chains (kubelet_network_linux.go runs for both families) and,
 * once kube-proxy's IPv6 proxier synced (`ip6Proxy`, iptables mode), its fixed chains and rules
 * (no Service is programmed for IPv6 yet). Until a write bumps its revision it stays derived:
 * snapshots leave it out (ip6RulesDerived) and a config change rebuilds it.
 */
export function nodeIp6tables(host: Host): IptablesState {
  let st = host.data.state.ip6tables;
  if (!st) {
    st = newIptablesState(['filter', 'nat', 'mangle'], 'ipv6');
    ensureKubeletRules(st);
    const cfg = host.data.state.ip6Proxy;
    if (cfg) syncProxyRules(st, { services: [], endpointSlices: [], node: { name: host.name, ips: [] }, config: cfg });
    PRISTINE6.set(st, st.rev ?? 0);
    host.data.state.ip6tables = st;
  }
  return st;
}

/** Whether the node's ip6tables ruleset is absent or still exactly what nodeIp6tables derives. */
export function ip6RulesDerived(host: Host): boolean {
  const st = host.data.state.ip6tables;
  return st === undefined || PRISTINE6.get(st) === (st.rev ?? 0);
}

/** Forgets a derived ruleset (it is built again when read), or says it is no longer derived. */
export function resetIp6tables(host: Host, keep: boolean): void {
  const st = host.data.state.ip6tables;
  if (!st) return;
  if (keep) PRISTINE6.delete(st);
  else delete host.data.state.ip6tables;
}

/** The node's nftables ruleset (kube-proxy's `ip kube-proxy` table in nftables mode), created empty when absent. */
export function nodeNftables(host: Host): NftState {
  return (host.data.state.nftables ??= newNftState());
}

/** The dynamic elements of the node's nftables affinity sets (kube-proxy nftables mode), created empty when absent. */
export function nodeNftAffinity(host: Host): NftAffinityState {
  return (host.data.state.nftAffinity ??= {});
}

/** The xt_recent lists of the node's rules (`-m recent`), created empty when absent. */
export function nodeRecent(host: Host): RecentState {
  return (host.data.state.recent ??= newRecentState());
}

// ---------------------------------------------------------------------------------------------
// Pod sandboxes (written by the kubelet)

/** When the kubelet created each pod's sandbox, by pod uid: kubelet-private, not part of the object. */
export function podSandboxes(c: Cluster): Record<string, number> {
  return (c.state.sandboxAt ??= {});
}

/** When the kubelet created a pod's sandbox (for crictl and the node's network view). */
export function sandboxCreatedAt(c: Cluster, uid: string): number | undefined {
  return c.state.sandboxAt?.[uid];
}

// ---------------------------------------------------------------------------------------------
// Static pods (written by the static-pods controller)

/** The kubelet's record of one static pod manifest and the run of its container. */
export interface StaticPodRuntime {
  file: string;
  hash: string;
  name: string;
  namespace: string;
  /** When the current container started (or will start, while restarting). */
  since: number;
  running: boolean;
  exited: boolean;
  restarts: number;
  nextStart: number;
  logs: string[];
  containerId: string;
  image: string;
  /**
   * The image could not be pulled (kuberuntime_image.go EnsureImageExists): the last attempt
   * failed (ErrImagePull) or the pull back-off runs (ImagePullBackOff); `failures` pulls failed
   * since `firstAt`. No container exists meanwhile.
   */
  pull?: { reason: 'ErrImagePull' | 'ImagePullBackOff'; failures: number; firstAt: number };
  /** How the previous container ended, when not by a crash (a reboot took it: Unknown, 255). */
  lastExit?: { exitCode: number; reason: string; startedAt: number; finishedAt: number; containerId: string };
}

/** node name → manifest path (or `!path` for a manifest that did not parse) → run record. */
export type StaticPodTable = Record<string, Record<string, StaticPodRuntime>>;

export function staticPods(c: Cluster): StaticPodTable {
  return (c.state.staticPods ??= {});
}

/**
 * A reboot took the node's static pod containers (rebootNode): each is gone, its component
 * unavailable (controllers/static-pods.ts), and the kubelet starts it again when it is back
 * (`upAt`) as the next attempt; the runtime reports the old container as exited with status 255, reason Unknown, which
 * the mirror pod shows as its last state, like the containers of API pods
 * (runtime/processes.ts containersLostOnReboot).
 */
export function staticPodsLostOnReboot(c: Cluster, node: string, upAt: number): void {
  for (const r of Object.values(staticPods(c)[node] ?? {})) {
    if (!r.name || !r.containerId || (!r.running && !r.exited)) continue;
    r.lastExit = { exitCode: 255, reason: 'Unknown', startedAt: r.since, finishedAt: upAt, containerId: r.containerId };
    r.running = false;
    r.exited = false;
    r.restarts += 1;
    r.nextStart = upAt;
  }
}

// ---------------------------------------------------------------------------------------------
// Kernel modules (modprobe, lsmod, systemd-modules-load at boot)

/**
 * The modules the lab's kernel can load, with their size (bytes, as /proc/modules shows them on
 * Ubuntu 24.04's 6.8 kernel) and the modules they need first (modules.dep). Loading br_netfilter
 * loads the bridge (and stp, llc) and creates /proc/sys/net/bridge/*, as the kernel does
 * (net/bridge/br_netfilter_hooks.c registers that sysctl table on load, defaults 1). `path` is
 * the file under /lib/modules/KVER/kernel (modules.dep), where insmod and modinfo find it.
 */
export const KERNEL_MODULES: Record<string, { size: number; deps: string[]; path: string }> = {
  llc: { size: 16384, deps: [], path: 'net/llc/llc.ko.zst' },
  stp: { size: 12288, deps: ['llc'], path: 'net/802/stp.ko.zst' },
  bridge: { size: 421888, deps: ['stp', 'llc'], path: 'net/bridge/bridge.ko.zst' },
  br_netfilter: { size: 32768, deps: ['bridge'], path: 'net/bridge/br_netfilter.ko.zst' },
  overlay: { size: 212992, deps: [], path: 'fs/overlayfs/overlay.ko.zst' },
  x_tables: { size: 65536, deps: [], path: 'net/netfilter/x_tables.ko.zst' },
  ip_tables: { size: 32768, deps: ['x_tables'], path: 'net/ipv4/netfilter/ip_tables.ko.zst' },
  nf_defrag_ipv4: { size: 12288, deps: [], path: 'net/ipv4/netfilter/nf_defrag_ipv4.ko.zst' },
  nf_conntrack: { size: 196608, deps: ['nf_defrag_ipv4'], path: 'net/netfilter/nf_conntrack.ko.zst' },
  nf_nat: { size: 61440, deps: ['nf_conntrack'], path: 'net/netfilter/nf_nat.ko.zst' },
  xt_conntrack: { size: 12288, deps: ['nf_conntrack', 'x_tables'], path: 'net/netfilter/xt_conntrack.ko.zst' },
  iptable_nat: { size: 12288, deps: ['ip_tables', 'nf_nat'], path: 'net/ipv4/netfilter/iptable_nat.ko.zst' },
  iptable_filter: { size: 12288, deps: ['ip_tables'], path: 'net/ipv4/netfilter/iptable_filter.ko.zst' },
  ip_vs: { size: 200704, deps: ['nf_conntrack'], path: 'net/netfilter/ipvs/ip_vs.ko.zst' },
  vxlan: { size: 155648, deps: [], path: 'drivers/net/vxlan/vxlan.ko.zst' },
};

/** Where a module's file lies (modules.dep's path under /lib/modules/KVER, zstd-compressed as Ubuntu ships them). */
export function modulePath(host: Host, name: string): string | undefined {
  const m = KERNEL_MODULES[name];
  return m ? `/lib/modules/${host.data.os.kernel}/kernel/${m.path}` : undefined;
}

/** The module files of the kernel's tree (read as empty: their bytes are not simulated). */
export function moduleFiles(host: Host): Record<string, string> {
  return Object.fromEntries(Object.keys(KERNEL_MODULES).map((m) => [modulePath(host, m)!, '']));
}

/**
 * `insmod`: load exactly this module (init_module(2)); its dependencies must be loaded already.
 * The errno the kernel answers, or undefined when it loaded.
 */
export function insertModule(host: Host, name: string): 'EEXIST' | 'ENOENT' | undefined {
  const mod = KERNEL_MODULES[name];
  if (!mod) return 'ENOENT';
  const loaded = moduleState(host);
  if (loaded.includes(name)) return 'EEXIST';
  if (mod.deps.some((d) => !loaded.includes(d))) return 'ENOENT';
  loaded.push(name);
  if (name === 'br_netfilter') for (const k of BRIDGE_SYSCTLS) host.fs.write(`/proc/sys/net/bridge/${k}`, '1\n');
  return undefined;
}

/** `rmmod`: unload exactly this module (delete_module(2)); the caller checked that nothing holds it. */
export function removeModule(host: Host, name: string): void {
  const loaded = moduleState(host);
  if (!loaded.includes(name)) return;
  loaded.splice(loaded.indexOf(name), 1);
  if (name === 'br_netfilter') removeBridgeSysctls(host);
}

/** What a freshly booted node loads before systemd-modules-load reads /etc/modules-load.d (netfilter for the firewall). */
const BOOT_MODULES = ['x_tables', 'ip_tables', 'iptable_filter', 'nf_defrag_ipv4', 'nf_conntrack', 'nf_nat', 'iptable_nat', 'xt_conntrack'];

const BRIDGE_SYSCTLS = ['bridge-nf-call-arptables', 'bridge-nf-call-ip6tables', 'bridge-nf-call-iptables'];

/**
 * The loaded modules in load order. A host saved before modules were modelled gets the boot set,
 * plus overlay and br_netfilter when its bridge sysctls exist (what its kubeadm preparation loaded).
 */
export function loadedModules(host: Host): readonly string[] {
  if (host.data.state.modules) return host.data.state.modules;
  const k8s = host.fs.exists('/proc/sys/net/bridge/bridge-nf-call-iptables') ? ['overlay', 'llc', 'stp', 'bridge', 'br_netfilter'] : [];
  return [...BOOT_MODULES, ...k8s];
}

/** The module list to change (stored from now on). */
function moduleState(host: Host): string[] {
  return (host.data.state.modules ??= [...loadedModules(host)]);
}

/** br_netfilter's sysctl table goes with the module. */
function removeBridgeSysctls(host: Host): void {
  for (const k of BRIDGE_SYSCTLS) if (host.fs.isFile(`/proc/sys/net/bridge/${k}`)) host.fs.remove(`/proc/sys/net/bridge/${k}`);
}

/** Modules that use `name` (lsmod's "Used by"), newest first. */
export function moduleHolders(host: Host, name: string): string[] {
  return loadedModules(host)
    .filter((m) => KERNEL_MODULES[m]?.deps.includes(name))
    .reverse();
}

/** `modprobe NAME`: load it and what it needs; false when the kernel has no such module. */
export function loadModule(host: Host, name: string): boolean {
  const mod = KERNEL_MODULES[name.replace(/-/g, '_')];
  if (!mod) return false;
  const id = name.replace(/-/g, '_');
  const loaded = moduleState(host);
  if (loaded.includes(id)) return true;
  for (const d of mod.deps) loadModule(host, d);
  loaded.push(id);
  if (id === 'br_netfilter') for (const k of BRIDGE_SYSCTLS) host.fs.write(`/proc/sys/net/bridge/${k}`, '1\n');
  return true;
}

/**
 * `modprobe -r NAME`: unload it and the dependencies nothing else uses. Returns the module in use
 * (the reason it stays) or undefined; a module that is not loaded is not an error.
 */
export function unloadModule(host: Host, name: string): { inUse?: string } {
  const id = name.replace(/-/g, '_');
  const loaded = moduleState(host);
  if (!loaded.includes(id)) return {};
  if (moduleHolders(host, id).length > 0) return { inUse: id };
  loaded.splice(loaded.indexOf(id), 1);
  if (id === 'br_netfilter') removeBridgeSysctls(host);
  for (const d of KERNEL_MODULES[id]?.deps ?? []) if (moduleHolders(host, d).length === 0) unloadModule(host, d);
  return {};
}

/** /proc/modules (kernel/module/procfs.c m_show): name, size, use count, holders, state, address (zeroed for a reader without CAP_SYSLOG's kallsyms view). */
export function procModules(host: Host): string {
  return [...loadedModules(host)]
    .reverse()
    .map((m) => {
      const h = moduleHolders(host, m);
      return `${m} ${KERNEL_MODULES[m]?.size ?? 16384} ${h.length} ${h.length ? h.map((x) => `${x},`).join('') : '-'} Live 0x0000000000000000\n`;
    })
    .join('');
}

/** Module names listed in modules-load.d(5) files: one per line, # and ; comments. */
export function modulesLoadD(host: Host): string[] {
  const names: string[] = [];
  for (const f of confFiles(host, ['/etc/modules-load.d', '/run/modules-load.d', '/usr/lib/modules-load.d'], ['/etc/modules']))
    for (const raw of (host.fs.tryRead(f) ?? '').split('\n')) {
      const line = raw.trim();
      if (line && !line.startsWith('#') && !line.startsWith(';')) names.push(line);
    }
  return names;
}

/** The *.conf files of config directories in systemd's precedence (first directory wins a name; sorted by name), then extra files. */
function confFiles(host: Host, dirs: string[], extra: string[]): string[] {
  const seen = new Map<string, string>();
  for (const dir of dirs) for (const f of host.fs.list(dir).filter((x) => x.endsWith('.conf'))) if (!seen.has(f)) seen.set(f, `${dir}/${f}`);
  return [...[...seen.keys()].sort().map((f) => seen.get(f)!), ...extra.filter((f) => host.fs.isFile(f))];
}

// ---------------------------------------------------------------------------------------------
// Swap (swapon, swapoff, /proc/swaps)

export { SWAP_KIB, activeSwaps, procSwaps } from './swap.js';

/** Swap entries of /etc/fstab (type `swap`, without `noauto`), as `swapon -a` and the boot read them. */
export function fstabSwaps(host: Host): string[] {
  return (host.fs.tryRead('/etc/fstab') ?? '')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 3 && !f[0]!.startsWith('#') && f[2] === 'swap' && !(f[3] ?? '').split(',').includes('noauto'))
    .map((f) => f[0]!);
}

/** Turn swap on or off for one area (/proc/swaps is generated from this on read). */
export function setSwap(host: Host, path: string, on: boolean): void {
  const list = (host.data.state.swaps ??= []);
  const i = list.indexOf(path);
  if (on && i < 0) list.push(path);
  if (!on && i >= 0) list.splice(i, 1);
}

// ---------------------------------------------------------------------------------------------
// Boot (what a reboot keeps: only files)

/** Kernel defaults of the sysctls the lab models, before systemd-sysctl applies the config files. */
const SYSCTL_DEFAULTS: Record<string, string> = { 'net.ipv4.ip_forward': '0' };

/**
 * A reboot of the node: everything that lived only in the running kernel is gone and comes back
 * from the files boot reads, in systemd's order: systemd-modules-load (modules-load.d, /etc/modules),
 * systemd-sysctl (sysctl.d in precedence order, then /etc/sysctl.conf; a key whose /proc/sys file
 * does not exist, such as a bridge sysctl without br_netfilter, is skipped), swap units from
 * /etc/fstab, then the enabled services. Unit start-up effects (the kubelet loading its config)
 * belong to their owners; callers restart them through the usual paths.
 */
export function bootHost(host: Host, now: number, upAt = now): void {
  host.data.state.bootedAt = now;
  // every process died with the kernel, and the sockets it listened on with it
  delete host.data.state.sockets;
  host.data.state.modules = [];
  removeBridgeSysctls(host);
  for (const m of BOOT_MODULES) loadModule(host, m);
  for (const m of modulesLoadD(host)) loadModule(host, m);
  for (const [k, v] of Object.entries(SYSCTL_DEFAULTS)) host.fs.write(`/proc/sys/${k.replace(/\./g, '/')}`, `${v}\n`);
  for (const f of confFiles(host, ['/etc/sysctl.d', '/run/sysctl.d', '/usr/local/lib/sysctl.d', '/usr/lib/sysctl.d', '/lib/sysctl.d'], ['/etc/sysctl.conf']))
    for (const raw of (host.fs.tryRead(f) ?? '').split('\n')) {
      const line = raw.trim().replace(/^-/, '');
      const eq = line.indexOf('=');
      if (!line || line.startsWith('#') || line.startsWith(';') || eq <= 0) continue;
      const path = `/proc/sys/${line.slice(0, eq).trim().replace(/\./g, '/')}`;
      if (host.fs.isFile(path)) host.fs.write(path, `${line.slice(eq + 1).trim()}\n`);
    }
  host.data.state.swaps = [];
  for (const p of fstabSwaps(host)) if (host.fs.isFile(p)) setSwap(host, p, true);
  for (const u of Object.values(host.data.units)) {
    u.active = u.enabled;
    u.since = upAt;
  }
}

/** When the host booted: its last boot, or for a fixture's host the earliest unit start (uptime, ps, who). */
export function bootTime(host: Host, now: number): number {
  if (host.data.state.bootedAt !== undefined) return host.data.state.bootedAt;
  const starts = Object.values(host.data.units).map((u) => u.since);
  return starts.length ? Math.min(...starts) : now;
}

/**
 * A reboot of a cluster node: the kernel comes back from its files (bootHost), the kubelet re-reads
 * its config. With `downMs` the node is down that long: its units start then (a unit whose `since`
 * is ahead does not run yet, host.ts unitActive), the kubelet loads its config when it starts
 * (controlplane.ts refreshFailedKubeletConfig) and every controller is woken at that time.
 */
export function rebootNode(c: Cluster, host: Host, downMs = 0): void {
  host.data.state.reboots = (host.data.state.reboots ?? 0) + 1;
  const upAt = c.now() + downMs;
  bootHost(host, c.now(), upAt);
  if (downMs > 0) {
    delete host.data.state.kubeletStartedConfig;
    c.wakeAt(upAt, '*');
  } else if (host.unitActive('kubelet')) snapshotKubeletConfig(host);
  c.touchHosts();
}

/** Images pulled into the node's containerd store outside a pod's start (`kubeadm config images pull`), in pull order. */
export function pulledImages(host: Host): readonly string[] {
  return host.data.state.pulledImages ?? [];
}

/** Record an image pulled into the node's store; pulling it again changes nothing. */
export function recordPulledImage(host: Host, ref: string): void {
  const list = host.data.state.pulledImages ?? [];
  if (!list.includes(ref)) host.data.state.pulledImages = [...list, ref];
}
