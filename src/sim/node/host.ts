/**
 * A machine in the simulated lab: the exam workstation or a cluster node. Everything a node shows
 * derives from this data and from cluster state: its filesystem (the single source of truth for
 * configuration), its systemd units and the kernel state that is not a file (iptables lives in
 * src/sim/net and is attached by the kube-proxy controller).
 */
import { Vfs, type VfsData } from './vfs.js';

export type UnitName = 'kubelet' | 'containerd';

export interface UnitState {
  active: boolean;
  enabled: boolean;
  /** When the unit last changed state (simulated ms). */
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
  mac: string;
  os: { image: string; kernel: string; runtime: string; arch: string };
  fs: VfsData;
  units: Record<string, UnitState>;
  /** Journal lines per unit, appended as things happen. */
  journal: Record<string, string[]>;
  /** Opaque per-subsystem state (iptables tables, conntrack/recent lists, …) as plain JSON. */
  state: Record<string, unknown>;
}

export class Host {
  readonly fs: Vfs;
  constructor(
    readonly data: HostData,
    now: () => number,
    onChange: () => void = () => {},
  ) {
    this.fs = new Vfs(data.fs, now, onChange);
  }

  get name(): string {
    return this.data.name;
  }

  get ip(): string {
    return this.data.ip;
  }

  unitActive(unit: string): boolean {
    return this.data.units[unit]?.active ?? false;
  }

  /** `/proc/sys/net/ipv4/ip_forward` → value, as sysctl reads it. */
  sysctl(key: string): string | undefined {
    return this.fs.tryRead(`/proc/sys/${key.replace(/\./g, '/')}`)?.trim();
  }

  log(unit: string, line: string): void {
    (this.data.journal[unit] ??= []).push(line);
    const j = this.data.journal[unit]!;
    if (j.length > 500) j.splice(0, j.length - 500);
  }
}
