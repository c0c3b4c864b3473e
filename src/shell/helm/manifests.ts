/**
 * From rendered files to the release manifest (helm pkg/release/v1/util/manifest_sorter.go,
 * kind_sorter.go, manifest.go, and action.go renderResources): files in path order, partials and
 * blank files skipped, each split on `---`, hooks (helm.sh/hook) set apart, the rest stably sorted
 * by InstallOrder (unknown kinds last, alphabetically), written as `---\n# Source: PATH\nDOC\n`.
 */
import { parseYamlMemo as parseYaml } from '../../util/yaml-memo.js';
import { goYamlIndentError } from '../../util/go-yaml-indent.js';

export const INSTALL_ORDER = [
  'PriorityClass', 'Namespace', 'NetworkPolicy', 'ResourceQuota', 'LimitRange', 'PodSecurityPolicy', 'PodDisruptionBudget', 'ServiceAccount', 'Secret', 'SecretList', 'ConfigMap',
  'StorageClass', 'PersistentVolume', 'PersistentVolumeClaim', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleList', 'ClusterRoleBinding', 'ClusterRoleBindingList', 'Role',
  'RoleList', 'RoleBinding', 'RoleBindingList', 'Service', 'DaemonSet', 'Pod', 'ReplicationController', 'ReplicaSet', 'Deployment', 'HorizontalPodAutoscaler', 'StatefulSet', 'Job',
  'CronJob', 'IngressClass', 'Ingress', 'APIService', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration',
];

export interface Manifest {
  path: string;
  content: string;
  kind: string;
  name: string;
  /** The document's apiVersion (SimpleHead.Version). */
  version?: string;
  hook?: string;
}

/** A rendered template that is not YAML: `path` as rendered (CHART/templates/x.yaml), `detail` go-yaml's words. */
export class ManifestError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`YAML parse error on ${path}: ${detail}`);
  }
}

/** releaseutil.SplitManifests. */
export function splitManifests(text: string): string[] {
  return text
    .trim()
    .split(/(?:^|\s*\n)---\s*/)
    .map((d) => d.trim())
    .filter((d) => d !== '');
}

function less(a: string, b: string): number {
  const ia = INSTALL_ORDER.indexOf(a);
  const ib = INSTALL_ORDER.indexOf(b);
  if (ia < 0 && ib < 0) return a === b ? 0 : a < b ? -1 : 1;
  if (ia < 0) return 1;
  if (ib < 0) return -1;
  return ia - ib;
}

export function sortManifests(files: ReadonlyMap<string, string>): { manifests: Manifest[]; hooks: Manifest[] } {
  const manifests: Manifest[] = [];
  const hooks: Manifest[] = [];
  for (const path of [...files.keys()].sort()) {
    const content = files.get(path)!;
    const base = path.split('/').pop()!;
    if (base.startsWith('_') || path.endsWith('NOTES.txt') || content.trim() === '') continue;
    for (const doc of splitManifests(content)) {
      let head: { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown; annotations?: Record<string, unknown> } };
      try {
        head = (parseYaml(doc) ?? {}) as typeof head;
      } catch (e) {
        const indent = goYamlIndentError(doc);
        const line = indent?.line ?? (e as { linePos?: { line: number }[] }).linePos?.[0]?.line ?? 1;
        throw new ManifestError(path, `error converting YAML to JSON: yaml: line ${line}: ${indent?.problem ?? 'did not find expected key'}`);
      }
      const m: Manifest = { path, content: doc, kind: typeof head?.kind === 'string' ? head.kind : '', name: String(head?.metadata?.name ?? ''), ...(typeof head?.apiVersion === 'string' ? { version: head.apiVersion } : {}) };
      const hook = head?.metadata?.annotations?.['helm.sh/hook'];
      if (typeof hook === 'string') hooks.push({ ...m, hook });
      else manifests.push(m);
    }
  }
  const byKind = (a: Manifest, b: Manifest): number => less(a.kind, b.kind);
  return { manifests: manifests.sort(byKind), hooks: hooks.sort(byKind) };
}

export const sourceBlock = (m: { path: string; content: string }): string => `---\n# Source: ${m.path}\n${m.content}\n`;

/**
 * A manifest's block in the release manifest; with `--hide-secret` a v1 Secret's is only its
 * Source line and a note (pkg/action/action.go renderResources).
 */
export const manifestBlock = (m: Manifest, hideSecret: boolean): string =>
  hideSecret && m.kind === 'Secret' && m.version === 'v1' ? `---\n# Source: ${m.path}\n# HIDDEN: The Secret output has been suppressed\n` : sourceBlock(m);
