/**
 * What the printers need to know about an object's type: its group (for `deployment.apps/x`
 * prefixes and the default-table choice) and whether it is namespaced. Taken from the resource
 * registry; for a kind the registry does not serve, derived from the object itself.
 */
import { hasKind, infoForKind } from '../../sim/api/registry.js';
import type { KObject } from '../../sim/api/types.js';

export interface KindInfo {
  kind: string;
  group: string;
  namespaced: boolean;
}

export function kindInfoOf(obj: KObject): KindInfo {
  if (hasKind(obj.kind)) {
    const info = infoForKind(obj.kind);
    return { kind: info.kind, group: info.group, namespaced: info.namespaced };
  }
  const slash = obj.apiVersion.indexOf('/');
  return { kind: obj.kind, group: slash >= 0 ? obj.apiVersion.slice(0, slash) : '', namespaced: obj.metadata.namespace !== undefined };
}

/** `pod`, `deployment.apps`: strings.ToLower(GroupKind.String()). */
export function kindPrefixOf(info: KindInfo): string {
  const k = info.kind.toLowerCase();
  return info.group ? `${k}.${info.group.toLowerCase()}` : k;
}
