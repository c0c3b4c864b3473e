/**
 * kustomize's legacy output order (api/resid/gvk.go IsLessThan, resmap legacyIDSorter): kinds
 * in orderFirst come first in that order, orderLast at the end, all others between them sorted by
 * `group_version_kind` (`~G` for the core group); ties by namespace and name.
 */
import { type Res, kindOf, nameOf, nsOf } from './types.js';

const ORDER_FIRST = [
  'Namespace', 'ResourceQuota', 'StorageClass', 'CustomResourceDefinition', 'ServiceAccount', 'PodSecurityPolicy', 'Role',
  'ClusterRole', 'RoleBinding', 'ClusterRoleBinding', 'ConfigMap', 'Secret', 'Endpoints', 'Service', 'LimitRange',
  'PriorityClass', 'PersistentVolume', 'PersistentVolumeClaim', 'Deployment', 'StatefulSet', 'CronJob', 'PodDisruptionBudget',
];
const ORDER_LAST = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

function rank(kind: string): number {
  const f = ORDER_FIRST.indexOf(kind);
  if (f >= 0) return f - ORDER_FIRST.length;
  const l = ORDER_LAST.indexOf(kind);
  return l >= 0 ? l + 1 : 0;
}

function gvkString(r: Res): string {
  const av = String(r.obj['apiVersion'] ?? '');
  const [g, v] = av.includes('/') ? av.split('/') : ['', av];
  return `${g || '~G'}_${v || '~V'}_${kindOf(r.obj) || '~K'}`;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function legacyOrder(resources: Res[]): Res[] {
  return [...resources].sort((a, b) => {
    const ga = gvkString(a);
    const gb = gvkString(b);
    if (ga !== gb) {
      const ra = rank(kindOf(a.obj));
      const rb = rank(kindOf(b.obj));
      return ra !== rb ? ra - rb : cmp(ga, gb);
    }
    return cmp(`${nsOf(a.obj) ?? ''}|${nameOf(a.obj)}`, `${nsOf(b.obj) ?? ''}|${nameOf(b.obj)}`);
  });
}
