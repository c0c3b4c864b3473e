/**
 * `kubectl create ingress` (k8s.io/kubectl pkg/cmd/create/create_ingress.go): rules
 * `host/path=svc:port[,tls[=secret]]`; a path ending in `*` is a Prefix match (the `*` dropped),
 * otherwise Exact; a numeric port is `port.number`, a name `port.name`; rules for the same host
 * share one IngressRule.
 */
import type { KObject } from '../../../../sim/api/types.js';
import { KubectlError } from '../../errors.js';
import { list, str } from '../../flags.js';
import { meta, type Generator } from './types.js';

const RULE = /^(?<host>[\w*\-.]*)(?<path>\/.*)=(?<svc>[\w-]+):(?<port>[\w-]+)(,(?<tls>tls)(=(?<secret>[\w-]+))?)?$/;
const BACKEND = /^(?<svc>[\w-]+):(?<port>[\w-]+)$/;

function backend(svc: string, port: string): Record<string, unknown> {
  return { service: { name: svc, port: /^\d+$/.test(port) ? { number: Number(port) } : { name: port } } };
}

interface IngressRule {
  host?: string;
  http: { paths: { path: string; pathType: string; backend: Record<string, unknown> }[] };
}

export const ingressGenerator: Generator = {
  name: 'ingress',
  aliases: ['ing'],
  path: 'create ingress',
  errorPrefix: 'failed to create ingress: ',
  build(ctx) {
    const rules: IngressRule[] = [];
    const tls: { hosts?: string[]; secretName?: string }[] = [];
    for (const r of list(ctx.p.flags, 'rule')) {
      const m = RULE.exec(r)?.groups;
      if (!m) throw new KubectlError(`rule ${r} is invalid and should be in format host/path=svcname:svcport[,tls[=secret]]`);
      const host = m['host'] ?? '';
      let path = m['path']!;
      let pathType = 'Exact';
      if (path.endsWith('*')) {
        path = path.slice(0, -1);
        pathType = 'Prefix';
      }
      let rule = rules.find((x) => (x.host ?? '') === host);
      if (!rule) {
        rule = { ...(host ? { host } : {}), http: { paths: [] } };
        rules.push(rule);
      }
      rule.http.paths.push({ path, pathType, backend: backend(m['svc']!, m['port']!) });
      if (m['tls']) {
        const secret = m['secret'];
        let entry = tls.find((t) => t.secretName === secret);
        if (!entry) {
          entry = { ...(secret ? { secretName: secret } : {}) };
          tls.push(entry);
        }
        if (host) entry.hosts = [...(entry.hosts ?? []), host];
        // field order: hosts before secretName
        const { hosts, secretName } = entry;
        for (const k of Object.keys(entry)) delete (entry as Record<string, unknown>)[k];
        Object.assign(entry, hosts ? { hosts } : {}, secretName ? { secretName } : {});
      }
    }
    const def = str(ctx.p.flags, 'default-backend');
    let defaultBackend: Record<string, unknown> | undefined;
    if (def !== undefined) {
      const m = BACKEND.exec(def)?.groups;
      if (!m) throw new KubectlError(`default-backend should be in format servicename:serviceport`);
      defaultBackend = backend(m['svc']!, m['port']!);
    }
    if (rules.length === 0 && !defaultBackend) throw new KubectlError('not enough information provided: every ingress has to either specify a default-backend (which catches all traffic) or a list of rules (which catch specific paths)');
    const annotations: Record<string, string> = {};
    for (const a of list(ctx.p.flags, 'annotation')) {
      const eq = a.indexOf('=');
      if (eq <= 0) throw new KubectlError(`annotation ${a} is invalid and should be in format key=[value]`);
      annotations[a.slice(0, eq)] = a.slice(eq + 1);
    }
    const className = str(ctx.p.flags, 'class');
    return {
      kind: 'Ingress',
      apiVersion: 'networking.k8s.io/v1',
      metadata: { ...meta(ctx), ...(Object.keys(annotations).length ? { annotations } : {}) },
      spec: {
        ...(className ? { ingressClassName: className } : {}),
        ...(defaultBackend ? { defaultBackend } : {}),
        ...(tls.length ? { tls } : {}),
        ...(rules.length ? { rules } : {}),
      },
      status: { loadBalancer: {} },
    } as KObject;
  },
};
