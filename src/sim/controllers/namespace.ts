/**
 * Namespace controller (pkg/controller/namespace/deletion): a Terminating namespace has its
 * contents deleted, then disappears. Also creates each namespace's `default` ServiceAccount and
 * `kube-root-ca.crt` ConfigMap, as the serviceaccount and root-ca-cert-publisher controllers do.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Namespace, Pod } from '../api/types.js';
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

export const namespaceController: Controller = {
  name: 'namespace',
  runsIn: 'controllerManager',
  watches: ['Namespace', 'ServiceAccount', 'ConfigMap', 'Pod'],
  reconcile(c: Cluster): void {
    for (const ns of c.store.list<Namespace>('Namespace')) {
      const name = ns.metadata.name;
      if (ns.metadata.deletionTimestamp) {
        let remaining = 0;
        for (const r of c.discovery().resources) {
          if (!r.namespaced) continue;
          for (const o of [...c.store.list(r.kind, name)]) {
            if (r.kind === 'Pod') {
              deletePod(c, o as Pod);
              if (c.store.get('Pod', name, o.metadata.name)) remaining++;
            } else c.store.remove(r.kind, name, o.metadata.name);
          }
        }
        if (remaining === 0) c.store.remove('Namespace', undefined, name);
        continue;
      }
      const ca = rootCa(c);
      if (!c.store.get('ServiceAccount', name, 'default'))
        c.insert({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: name } });
      if (!c.store.get('ConfigMap', name, 'kube-root-ca.crt'))
        c.insert({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'kube-root-ca.crt', namespace: name, annotations: { 'kubernetes.io/description': "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service (kubernetes.default.svc). No trust assumptions should be made about the contents of this bundle." } },
          data: { 'ca.crt': ca },
        });
    }
  },
};
