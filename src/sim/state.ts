/**
 * The cluster's non-API state, one typed field per owner. Every field is plain JSON and travels
 * in snapshots under the same key (Snapshot.state), so saved sessions written before this record
 * was typed load unchanged. Fields are optional: an owner creates its field on first use.
 * CLUSTER_STATE_OWNERS names every field's owner; a new field must be added there too (the type
 * makes a missing or extra entry fail to compile, and state.test.ts fails on an unknown key).
 */
import type { ProxyState } from './controllers/kube-proxy.js';
import type { DnsState } from './controllers/coredns.js';
import type { NginxState } from './runtime/nginx/program.js';
import type { IpamState, Pin } from './cni/ipam.js';
import type { ExternalDnsServer } from './dns/upstream-zone.js';
import type { VfsData } from './node/vfs.js';
import type { StaticPodTable } from './node/runtime.js';
import type { ScheduledEviction } from './controllers/taint-eviction.js';
import type { EtcdMemberState } from './etcd/member.js';
import type { HpaHistory } from './controllers/hpa.js';
import type { PodVolumesState } from './runtime/volumes.js';
import type { ContainerRunsState } from './runtime/processes.js';
import type { ProberState } from './controllers/prober.js';
import type { DerivedRules } from './controllers/kube-proxy-derived.js';
import type { IpRepairState } from './controllers/ipallocator-repair.js';
import type { VolumeExpandState } from './controllers/volume-expand.js';

/** Whether a control-plane component is serving (its static pod runs). */
export interface Availability {
  up: boolean;
}

export interface ClusterState {
  /** kubelet: images pulled, per node. */
  images?: Record<string, string[]>;
  /** kubelet: sandbox creation time per pod uid (node/runtime.ts podSandboxes). */
  sandboxAt?: Record<string, number>;
  /** kubelet: back-off and pull timers per `<pod uid>/<container>`. */
  kubeletTimers?: Record<string, { nextAt: number; pulls: number }>;
  /** kubelet: the status manager's cached pod conditions (`<status> <lastTransitionTime>` by type) per pod uid (runtime/pod-conditions.ts). */
  kubeletConditions?: Record<string, Record<string, string>>;
  /** kubelet: each container's probe workers and the kill a probe failure began, by `<pod uid>/<container>` (controllers/prober.ts). */
  probers?: ProberState;
  /** static-pods controller: the kubelet's run record of each static pod (node/runtime.ts staticPods). */
  staticPods?: StaticPodTable;
  /** static-pods controller: the flags each control-plane component started with. */
  componentFlags?: Record<string, Record<string, string>>;
  /** static-pods controller: whether each control-plane component serves. */
  apiserver?: Availability;
  scheduler?: Availability;
  controllerManager?: Availability;
  etcd?: Availability;
  /** etcd: the running member, its data directory and membership (etcd/member.ts). */
  etcdMember?: EtcdMemberState;
  /** kube-proxy: each process's loaded config and logs, each node's last sync. */
  kubeProxy?: ProxyState;
  /** kube-proxy: the nodes whose iptables rules are exactly a sync's, rebuilt on load instead of saved (controllers/kube-proxy-derived.ts). */
  derivedRules?: Record<string, DerivedRules>;
  /** taint eviction controller: pods whose deletion is scheduled by NoExecute tolerationSeconds, by ns/name. */
  taintEviction?: Record<string, ScheduledEviction>;
  /** CoreDNS: each process's mounted and loaded Corefile, reload phase and logs. */
  coredns?: DnsState;
  /** nginx containers: each master's loaded configuration, workers and log (runtime/nginx/program.ts). */
  nginx?: NginxState;
  /** kubelet: changes to container filesystems so far (runtime/podfs.ts), which wake the kubelet's probes. */
  podFsGeneration?: number;
  /** kubelet: container filesystems by pod uid (runtime/podfs.ts). */
  podfs?: Record<string, VfsData>;
  /** kubelet: pod volumes (emptyDir, ConfigMap/Secret/downwardAPI/projected files) by `<pod uid>/<volume>` (runtime/volumes.ts). */
  podVolumes?: PodVolumesState;
  /** kubelet: each container's runs (start, environment, logs) by `<pod uid>/<container>` (runtime/processes.ts). */
  containerRuns?: ContainerRunsState;
  /** CNI IPAM: addresses in use. */
  ipam?: IpamState;
  /** fixture: pinned pod names and IPs still to hand out (cni/ipam.ts). */
  pins?: Pin[];
  /** fixture: DNS servers outside the cluster (traffic/external-dns.ts). */
  externalDNS?: ExternalDnsServer[];
  /** ingress-nginx: round-robin position per upstream. */
  ingressRoundRobin?: Record<string, number>;
  /** HPA controller: each autoscaler's recommendations and scale events (behavior windows), by `ns/name`. */
  hpa?: Record<string, HpaHistory>;
  /** event recorder: sequence within a simulated millisecond (cluster.ts eventName). */
  eventSeq?: number;
  /** the shell's network tools: the last lookup or connection, for `why`. */
  'traffic.why'?: { command: string; lines: string[] };
  /** cni-install controller: the CNI pod (uid) that last installed the plugin on each node. */
  cniInstalled?: Record<string, string>;
  /** APF bootstrap ensurer: the time of its last periodic run (controllers/apf-bootstrap.ts). */
  apfBootstrap?: { ranAt: number };
  /** the API server's ClusterIP repair loop: allocator IPAddresses deleted, and when the loop made them again. */
  ipAddressRepair?: IpRepairState;
  /** volume expansion: per claim uid, the claim version the expand controller last looked at and when its node expansion became pending. */
  volumeExpand?: VolumeExpandState;
  /** the scenario engine: typed answers (`answer <text>`). */
  'scenario.answers'?: Record<string, string>;
}

/** Who owns each field (documentation the compiler keeps complete). */
export const CLUSTER_STATE_OWNERS: { readonly [K in keyof Required<ClusterState>]: string } = {
  images: 'sim/controllers/kubelet.ts',
  sandboxAt: 'sim/controllers/kubelet.ts (read through sim/node/runtime.ts)',
  kubeletTimers: 'sim/controllers/kubelet.ts',
  kubeletConditions: 'sim/runtime/pod-conditions.ts (written by sim/controllers/kubelet.ts and static-pods.ts)',
  probers: 'sim/controllers/prober.ts (driven by sim/controllers/kubelet.ts)',
  staticPods: 'sim/controllers/static-pods.ts (read through sim/node/runtime.ts)',
  componentFlags: 'sim/controllers/static-pods.ts',
  apiserver: 'sim/controllers/static-pods.ts',
  scheduler: 'sim/controllers/static-pods.ts',
  controllerManager: 'sim/controllers/static-pods.ts',
  etcd: 'sim/controllers/static-pods.ts',
  etcdMember: 'sim/etcd/member.ts (written when the etcd static pod starts)',
  kubeProxy: 'sim/controllers/kube-proxy.ts',
  derivedRules: 'sim/controllers/kube-proxy-derived.ts (recorded by sim/controllers/kube-proxy.ts after each sync)',
  coredns: 'sim/controllers/coredns.ts',
  nginx: 'sim/runtime/nginx/program.ts',
  taintEviction: 'sim/controllers/taint-eviction.ts',
  podfs: 'sim/runtime/podfs.ts',
  podFsGeneration: 'sim/runtime/podfs.ts',
  podVolumes: 'sim/runtime/volumes.ts (written by sim/controllers/kubelet.ts)',
  containerRuns: 'sim/runtime/processes.ts (written by sim/controllers/kubelet.ts)',
  ipam: 'sim/cni/ipam.ts',
  pins: 'sim/fixture/build.ts, consumed by sim/cni/ipam.ts and Cluster.generateName',
  externalDNS: 'sim/fixture/build.ts, read by sim/traffic/external-dns.ts',
  ingressRoundRobin: 'sim/traffic/ingress.ts',
  hpa: 'sim/controllers/hpa.ts',
  eventSeq: 'sim/cluster.ts',
  'traffic.why': 'shell/commands/pod/net.ts',
  'scenario.answers': 'scenario/answers.ts',
  cniInstalled: 'sim/controllers/cni-install.ts',
  apfBootstrap: 'sim/controllers/apf-bootstrap.ts',
  ipAddressRepair: 'sim/controllers/ipallocator-repair.ts (deletions noted by sim/apiserver.ts)',
  volumeExpand: 'sim/controllers/volume-expand.ts',
};

/** Keys the snapshot adds beside the owners' fields (Cluster.snapshot / Cluster.restore). */
export interface SnapshotBookkeeping {
  __wakeups?: number[];
  __controllers?: {
    lastSeen: Record<string, string>;
    changes: Record<string, number>;
    hostGeneration: number;
    timeTick: number;
    /** Who asked for each pending wake-up (by its time); a wake-up without owners wakes every time watcher. */
    wakeOwners?: Record<string, string[]>;
    /** Wake-ups reached per controller that asked for them. */
    ownTicks?: Record<string, number>;
  };
}
