/**
 * `kubectl create service clusterip|nodeport|loadbalancer|externalname`
 * (k8s.io/kubectl pkg/cmd/create/create_service.go): ports from `--tcp=port[:targetPort]`, named
 * after the spec with `:` → `-`; label and selector `app=<name>`.
 */
import type { KObject, ServicePort } from '../../../../sim/api/types.js';
import { KubectlError } from '../../errors.js';
import { int, list, str } from '../../flags.js';
import { meta, type GenContext, type Generator } from './types.js';

type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';

/** strconv.ParseUint(s, 10, 16)-style errors as kubectl prints them. */
function parsePort(s: string): number {
  if (!/^\d+$/.test(s)) throw new KubectlError(`strconv.ParseUint: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (n > 65535) throw new KubectlError(`strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

function ports(ctx: GenContext, nodePort: number): ServicePort[] {
  return list(ctx.p.flags, 'tcp').map((spec) => {
    const [portStr, targetStr] = spec.includes(':') ? [spec.slice(0, spec.indexOf(':')), spec.slice(spec.indexOf(':') + 1)] : [spec, spec];
    const port = parsePort(portStr);
    const target: number | string = /^-?\d+$/.test(targetStr) ? Number(targetStr) : targetStr;
    return { name: spec.replace(/:/g, '-'), protocol: 'TCP', port, targetPort: target, ...(nodePort > 0 ? { nodePort } : {}) } as ServicePort;
  });
}

function serviceGenerator(type: ServiceType): Generator {
  const sub = type.toLowerCase();
  return {
    name: sub,
    path: `create service ${sub}`,
    required: type === 'ExternalName' ? ['external-name'] : [],
    errorPrefix: `failed to create ${type} service: `,
    build(ctx) {
      const clusterIP = str(ctx.p.flags, 'clusterip') ?? '';
      const tcp = list(ctx.p.flags, 'tcp');
      if (type !== 'ExternalName' && tcp.length === 0 && clusterIP !== 'None') throw new KubectlError('at least one tcp port specifier must be provided');
      const externalName = str(ctx.p.flags, 'external-name') ?? '';
      if (type === 'ExternalName' && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(externalName))
        throw new KubectlError(`invalid service external name ${externalName}`);
      const labels = { app: ctx.name };
      const ps = ports(ctx, type === 'NodePort' ? (int(ctx.p.flags, 'node-port') ?? 0) : 0);
      return {
        kind: 'Service',
        apiVersion: 'v1',
        metadata: meta(ctx, labels),
        spec: {
          ...(ps.length > 0 ? { ports: ps } : {}),
          selector: { ...labels },
          ...(clusterIP !== '' ? { clusterIP } : {}),
          type,
          ...(externalName ? { externalName } : {}),
        },
        status: { loadBalancer: {} },
      } as KObject;
    },
  };
}

export const clusterIPGenerator = serviceGenerator('ClusterIP');
export const nodePortGenerator = serviceGenerator('NodePort');
export const loadBalancerGenerator = serviceGenerator('LoadBalancer');
export const externalNameGenerator = serviceGenerator('ExternalName');

export const SERVICE_GENERATORS: readonly Generator[] = [clusterIPGenerator, externalNameGenerator, loadBalancerGenerator, nodePortGenerator];
