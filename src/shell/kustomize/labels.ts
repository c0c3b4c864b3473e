/**
 * commonLabels and labels (api/filters/labels, konfig/builtinpluginconsts/commonlabels.go): every
 * object's metadata/labels, and with selectors included the selectors and pod-template labels of
 * Services and workloads (created when missing, except where a selector must already exist:
 * Job, CronJob, PodDisruptionBudget, NetworkPolicy). `includeTemplates` alone adds template labels.
 */
import { type FieldSpec, applies, visitMaps } from './fieldpath.js';
import type { Label, Res } from './types.js';

const METADATA: FieldSpec[] = [{ path: 'metadata/labels', create: true }];

const TEMPLATES: FieldSpec[] = [
  { kind: 'ReplicationController', path: 'spec/template/metadata/labels', create: true },
  { kind: 'Deployment', path: 'spec/template/metadata/labels', create: true },
  { kind: 'ReplicaSet', path: 'spec/template/metadata/labels', create: true },
  { kind: 'DaemonSet', path: 'spec/template/metadata/labels', create: true },
  { kind: 'StatefulSet', path: 'spec/template/metadata/labels', create: true },
  { kind: 'Job', group: 'batch', path: 'spec/template/metadata/labels', create: true },
  { kind: 'CronJob', path: 'spec/jobTemplate/metadata/labels', create: true },
  { kind: 'CronJob', path: 'spec/jobTemplate/spec/template/metadata/labels', create: true },
];

const SELECTORS: FieldSpec[] = [
  { kind: 'Service', path: 'spec/selector', create: true },
  { kind: 'ReplicationController', path: 'spec/selector', create: true },
  { kind: 'Deployment', path: 'spec/selector/matchLabels', create: true },
  { kind: 'ReplicaSet', path: 'spec/selector/matchLabels', create: true },
  { kind: 'DaemonSet', path: 'spec/selector/matchLabels', create: true },
  { kind: 'StatefulSet', group: 'apps', path: 'spec/selector/matchLabels', create: true },
  { kind: 'StatefulSet', path: 'spec/volumeClaimTemplates[]/metadata/labels', create: true },
  { kind: 'Job', group: 'batch', path: 'spec/selector/matchLabels', create: false },
  { kind: 'CronJob', path: 'spec/jobTemplate/spec/selector/matchLabels', create: false },
  { kind: 'PodDisruptionBudget', path: 'spec/selector/matchLabels', create: false },
  { kind: 'NetworkPolicy', path: 'spec/podSelector/matchLabels', create: false },
  { kind: 'NetworkPolicy', path: 'spec/ingress/from/podSelector/matchLabels', create: false },
  { kind: 'NetworkPolicy', path: 'spec/egress/to/podSelector/matchLabels', create: false },
  ...['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job'].flatMap((kind): FieldSpec[] =>
    ['podAffinity', 'podAntiAffinity'].flatMap((a): FieldSpec[] => [
      { kind, path: `spec/template/spec/affinity/${a}/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels`, create: false },
      { kind, path: `spec/template/spec/affinity/${a}/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels`, create: false },
    ]),
  ),
];

function setAll(resources: Res[], specs: FieldSpec[], labels: Record<string, string>): void {
  for (const r of resources) {
    for (const spec of specs) {
      if (!applies(spec, r.obj)) continue;
      visitMaps(r.obj, spec.path, spec.create, (m) => {
        for (const [k, v] of Object.entries(labels)) m[k] = v;
      });
    }
  }
}

/** `commonLabels:` — labels with selectors and templates. */
export function commonLabels(resources: Res[], labels: Record<string, string> | undefined): void {
  if (!labels || Object.keys(labels).length === 0) return;
  setAll(resources, [...METADATA, ...TEMPLATES, ...SELECTORS], labels);
}

/** `labels:` entries. */
export function labelEntries(resources: Res[], entries: Label[] | undefined): void {
  for (const e of entries ?? []) {
    const pairs = e.pairs ?? {};
    if (Object.keys(pairs).length === 0) continue;
    const specs = [...METADATA];
    if (e.includeSelectors) specs.push(...TEMPLATES, ...SELECTORS);
    else if (e.includeTemplates) specs.push(...TEMPLATES);
    setAll(resources, specs, pairs);
  }
}
