/**
 * A machine in the simulated lab: the exam workstation or a cluster node. Everything a node shows
 * derives from this data and from cluster state: its filesystem (the single source of truth for
 * configuration), its systemd units and the kernel state that is not a file (HostState below;
 * read and created through src/sim/node/runtime.ts).
 */
import { Vfs, type VfsData } from './vfs.js';
import type { NftAffinityState, NftState } from '../net/kube-proxy/nftables.js';
import type { IptablesState } from '../net/iptables.js';
import type { KubeProxyConfig } from '../net/kube-proxy/sync.js';
import type { RecentState } from '../net/packet.js';
import type { KubeletConfig } from '../controlplane.js';
import type { PackageState } from './packages.js';
import type { UserSocket } from './user-sockets.js';
import { remember } from '../../util/bounded-map.js';

export type UnitName = 'kubelet' | 'containerd';

export interface UnitState {
  active: boolean;
  enabled: boolean;
  /**
   * When the unit last changed state (simulated ms). An active unit whose `since` is still ahead
   * is one a booting host starts then (node/runtime.ts rebootNode): until that time it is not running.
   */
  since: number;
}

export interface HostData {
  name: string;
  ip: string;
  role: 'workstation' | 'control-plane' | 'worker';
  /** Network interface the node IP lives on (e.g. enp1s0, eth0). */
  iface: string;
  /** Default gateway of the node network, also the upstream DNS (libvirt's 192.168.122.1). */
  gateway: string;
  prefixLength: number;
  /** The node's IPv6 address on a dual-stack node network (kubelet --node-ip's second value), and its prefix. */
  ip6?: string;
  prefixLength6?: number;
  /** The IPv6 default gateway of a dual-stack node network. */
  gateway6?: string;
  mac: string;
  os: { image: string; kernel: string; runtime: string; arch: string };
  fs: VfsData;
  units: Record<string, UnitState>;
  /** Journal lines per unit, appended as things happen. */
  journal: Record<string, string[]>;
  /** Kernel and process state that is not a file, as plain JSON. */
  state: HostState;
}

/** A host's state that is not a file, one field per owner (same JSON keys as before it was typed). */
export interface HostState {
  /**
   * The netfilter tables (kube-proxy and the kubelet write them, iptables commands edit them). Read
   * them through node/runtime.ts nodeIptables: null stands for rules a saved snapshot left out
   * because they are derived (controllers/kube-proxy-derived.ts), rebuilt when first read.
   */
  iptables?: IptablesState | null;
  /**
   * ip6tables' tables, once written by hand or a controller. Absent, they are derived: the
   * kubelet's IPv6 chains plus, after `ip6Proxy`, the IPv6 proxier's fixed rules (node/runtime.ts
   * nodeIp6tables builds them when read; a snapshot leaves them out while untouched since).
   */
  ip6tables?: IptablesState;
  /** The config kube-proxy's IPv6 iptables proxier last fully synced with (iptables mode only). */
  ip6Proxy?: KubeProxyConfig;
  /** xt_recent lists of `-m recent` rules (the packet path). */
  recent?: RecentState;
  /** The nftables ruleset (only kube-proxy's `ip kube-proxy` table is modelled). */
  nftables?: NftState;
  /** What packets put in that table's dynamic affinity sets (the packet path). */
  nftAffinity?: NftAffinityState;
  /** The kubelet's config as loaded when its process started (controlplane.ts). */
  kubeletStartedConfig?: KubeletConfig | { error: string };
  /** The kubelet's command line when its running process started (deprecated-flag notices of its start). */
  kubeletCmdlineAtStart?: string;
  /** apt/dpkg: installed Kubernetes packages, holds and downloaded indexes (node/packages.ts). */
  packages?: PackageState;
  /** The kubelet package version the running kubelet process was started from (node/packages.ts). */
  kubeletBinaryAtStart?: string;
  /** The kubelet start (unit `since`) that last registered the Node object (controllers/node-status.ts). */
  registeredAt?: number;
  /** Loaded kernel modules in load order (node/runtime.ts loadedModules; lsmod, modprobe). */
  modules?: string[];
  /** Active swap areas (node/runtime.ts activeSwaps; swapon, swapoff, /proc/swaps). */
  swaps?: string[];
  /** Reboots since the fixture was built (node/runtime.ts rebootNode): a login on the node ends with one. */
  reboots?: number;
  /** When the host last booted (node/runtime.ts bootHost); a fixture's hosts booted when their units started. */
  bootedAt?: number;
  /** Sockets the learner's processes listen on (kubectl port-forward, proxy: node/user-sockets.ts). */
  sockets?: UserSocket[];
  /** Images pulled into containerd's store by hand (`kubeadm config images pull`; node/runtime.ts pulledImages). */
  pulledImages?: string[];
}

export class Host {
  readonly fs: Vfs;
  constructor(
    readonly data: HostData,
    private readonly now: () => number,
    onChange: () => void = () => {},
  ) {
    this.fs = new Vfs(data.fs, now, onChange);
    freezeEntries(data.fs);
  }

  get name(): string {
    return this.data.name;
  }

  get ip(): string {
    return this.data.ip;
  }

  /** Whether a unit runs now: active, and started (a booting host's units start when it is up). */
  unitActive(unit: string): boolean {
    const u = this.data.units[unit];
    return u !== undefined && u.active && u.since <= this.now();
  }

  /** `/proc/sys/net/ipv4/ip_forward` → value, as sysctl reads it. */
  sysctl(key: string): string | undefined {
    return this.fs.tryRead(sysctlPath(key))?.trim();
  }

  log(unit: string, line: string): void {
    (this.data.journal[unit] ??= []).push(line);
    const j = this.data.journal[unit]!;
    if (j.length > 500) j.splice(0, j.length - 500);
  }
}

/**
 * The /proc/sys file of a sysctl key (`net.ipv4.ip_forward` → /proc/sys/net/ipv4/ip_forward), by
 * key: a pure function of the key, asked at every hop a packet is forwarded (traffic/path.ts
 * forwards), which made a regex replace each time. Bounded.
 */
const SYSCTL_PATHS = new Map<string, string>();

function sysctlPath(key: string): string {
  return SYSCTL_PATHS.get(key) ?? remember(SYSCTL_PATHS, key, `/proc/sys/${key.replace(/\./g, '/')}`, 256);
}

/**
 * A host's files as read from a snapshot: each entry frozen, as Vfs.write makes new ones, so the
 * copies of this state that grading and validate make share them instead of copying every file.
 */
function freezeEntries(fs: VfsData): void {
  // a frozen map's entries are frozen (node/vfs.ts freezeFiles): a copy of a snapshot's host shares them all
  if (!Object.isFrozen(fs.files)) for (const e of Object.values(fs.files)) if (!Object.isFrozen(e)) Object.freeze(e);
  for (const e of Object.values(fs.links ?? {})) if (!Object.isFrozen(e)) Object.freeze(e);
}

/**
 * A node's status.addresses as its kubelet reports them with `--node-ip=IPv4,IPv6` on a
 * dual-stack node (pkg/kubelet/nodestatus/setters.go NodeAddress): the InternalIPs in
 * --node-ip order, then the Hostname.
 */
export function nodeAddresses(d: { name: string; ip: string; ip6?: string }): { address: string; type: string }[] {
  return [{ address: d.ip, type: 'InternalIP' }, ...(d.ip6 ? [{ address: d.ip6, type: 'InternalIP' }] : []), { address: d.name, type: 'Hostname' }];
}

/** calico-node's address annotations on its Node (calico node/pkg/lifecycle/startup autodetection). */
export function calicoAddressAnnotations(d: { ip: string; prefixLength: number; ip6?: string; prefixLength6?: number }): Record<string, string> {
  return { 'projectcalico.org/IPv4Address': `${d.ip}/${d.prefixLength}`, ...(d.ip6 ? { 'projectcalico.org/IPv6Address': `${d.ip6}/${d.prefixLength6 ?? 64}` } : {}) };
}

/** A host's addresses as a pod's hostIPs (and a host-network pod's podIPs) list them: IPv4, then IPv6 on a dual-stack node. */
export function hostIPList(d: { ip: string; ip6?: string }): { ip: string }[] {
  return [{ ip: d.ip }, ...(d.ip6 ? [{ ip: d.ip6 }] : [])];
}
