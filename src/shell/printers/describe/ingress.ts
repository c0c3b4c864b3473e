/**
 * Ingress: describe.go IngressDescriber.describeIngressV1, kubectl v1.35. Each backend prints as
 * serviceBackendStringer (`name:port`) with the ready endpoints of its Service port in parentheses
 * (describeBackendV1: the EndpointSlices labelled with the Service name, formatEndpointSlices
 * limited to the named port), or the error kubectl got when the Service is missing.
 */
import type { Ingress, IngressBackend } from '../../../sim/api/types.js';
import { ingressAddress } from '../columns/ingresses.js';
import { formatEndpointSlices } from './service.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, LEVEL_1, LEVEL_2, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

function backendText(b: IngressBackend, ctx: DescribeContext): string {
  if (b.service) {
    const port = b.service.port.number ? String(b.service.port.number) : (b.service.port.name ?? '');
    const sb = `${b.service.name}:${port}`;
    const svc = (ctx.services ?? []).find((s) => s.metadata.name === b.service!.name);
    if (!svc) return `${sb} (<error: services "${b.service.name}" not found>)`;
    let spName = '';
    for (const sp of svc.spec.ports ?? []) {
      if (b.service.port.number && b.service.port.number === sp.port) spName = sp.name ?? '';
      else if (b.service.port.name && b.service.port.name === sp.name) spName = sp.name ?? '';
    }
    const slices = (ctx.endpointSlices ?? []).filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === b.service!.name);
    return `${sb} (${formatEndpointSlices(slices, spName)})`;
  }
  if (b.resource) return `APIGroup: ${b.resource.apiGroup ?? '<none>'}, Kind: ${b.resource.kind}, Name: ${b.resource.name}`;
  return '';
}

export function describeIngress(ing: Ingress, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${ing.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', ing.metadata.labels);
    w.write(LEVEL_0, `Namespace:\t${ing.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `Address:\t${ingressAddress(ing)}\n`);
    w.write(LEVEL_0, `Ingress Class:\t${ing.spec.ingressClassName ?? '<none>'}\n`);
    const def = ing.spec.defaultBackend ? backendText(ing.spec.defaultBackend, ctx) : '<default>';
    w.write(LEVEL_0, `Default backend:\t${def}\n`);
    const tls = ing.spec.tls ?? [];
    if (tls.length) {
      w.write(LEVEL_0, 'TLS:\n');
      for (const t of tls) w.write(LEVEL_1, t.secretName ? `${t.secretName} terminates ${(t.hosts ?? []).join(',')}\n` : `SNI routes ${(t.hosts ?? []).join(',')}\n`);
    }
    w.write(LEVEL_0, 'Rules:\n  Host\tPath\tBackends\n');
    w.write(LEVEL_1, '----\t----\t--------\n');
    let count = 0;
    for (const r of ing.spec.rules ?? []) {
      if (!r.http) continue;
      count++;
      w.write(LEVEL_1, `${r.host || '*'}\t\n`);
      for (const p of r.http.paths) w.write(LEVEL_2, `\t${p.path ?? ''} \t${backendText(p.backend, ctx)}\n`);
    }
    if (count === 0) w.write(LEVEL_1, `*\t*\t${def}\n`);
    printAnnotationsMultiline(w, 'Annotations', ing.metadata.annotations);
    maybeEvents(ctx.events, w, ctx.now);
  });
}
