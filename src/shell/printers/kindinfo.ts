/**
 * What the printers need to know about an object's type: its group (for `deployment.apps/x`
 * prefixes and the default-table choice) and whether it is namespaced. Taken from the resource
 * registry; for a kind the registry does not serve, derived from the object itself.
 */
import { BUILTIN, hasKind, infoForKind } from '../../sim/api/registry.js';
import type { KObject } from '../../sim/api/types.js';

export interface KindInfo {
  kind: string;
  group: string;
  namespaced: boolean;
}

export function kindInfoOf(obj: KObject): KindInfo {
  const slash = obj.apiVersion.indexOf('/');
  const group = slash >= 0 ? obj.apiVersion.slice(0, slash) : '';
  if (hasKind(obj.kind)) {
    let info = infoForKind(obj.kind);
    // a kind two groups serve (Event: core and events.k8s.io) is the one its apiVersion names
    if (info.group !== group) info = BUILTIN.resources.find((r) => r.kind === obj.kind && r.group === group) ?? info;
    return { kind: info.kind, group: info.group, namespaced: info.namespaced };
  }
  return { kind: obj.kind, group, namespaced: obj.metadata.namespace !== undefined };
}

/** `pod`, `deployment.apps`: strings.ToLower(GroupKind.String()). */
export function kindPrefixOf(info: KindInfo): string {
  const k = info.kind.toLowerCase();
  return info.group ? `${k}.${info.group.toLowerCase()}` : k;
}
