/**
 * kubeadm's `--patches DIR` (and the `patches.directory` field of its configuration files), as
 * cmd/kubeadm/app/util/patches/patches.go (kubernetes v1.35.0) reads and applies them:
 *
 * - GetPatchManagerForPath prints `[patches] Reading patches from path "DIR"` once per path and
 *   process (the manager is cached by path), then walks DIR (filepath.Walk: lexical order, into
 *   sub-directories, whose entries are files like any other), parses each name as
 *   `target[suffix][+patchtype].extension` (parseFilename: targets etcd, kube-apiserver,
 *   kube-controller-manager, kube-scheduler, kubeletconfiguration, corednsdeployment; patch types
 *   json, merge, strategic (the default); extensions json and yaml). A name with another extension
 *   or target is ignored with `[patches] Ignoring file "NAME": …`, an empty file with
 *   `[patches] Ignoring empty file: "NAME"`; a `+` without a known type stops the walk. Then
 *   `[patches] Found the following patch files: [a b]` and `[patches] Ignored the following
 *   files: [c]` (Go's %v of a []string).
 * - createPatchSet splits a file into YAML documents (apimachinery util/yaml YAMLReader: a line
 *   that starts with `---`), trims each, skips empty ones and converts each to JSON
 *   (sigs.k8s.io/yaml YAMLToJSON; its error is `could not convert patch to JSON:\n<doc>\n: …`).
 * - ApplyPatchesToTarget applies every patch of every set for the target in order (JSON patch
 *   RFC 6902, JSON merge patch RFC 7386, or a strategic merge patch against the target's Go type),
 *   printing `[patches] Applied patch of type "application/…" to target "T"` after each; the first
 *   failure is `could not apply the following patch of type "…" to target "T":\n<patch>\n: <cause>`
 *   (pkg/errors Wrapf) and nothing is written.
 *
 * The patch algorithms are src/shell/kubectl/merge.ts's (the ones `kubectl patch` uses). What
 * kubeadm writes after a patch is the patched object serialized as it serializes its own
 * (sigs.k8s.io/yaml: JSON → go-yaml v2 with map keys in go-yaml's sort order), so a patched static
 * Pod manifest or kubelet config keeps kubeadm's layout.
 */
import { parseDocument } from 'yaml';
import type { Host } from '../../../sim/node/host.js';
import { mergePatch, strategicMerge, type JsonValue } from '../../kubectl/merge.js';
import { jsonPatch } from '../../kubectl/json-patch.js';
import { goYamlError } from '../../gotemplate/helm-funcs.js';
import { toYaml } from '../../printers/yaml.js';
import type { Json } from '../../printers/serialize.js';
import { canonicalJSON } from '../../../util/canonical-json.js';

/** patches.go knownTargets, in its order (the order of its error messages). */
export const PATCH_TARGETS = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubeletconfiguration', 'corednsdeployment'] as const;
export type PatchTarget = (typeof PATCH_TARGETS)[number];

const TYPES = { json: 'application/json-patch+json', merge: 'application/merge-patch+json', strategic: 'application/strategic-merge-patch+json' } as const;
export type PatchType = (typeof TYPES)[keyof typeof TYPES];
export const STRATEGIC: PatchType = TYPES.strategic;

interface PatchSet {
  target: string;
  type: PatchType;
  /** Each document of the file, as JSON text (what the error message quotes). */
  patches: string[];
}

/** Go's %v of a []string. */
const goList = (xs: readonly string[]): string => `[${xs.join(' ')}]`;

/**
 * parseFilename: the target and patch type of a file name, a warning (the file is ignored) or an
 * error (the walk stops).
 */
function parseFilename(name: string): { target: string; type: PatchType } | { warn: string } | { error: string } {
  if (!/.+\.(json|yaml)$/.test(name)) return { warn: 'the file extension must be one of [json yaml]' };
  const m = new RegExp(`^(${PATCH_TARGETS.join('|')})([^.+\\n]*)?(\\+)?(json|merge|strategic)?`).exec(name);
  if (!m) return { warn: `unknown target, must be one of ${goList(PATCH_TARGETS)}` };
  if (m[3] && !m[4]) return { error: "unknown or missing patch type after '+', must be one of [json merge strategic]" };
  return { target: m[1]!, type: TYPES[(m[4] ?? 'strategic') as keyof typeof TYPES] };
}

/** apimachinery util/yaml YAMLReader: documents end at a line that starts with `---` and has nothing but a comment after it. */
function splitDocuments(data: string): string[] {
  const docs: string[] = [];
  let cur = '';
  for (const line of data.split(/(?<=\n)/)) {
    if (line.startsWith('---')) {
      const rest = line.slice(3).trim();
      if (rest === '' || rest.startsWith('#')) {
        docs.push(cur);
        cur = '';
        continue;
      }
    }
    cur += line;
  }
  docs.push(cur);
  return docs;
}

/** createPatchSet: the file's documents as JSON, or the conversion error. */
function createPatchSet(target: string, type: PatchType, data: string): PatchSet | { error: string } {
  const patches: string[] = [];
  for (const raw of splitDocuments(data)) {
    const doc = raw.trim();
    if (doc === '') continue;
    const parsed = parseDocument(doc);
    const err = parsed.errors[0];
    if (err) return { error: `could not convert patch to JSON:\n${doc}\n: error converting YAML to JSON: ${goYamlError(doc, err)}` };
    // Go's encoding/json of the value, as sigs.k8s.io/yaml YAMLToJSON writes it: keys sorted, no spaces
    patches.push(canonicalJSON(parsed.toJS()));
  }
  return { target, type, patches };
}

/**
 * The files below a directory in filepath.Walk's order (lexical, depth first). Walk lstats: a
 * symbolic link is an entry, never followed, so a link back up the tree cannot loop.
 */
function walk(host: Host, dir: string): string[] {
  const out: string[] = [];
  for (const name of [...host.fs.list(dir)].sort()) {
    const path = `${dir.replace(/\/$/, '')}/${name}`;
    if (host.fs.isDir(path) && !host.fs.isLink(path)) out.push(...walk(host, path));
    else out.push(path);
  }
  return out;
}

/** evanphx/json-patch and apimachinery strategicpatch failures, in their words. */
function applyOne(type: PatchType, target: JsonValue, patch: JsonValue): JsonValue {
  switch (type) {
    case TYPES.json:
      return jsonPatch(target, patch);
    case TYPES.merge:
      // jsonpatch.MergePatch: a patch that is neither an object nor an array is errBadJSONPatch; an array replaces the document
      if (patch === null || typeof patch !== 'object') throw new Error('Invalid JSON Patch');
      return Array.isArray(patch) ? patch : mergePatch(target, patch);
    default:
      // strategicpatch handleUnmarshal: the patch must decode into a map
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) throw new Error('invalid JSON document');
      return strategicMerge(target, patch);
  }
}

/**
 * One kubeadm process's patch managers (patches.go pathCache): the directory is read, and its
 * lines printed, the first time a phase asks for it; later phases only apply.
 */
export class KubeadmPatches {
  private readonly cache = new Map<string, PatchSet[]>();

  constructor(
    private readonly host: Host,
    private readonly cwd: string,
  ) {}

  /** GetPatchManagerForPath: the sets of a directory, with the lines it prints; `error` stops the phase. */
  private load(dir: string, out: string[]): PatchSet[] | { error: string } {
    const cached = this.cache.get(dir);
    if (cached) return cached;
    out.push(`[patches] Reading patches from path ${JSON.stringify(dir)}\n`);
    const abs = dir.startsWith('/') ? dir : `${this.cwd.replace(/\/$/, '')}/${dir}`;
    const listError = (e: string): { error: string } => ({ error: `could not list patch files for path ${JSON.stringify(dir)}: ${e}` });
    if (!this.host.fs.exists(abs)) return listError(`lstat ${dir}: no such file or directory`);
    if (!this.host.fs.isDir(abs)) return listError(`getPatchSetsFromPath ${abs.split('/').pop()}: not a directory`);
    const sets: PatchSet[] = [];
    const found: string[] = [];
    const ignored: string[] = [];
    for (const path of walk(this.host, abs)) {
      const base = path.split('/').pop()!;
      const parsed = parseFilename(base);
      if ('error' in parsed) return listError(parsed.error);
      if ('warn' in parsed) {
        out.push(`[patches] Ignoring file ${JSON.stringify(base)}: ${parsed.warn}\n`);
        ignored.push(base);
        continue;
      }
      const data = this.host.fs.tryRead(path) ?? '';
      if (data === '') {
        out.push(`[patches] Ignoring empty file: ${JSON.stringify(base)}\n`);
        ignored.push(base);
        continue;
      }
      const set = createPatchSet(parsed.target, parsed.type, data);
      if ('error' in set) return listError(set.error);
      found.push(base);
      sets.push(set);
    }
    if (found.length) out.push(`[patches] Found the following patch files: ${goList(found)}\n`);
    if (ignored.length) out.push(`[patches] Ignored the following files: ${goList(ignored)}\n`);
    this.cache.set(dir, sets);
    return sets;
  }

  /**
   * ApplyPatchesToTarget over `data` (the target as JSON); `applied` says whether any patch was,
   * so a caller with nothing to patch keeps its own bytes.
   */
  apply(dir: string, target: PatchTarget, data: JsonValue, out: string[]): { data: JsonValue; applied: boolean } | { error: string } {
    const sets = this.load(dir, out);
    if ('error' in sets) return sets;
    let cur = data;
    let applied = false;
    for (const set of sets) {
      if (set.target !== target) continue;
      for (const patch of set.patches) {
        try {
          cur = applyOne(set.type, cur, JSON.parse(patch) as JsonValue);
        } catch (e) {
          return { error: `could not apply the following patch of type ${JSON.stringify(set.type)} to target ${JSON.stringify(target)}:\n${patch}\n: ${(e as Error).message}` };
        }
        applied = true;
        out.push(`[patches] Applied patch of type ${JSON.stringify(set.type)} to target ${JSON.stringify(target)}\n`);
      }
    }
    return { data: cur, applied };
  }
}

/**
 * go-yaml v2's map key order (sorter.go keyList.Less): letters compare as runes, a non-letter
 * sorts before a letter, runs of digits compare as numbers.
 */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  const isLetter = (c: string): boolean => /\p{L}/u.test(c);
  const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

function goYamlSorted(v: JsonValue): Json {
  if (Array.isArray(v)) return v.map(goYamlSorted);
  if (v !== null && typeof v === 'object') {
    const out: { [k: string]: Json } = {};
    const keys = Object.keys(v).sort((x, y) => (goYamlKeyLess(x, y) ? -1 : goYamlKeyLess(y, x) ? 1 : 0));
    for (const k of keys) out[k] = goYamlSorted(v[k]!);
    return out;
  }
  return v;
}

/** sigs.k8s.io/yaml JSONToYAML: what kubeadm writes for a patched manifest or kubelet config. */
export function kubeadmYaml(v: JsonValue): string {
  return toYaml(goYamlSorted(v));
}

/** A YAML file kubeadm wrote, as the JSON a patch applies to (undefined when it does not parse). */
export function yamlAsJson(text: string): JsonValue | undefined {
  const doc = parseDocument(text);
  if (doc.errors.length) return undefined;
  return doc.toJS() as JsonValue;
}

/**
 * The patches directory of a kubeadm command: `--patches DIR`, else the configuration file's
 * `patches.directory` (Init/Join/UpgradeConfiguration), else none.
 */
export function patchesDir(args: readonly string[], fromConfig?: string): string | undefined {
  const i = args.findIndex((a) => a === '--patches' || a.startsWith('--patches='));
  if (i >= 0) {
    const a = args[i]!;
    const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[i + 1];
    if (v) return v;
  }
  return fromConfig || undefined;
}

/**
 * staticpodutil.PatchStaticPod (cmd/kubeadm/app/util/staticpod/utils.go) as CreateStaticPodFiles
 * and CreateLocalEtcdStaticPodManifestFile call it: the manifest kubeadm is about to write, patched
 * for its component; the text is kubeadm's own when no patch names the component. The error is the
 * caller's `failed to patch static Pod manifest file for "NAME": …`.
 */
export function patchStaticPod(patches: KubeadmPatches, dir: string, component: PatchTarget, text: string, out: string[]): { text: string } | { error: string } {
  const data = yamlAsJson(text);
  if (data === undefined) return { text };
  const r = patches.apply(dir, component, data, out);
  const fail = (e: string): { error: string } => ({ error: `failed to patch static Pod manifest file for ${JSON.stringify(component)}: ${e}` });
  if ('error' in r) return fail(r.error);
  if (!r.applied) return { text };
  // kubeadmutil.UniversalUnmarshal of the patched bytes: they must still be a typed object
  const v = r.data;
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    return fail(`failed to unmarshal patched manifest: couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'string' ? 'string' : typeof v} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  if (typeof v['kind'] !== 'string' || v['kind'] === '') return fail(`failed to unmarshal patched manifest: Object 'Kind' is missing in '${canonicalJSON(v)}'`);
  return { text: kubeadmYaml(v) };
}

/**
 * phases/kubelet/config.go WriteConfigToDisk's patch steps: the kubeletconfiguration patches of
 * DIR (applyKubeletConfigPatches, `could not apply patches to the KubeletConfiguration: …`), then
 * the instance configuration as a strategic merge patch (applyKubeletConfigPatchFromFile, which
 * prints its own `Applied patch` line). `config` is the configuration before both; the result is
 * what goes to config.yaml.
 */
export function patchKubeletConfig(patches: KubeadmPatches | undefined, dir: string | undefined, config: string, instance: string | undefined, out: string[], plain: (config: string, instance: string) => string): { text: string } | { error: string } {
  let data: JsonValue | undefined;
  if (patches && dir) {
    const parsed = yamlAsJson(config) ?? {};
    const r = patches.apply(dir, 'kubeletconfiguration', parsed, out);
    if ('error' in r) return { error: `could not apply patches to the KubeletConfiguration: ${r.error}` };
    if (r.applied) data = r.data;
  }
  if (instance === undefined) return { text: data === undefined ? config : kubeadmYaml(data) };
  out.push(`[patches] Applied patch of type ${JSON.stringify(STRATEGIC)} to target "kubeletconfiguration"\n`);
  if (data === undefined) return { text: plain(config, instance) };
  const inst = yamlAsJson(instance);
  return { text: kubeadmYaml(inst && typeof inst === 'object' && !Array.isArray(inst) ? strategicMerge(data, inst) : data) };
}

/**
 * phases/addons/dns/dns.go applyCoreDNSDeploymentPatches: the corednsdeployment patches over the
 * Deployment kubeadm is about to create or update (`could not apply patches to the CoreDNS
 * Deployment: …` when one fails). The Deployment is returned as it was when no patch names it.
 */
export function patchCoreDnsDeployment<D extends object>(patches: KubeadmPatches, dir: string, deployment: D, out: string[]): { deployment: D } | { error: string } {
  const r = patches.apply(dir, 'corednsdeployment', JSON.parse(JSON.stringify(deployment)) as JsonValue, out);
  if ('error' in r) return { error: `could not apply patches to the CoreDNS Deployment: ${r.error}` };
  if (!r.applied) return { deployment };
  const v = r.data;
  if (v === null || typeof v !== 'object' || Array.isArray(v) || typeof v['kind'] !== 'string')
    return { error: `could not apply patches to the CoreDNS Deployment: Object 'Kind' is missing in '${canonicalJSON(v)}'` };
  return { deployment: v as unknown as D };
}
