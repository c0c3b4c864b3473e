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
import { newNftState, type NftState } from '../net/kube-proxy/nftables.js';

// ---------------------------------------------------------------------------------------------
// Kernel state of the host (host.data.state)

/** The node's ruleset, created as the kubelet leaves it on a fresh node when absent. */
export function nodeIptables(host: Host): IptablesState {
  let st = host.data.state.iptables;
  if (!st) {
    st = newIptablesState();
    ensureKubeletRules(st);
    host.data.state.iptables = st;
  }
  return st;
}

/** The node's nftables ruleset (kube-proxy's `ip kube-proxy` table in nftables mode), created empty when absent. */
export function nodeNftables(host: Host): NftState {
  return (host.data.state.nftables ??= newNftState());
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
}

/** node name → manifest path (or `!path` for a manifest that did not parse) → run record. */
export type StaticPodTable = Record<string, Record<string, StaticPodRuntime>>;

export function staticPods(c: Cluster): StaticPodTable {
  return (c.state.staticPods ??= {});
}
