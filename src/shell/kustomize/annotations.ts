/**
 * commonAnnotations (konfig/builtinpluginconsts/commonannotations.go): metadata/annotations of
 * every object and the pod-template annotations of workloads, created when missing.
 */
import { type FieldSpec, applies, visitMaps } from './fieldpath.js';
import type { Res } from './types.js';

const SPECS: FieldSpec[] = [
  { path: 'metadata/annotations', create: true },
  ...['ReplicationController', 'Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet'].map((kind): FieldSpec => ({ kind, path: 'spec/template/metadata/annotations', create: true })),
  { kind: 'Job', group: 'batch', path: 'spec/template/metadata/annotations', create: true },
  { kind: 'CronJob', path: 'spec/jobTemplate/metadata/annotations', create: true },
  { kind: 'CronJob', path: 'spec/jobTemplate/spec/template/metadata/annotations', create: true },
];

export function commonAnnotations(resources: Res[], annotations: Record<string, string> | undefined): void {
  if (!annotations || Object.keys(annotations).length === 0) return;
  for (const r of resources) {
    for (const spec of SPECS) {
      if (!applies(spec, r.obj)) continue;
      visitMaps(r.obj, spec.path, spec.create, (m) => {
        for (const [k, v] of Object.entries(annotations)) m[k] = String(v);
      });
    }
  }
}
