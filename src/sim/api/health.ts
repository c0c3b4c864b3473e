/**
 * kube-apiserver's health and version endpoints (k8s.io/apiserver pkg/server/healthz: `ok`, or with
 * `?verbose` one `[+]NAME ok` line per check and `<endpoint> check passed`; `/version` is
 * apimachinery version.Info as JSON), which the system:public-info-viewer ClusterRole opens to everyone.
 */
import { apiServerVersion } from '../controlplane.js';
import type { Cluster } from '../cluster.js';

/** Checks every endpoint runs (healthz.go PingHealthz, LogHealthz; the etcd check). */
const BASE_CHECKS = ['ping', 'log', 'etcd'];

/** kube-apiserver post-start hooks, in the order the server registers them. */
const POST_START_HOOKS = [
  'start-apiserver-admission-initializer',
  'generic-apiserver-start-informers',
  'priority-and-fairness-config-consumer',
  'priority-and-fairness-filter',
  'storage-object-count-tracker-hook',
  'start-apiextensions-informers',
  'start-apiextensions-controllers',
  'crd-informer-synced',
  'start-system-namespaces-controller',
  'start-cluster-authentication-info-controller',
  'start-kube-apiserver-identity-lease-controller',
  'start-kube-apiserver-identity-lease-garbage-collector',
  'start-legacy-token-tracking-controller',
  'start-service-ip-repair-controllers',
  'rbac/bootstrap-roles',
  'scheduling/bootstrap-system-priority-classes',
  'priority-and-fairness-config-producer',
  'bootstrap-controller',
  'start-kubernetes-service-cidr-controller',
  'aggregator-reload-proxy-client-cert',
  'start-kube-aggregator-informers',
  'apiservice-status-local-available-controller',
  'apiservice-status-remote-available-controller',
  'apiservice-registration-controller',
  'apiservice-discovery-controller',
  'kube-apiserver-autoregistration',
];

/** The checks of one endpoint: readyz adds etcd-readiness, informer-sync and shutdown. */
function checksFor(endpoint: 'healthz' | 'livez' | 'readyz'): string[] {
  const base = endpoint === 'readyz' ? [...BASE_CHECKS, 'etcd-readiness', 'informer-sync'] : BASE_CHECKS;
  const hooks = POST_START_HOOKS.map((h) => `poststarthook/${h}`);
  const tail = ['autoregister-completion', 'poststarthook/apiservice-openapi-controller', 'poststarthook/apiservice-openapiv3-controller'];
  return [...base, ...hooks, ...tail, ...(endpoint === 'readyz' ? ['shutdown'] : [])];
}

/** Go's json.MarshalIndent of version.Info, as the server returns it. */
function versionBody(gitVersion: string): string {
  const m = /^v(\d+)\.(\d+)/.exec(gitVersion);
  const major = m?.[1] ?? '';
  const minor = m?.[2] ?? '';
  const fields: [string, string][] = [
    ['major', major],
    ['minor', minor],
    ['emulationMajor', major],
    ['emulationMinor', minor],
    ['minCompatibilityMajor', major],
    ['minCompatibilityMinor', String(Math.max(0, Number(minor) - 1))],
    ['gitVersion', gitVersion],
    ['gitTreeState', 'clean'],
    ['compiler', 'gc'],
    ['platform', 'linux/amd64'],
  ];
  return `{\n${fields.map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n}`;
}

/**
 * The body the API server returns for PATH on its health and version endpoints, or undefined for
 * any other path (served by ./rest.ts to `kubectl get --raw`, curl and `kubectl proxy`).
 */
export function apiServerPublicBody(cluster: Cluster, path: string): string | undefined {
  const q = path.indexOf('?');
  const route = (q >= 0 ? path.slice(0, q) : path).replace(/\/+$/, '');
  const query = new URLSearchParams(q >= 0 ? path.slice(q + 1) : '');
  if (route === '/healthz' || route === '/livez' || route === '/readyz') {
    const endpoint = route.slice(1) as 'healthz' | 'livez' | 'readyz';
    if (!query.has('verbose')) return 'ok';
    return `${checksFor(endpoint).map((c) => `[+]${c} ok\n`).join('')}${endpoint} check passed\n`;
  }
  const single = /^\/(healthz|livez|readyz)\/(.+)$/.exec(route);
  if (single && checksFor(single[1] as 'healthz' | 'livez' | 'readyz').includes(single[2]!)) return 'ok';
  if (route === '/version') return versionBody(apiServerVersion(cluster));
  return undefined;
}
