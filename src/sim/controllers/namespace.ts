/**
 * Namespace controller (pkg/controller/namespace/deletion): a Terminating namespace has its
 * contents deleted, then disappears. Also creates each namespace's `default` ServiceAccount and
 * `kube-root-ca.crt` ConfigMap, as the serviceaccount and root-ca-cert-publisher controllers do.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Namespace, NamespaceCondition, Pod } from '../api/types.js';
import { clone } from '../api/store.js';
import { hasFinalizers } from '../api/deletion.js';
import { deletePod } from './replicaset.js';
import { runningFlags } from '../controlplane.js';

/** A stand-in for clusters without a control-plane PKI on disk (hand-built test clusters). */
export const ROOT_CA = '-----BEGIN CERTIFICATE-----\nMIIDBTCCAe2gAwIBAgIIcka+lab+root+ca+simulated+certificate+AAAAAAAA\n-----END CERTIFICATE-----\n';

/**
 * What root-ca-cert-publisher publishes (pkg/controller/certificates/rootcacertpublisher): the
 * controller-manager's --root-ca-file as read on the control-plane node, the cluster's CA.
 */
function rootCa(c: Cluster): string {
  const file = runningFlags(c, 'kube-controller-manager').get('root-ca-file') ?? '/etc/kubernetes/pki/ca.crt';
  const text = c.host(c.meta.controlPlane)?.fs.tryRead(file);
  return text && text.includes('-----BEGIN CERTIFICATE-----') ? text : ROOT_CA;
}

/**
 * How long after the DELETE the deleter's first pass empties the namespace. Upstream it is never
 * at once: the namespace update reaches the controller through its informer and rate-limited queue
 * (namespace_controller.go), and deleteAllContent first discovers every served group-version
 * (discovery.ServerPreferredNamespacedResources, one request per group) before its first
 * DeleteCollection. kubectl's own requests are faster: `kubectl delete -f` of a Namespace and the
 * objects in it deletes each of them (`configmap "a" deleted from shop namespace`), not NotFound.
 * One simulated second stands for that latency (not measured request by request).
 */
const DELETER_LATENCY_MS = 1000;

/** namespaced_resources_deleter.go finalizerEstimateSeconds. */
const FINALIZER_ESTIMATE_S = 15;

/** The condition types the deleter maintains, in its order, with their success reason and message. */
const CONDITION_TYPES: readonly [type: string, reason: string, message: string][] = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  ['NamespaceDeletionContentFailure', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
];

/** `a, b` of the counts, sorted as the deleter sorts its lines (`pods. has 2 resource instances`). */
function countLines(counts: ReadonlyMap<string, number>, line: (key: string, n: number) => string): string {
  return [...counts].map(([k, n]) => line(k, n)).sort().join(', ');
}

/**
 * namespace_condition_utils.go ProcessContentTotals + updateConditions: every condition type is
 * present, the failing ones True with what remains; a condition's transition time moves only when
 * its status changes.
 */
export function deletionConditions(
  prev: readonly NamespaceCondition[],
  remaining: ReadonlyMap<string, number>,
  finalizers: ReadonlyMap<string, number>,
  ts: string,
): NamespaceCondition[] {
  const failing = new Map<string, [reason: string, message: string]>();
  if (remaining.size > 0) failing.set('NamespaceContentRemaining', ['SomeResourcesRemain', `Some resources are remaining: ${countLines(remaining, (r, n) => `${r} has ${n} resource instances`)}`]);
  if (finalizers.size > 0)
    failing.set('NamespaceFinalizersRemaining', ['SomeFinalizersRemain', `Some content in the namespace has finalizers remaining: ${countLines(finalizers, (f, n) => `${f} in ${n} resource instances`)}`]);
  const out = prev.map((cnd) => ({ ...cnd }));
  for (const [type, okReason, okMessage] of CONDITION_TYPES) {
    const bad = failing.get(type);
    const want: NamespaceCondition = bad ? { type, status: 'True', lastTransitionTime: ts, reason: bad[0], message: bad[1] } : { type, status: 'False', lastTransitionTime: ts, reason: okReason, message: okMessage };
    const old = out.find((cnd) => cnd.type === type);
    if (!old) out.push(want);
    else if (old.status !== want.status || old.reason !== want.reason || old.message !== want.message) {
      if (old.status !== want.status) old.lastTransitionTime = ts;
      old.status = want.status;
      old.reason = want.reason!;
      old.message = want.message!;
    }
  }
  return out;
}

/**
 * namespaced_resources_deleter.go deleteAllContent: delete everything in the namespace (pods
 * gracefully; finalizers keep what they keep), count what is left by resource and by finalizer,
 * record that in the namespace's conditions, and remove the namespace once nothing is left
 * (finalizeNamespace takes `kubernetes` off spec.finalizers; nothing else holds it here).
 */
function deleteContent(c: Cluster, ns: Namespace): void {
  const name = ns.metadata.name;
  const remaining = new Map<string, number>();
  const finalizers = new Map<string, number>();
  for (const r of c.discovery().resources) {
    if (!r.namespaced) continue;
    for (const o of [...c.store.list(r.kind, name)]) {
      if (r.kind === 'Pod') deletePod(c, o as Pod);
      else c.deleteObject(r.kind, name, o.metadata.name);
      const left = c.store.get(r.kind, name, o.metadata.name);
      if (!left) continue;
      const key = `${r.resource}.${r.group}`;
      remaining.set(key, (remaining.get(key) ?? 0) + 1);
      for (const f of left.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    }
  }
  if (remaining.size === 0) {
    // finalizeNamespace takes `kubernetes` off spec.finalizers; the registry then removes the
    // namespace unless metadata.finalizers still hold it (ShouldDeleteNamespaceDuringUpdate)
    if (!hasFinalizers(ns)) c.store.remove('Namespace', undefined, name);
    else if (ns.spec?.finalizers?.length) {
      // deleteAllContent records its conditions (all clear) before finalizing
      const upd = clone(ns);
      upd.spec = {};
      upd.status = { phase: 'Terminating', conditions: deletionConditions(ns.status?.conditions ?? [], remaining, finalizers, c.timestamp()) };
      c.write(upd);
    }
    return;
  }
  // namespace_controller.go requeues after estimate/2+1 s; content held by finalizers estimates
  // finalizerEstimateSeconds (15): whoever removes them, the namespace goes at the next look
  if (finalizers.size > 0) c.wakeAt(c.now() + (Math.floor(FINALIZER_ESTIMATE_S / 2) + 1) * 1000);
  const conditions = deletionConditions(ns.status?.conditions ?? [], remaining, finalizers, c.timestamp());
  if (JSON.stringify(conditions) === JSON.stringify(ns.status?.conditions ?? [])) return;
  const upd = clone(ns);
  upd.status = { phase: 'Terminating', conditions };
  c.write(upd);
}

export const namespaceController: Controller = {
  name: 'namespace',
  runsIn: 'controllerManager',
  watches: ['Namespace', 'ServiceAccount', 'ConfigMap', 'Pod', 'PersistentVolumeClaim', 'time'],
  reconcile(c: Cluster): void {
    for (const ns of c.store.list<Namespace>('Namespace')) {
      const name = ns.metadata.name;
      if (ns.metadata.deletionTimestamp) {
        const due = Date.parse(ns.metadata.deletionTimestamp) + DELETER_LATENCY_MS;
        if (c.now() < due) c.wakeAt(due);
        else deleteContent(c, ns);
        continue;
      }
      if (!c.store.get('ServiceAccount', name, 'default'))
        c.insert({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: name } });
      if (!c.store.get('ConfigMap', name, 'kube-root-ca.crt'))
        c.insert({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'kube-root-ca.crt', namespace: name, annotations: { 'kubernetes.io/description': "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service (kubernetes.default.svc). No trust assumptions should be made about the contents of this bundle." } },
          // read only when it is published: every Pod change runs this loop over every namespace
          data: { 'ca.crt': rootCa(c) },
        });
    }
  },
};
