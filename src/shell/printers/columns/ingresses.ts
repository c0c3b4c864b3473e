/** Ingresses: printers.go ingressColumnDefinitions (:214-222), printIngress (:1439), formatHosts, formatPorts; reference §4.16. */
import type { Ingress } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME } from './cells.js';
import type { KindPrinter } from './types.js';

export function formatHosts(rules: Ingress['spec']['rules']): string {
  const rs = rules ?? [];
  const list: string[] = [];
  const max = 3;
  let more = false;
  for (const r of rs) {
    if (list.length === max) more = true;
    if (!more && r.host) list.push(r.host);
  }
  if (list.length === 0) return '*';
  const ret = list.join(',');
  return more ? `${ret} + ${rs.length - max} more...` : ret;
}

/** ingressLoadBalancerStatusStringer: sorted unique IPs/hostnames; empty string when none. */
export function ingressAddress(ing: Ingress): string {
  const set = new Set<string>();
  for (const i of ing.status?.loadBalancer?.ingress ?? []) {
    if (i.ip) set.add(i.ip);
    else if (i.hostname) set.add(i.hostname);
  }
  return [...set].sort().join(',');
}

export const ingresses: KindPrinter = {
  columns: [NAME, { name: 'Class' }, { name: 'Hosts' }, { name: 'Address' }, { name: 'Ports' }, AGE],
  row(obj, now) {
    const ing = obj as Ingress;
    return [
      ing.metadata.name,
      ing.spec.ingressClassName ?? '<none>',
      formatHosts(ing.spec.rules),
      ingressAddress(ing),
      (ing.spec.tls ?? []).length !== 0 ? '80, 443' : '80',
      translateTimestampSince(ing.metadata.creationTimestamp, now),
    ];
  },
};
