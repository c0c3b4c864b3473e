/**
 * API Priority and Fairness bootstrap configuration (flowcontrol.apiserver.k8s.io/v1): the
 * mandatory and suggested FlowSchemas and PriorityLevelConfigurations kube-apiserver creates at
 * start (k8s.io/apiserver pkg/apis/flowcontrol/bootstrap/default.go, v0.35.2), each annotated
 * `apf.kubernetes.io/autoupdate-spec: "true"` (newFlowSchema / newPriorityLevelConfiguration).
 * The configuration controller (pkg/util/flowcontrol/apf_controller.go) then writes each
 * FlowSchema's Dangling condition: False/Found while its priority level exists.
 */
import type { KObject } from './types.js';

const AUTO_UPDATE = { 'apf.kubernetes.io/autoupdate-spec': 'true' };
const API = 'flowcontrol.apiserver.k8s.io/v1';

type Subject = Record<string, unknown>;
const group = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const user = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemSA = (name: string): Subject[] => [{ kind: 'ServiceAccount', serviceAccount: { name, namespace: 'kube-system' } }];
const resourceRule = (verbs: string[], apiGroups: string[], resources: string[], clusterScope: boolean): Record<string, unknown> => ({
  verbs,
  apiGroups,
  resources,
  ...(clusterScope ? { clusterScope: true } : {}),
  namespaces: ['*'],
});
const nonResourceRule = (verbs: string[], nonResourceURLs: string[]): Record<string, unknown> => ({ verbs, nonResourceURLs });
const ALL_RESOURCES = resourceRule(['*'], ['*'], ['*'], true);
const ALL_NON_RESOURCES = nonResourceRule(['*'], ['*']);

function flowSchema(name: string, pl: string, matchingPrecedence: number, dm: string, rule: Record<string, unknown>): KObject {
  return {
    apiVersion: API,
    kind: 'FlowSchema',
    metadata: { name, annotations: { ...AUTO_UPDATE } },
    spec: {
      ...(dm ? { distinguisherMethod: { type: dm } } : {}),
      matchingPrecedence,
      priorityLevelConfiguration: { name: pl },
      rules: [rule],
    },
  };
}

function limited(name: string, shares: number, lendable: number, queuing?: [number, number, number]): KObject {
  const limitResponse = queuing ? { queuing: { handSize: queuing[1], queueLengthLimit: queuing[2], queues: queuing[0] }, type: 'Queue' } : { type: 'Reject' };
  return {
    apiVersion: API,
    kind: 'PriorityLevelConfiguration',
    metadata: { name, annotations: { ...AUTO_UPDATE } },
    spec: { limited: { lendablePercent: lendable, limitResponse, nominalConcurrencyShares: shares }, type: 'Limited' },
  };
}

/** The names of the mandatory objects, both kinds (MandatoryPriorityLevelConfigurations, MandatoryFlowSchemas); the rest are suggested. */
export const MANDATORY_APF_NAMES: ReadonlySet<string> = new Set(['exempt', 'catch-all']);

/** Mandatory then suggested priority levels, in default.go's order. */
export const BOOTSTRAP_PRIORITY_LEVELS: readonly KObject[] = [
  limited('catch-all', 5, 0),
  {
    apiVersion: API,
    kind: 'PriorityLevelConfiguration',
    metadata: { name: 'exempt', annotations: { ...AUTO_UPDATE } },
    spec: { exempt: { lendablePercent: 0, nominalConcurrencyShares: 0 }, type: 'Exempt' },
  },
  limited('system', 30, 33, [64, 6, 50]),
  limited('node-high', 40, 25, [64, 6, 50]),
  limited('leader-election', 10, 0, [16, 4, 50]),
  limited('workload-high', 40, 50, [128, 6, 50]),
  limited('workload-low', 100, 90, [128, 6, 50]),
  limited('global-default', 20, 50, [128, 6, 50]),
];

/** Mandatory then suggested flow schemas, in default.go's order. */
export const BOOTSTRAP_FLOW_SCHEMAS: readonly KObject[] = [
  flowSchema('exempt', 'exempt', 1, '', { subjects: group('system:masters'), resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] }),
  flowSchema('catch-all', 'catch-all', 10000, 'ByUser', { subjects: group('system:unauthenticated', 'system:authenticated'), resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] }),
  flowSchema('system-nodes', 'system', 500, 'ByUser', { subjects: group('system:nodes'), resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] }),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: group('system:nodes'),
    resourceRules: [resourceRule(['*'], [''], ['nodes', 'nodes/status'], true), resourceRule(['*'], ['coordination.k8s.io'], ['leases'], false)],
  }),
  flowSchema('probes', 'exempt', 2, '', { subjects: group('system:unauthenticated', 'system:authenticated'), nonResourceRules: [nonResourceRule(['get'], ['/healthz', '/readyz', '/livez'])] }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...user('system:kube-controller-manager', 'system:kube-scheduler'), ...kubeSystemSA('*')],
    resourceRules: [resourceRule(['get', 'create', 'update'], ['coordination.k8s.io'], ['leases'], false)],
  }),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', { subjects: user('system:kube-controller-manager'), resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] }),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', { subjects: user('system:kube-scheduler'), resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] }),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', { subjects: kubeSystemSA('*'), resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] }),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', { subjects: group('system:serviceaccounts'), resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] }),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', { subjects: group('system:unauthenticated', 'system:authenticated'), resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] }),
];

/**
 * The Dangling condition the configuration controller writes on a FlowSchema
 * (apf_controller.go digestConfigObjects / makeFlowSchemaConditionPatch wording).
 */
export function danglingCondition(fs: KObject, plExists: boolean, at: string): Record<string, unknown> {
  const pl = ((fs as unknown as { spec?: { priorityLevelConfiguration?: { name?: string } } }).spec?.priorityLevelConfiguration?.name) ?? '';
  return plExists
    ? { lastTransitionTime: at, message: `This FlowSchema references the PriorityLevelConfiguration object named "${pl}" and it exists`, reason: 'Found', status: 'False', type: 'Dangling' }
    : { lastTransitionTime: at, message: `This FlowSchema references the PriorityLevelConfiguration object named "${pl}" but there is no such object`, reason: 'NotFound', status: 'True', type: 'Dangling' };
}
