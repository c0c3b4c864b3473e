/**
 * Which client tool a traffic or DNS check uses from a place: inside a container only what its
 * image ships (busybox has wget and nslookup, netshoot has curl and dig), on hosts curl and dig.
 */
import type { Cluster } from '../../sim/cluster.js';
import type { Pod } from '../../sim/api/types.js';
import { lookupImage } from '../../sim/images.js';
import type { Place } from './types.js';

/** Tools available at a place; undefined for hosts (any host tool may be tried). */
export function toolsAt(cluster: Cluster, place: Place | undefined): readonly string[] | undefined {
  if (!place || 'host' in place) return undefined;
  const pod = cluster.store.get<Pod>('Pod', place.namespace, place.pod);
  const ct = pod?.spec.containers.find((c) => c.name === place.container) ?? pod?.spec.containers[0];
  return ct ? (lookupImage(ct.image)?.tools ?? []) : [];
}

/** The first of `prefs` available at the place (hosts: the first). */
export function pickTool(cluster: Cluster, place: Place | undefined, prefs: readonly string[]): string | undefined {
  const tools = toolsAt(cluster, place);
  if (!tools) return prefs[0];
  return prefs.find((p) => tools.includes(p));
}
