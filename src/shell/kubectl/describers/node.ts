/**
 * `kubectl describe node` (k8s.io/kubectl pkg/describe/describe.go describeNode,
 * describeNodeResource, printNodeTaintsMultiline; reference §6.4). The printers package had no
 * Node describer, so it lives here.
 */
import type { KEvent, KObject, Node, Pod, Taint } from '../../../sim/api/types.js';
import { nodeRoles } from '../../printers/columns/nodes.js';
import { rfc1123z, translateTimestampSince } from '../../printers/duration.js';
import { describeEvents } from '../../printers/describe/events.js';
import { LEVEL_0, LEVEL_1, type PrefixWriter, printAnnotationsMultiline, printLabelsMultiline, tabbedString } from '../../printers/describe/writer.js';
import { type Quantity, ZERO, addQuantity, formatQuantity, parseQuantity } from './quantity.js';

export interface NodeDescribeContext {
  now: number;
  /** Non-terminated pods with spec.nodeName = node, server order. */
  pods: readonly Pod[];
  lease?: KObject;
  events?: readonly KEvent[];
}

const EFFECT_ORDER = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** printNodeTaintsMultiline: sorted by effect, then key; `key[=value]:Effect`. */
function printTaints(w: PrefixWriter, taints: readonly Taint[] | undefined): void {
  w.write(LEVEL_0, 'Taints:\t');
  const ts = [...(taints ?? [])];
  if (ts.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const lines: string[] = [];
  for (const effect of EFFECT_ORDER) {
    const keys = ts.filter((t) => t.effect === effect).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const t of keys) lines.push(`${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
  }
  lines.forEach((l, i) => {
    if (i !== 0) w.write(LEVEL_0, '\t');
    w.write(LEVEL_0, `${l}\n`);
  });
}

function time(ts: string | undefined): string {
  return ts ? rfc1123z(ts) : '<unset>';
}

type Amounts = Record<string, Quantity>;

/**
 * k8s.io/kubectl pkg/util/resource PodRequestsAndLimits (v1.35, podRequests/podLimits): the app
 * containers summed; a sidecar (an init container with restartPolicy Always) adds to the sum and
 * to the running total of sidecars started before each later init container; the pod's amount is
 * the larger of that sum and the largest init container's (plus the sidecars started before it);
 * spec.overhead adds to requests, and to each limit that is set. The in-place resize statuses
 * (determineContainerReqs) are not simulated.
 */
function podAmounts(pod: Pod, which: 'requests' | 'limits'): Amounts {
  const add = (list: Amounts, more: Record<string, string> | undefined): void => {
    for (const [k, v] of Object.entries(more ?? {})) list[k] = addQuantity(list[k] ?? ZERO, parseQuantity(v));
  };
  const max = (list: Amounts, more: Amounts): void => {
    for (const [k, q] of Object.entries(more)) if (list[k] === undefined || q.milli > list[k].milli) list[k] = q;
  };
  const out: Amounts = {};
  for (const c of pod.spec.containers) add(out, c.resources?.[which]);
  const sidecars: Amounts = {};
  const init: Amounts = {};
  for (const c of pod.spec.initContainers ?? []) {
    let amounts: Amounts;
    if (c['restartPolicy'] === 'Always') {
      add(out, c.resources?.[which]);
      add(sidecars, c.resources?.[which]);
      amounts = sidecars;
    } else {
      amounts = {};
      add(amounts, c.resources?.[which]);
      for (const [k, q] of Object.entries(sidecars)) amounts[k] = addQuantity(amounts[k] ?? ZERO, q);
    }
    max(init, amounts);
  }
  max(out, init);
  const overhead = (pod.spec as { overhead?: Record<string, string> }).overhead ?? {};
  for (const [k, v] of Object.entries(overhead)) if (which === 'requests' || (out[k] && out[k].milli !== 0)) out[k] = addQuantity(out[k] ?? ZERO, parseQuantity(v));
  return out;
}

function fraction(q: Quantity | undefined, total: Quantity | undefined): number {
  if (!q || !total || total.milli === 0) return 0;
  return Math.trunc((q.milli / total.milli) * 100);
}

function cell(q: Quantity | undefined, total: Quantity | undefined): string {
  return `${formatQuantity(q ?? ZERO)} (${fraction(q, total)}%)`;
}

function describeNodeResource(node: Node, pods: readonly Pod[], w: PrefixWriter, now: number): void {
  w.write(LEVEL_0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(LEVEL_1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(LEVEL_1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const alloc: Amounts = {};
  const src = Object.keys(node.status?.allocatable ?? {}).length > 0 ? node.status?.allocatable : node.status?.capacity;
  for (const [k, v] of Object.entries(src ?? {})) alloc[k] = parseQuantity(v);
  const totalReq: Amounts = {};
  const totalLim: Amounts = {};
  for (const pod of pods) {
    const req = podAmounts(pod, 'requests');
    const lim = podAmounts(pod, 'limits');
    for (const [k, v] of Object.entries(req)) totalReq[k] = addQuantity(totalReq[k] ?? ZERO, v);
    for (const [k, v] of Object.entries(lim)) totalLim[k] = addQuantity(totalLim[k] ?? ZERO, v);
    w.write(
      LEVEL_1,
      `${pod.metadata.namespace ?? ''}\t${pod.metadata.name}\t\t${cell(req['cpu'], alloc['cpu'])}\t${cell(lim['cpu'], alloc['cpu'])}\t${cell(req['memory'], alloc['memory'])}\t${cell(lim['memory'], alloc['memory'])}\t${translateTimestampSince(pod.metadata.creationTimestamp, now)}\n`,
    );
  }
  w.write(LEVEL_0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(LEVEL_1, 'Resource\tRequests\tLimits\n');
  w.write(LEVEL_1, '--------\t--------\t------\n');
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) w.write(LEVEL_1, `${r}\t${cell(totalReq[r], alloc[r])}\t${cell(totalLim[r], alloc[r])}\n`);
  const names = Object.keys(alloc).sort();
  for (const r of names.filter((n) => n.startsWith('hugepages-'))) w.write(LEVEL_1, `${r}\t${cell(totalReq[r], alloc[r])}\t${cell(totalLim[r], alloc[r])}\n`);
  const standard = new Set(['cpu', 'memory', 'ephemeral-storage', 'pods', 'storage']);
  for (const r of names.filter((n) => !n.startsWith('hugepages-') && !standard.has(n)))
    w.write(LEVEL_1, `${r}\t${formatQuantity(totalReq[r] ?? ZERO)}\t${formatQuantity(totalLim[r] ?? ZERO)}\n`);
}

export function describeNode(node: Node, ctx: NodeDescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${node.metadata.name}\n`);
    w.write(LEVEL_0, `Roles:\t${nodeRoles(node).join(',') || '<none>'}\n`);
    printLabelsMultiline(w, 'Labels', node.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', node.metadata.annotations);
    w.write(LEVEL_0, `CreationTimestamp:\t${time(node.metadata.creationTimestamp)}\n`);
    printTaints(w, node.spec.taints);
    w.write(LEVEL_0, `Unschedulable:\t${node.spec.unschedulable === true}\n`);
    if (ctx.lease) {
      const spec = (ctx.lease as KObject & { spec?: { holderIdentity?: string; acquireTime?: string; renewTime?: string } }).spec ?? {};
      w.write(LEVEL_0, 'Lease:\n');
      w.write(LEVEL_1, `HolderIdentity:\t${spec.holderIdentity ?? '<unset>'}\n`);
      w.write(LEVEL_1, `AcquireTime:\t${time(spec.acquireTime)}\n`);
      w.write(LEVEL_1, `RenewTime:\t${time(spec.renewTime)}\n`);
    }
    const conds = node.status?.conditions ?? [];
    if (conds.length > 0) {
      w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
      w.write(LEVEL_1, '----\t------\t-----------------\t------------------\t------\t-------\n');
      for (const c of conds)
        w.write(LEVEL_1, `${c.type} \t${c.status} \t${time(c.lastHeartbeatTime)} \t${time(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`);
    }
    w.write(LEVEL_0, 'Addresses:\n');
    for (const a of node.status?.addresses ?? []) w.write(LEVEL_1, `${a.type}:\t${a.address}\n`);
    for (const [title, list] of [['Capacity', node.status?.capacity], ['Allocatable', node.status?.allocatable]] as const) {
      if (!list || Object.keys(list).length === 0) continue;
      w.write(LEVEL_0, `${title}:\n`);
      for (const k of Object.keys(list).sort()) w.write(LEVEL_0, `  ${k}:\t${list[k]}\n`);
    }
    const info = node.status?.nodeInfo;
    w.write(LEVEL_0, 'System Info:\n');
    w.write(LEVEL_0, `  Machine ID:\t${info?.machineID ?? ''}\n`);
    w.write(LEVEL_0, `  System UUID:\t${info?.systemUUID ?? ''}\n`);
    w.write(LEVEL_0, `  Boot ID:\t${info?.bootID ?? ''}\n`);
    w.write(LEVEL_0, `  Kernel Version:\t${info?.kernelVersion ?? ''}\n`);
    w.write(LEVEL_0, `  OS Image:\t${info?.osImage ?? ''}\n`);
    w.write(LEVEL_0, `  Operating System:\t${info?.operatingSystem ?? ''}\n`);
    w.write(LEVEL_0, `  Architecture:\t${info?.architecture ?? ''}\n`);
    w.write(LEVEL_0, `  Container Runtime Version:\t${info?.containerRuntimeVersion ?? ''}\n`);
    w.write(LEVEL_0, `  Kubelet Version:\t${info?.kubeletVersion ?? ''}\n`);
    w.write(LEVEL_0, `  Kube-Proxy Version:\t${info?.kubeProxyVersion ?? ''}\n`);
    if (node.spec.podCIDR) w.write(LEVEL_0, `PodCIDR:\t${node.spec.podCIDR}\n`);
    if (node.spec.podCIDRs && node.spec.podCIDRs.length > 0) w.write(LEVEL_0, `PodCIDRs:\t${node.spec.podCIDRs.join(',')}\n`);
    if (node.spec.providerID) w.write(LEVEL_0, `ProviderID:\t${node.spec.providerID}\n`);
    describeNodeResource(node, ctx.pods, w, ctx.now);
    if (ctx.events) describeEvents(ctx.events, w, ctx.now);
  });
}
