/**
 * Node status: what the kubelet posts about its node (conditions, addresses, nodeInfo) and what
 * the node lifecycle controller does when posts stop (pkg/controller/nodelifecycle: after the
 * 40 s grace period the Ready condition becomes Unknown, "Kubelet stopped posting node status.").
 * A node whose runtime has no CNI network is NotReady with the kubelet's real message.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Node, NodeCondition } from '../api/types.js';
import { clone } from '../api/store.js';
import { cniStatus } from '../cni/config.js';
import { kubeletRunning, kubeletStoppedAt } from '../controlplane.js';

const GRACE_MS = 40_000;

export const nodeStatusController: Controller = {
  name: 'node-status',
  watches: ['Node', 'hosts', 'time'],
  reconcile(c: Cluster): void {
    for (const node of c.store.list<Node>('Node')) {
      const host = c.host(node.metadata.name);
      if (!host) continue;
      const now = c.now();
      const ts = c.timestamp();
      const conds = node.status?.conditions ?? [];
      const ready = conds.find((x) => x.type === 'Ready');
      let next: NodeCondition;
      if (!kubeletRunning(host)) {
        const stoppedAt = kubeletStoppedAt(host, now);
        if (now < stoppedAt + GRACE_MS) {
          c.wakeAt(stoppedAt + GRACE_MS);
          continue;
        }
        if (ready?.status === 'Unknown') continue;
        next = {
          type: 'Ready',
          status: 'Unknown',
          lastHeartbeatTime: ready?.lastHeartbeatTime ?? ts,
          lastTransitionTime: ts,
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
        };
      } else {
        const cni = cniStatus(host);
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
      const rest = conds.filter((x) => x.type !== 'Ready').map((x) => (next.status === 'Unknown' ? { ...x, status: 'Unknown' as const, reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: ts } : x));
      upd.status.conditions = [...rest, next];
      const taints = (upd.spec.taints ?? []).filter((t) => t.key !== 'node.kubernetes.io/not-ready' && t.key !== 'node.kubernetes.io/unreachable');
      if (next.status === 'False') taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' });
      if (next.status === 'Unknown') taints.push({ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: ts });
      if (taints.length) upd.spec.taints = taints;
      else delete upd.spec.taints;
      c.write(upd);
      const reason = next.status === 'True' ? 'NodeReady' : 'NodeNotReady';
      c.recordEvent(node, 'Normal', reason, `Node ${node.metadata.name} status is now: ${reason}`, next.status === 'Unknown' ? 'node-controller' : 'kubelet', node.metadata.name);
    }
  },
};
