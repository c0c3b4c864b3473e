/**
 * The ConfigMaps and Secrets a pod's containers read (pkg/kubelet/configmap and secret managers
 * register exactly these for a pod: volumes, projected sources, env valueFrom and envFrom), so the
 * kubelet is woken by a change to one of them and not by every object of the kind in the namespace.
 */
import type { Pod } from '../api/types.js';

export interface PodReferences {
  configMaps: string[];
  secrets: string[];
}

export function podReferences(pod: Pod): PodReferences {
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  for (const v of pod.spec.volumes ?? []) {
    const cm = v.configMap as { name?: string } | undefined;
    if (cm?.name) configMaps.add(cm.name);
    const sec = v.secret as { secretName?: string } | undefined;
    if (sec?.secretName) secrets.add(sec.secretName);
    for (const s of ((v.projected as { sources?: Record<string, { name?: string } | undefined>[] } | undefined)?.sources ?? [])) {
      if (s['configMap']?.name) configMaps.add(s['configMap'].name);
      if (s['secret']?.name) secrets.add(s['secret'].name);
    }
  }
  for (const ct of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    const c = ct as { env?: { valueFrom?: { configMapKeyRef?: { name?: string }; secretKeyRef?: { name?: string } } }[]; envFrom?: { configMapRef?: { name?: string }; secretRef?: { name?: string } }[] };
    for (const e of c.env ?? []) {
      if (e.valueFrom?.configMapKeyRef?.name) configMaps.add(e.valueFrom.configMapKeyRef.name);
      if (e.valueFrom?.secretKeyRef?.name) secrets.add(e.valueFrom.secretKeyRef.name);
    }
    for (const e of c.envFrom ?? []) {
      if (e.configMapRef?.name) configMaps.add(e.configMapRef.name);
      if (e.secretRef?.name) secrets.add(e.secretRef.name);
    }
  }
  return { configMaps: [...configMaps].sort(), secrets: [...secrets].sort() };
}
