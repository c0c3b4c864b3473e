/**
 * Services: printers.go serviceColumnDefinitions (:201-210), printService (:1374),
 * getServiceExternalIP, loadBalancerStatusStringer, makePortString; reference §4.2.
 */
import type { Service, ServicePort } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, formatLabels } from './cells.js';
import type { KindPrinter } from './types.js';

/** loadBalancerStatusStringer: sorted unique ingress IPs (or hostnames), joined by `,`. */
export function loadBalancerIngress(ingress: readonly { ip?: string; hostname?: string }[] | undefined): string {
  const set = new Set<string>();
  for (const i of ingress ?? []) {
    if (i.ip) set.add(i.ip);
    else if (i.hostname) set.add(i.hostname);
  }
  return [...set].sort().join(',');
}

export function serviceExternalIP(svc: Service): string {
  const ext = svc.spec.externalIPs ?? [];
  switch (svc.spec.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return ext.length > 0 ? ext.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIngress(svc.status?.loadBalancer?.ingress);
      if (ext.length > 0) return [...(lb ? lb.split(',') : []), ...ext].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return svc.spec.externalName ?? '';
  }
  return '<unknown>';
}

/** makePortString: `80/TCP`, `80:30080/TCP`, joined by `,`. */
export function makePortString(ports: readonly ServicePort[] | undefined): string {
  return (ports ?? [])
    .map((p) => (p.nodePort && p.nodePort > 0 ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`))
    .join(',');
}

export const services: KindPrinter = {
  columns: [NAME, { name: 'Type' }, { name: 'Cluster-IP' }, { name: 'External-IP' }, { name: 'Port(s)' }, AGE, { name: 'Selector', wide: true }],
  row(obj, now) {
    const svc = obj as Service;
    const ips = svc.spec.clusterIPs ?? (svc.spec.clusterIP ? [svc.spec.clusterIP] : []);
    return [
      svc.metadata.name,
      svc.spec.type ?? '',
      ips[0] ?? '<none>',
      serviceExternalIP(svc),
      makePortString(svc.spec.ports) || '<none>',
      translateTimestampSince(svc.metadata.creationTimestamp, now),
      formatLabels(svc.spec.selector),
    ];
  },
};
