/**
 * Container filesystems: what `kubectl exec POD -- cat /etc/resolv.conf` reads. The kubelet
 * writes /etc/resolv.conf, /etc/hosts and /etc/hostname when the sandbox is created (as the real
 * kubelet bind-mounts them); everything else a user writes inside the container lives here until
 * the pod is deleted. Kept as plain data in the cluster state, keyed by pod uid (the files the
 * kubelet writes for the pod) and by `uid/container` (each container's own root filesystem;
 * runtime/volumes.ts containerFs mounts the pod's files and volumes over it).
 */
import type { Cluster } from '../cluster.js';
import { Vfs, type VfsData } from '../node/vfs.js';

function table(c: Cluster): Record<string, VfsData> {
  return (c.state.podfs ??= {});
}

export function podFs(c: Cluster, uid: string): Vfs {
  const t = table(c);
  const data = (t[uid] ??= { files: {}, dirs: ['/', '/etc', '/tmp', '/root'] });
  // a change wakes the kubelet (controllers watching 'podfs'): an exec probe may read it
  return new Vfs(data, () => c.now(), () => {
    c.state.podFsGeneration = (c.state.podFsGeneration ?? 0) + 1;
  });
}

/** Forget a pod's files: the pod-level ones (`uid`) and each container's root (`uid/container`). */
export function dropPodFs(c: Cluster, uid: string): void {
  const t = table(c);
  delete t[uid];
  for (const k of Object.keys(t)) if (k.startsWith(`${uid}/`)) delete t[k];
}

export function hasPodFs(c: Cluster, uid: string): boolean {
  return uid in table(c);
}
