/** `kubectl create deployment` (k8s.io/kubectl pkg/cmd/create/create_deployment.go). */
import type { Container, KObject } from '../../../../sim/api/types.js';
import { KubectlError } from '../../errors.js';
import { int, list } from '../../flags.js';
import { meta, type Generator } from './types.js';

/** Container name from an image: last path segment without tag or digest, `_` → `-` (buildPodSpec). */
export function containerNameFromImage(image: string): string {
  let name = image.split('/').pop() ?? image;
  name = name.split('@')[0]!.split(':')[0]!;
  return name.replace(/_/g, '-');
}

export const deploymentGenerator: Generator = {
  name: 'deployment',
  aliases: ['deploy'],
  path: 'create deployment',
  required: ['image'],
  errorPrefix: 'failed to create deployment: ',
  build(ctx) {
    const images = list(ctx.p.flags, 'image');
    const command = ctx.p.dashArgs;
    if (images.length > 1 && command.length > 0) throw new KubectlError('cannot specify multiple --image options and command');
    const port = int(ctx.p.flags, 'port') ?? -1;
    const used = new Set<string>();
    const containers: Container[] = images.map((image, i) => {
      let name = containerNameFromImage(image);
      if (used.has(name)) name = `${name}-${ctx.env.cluster.random.int(100000).toString(36)}`;
      used.add(name);
      return {
        name,
        image,
        ...(command.length > 0 ? { command: [...command] } : {}),
        ...(i === 0 && port >= 0 ? { ports: [{ containerPort: port }] } : {}),
        resources: {},
      } as Container;
    });
    const labels = { app: ctx.name };
    return {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: meta(ctx, labels),
      spec: {
        replicas: int(ctx.p.flags, 'replicas') ?? 1,
        selector: { matchLabels: { ...labels } },
        template: { metadata: { labels: { ...labels } }, spec: { containers } },
        strategy: {},
      },
      status: {},
    } as KObject;
  },
};
