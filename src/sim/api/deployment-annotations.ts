/**
 * The Deployment annotations that never travel between a Deployment and its ReplicaSets
 * (k8s.io/kubernetes pkg/controller/deployment/util/deployment_util.go annotationsToSkip; kubectl's
 * polymorphichelpers/rollback.go keeps the same list): the controller does not copy them to a new
 * ReplicaSet, and `rollout undo` keeps the Deployment's own values of them.
 */
export const DEPLOYMENT_REVISION = 'deployment.kubernetes.io/revision';
export const DEPLOYMENT_REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';

export const DEPLOYMENT_ANNOTATIONS_TO_SKIP: ReadonlySet<string> = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  DEPLOYMENT_REVISION,
  DEPLOYMENT_REVISION_HISTORY,
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);
