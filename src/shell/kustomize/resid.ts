/**
 * Resource ids as kustomize prints them in errors (api/resid/resid.go String):
 * `Deployment.v1.apps/web.[noNs]`, `ConfigMap.v1.[noGrp]/cfg.prod`.
 */
import { type Obj, kindOf, nameOf, nsOf } from './types.js';

export function resIdString(o: Obj, name = nameOf(o), ns = nsOf(o)): string {
  const av = String(o['apiVersion'] ?? '');
  const [group, version] = av.includes('/') ? (av.split('/') as [string, string]) : ['', av];
  return `${kindOf(o)}.${version || '[noVer]'}.${group || '[noGrp]'}/${name}.${ns || '[noNs]'}`;
}
