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
    const seen = changesOf(c);
    const gen = (c.state.podFsGeneration = (c.state.podFsGeneration ?? 0) + 1);
    seen.at.set(podOf(uid), gen);
  });
}

/** The pod a podfs key belongs to: `uid` (the pod's own files) or `uid/container` (a container's root). */
function podOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? key : key.slice(0, slash);
}

/**
 * The generation of each pod's last file change, in this cluster object since `since` (the
 * generation when it first changed a file): kept beside the state, never in it, as the kubelet's
 * quiet pods are (controllers/kubelet.ts), so one pod's file write need not make the kubelet sync
 * every other pod again.
 */
const CHANGES = new WeakMap<Cluster, { since: number; at: Map<string, number> }>();

function changesOf(c: Cluster): { since: number; at: Map<string, number> } {
  let t = CHANGES.get(c);
  if (!t) CHANGES.set(c, (t = { since: c.state.podFsGeneration ?? 0, at: new Map() }));
  return t;
}

/** The container filesystems' generation now (what podFsChangedSince compares with). */
export function podFsGeneration(c: Cluster): number {
  return c.state.podFsGeneration ?? 0;
}

/**
 * Whether a file of the pod (its own files or a container's root) may have changed since the
 * generation `gen`: true when unknown (a generation before this cluster object recorded changes).
 */
export function podFsChangedSince(c: Cluster, uid: string, gen: number): boolean {
  if (podFsGeneration(c) === gen) return false;
  const t = CHANGES.get(c);
  if (!t || gen < t.since) return true;
  return (t.at.get(uid) ?? -1) > gen;
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
