/**
 * Workload shapes the controller tests build: a Deployment in `default` whose pods run one nginx
 * container labelled `app: <name>`.
 */
import type { Deployment } from '../sim/api/types.js';

export function nginxDeployment(name: string, replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'nginx' }] } } },
  };
}
