/**
 * Container filesystems: what `kubectl exec POD -- cat /etc/resolv.conf` reads. The kubelet
 * writes /etc/resolv.conf, /etc/hosts and /etc/hostname when the sandbox is created (as the real
 * kubelet bind-mounts them); everything else a user writes inside the container lives here until
 * the pod is deleted. Kept as plain data in the cluster state, keyed by pod uid.
 */
import type { Cluster } from '../cluster.js';
import { Vfs, type VfsData } from '../node/vfs.js';

function table(c: Cluster): Record<string, VfsData> {
  return (c.state.podfs ??= {});
}

export function podFs(c: Cluster, uid: string): Vfs {
  const t = table(c);
  const data = (t[uid] ??= { files: {}, dirs: ['/', '/etc', '/tmp', '/root'] });
  return new Vfs(data, () => c.now());
}

export function dropPodFs(c: Cluster, uid: string): void {
  delete table(c)[uid];
}

export function hasPodFs(c: Cluster, uid: string): boolean {
  return uid in table(c);
}
