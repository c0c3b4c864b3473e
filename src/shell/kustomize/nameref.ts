/**
 * Name references (api/filters/nameref, konfig/builtinpluginconsts/namereference.go): when a
 * ConfigMap, Secret, ServiceAccount, Service, PersistentVolumeClaim, Role or ClusterRole got a new
 * name (prefix, suffix, content hash), every field that refers to it by its original name follows:
 * pod volumes, env/envFrom, imagePullSecrets, serviceAccountName, Ingress backends and TLS,
 * RoleBinding roleRef and subjects, HPA scaleTargetRef, StatefulSet serviceName.
 */
import { visitMaps, visitScalars, podSpecs } from './fieldpath.js';
import type { CrdRef } from './crds.js';
import { type Obj, type Res, isObj, kindOf, nameOf } from './types.js';

type Rename = (kind: string, oldName: string) => string | undefined;

function setIf(parent: Obj, key: string, kind: string, rename: Rename): void {
  const v = parent[key];
  if (typeof v !== 'string') return;
  const n = rename(kind, v);
  if (n !== undefined) parent[key] = n;
}

function podRefs(spec: Obj, rename: Rename): void {
  visitMaps(spec, 'volumes', false, (vol) => {
    if (isObj(vol['configMap'])) setIf(vol['configMap'], 'name', 'ConfigMap', rename);
    if (isObj(vol['secret'])) setIf(vol['secret'], 'secretName', 'Secret', rename);
    if (isObj(vol['persistentVolumeClaim'])) setIf(vol['persistentVolumeClaim'], 'claimName', 'PersistentVolumeClaim', rename);
    visitMaps(vol, 'projected/sources', false, (src) => {
      if (isObj(src['configMap'])) setIf(src['configMap'], 'name', 'ConfigMap', rename);
      if (isObj(src['secret'])) setIf(src['secret'], 'name', 'Secret', rename);
    });
  });
  for (const c of ['containers', 'initContainers', 'ephemeralContainers']) {
    visitMaps(spec, `${c}/env/valueFrom/configMapKeyRef`, false, (m) => setIf(m, 'name', 'ConfigMap', rename));
    visitMaps(spec, `${c}/env/valueFrom/secretKeyRef`, false, (m) => setIf(m, 'name', 'Secret', rename));
    visitMaps(spec, `${c}/envFrom/configMapRef`, false, (m) => setIf(m, 'name', 'ConfigMap', rename));
    visitMaps(spec, `${c}/envFrom/secretRef`, false, (m) => setIf(m, 'name', 'Secret', rename));
  }
  visitMaps(spec, 'imagePullSecrets', false, (m) => setIf(m, 'name', 'Secret', rename));
  setIf(spec, 'serviceAccountName', 'ServiceAccount', rename);
  setIf(spec, 'serviceAccount', 'ServiceAccount', rename);
}

function objectRefs(o: Obj, rename: Rename, crds: readonly CrdRef[]): void {
  for (const spec of podSpecs(o)) podRefs(spec, rename);
  for (const ref of crds) if (ref.kind === kindOf(o)) visitScalars(o, ref.path, (p, k) => setIf(p, k, ref.refKind, rename));
  switch (kindOf(o)) {
    case 'Ingress':
      visitMaps(o, 'spec/rules/http/paths/backend/service', false, (m) => setIf(m, 'name', 'Service', rename));
      visitMaps(o, 'spec/defaultBackend/service', false, (m) => setIf(m, 'name', 'Service', rename));
      visitMaps(o, 'spec/tls', false, (m) => setIf(m, 'secretName', 'Secret', rename));
      break;
    case 'StatefulSet':
      visitScalars(o, 'spec/serviceName', (p, k) => setIf(p, k, 'Service', rename));
      visitMaps(o, 'spec/volumeClaimTemplates', false, () => undefined);
      break;
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      visitMaps(o, 'roleRef', false, (m) => setIf(m, 'name', String(m['kind'] ?? ''), rename));
      visitMaps(o, 'subjects', false, (m) => {
        if (m['kind'] === 'ServiceAccount') setIf(m, 'name', 'ServiceAccount', rename);
      });
      break;
    case 'ServiceAccount':
      visitMaps(o, 'secrets', false, (m) => setIf(m, 'name', 'Secret', rename));
      visitMaps(o, 'imagePullSecrets', false, (m) => setIf(m, 'name', 'Secret', rename));
      break;
    case 'HorizontalPodAutoscaler':
      visitMaps(o, 'spec/scaleTargetRef', false, (m) => setIf(m, 'name', String(m['kind'] ?? ''), rename));
      break;
    default:
      break;
  }
}

/** Point every reference at the final names. */
export function fixNameReferences(resources: Res[], crds: readonly CrdRef[] = []): void {
  for (const r of resources) {
    const rename: Rename = (kind, old) => {
      const candidates = resources.filter((c) => kindOf(c.obj) === kind && c.origName === old && nameOf(c.obj) !== old);
      if (candidates.length === 0) return undefined;
      const same = candidates.find((c) => c.origNs === r.origNs) ?? candidates[0]!;
      return nameOf(same.obj);
    };
    objectRefs(r.obj, rename, crds);
  }
}
