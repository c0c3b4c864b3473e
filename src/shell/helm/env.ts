/**
 * What a helm command gets: the workstation's files, the API server (releases and objects), the
 * simulated clock, a seeded random source (randAlphaNum), and the user's HOME for helm's config
 * and cache. Shared helpers: values from flags, the render pipeline, applying objects.
 */
import { parseYamlMemo as parseYaml } from '../../util/yaml-memo.js';
import type { ApiServer } from '../../sim/apiserver.js';
import type { Cluster } from '../../sim/cluster.js';
import type { LineBudget } from '../budget.js';
import type { Discovery } from '../../sim/api/registry.js';
import type { KObject } from '../../sim/api/types.js';
import type { KubectlFiles } from '../kubectl/context.js';
import type { Vfs } from '../../sim/node/vfs.js';
import { type HelmArgs, flag, flags } from './args.js';
import { type Chart, ChartLoadError, parseValuesYaml } from './chart.js';
import { render, type ReleaseInfo } from './engine.js';
import { type Manifest, manifestBlock, sortManifests, splitManifests } from './manifests.js';
import { abs } from './source.js';
import { coalesceValues, mergeValues, parseSet, parseSetFile, parseSetJson, parseSetLiteral, type Values } from './values.js';
import { HelmError } from './repo.js';

export interface HelmEnv {
  fs: KubectlFiles & Pick<Vfs, 'remove'>;
  cwd: string;
  /** The shell's environment (HELM_* settings for `helm env`). */
  vars: Readonly<Record<string, string>>;
  home: string;
  api?: ApiServer;
  now(): number;
  random(): number;
  kubeVersion: string;
  /** The cluster, for what waits on it (helm test's hook pods) and reads pod logs. */
  cluster?: Cluster;
  /** The shell line's budget: a wait stops at its simulated time. */
  budget?: LineBudget;
  /** The shell's paused background jobs: a wait runs one due meanwhile at its time (kubectl/poll.ts). */
  jobs?: { next(): number | undefined; runDue(): Promise<void> };
  /** What helm logs to stderr while it runs (slog records), printed before any error. */
  log: string[];
  /**
   * Write what helm logged so far now (ShellContext.emit) and forget it: helm writes its stderr
   * as it goes, so a background job that wakes during a wait prints after it.
   */
  flushLog?: () => void;
}

export function requireApi(env: HelmEnv): ApiServer {
  if (!env.api) throw new HelmError('Kubernetes cluster unreachable: Get "https://127.0.0.1:6443/version": dial tcp 127.0.0.1:6443: connect: connection refused');
  return env.api;
}

export function namespaceOf(a: HelmArgs): string {
  return flag(a, 'namespace') ?? 'default';
}

/** values.Options.MergeValues: -f files in order, then --set-json, --set, --set-string, --set-file, --set-literal. */
export function userValues(env: HelmEnv, a: HelmArgs): Values {
  let v: Values = {};
  for (const f of flags(a, 'values')) {
    const text = env.fs.tryRead(abs(env.cwd, f));
    if (text === undefined) throw new HelmError(`open ${f}: no such file or directory`);
    try {
      v = mergeValues(v, parseValuesYaml(text, f));
    } catch (e) {
      if (e instanceof ChartLoadError) throw new HelmError(e.message);
      throw e;
    }
  }
  for (const s of flags(a, 'set-json')) v = parseSetJson(s, v);
  for (const s of flags(a, 'set')) parseSet(s, v, false);
  for (const s of flags(a, 'set-string')) parseSet(s, v, true);
  for (const s of flags(a, 'set-file')) parseSetFile(s, v, (p) => env.fs.tryRead(abs(env.cwd, p)));
  for (const s of flags(a, 'set-literal')) parseSetLiteral(s, v);
  return v;
}

export interface Rendered {
  manifests: Manifest[];
  hooks: Manifest[];
  /** The release manifest: every non-hook document with its `# Source:` line. */
  manifest: string;
  notes: string;
}

/** `hideSecret`: --hide-secret, v1 Secrets left out of the manifest (manifestBlock). */
export function renderChart(env: HelmEnv, chart: Chart, user: Values, release: ReleaseInfo, hideSecret = false): Rendered {
  const values = coalesceValues(chart, user);
  const files = render(chart, values, { release, kubeVersion: env.kubeVersion, random: () => env.random(), now: () => env.now() });
  const notesPath = `${chart.metadata.name}/templates/NOTES.txt`;
  const notes = files.get(notesPath) ?? '';
  const { manifests, hooks } = sortManifests(files);
  return { manifests, hooks, manifest: manifests.map((m) => manifestBlock(m, hideSecret)).join(''), notes };
}

function objectsOf(manifest: string): KObject[] {
  return splitManifests(manifest.replace(/^# Source: .*$/gm, ''))
    .map((d) => parseYaml(d) as KObject)
    .filter((o) => o && typeof o === 'object' && typeof o.kind === 'string');
}

const key = (o: KObject): string => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** kube.Client Build's error for an object of a kind the server does not serve. */
export function noMapping(o: Pick<KObject, 'kind' | 'apiVersion' | 'metadata'>): string {
  return `resource mapping not found for name: "${o.metadata?.name ?? ''}" namespace: "" from "": no matches for kind "${o.kind}" in version "${o.apiVersion}"\nensure CRDs are installed first`;
}

function place(o: KObject, namespace: string, release: string, d: Discovery): KObject {
  if (!d.hasKind(o.kind)) throw new HelmError(`unable to build kubernetes objects from release manifest: ${noMapping(o)}`);
  const obj = structuredClone(o);
  obj.metadata ??= { name: '' };
  if (d.infoForKind(obj.kind).namespaced) obj.metadata.namespace ??= namespace;
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'app.kubernetes.io/managed-by': 'Helm' };
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), 'meta.helm.sh/release-name': release, 'meta.helm.sh/release-namespace': namespace };
  return obj;
}

/**
 * kube.Client Create/Update: create what is new, replace what exists (keeping what the server
 * owns), delete what the previous manifest had and the new one does not.
 */
export function applyManifest(api: ApiServer, manifest: string, previous: string | undefined, namespace: string, release: string): void {
  const next = objectsOf(manifest).map((o) => place(o, namespace, release, api.discovery()));
  const nextKeys = new Set(next.map(key));
  for (const o of next) {
    const cur = api.tryGet(o.kind, o.metadata.namespace, o.metadata.name);
    if (!cur) api.create(o);
    else api.update({ ...o, metadata: { ...cur.metadata, labels: o.metadata.labels, annotations: o.metadata.annotations } } as KObject);
  }
  if (previous !== undefined) {
    for (const o of objectsOf(previous).map((x) => place(x, namespace, release, api.discovery()))) {
      if (!nextKeys.has(key(o)) && api.tryGet(o.kind, o.metadata.namespace, o.metadata.name)) api.delete(o.kind, o.metadata.namespace, o.metadata.name);
    }
  }
}

/** The release's objects as helm builds them (kube.Client Build and setMetadataVisitor). */
export function releaseObjects(api: ApiServer, manifest: string, namespace: string, release: string): KObject[] {
  return objectsOf(manifest).map((x) => place(x, namespace, release, api.discovery()));
}

/**
 * Uninstall.deleteRelease: delete a manifest's objects in UninstallOrder (reverse of install
 * order), keeping those annotated `helm.sh/resource-policy: keep` (pkg/action/resource_policy.go),
 * listed as `[KIND] NAME` lines.
 */
export function deleteManifest(api: ApiServer, manifest: string, namespace: string, release: string): { deleted: KObject[]; kept: string } {
  const objs = releaseObjects(api, manifest, namespace, release).reverse();
  const keep = (o: KObject): boolean => (o.metadata.annotations?.['helm.sh/resource-policy'] ?? '').trim().toLowerCase() === 'keep';
  const deleted = objs.filter((o) => !keep(o));
  for (const o of deleted) if (api.tryGet(o.kind, o.metadata.namespace, o.metadata.name)) api.delete(o.kind, o.metadata.namespace, o.metadata.name);
  return { deleted, kept: objs.filter(keep).map((o) => `[${o.kind}] ${o.metadata.name}\n`).join('') };
}

/** CRDs from crds/ are created before the templates and never upgraded or deleted. */
export function installCrds(api: ApiServer, chart: Chart): void {
  for (const f of chart.crds) {
    for (const d of splitManifests(f.data.toString('utf8'))) {
      const o = parseYaml(d) as KObject;
      if (o?.kind && api.discovery().hasKind(o.kind) && !api.tryGet(o.kind, undefined, o.metadata.name)) api.create(o);
    }
  }
}
