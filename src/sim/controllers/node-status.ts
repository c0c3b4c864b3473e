/**
 * Node status: what the kubelet posts about its node (conditions, addresses, nodeInfo) and what
 * the node lifecycle controller does when posts stop (pkg/controller/nodelifecycle: after the
 * node-monitor-grace-period the Ready condition becomes Unknown, "Kubelet stopped posting node
 * status."). A node whose runtime has no CNI network is NotReady with the kubelet's real message;
 * one whose containerd is down is NotReady, "container runtime is down", from the status sync
 * after the kubelet's runtime check gives up (node/runtime-health.ts), and Ready again at the
 * sync after its next good check.
 */
import { bootIdSeed, machineId } from '../node/ids.js';
import type { Cluster, Controller } from '../cluster.js';
import type { Node, NodeCondition, Pod } from '../api/types.js';
import { clone } from '../api/store.js';
import { lastStatusPost } from '../virtual-objects.js';
import { cniStatusAt } from '../cni/config.js';
import { kubeletRunning, kubeletStoppedAt } from '../controlplane.js';
import { runningKubeletVersion } from '../node/packages.js';
import { calicoAddressAnnotations, nodeAddresses, type Host } from '../node/host.js';
import { RUNTIME_DOWN_MESSAGE, runtimeOutage, runtimeRecovery } from '../node/runtime-health.js';

/**
 * --node-monitor-grace-period's default since v1.32 (pkg/controller/nodelifecycle/config/v1alpha1
 * defaults.go, kubernetes/kubernetes#126287: 50s, earlier 40s).
 */
export const NODE_MONITOR_GRACE_MS = 50_000;

function lastPostTime(stored: string | undefined, stoppedAt: number): string | undefined {
  const t = Date.parse(stored ?? '');
  return Number.isFinite(t) ? new Date(lastStatusPost(t, stoppedAt)).toISOString().replace(/\.\d{3}Z$/, 'Z') : stored;
}

export const nodeStatusController: Controller = {
  name: 'node-status',
  watches: ['Node', 'hosts', 'time'],
  reconcile(c: Cluster): void {
    for (const host of c.nodeHosts()) registerNode(c, host);
    for (const node of c.store.list<Node>('Node')) {
      const host = c.host(node.metadata.name);
      if (!host) continue;
      const now = c.now();
      const ts = c.timestamp();
      const version = runningKubeletVersion(host, c.meta.kubernetesVersion);
      if (kubeletRunning(host) && node.status?.nodeInfo && node.status.nodeInfo.kubeletVersion !== version) {
        // the kubelet posts its own version with every status update (pkg/kubelet/nodestatus/setters.go VersionInfo)
        const upd = clone(node);
        upd.status!.nodeInfo!.kubeletVersion = version;
        c.write(upd);
        continue;
      }
      const bootID = machineId(bootIdSeed(host.name, host.data.state.reboots), true);
      if (kubeletRunning(host) && node.status?.nodeInfo && node.status.nodeInfo.bootID !== bootID) {
        // setters.go MachineInfo: a new boot ID is posted with a Warning event
        const upd = clone(node);
        upd.status!.nodeInfo!.bootID = bootID;
        c.write(upd);
        c.recordEvent(node, 'Warning', 'Rebooted', `Node ${node.metadata.name} has been rebooted, boot id: ${bootID}`, 'kubelet', node.metadata.name);
        continue;
      }
      const conds = node.status?.conditions ?? [];
      const ready = conds.find((x) => x.type === 'Ready');
      let next: NodeCondition;
      if (!kubeletRunning(host)) {
        const stoppedAt = kubeletStoppedAt(host, now);
        if (now < stoppedAt + NODE_MONITOR_GRACE_MS) {
          c.wakeAt(stoppedAt + NODE_MONITOR_GRACE_MS);
          continue;
        }
        if (ready?.status === 'Unknown') continue;
        next = {
          type: 'Ready',
          status: 'Unknown',
          // the last status the kubelet posted before it stopped (virtual-objects.ts nodeView)
          lastHeartbeatTime: lastPostTime(ready?.lastHeartbeatTime, stoppedAt) ?? ts,
          lastTransitionTime: ts,
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
        };
      } else if (runtimeOutage(host)) {
        // the kubelet keeps posting; its runtime check fails and, 30 s on, the next status sync
        // posts NotReady (the PLEG part of the message is the view's: virtual-objects.ts nodeView)
        const outage = runtimeOutage(host)!;
        if (now < outage.notReadyAt) {
          c.wakeAt(outage.notReadyAt);
          continue;
        }
        next = { type: 'Ready', status: 'False', lastHeartbeatTime: ts, lastTransitionTime: ts, reason: 'KubeletNotReady', message: RUNTIME_DOWN_MESSAGE };
        if (ready && ready.status === next.status && ready.reason === next.reason && ready.message === next.message) continue;
      } else {
        const back = ready?.status === 'False' && ready.message === RUNTIME_DOWN_MESSAGE ? runtimeRecovery(host) : undefined;
        if (back && now < back.readyAt) {
          c.wakeAt(back.readyAt);
          continue;
        }
        const cni = cniStatusAt(host, c.hostGenerationOf(host.name));
        next = cni.ready
          ? { type: 'Ready', status: 'True', lastHeartbeatTime: ts, lastTransitionTime: ts, reason: 'KubeletReady', message: 'kubelet is posting ready status' }
          : {
              type: 'Ready',
              status: 'False',
              lastHeartbeatTime: ts,
              lastTransitionTime: ts,
              reason: 'KubeletNotReady',
              message: `container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: ${cni.message}`,
            };
        if (ready && ready.status === next.status && ready.reason === next.reason && ready.message === next.message) continue;
      }
      if (ready && ready.status === next.status && ready.lastTransitionTime) next.lastTransitionTime = ready.lastTransitionTime;
      const upd = clone(node);
      upd.status ??= {};
      // a kubelet's post renews every condition's heartbeat (nodestatus/setters.go); the node
      // lifecycle controller marks them all Unknown with the last heartbeat it saw
      const rest = conds
        .filter((x) => x.type !== 'Ready')
        .map((x) =>
          next.status === 'Unknown'
            ? { ...x, status: 'Unknown' as const, reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', ...(next.lastHeartbeatTime !== undefined ? { lastHeartbeatTime: next.lastHeartbeatTime } : {}), lastTransitionTime: ts }
            : { ...x, lastHeartbeatTime: ts },
        );
      upd.status.conditions = [...rest, next];
      const taints = (upd.spec.taints ?? []).filter((t) => !((t.key === 'node.kubernetes.io/not-ready' || t.key === 'node.kubernetes.io/unreachable') && t.effect === 'NoSchedule'));
      if (next.status === 'False') taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' });
      if (next.status === 'Unknown') taints.push({ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' });
      if (taints.length) upd.spec.taints = taints;
      else delete upd.spec.taints;
      c.write(upd);
      if (next.status !== 'True' && ready?.status === 'True') markPodsNotReady(c, node.metadata.name, ts);
      const reason = next.status === 'True' ? 'NodeReady' : 'NodeNotReady';
      c.recordEvent(node, 'Normal', reason, `Node ${node.metadata.name} status is now: ${reason}`, next.status === 'Unknown' ? 'node-controller' : 'kubelet', node.metadata.name);
    }
    noExecuteTaints(c);
  },
};

const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

/**
 * The node lifecycle controller's NoExecute taints (node_lifecycle_controller.go
 * processTaintBaseEviction and doNoExecuteTaintingPass): a node whose Ready is False gets
 * not-ready:NoExecute, one whose Ready is Unknown unreachable:NoExecute (the other swapped out),
 * a Ready one neither, so the taint eviction controller evicts pods that do not tolerate them.
 * handleDisruption: when every node of the zone (fixtures have one) is not Ready, the controller
 * enters master disruption mode and takes these taints off every node (markNodeAsReachable) instead,
 * which is why a fresh cluster without a CNI shows only not-ready:NoSchedule.
 */
function noExecuteTaints(c: Cluster): void {
  const nodes = c.store.list<Node>('Node');
  const readyOf = (n: Node): string | undefined => n.status?.conditions?.find((x) => x.type === 'Ready')?.status;
  const allDown = nodes.length > 0 && nodes.every((n) => readyOf(n) !== 'True');
  for (const node of nodes) {
    const ready = readyOf(node);
    const want = allDown ? undefined : ready === 'False' ? NOT_READY : ready === 'Unknown' ? UNREACHABLE : undefined;
    const taints = node.spec.taints ?? [];
    const have = taints.filter((t) => t.effect === 'NoExecute' && (t.key === NOT_READY || t.key === UNREACHABLE));
    if (have.length === (want ? 1 : 0) && (!want || have[0]!.key === want)) continue;
    const kept = taints.filter((t) => !have.includes(t));
    const next = want ? [...kept, { key: want, effect: 'NoExecute' as const, timeAdded: c.timestamp() }] : kept;
    const upd = clone(node);
    if (next.length) upd.spec.taints = next;
    else delete upd.spec.taints;
    c.write(upd);
  }
}

/**
 * The node lifecycle controller's MarkPodsNotReady (pkg/controller/util/node/controller_utils.go),
 * run by monitorNodeHealth when a node's Ready condition leaves True: every pod on the node gets
 * its Ready condition set False (only that condition, so the READY column, which counts ready
 * containers, does not change) and a Warning NodeNotReady event. Endpoints and Deployments read
 * the condition, so Services stop sending traffic there; the kubelet posts Ready again when it
 * syncs the pod after it comes back.
 */
function markPodsNotReady(c: Cluster, nodeName: string, ts: string): void {
  for (const pod of c.store.list<Pod>('Pod')) {
    if (pod.spec.nodeName !== nodeName) continue;
    const cond = pod.status?.conditions?.find((x) => x.type === 'Ready');
    if (!cond || cond.status === 'False') continue;
    const upd = clone(pod);
    upd.status!.conditions = upd.status!.conditions!.map((x) => (x.type === 'Ready' ? { ...x, status: 'False' as const, lastTransitionTime: ts } : x));
    c.write(upd);
    c.recordEvent(pod, 'Warning', 'NodeNotReady', 'Node is not ready', 'node-controller');
  }
}

/**
 * A kubelet that starts with a kubeconfig registers its Node (pkg/kubelet/kubelet_node_status.go
 * registerWithAPIServer): once per start, so a Node deleted while its kubelet runs comes back only
 * when the kubelet restarts. The labels and nodeInfo are what the kubelet sets (initialNode); the
 * Calico address annotation is calico-node's, which runs on every node at once.
 */
function registerNode(c: Cluster, host: Host): void {
  const since = host.data.units['kubelet']?.since ?? 0;
  if (!kubeletRunning(host) || (host.data.state.registeredAt ?? -1) >= since || !host.fs.exists('/etc/kubernetes/kubelet.conf')) return;
  host.data.state.registeredAt = since;
  if (c.store.get<Node>('Node', undefined, host.name)) return;
  const ts = c.timestamp();
  const cond = (type: string, reason: string, message: string): NodeCondition => ({ type, status: 'False', lastHeartbeatTime: ts, lastTransitionTime: ts, reason, message });
  const node: Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: host.name,
      labels: { 'beta.kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'kubernetes.io/hostname': host.name, 'kubernetes.io/os': 'linux' },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        ...(c.meta.cni.plugin === 'calico' ? calicoAddressAnnotations(host.data) : {}),
      },
    },
    spec: {},
    status: {
      addresses: nodeAddresses(host.data),
      allocatable: { cpu: '2', 'ephemeral-storage': '18698430040', 'hugepages-2Mi': '0', memory: '3912504Ki', pods: '110' },
      capacity: { cpu: '2', 'ephemeral-storage': '20289000Ki', 'hugepages-2Mi': '0', memory: '4014904Ki', pods: '110' },
      conditions: [
        cond('MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        architecture: host.data.os.arch,
        bootID: machineId(bootIdSeed(host.name, host.data.state.reboots), true),
        containerRuntimeVersion: host.data.os.runtime,
        kernelVersion: host.data.os.kernel,
        kubeProxyVersion: '',
        kubeletVersion: runningKubeletVersion(host, c.meta.kubernetesVersion),
        machineID: machineId(host.name, false),
        operatingSystem: 'linux',
        osImage: host.data.os.image,
        systemUUID: machineId(`${host.name}/uuid`, true),
      },
    },
  };
  c.insert(node);
  c.recordEvent(node, 'Normal', 'RegisteredNode', `Node ${host.name} event: Registered Node ${host.name} in Controller`, 'node-controller', host.name);
}

