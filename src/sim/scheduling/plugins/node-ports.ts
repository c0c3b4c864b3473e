/**
 * NodePorts (pkg/scheduler/framework/plugins/nodeports): a hostPort (protocol, port, hostIP) that a
 * pod already on the node holds cannot be taken again; 0.0.0.0 (or no hostIP) conflicts with all.
 */
import type { Pod } from '../../api/types.js';
import type { FilterPlugin } from '../types.js';
import { status } from '../types.js';

export const ERR_REASON_PORTS = "node(s) didn't have free ports for the requested pod ports";

interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

function hostPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort) continue;
      out.push({ ip: (p as { hostIP?: string }).hostIP || '0.0.0.0', protocol: p.protocol ?? 'TCP', port: p.hostPort });
    }
  }
  return out;
}

function conflict(a: HostPort, b: HostPort): boolean {
  return a.port === b.port && a.protocol === b.protocol && (a.ip === b.ip || a.ip === '0.0.0.0' || b.ip === '0.0.0.0');
}

export const nodePorts: FilterPlugin = {
  name: 'NodePorts',
  filter(_ctx, pod, ni) {
    const want = hostPorts(pod);
    if (want.length === 0) return undefined;
    const used = ni.pods.flatMap(hostPorts);
    return want.some((w) => used.some((u) => conflict(w, u))) ? status(this.name, 'Unschedulable', ERR_REASON_PORTS) : undefined;
  },
};
