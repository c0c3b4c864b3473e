/**
 * Describers by kind (kubectl pkg/describe/describe.go DescriberFor). `describe` returns undefined
 * for a kind without a describer here (kubectl then uses the generic describer; not ported).
 * Several objects are joined by kubectl's cmd/describe as `first + "\n\n" + next…`: see joinDescribed.
 */
import type { ConfigMap, Deployment, KObject, Namespace, Pod, ReplicaSet, Secret, Service } from '../../../sim/api/types.js';
import { describeConfigMap } from './configmap.js';
import { describeDeployment } from './deployment.js';
import { describeNamespace } from './namespace.js';
import { describePod } from './pod.js';
import { describeReplicaSet } from './replicaset.js';
import { describeSecret } from './secret.js';
import { describeService } from './service.js';
import type { DescribeContext } from './writer.js';

export type { DescribeContext } from './writer.js';
export { describeEvents } from './events.js';

export type DescribedKind = 'Pod' | 'Service' | 'Deployment' | 'ReplicaSet' | 'ConfigMap' | 'Secret' | 'Namespace';

const DESCRIBERS: { readonly [K in DescribedKind]: (obj: KObject, ctx: DescribeContext) => string } = {
  Pod: (o, c) => describePod(o as Pod, c),
  Service: (o, c) => describeService(o as Service, c),
  Deployment: (o, c) => describeDeployment(o as Deployment, c),
  ReplicaSet: (o, c) => describeReplicaSet(o as ReplicaSet, c),
  ConfigMap: (o, c) => describeConfigMap(o as ConfigMap, c),
  Secret: (o, c) => describeSecret(o as Secret, c),
  Namespace: (o, c) => describeNamespace(o as Namespace, c),
};

export function hasDescriber(kind: string): kind is DescribedKind {
  return Object.prototype.hasOwnProperty.call(DESCRIBERS, kind);
}

export function describe(obj: KObject, ctx: DescribeContext): string | undefined {
  return hasDescriber(obj.kind) ? DESCRIBERS[obj.kind](obj, ctx) : undefined;
}

/** cmd/describe: objects after the first are preceded by "\n\n" (one blank line shows). */
export function joinDescribed(texts: readonly string[]): string {
  return texts.map((t, i) => (i === 0 ? t : `\n\n${t}`)).join('');
}
