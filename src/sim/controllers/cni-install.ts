/**
 * The CNI's install step on each node: when a pod of the CNI's DaemonSet starts on a node
 * (calico-node's install-cni init container, flannel's install-cni-plugin and install-cni, weave's
 * init), it copies its plugin binaries to /opt/cni/bin and writes its conflist to /etc/cni/net.d.
 * That is how a freshly joined node gets its network and goes Ready. It runs once per pod
 * (the pod's uid is remembered), so a config removed later stays removed until the pod restarts.
 * Pods are matched by label in every namespace: flannel's manifest has run in its own namespace
 * kube-flannel since v0.20 (flannel-io/flannel Documentation/kube-flannel.yml), older ones and
 * Calico's calico.yaml in kube-system.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Pod } from '../api/types.js';
import { cniConflist } from '../fixture/kubeadm-files.js';

const SELECTOR: Record<'calico' | 'flannel' | 'weave', [string, string]> = {
  calico: ['k8s-app', 'calico-node'],
  flannel: ['app', 'flannel'],
  weave: ['name', 'weave-net'],
};

export const cniInstallController: Controller = {
  name: 'cni-install',
  watches: ['Pod'],
  reconcile(c: Cluster): void {
    const plugin = c.meta.cni.plugin;
    const [key, value] = SELECTOR[plugin];
    const done = (c.state.cniInstalled ??= {});
    for (const pod of c.store.list<Pod>('Pod')) {
      if (pod.metadata.labels?.[key] !== value || pod.status?.phase !== 'Running') continue;
      const node = pod.spec.nodeName;
      const uid = pod.metadata.uid ?? pod.metadata.name;
      if (!node || done[node] === uid) continue;
      done[node] = uid;
      const host = c.host(node);
      if (!host) continue;
      const conf = cniConflist({ name: node, cni: plugin } as Parameters<typeof cniConflist>[0]);
      for (const b of conf.bins) if (!host.fs.exists(`/opt/cni/bin/${b}`)) host.fs.write(`/opt/cni/bin/${b}`, '\x7fELF (simulated CNI plugin binary)\n');
      if (!host.fs.exists(conf.path)) host.fs.write(conf.path, conf.content);
    }
  },
};
