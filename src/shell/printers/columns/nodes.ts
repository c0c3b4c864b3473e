/** Nodes: printers.go nodeColumnDefinitions (:252-263), printNode (:1934), findNodeRoles; reference §4.11. */
import type { Node } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME } from './cells.js';
import type { KindPrinter } from './types.js';

const ROLE_PREFIX = 'node-role.kubernetes.io/';

/** findNodeRoles: sorted unique suffixes of node-role labels plus `kubernetes.io/role` values. */
export function nodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith(ROLE_PREFIX)) {
      const role = k.slice(ROLE_PREFIX.length);
      if (role.length > 0) roles.add(role);
    } else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

/** `Ready`, `NotReady`, `Unknown`, then `,SchedulingDisabled` when cordoned. */
export function nodeStatus(node: Node): string {
  const status: string[] = [];
  const ready = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').pop();
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (status.length === 0) status.push('Unknown');
  if (node.spec.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

function address(node: Node, type: string): string {
  return (node.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';
}

export const nodes: KindPrinter = {
  columns: [
    NAME,
    { name: 'Status' },
    { name: 'Roles' },
    AGE,
    { name: 'Version' },
    { name: 'Internal-IP', wide: true },
    { name: 'External-IP', wide: true },
    { name: 'OS-Image', wide: true },
    { name: 'Kernel-Version', wide: true },
    { name: 'Container-Runtime', wide: true },
  ],
  row(obj, now) {
    const node = obj as Node;
    const info = node.status?.nodeInfo;
    return [
      node.metadata.name,
      nodeStatus(node),
      nodeRoles(node).join(',') || '<none>',
      translateTimestampSince(node.metadata.creationTimestamp, now),
      info?.kubeletVersion ?? '',
      address(node, 'InternalIP'),
      address(node, 'ExternalIP'),
      info?.osImage || '<unknown>',
      info?.kernelVersion || '<unknown>',
      info?.containerRuntimeVersion || '<unknown>',
    ];
  },
};
