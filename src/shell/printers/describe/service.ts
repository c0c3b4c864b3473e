/**
 * Service: describe.go describeService (:2970) and formatEndpointSlices (the Endpoints line is
 * computed client-side from the Service's EndpointSlices, per port name; reference §6.2).
 */
import type { EndpointSlice, Service } from '../../../sim/api/types.js';
import { formatLabels } from '../columns/cells.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

const joinHostPort = (ip: string, port: number): string => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);

/** formatEndpointSlices(slices, portName): up to 3 `ip:port` then ` + n more...`; no slices → `<none>`. */
export function formatEndpointSlices(slices: readonly EndpointSlice[], portName: string | undefined): string {
  if (slices.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const s of slices) {
    const eps = (s.endpoints ?? []).filter((e) => e.conditions?.ready !== false);
    const ports = s.ports ?? [];
    if (ports.length === 0) {
      for (const e of eps) {
        if (list.length === max) more = true;
        if (!more) list.push(e.addresses[0] ?? '');
        count++;
      }
      continue;
    }
    for (const p of ports) {
      if (portName !== undefined && (p.name ?? '') !== portName) continue;
      for (const e of eps) {
        if (list.length === max) more = true;
        if (!more) list.push(joinHostPort(e.addresses[0] ?? '', p.port ?? 0));
        count++;
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

export function describeService(svc: Service, ctx: DescribeContext): string {
  return tabbedString((w) => {
    const spec = svc.spec;
    w.write(LEVEL_0, `Name:\t${svc.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${svc.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', svc.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', svc.metadata.annotations);
    w.write(LEVEL_0, `Selector:\t${formatLabels(spec.selector)}\n`);
    w.write(LEVEL_0, `Type:\t${spec.type ?? ''}\n`);
    if (spec.ipFamilyPolicy !== undefined) w.write(LEVEL_0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
    w.write(LEVEL_0, `IP Families:\t${(spec.ipFamilies ?? []).length > 0 ? spec.ipFamilies!.join(',') : '<none>'}\n`);
    w.write(LEVEL_0, `IP:\t${spec.clusterIP ?? ''}\n`);
    w.write(LEVEL_0, `IPs:\t${(spec.clusterIPs ?? []).length > 0 ? spec.clusterIPs!.join(',') : '<none>'}\n`);
    if ((spec.externalIPs ?? []).length > 0) w.write(LEVEL_0, `External IPs:\t${spec.externalIPs!.join(',')}\n`);
    if (spec.loadBalancerIP) w.write(LEVEL_0, `Desired LoadBalancer IP:\t${spec.loadBalancerIP}\n`);
    if (spec.externalName) w.write(LEVEL_0, `External Name:\t${spec.externalName}\n`);
    const ingress = svc.status?.loadBalancer?.ingress ?? [];
    if (ingress.length > 0) {
      const parts = ingress.map((i) => {
        const addr = i.ip || i.hostname || '';
        return i.ipMode ? `${addr} (${i.ipMode})` : addr;
      });
      w.write(LEVEL_0, `LoadBalancer Ingress:\t${parts.join(', ')}\n`);
    }
    for (const p of spec.ports ?? []) {
      const name = p.name || '<unset>';
      const proto = p.protocol ?? 'TCP';
      w.write(LEVEL_0, `Port:\t${name}\t${p.port}/${proto}\n`);
      w.write(LEVEL_0, `TargetPort:\t${p.targetPort ?? p.port}/${proto}\n`);
      if (p.nodePort) w.write(LEVEL_0, `NodePort:\t${name}\t${p.nodePort}/${proto}\n`);
      w.write(LEVEL_0, `Endpoints:\t${formatEndpointSlices(ctx.endpointSlices ?? [], p.name ?? '')}\n`);
    }
    w.write(LEVEL_0, `Session Affinity:\t${spec.sessionAffinity ?? ''}\n`);
    if (spec.externalTrafficPolicy) w.write(LEVEL_0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
    if (spec.internalTrafficPolicy !== undefined) w.write(LEVEL_0, `Internal Traffic Policy:\t${spec.internalTrafficPolicy}\n`);
    if (spec.healthCheckNodePort) w.write(LEVEL_0, `HealthCheck NodePort:\t${spec.healthCheckNodePort}\n`);
    if ((spec.loadBalancerSourceRanges ?? []).length > 0) w.write(LEVEL_0, `LoadBalancer Source Ranges:\t${spec.loadBalancerSourceRanges!.join(',')}\n`);
    if (spec.trafficDistribution !== undefined) w.write(LEVEL_0, `Traffic Distribution:\t${spec.trafficDistribution}\n`);
    maybeEvents(ctx.events, w, ctx.now);
  });
}
