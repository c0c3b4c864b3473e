/**
 * Pod volumes as the kubelet sets them up (pkg/volume: configmap, secret, downwardapi,
 * projected, emptydir, hostpath) and what each container sees through its volumeMounts.
 *
 * ConfigMap, Secret, downwardAPI and projected volumes are written the way
 * pkg/volume/util/atomic_writer.go writes them: the files in a timestamped directory
 * `..2006_01_02_15_04_05.NNNNNNNNN`, a `..data` link to it, and one link per top-level name
 * (`key` → `..data/key`). When the source object changes, the kubelet rewrites the volume at the
 * pod's next periodic sync (syncFrequency, 1 minute, counted from the sandbox's creation), so a
 * change shows up inside the container within a minute; a `subPath` mount bound the file as it was
 * when the container started and never changes (kubernetes.io/docs: "A container using a
 * ConfigMap as a subPath volume mount will not receive ConfigMap updates").
 *
 * emptyDir lives as long as the pod; hostPath is the node's own directory (writes show up after
 * `ssh node`); a persistentVolumeClaim bound to a hostPath or local PersistentVolume is that
 * directory on the node.
 */
import { createHash } from 'node:crypto';
import { serviceAccountIssuer, serviceAccountSigningKey, serviceAccountTokenSigner } from '../authn.js';
import type { Cluster } from '../cluster.js';
import { podContainers, type ConfigMap, type Container, type KObject, type Pod, type Secret, type Volume } from '../api/types.js';
import { Vfs, type VfsData, type VirtualFile, type VirtualFiles } from '../node/vfs.js';
import { containerDevices } from '../node/devices.js';
import { configMapData, podFieldValue, resourceFieldValue, secretData } from './env.js';
import { podFs } from './podfs.js';
import { podPartKey } from './pod-keys.js';
import { MountVfs, type Mount } from './mountfs.js';
import { lookupImage, parseImageRef } from '../images.js';
import { remember } from '../../util/bounded-map.js';
import { sameItems } from '../../util/same-items.js';

/** The kubelet's periodic pod sync (KubeletConfiguration syncFrequency default). */
export const SYNC_PERIOD_MS = 60_000;

/** One volume of one pod: its files, and the content hash and pending update of an API-backed volume. */
export interface VolumeState {
  fs: VfsData;
  /** Hash of the content last written (API-backed volumes). */
  hash?: string;
  /** When the kubelet will rewrite the volume with newer content. */
  pendingAt?: number;
  /** subPath mounts resolved at container start: `container:mountPath` → path in the volume. */
  subPaths?: Record<string, string>;
}

export type PodVolumesState = Record<string, VolumeState>;

function table(c: Cluster): PodVolumesState {
  return (c.state.podVolumes ??= {});
}

function key(pod: Pod, vol: string): string {
  return `${pod.metadata.uid ?? ''}/${vol}`;
}

/** Forget a deleted pod's volumes (emptyDir contents go with the pod). */
export function dropPodVolumes(c: Cluster, uid: string): void {
  const t = c.state.podVolumes;
  if (!t) return;
  for (const k of Object.keys(t)) {
    if (!k.startsWith(`${uid}/`)) continue;
    lookPending(c, t, k);
    delete t[k];
  }
}

interface FileSpec {
  /**
   * A token is minted only when it is written (a function until then): syncs compare hashes that
   * leave it out. Minting draws its claims and gives the signer: the file holds that, and the
   * token is signed when first read (Vfs.writeDeferred).
   */
  content: string | (() => () => string);
  mode: number;
}

type Content = { files: Record<string, FileSpec> } | { error: string } | { skip: true };

function projectItems(data: Record<string, string>, items: { key: string; path: string; mode?: number }[] | undefined, mode: number, missing: (k: string) => string, optional: boolean): Content {
  const files: Record<string, FileSpec> = {};
  if (!items || items.length === 0) {
    for (const [k, v] of Object.entries(data)) files[k] = { content: v, mode };
    return { files };
  }
  for (const it of items) {
    const v = data[it.key];
    if (v === undefined) {
      if (optional) continue;
      return { error: missing(it.key) };
    }
    files[it.path] = { content: v, mode: it.mode ?? mode };
  }
  return { files };
}

type DownwardItem = { path: string; fieldRef?: { fieldPath: string }; resourceFieldRef?: { resource?: string; divisor?: string; containerName?: string }; mode?: number };

function downwardFiles(c: Cluster, pod: Pod, items: DownwardItem[], mode: number): Content {
  const files: Record<string, FileSpec> = {};
  for (const it of items) {
    if (it.fieldRef) files[it.path] = { content: podFieldValue(pod, it.fieldRef.fieldPath) ?? '', mode: it.mode ?? mode };
    else if (it.resourceFieldRef) {
      const ct = pod.spec.containers[0]!;
      const v = resourceFieldValue(c, pod, ct, it.resourceFieldRef);
      if (typeof v !== 'string') return v;
      files[it.path] = { content: v, mode: it.mode ?? mode };
    }
  }
  return { files };
}

function b64url(s: string): string {
  return Buffer.from(s).toString('base64').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * A bound service account token (pkg/serviceaccount claims.go): a JWT whose claims name the pod
 * and service account, issued when the volume is written, valid for expirationSeconds (1 h
 * default). The signature is not a real one.
 */
function serviceAccountToken(c: Cluster, pod: Pod, src: { path: string; audience?: string; expirationSeconds?: number }): () => string {
  // the volume keeps the token it was first written with (contentHash ignores it), so it is
  // minted once per pod and source, not at every sync; and signed only once it is read
  let cache = TOKENS.get(c);
  if (!cache) TOKENS.set(c, (cache = new Map()));
  const k = `${pod.metadata.uid ?? ''}|${src.path}|${src.audience ?? ''}|${src.expirationSeconds ?? ''}`;
  const had = cache.get(k);
  if (had) return had;
  const token = signedToken(c, pod, src) ?? ((t: string) => () => t)(unsignedToken(c, pod, src));
  cache.set(k, token);
  return token;
}

const TOKENS = new WeakMap<Cluster, Map<string, () => string>>();

/**
 * Pod-bound token signers by everything serviceAccountTokenSigner (authn.ts) reads for them: the
 * sa.key text (outer key), and the issuer, the time (ms: the jti is drawn from it and the pod's
 * uid, no random draw is made for a pod-bound token), the ServiceAccount's namespace, name and
 * uid, the expiry asked for, the audience, and the pod and node bound (names and uids). Equal keys
 * give the same claims, so the same token bytes: RS256 is deterministic, and the signer signs once,
 * when first read. TOKENS is per cluster object; every copy of a cluster (validate's runs, the
 * grader's) started a pod's volume at the same time and drew the same claims again. Bounded.
 */
const SIGNERS = new Map<string, Map<string, () => string>>();
let signerMints = 0;

/** How many pod-bound token signers have been made (tests). */
export function tokenSignerMints(): number {
  return signerMints;
}

/** Signed with the cluster's sa.key (authn.ts), so the API server accepts it from inside the pod. */
function signedToken(c: Cluster, pod: Pod, src: { audience?: string; expirationSeconds?: number }): (() => string) | undefined {
  const ns = pod.metadata.namespace ?? 'default';
  const sa = c.store.get('ServiceAccount', ns, pod.spec.serviceAccountName ?? 'default');
  if (!sa) return undefined;
  const node = pod.spec.nodeName ?? '';
  const nodeUid = c.store.get('Node', undefined, node)?.metadata.uid ?? '';
  // the key serviceAccountTokenSigner signs with; without it, no memo
  const pem = serviceAccountSigningKey(c);
  const now = c.now();
  const exp = src.expirationSeconds ?? 3607;
  const k = [serviceAccountIssuer(c), now, sa.metadata.namespace ?? '', sa.metadata.name, sa.metadata.uid ?? '', exp, src.audience ?? '', pod.metadata.name, pod.metadata.uid ?? '', node, nodeUid].join('\0');
  const byPem = pem === undefined ? undefined : SIGNERS.get(pem);
  const had = byPem?.get(k);
  if (had) return had;
  const h = createHash('sha256').update(`jti/${pod.metadata.uid ?? ''}/${now}`).digest('hex');
  const jti = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  const bound = { podName: pod.metadata.name, podUid: pod.metadata.uid ?? '', nodeName: node, nodeUid, jti };
  const signer = serviceAccountTokenSigner(c, sa, exp, src.audience ? [src.audience] : undefined, bound);
  if (signer && pem !== undefined) {
    signerMints++;
    remember(byPem ?? remember(SIGNERS, pem, new Map<string, () => string>(), 4), k, signer, 2048);
  }
  return signer;
}

/** A cluster without a service-account key (hand-built test clusters): the claims, unsigned. */
function unsignedToken(c: Cluster, pod: Pod, src: { audience?: string; expirationSeconds?: number }): string {
  const iat = Math.floor(c.now() / 1000);
  const ns = pod.metadata.namespace ?? 'default';
  const sa = pod.spec.serviceAccountName ?? 'default';
  const header = b64url(JSON.stringify({ alg: 'RS256', kid: 'cka-lab' }));
  const payload = b64url(
    JSON.stringify({
      aud: [src.audience ?? 'https://kubernetes.default.svc.cluster.local'],
      exp: iat + (src.expirationSeconds ?? 3600),
      iat,
      iss: 'https://kubernetes.default.svc.cluster.local',
      'kubernetes.io': { namespace: ns, node: { name: pod.spec.nodeName ?? '' }, pod: { name: pod.metadata.name, uid: pod.metadata.uid ?? '' }, serviceaccount: { name: sa } },
      nbf: iat,
      sub: `system:serviceaccount:${ns}:${sa}`,
    }),
  );
  return `${header}.${payload}.${b64url(`${pod.metadata.uid ?? ''}:${iat}`)}`;
}

/** The files an API-backed volume should hold now, or the MountVolume.SetUp error. */
function desiredContent(c: Cluster, pod: Pod, vol: Volume): Content {
  const ns = pod.metadata.namespace ?? 'default';
  if (vol.configMap) {
    const src = vol.configMap as { name: string; items?: { key: string; path: string; mode?: number }[]; defaultMode?: number; optional?: boolean };
    const cm = c.store.get<ConfigMap>('ConfigMap', ns, src.name);
    if (!cm) return src.optional ? { files: {} } : { error: `configmap "${src.name}" not found` };
    return projectItems(configMapData(cm), src.items, src.defaultMode ?? 0o644, (k) => `configmap references non-existent config key: ${k}`, src.optional === true);
  }
  if (vol.secret) {
    const src = vol.secret as { secretName: string; items?: { key: string; path: string; mode?: number }[]; defaultMode?: number; optional?: boolean };
    const s = c.store.get<Secret>('Secret', ns, src.secretName);
    if (!s) return src.optional ? { files: {} } : { error: `secret "${src.secretName}" not found` };
    return projectItems(secretData(s), src.items, src.defaultMode ?? 0o644, (k) => `references non-existent secret key: ${k}`, src.optional === true);
  }
  if (vol['downwardAPI']) {
    const src = vol['downwardAPI'] as { items?: DownwardItem[]; defaultMode?: number };
    return downwardFiles(c, pod, src.items ?? [], src.defaultMode ?? 0o644);
  }
  if (vol.projected) {
    const src = vol.projected as { sources?: Record<string, unknown>[]; defaultMode?: number };
    const mode = src.defaultMode ?? 0o644;
    const files: Record<string, FileSpec> = {};
    for (const s of src.sources ?? []) {
      let part: Content = { files: {} };
      if (s['configMap']) part = desiredContent(c, pod, { name: vol.name, configMap: { ...(s['configMap'] as { name: string }), defaultMode: mode } });
      else if (s['secret']) {
        const sec = s['secret'] as { name: string; items?: { key: string; path: string }[]; optional?: boolean };
        part = desiredContent(c, pod, { name: vol.name, secret: { secretName: sec.name, defaultMode: mode, ...(sec.items ? { items: sec.items } : {}), ...(sec.optional ? { optional: true } : {}) } as NonNullable<Volume['secret']> });
      } else if (s['downwardAPI']) part = downwardFiles(c, pod, ((s['downwardAPI'] as { items?: DownwardItem[] }).items ?? []), mode);
      else if (s['serviceAccountToken']) {
        const t = s['serviceAccountToken'] as { path: string; audience?: string; expirationSeconds?: number };
        part = { files: { [t.path]: { content: () => serviceAccountToken(c, pod, t), mode: 0o600 } } };
      }
      if ('error' in part) return part;
      if ('files' in part) Object.assign(files, part.files);
    }
    return { files };
  }
  return { skip: true };
}

/** The hash of the content (a token's times excluded: it is rotated, not rewritten on sync). */
function contentHash(pod: Pod, vol: Volume, files: Record<string, FileSpec>): string {
  const tokenPaths = new Set(((vol.projected as { sources?: Record<string, { path?: string }>[] } | undefined)?.sources ?? []).map((s) => s['serviceAccountToken']?.path).filter((p): p is string => p !== undefined));
  return JSON.stringify(Object.entries(files).map(([p, f]) => [p, tokenPaths.has(p) ? pod.metadata.uid : f.content, f.mode]).sort());
}

/** atomic_writer.go Write: a new timestamped directory, then `..data` switched to it, then the old one removed. */
function writeAtomic(c: Cluster, st: VolumeState, files: Record<string, FileSpec>, keepOld: boolean, seed: string): void {
  const fs = new Vfs(st.fs, () => c.now());
  const d = new Date(c.now());
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const dir = `..${d.getUTCFullYear()}_${p2(d.getUTCMonth() + 1)}_${p2(d.getUTCDate())}_${p2(d.getUTCHours())}_${p2(d.getUTCMinutes())}_${p2(d.getUTCSeconds())}.${tempSuffix(`${seed}@${c.now()}`)}`;
  const old = fs.readlink('/..data');
  for (const [p, f] of Object.entries(files)) {
    if (typeof f.content === 'function') fs.writeDeferred(`/${dir}/${p}`, f.content(), f.mode);
    else fs.write(`/${dir}/${p}`, f.content, f.mode);
  }
  fs.mkdir(`/${dir}`);
  fs.symlink(dir, '/..data');
  const top = new Set(Object.keys(files).map((p) => p.split('/')[0]!));
  for (const name of fs.list('/')) if (!name.startsWith('..') && !top.has(name)) fs.remove(`/${name}`);
  for (const name of top) if (!fs.isLink(`/${name}`)) fs.symlink(`..data/${name}`, `/${name}`);
  if (old && !keepOld) fs.removeTree(`/${old}`);
}

/**
 * os.MkdirTemp's random suffix, derived from the volume and the time instead of the cluster's
 * random source, so that mounting volumes does not shift the names and addresses drawn after it.
 */
function tempSuffix(seed: string): number {
  let h = 0x811c9dc5;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return (Math.imul(h, 2654435761) >>> 0) % 1_000_000_000;
}

/** Whether a container mounts this volume with a subPath (its bound file must outlive an update). */
function hasSubPathMount(pod: Pod, vol: string): boolean {
  return [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].some((ct) => (ct.volumeMounts ?? []).some((m) => m.name === vol && m.subPath));
}

/** The next periodic sync of the pod at or after `at` (every SYNC_PERIOD_MS from the sandbox). */
export function nextSync(sandboxAt: number, at: number): number {
  const k = Math.ceil((at - sandboxAt) / SYNC_PERIOD_MS);
  return sandboxAt + Math.max(1, k) * SYNC_PERIOD_MS;
}

/**
 * Set up (first call) or sync (later calls) every volume of the pod. Returns the first
 * MountVolume.SetUp error (`FailedMount`), or undefined when every volume is ready.
 */
export function syncPodVolumes(c: Cluster, pod: Pod, sandboxAt: number): { volume: string; error: string } | undefined {
  volumePasses++;
  const t = table(c);
  for (const vol of pod.spec.volumes ?? []) {
    const k = podPartKey(pod.metadata.uid ?? '', vol);
    if (vol.hostPath) {
      const err = setUpHostPath(c, pod, vol.hostPath);
      if (err) return { volume: vol.name, error: err };
      continue;
    }
    lookPending(c, t, k);
    const st0 = t[k];
    const sources = st0?.hash !== undefined ? volumeSources(c, pod, vol) : undefined;
    const srcKey = sources?.key;
    const seen = st0 && srcKey !== undefined ? SEEN.get(st0) : undefined;
    // the same sources at the same versions as when this volume was last looked at: the same content
    if (st0 && seen && seen.key === srcKey && seen.hash === st0.hash) {
      delete st0.pendingAt;
      continue;
    }
    // the content of the same pod object's volume from the very same source objects, hashed before
    // (in any cluster holding them: BUILT), is what this volume holds: as a build finding it so
    if (st0 && sources && srcKey !== undefined && builtHash(pod, vol, sources.objects) === st0.hash) {
      delete st0.pendingAt;
      SEEN.set(st0, { key: srcKey, hash: st0.hash! });
      continue;
    }
    contentBuilds++;
    const want = desiredContent(c, pod, vol);
    if ('skip' in want) {
      t[k] ??= { fs: { files: {}, dirs: ['/'] } };
      continue;
    }
    const st = t[k];
    if ('error' in want) {
      if (!st) return { volume: vol.name, error: want.error };
      continue; // a mounted volume keeps its last content when its source goes away
    }
    const hash = contentHash(pod, vol, want.files);
    if (sources) rememberBuilt(pod, vol, sources.objects, hash);
    if (!st) {
      const fresh: VolumeState = { fs: { files: {}, dirs: ['/'] }, hash };
      t[k] = fresh;
      writeAtomic(c, fresh, want.files, false, k);
      continue;
    }
    if (st.hash === hash) {
      delete st.pendingAt;
      if (srcKey !== undefined) SEEN.set(st, { key: srcKey, hash });
      continue;
    }
    st.pendingAt ??= nextSync(sandboxAt, c.now());
    if (c.now() >= st.pendingAt) {
      writeAtomic(c, st, want.files, hasSubPathMount(pod, vol.name), k);
      st.hash = hash;
      delete st.pendingAt;
    } else c.wakeAt(st.pendingAt);
  }
  return undefined;
}

/**
 * Whether a sync of the pod's volumes now (syncPodVolumes) can change nothing, given that one ran
 * since anything it reads changed: the pod object, the ConfigMaps and Secrets it projects, its
 * node's files (hostPath), this table. The kubelet asks it for a pod due only because time moved
 * (controllers/kubelet.ts syncPod `timeOnly`). Time enters a volume sync in two places only: an
 * update waiting for the pod's next periodic sync (`pendingAt`: then not settled) and a
 * service-account token, which is minted when the volume is written (never without a content
 * change, which needs a source change). With neither, a sync on the same inputs finds each volume
 * as the last one left it: the same content hash (nothing written), the same error (a missing
 * source keeps the mounted content; one never mounted stops the pass at the same volume), the
 * same hostPath checks. A volume without a state (never mounted) is not settled.
 */
export function podVolumesSettled(c: Cluster, pod: Pod): boolean {
  const t = c.state.podVolumes;
  for (const vol of pod.spec.volumes ?? []) {
    if (vol.hostPath) continue;
    const st = t?.[podPartKey(pod.metadata.uid ?? '', vol)];
    if (!st || st.pendingAt !== undefined) return false;
  }
  return true;
}

/**
 * What a volume's content was last found to be, by the versions of its sources (volumeSources): the
 * kubelet looks at every volume of every pod at each of its syncs, and building the content to
 * hash it (the CA bundle, the token's claims) was most of that sync's cost. Held beside the
 * volume's state, not in it: a restored session simply looks again once.
 */
const SEEN = new WeakMap<VolumeState, Seen>();

/** What SEEN holds of one volume. */
type Seen = { key: string; hash: string };

/** What SEEN holds of one volume, by the volume's key (`<pod uid>/<volume>`). */
export type SeenVolumes = readonly (readonly [string, Seen])[];

/**
 * SEEN's entries for the volumes of this cluster that still hold the content they were found with,
 * for an exact copy of it (the kubelet's Controller.memory): a copy's volume states are new
 * objects, and each copy of a session (grading, validate's runs) rebuilt and hashed every volume
 * of every pod it synced once more (25,000 times in a validate run). A copy that has looked at
 * none of its volumes since it adopted a list (PENDING) answers from that list: the very list when
 * each of its entries still holds (so its copies share the list's map, SAVED_MAPS).
 */
export function seenVolumes(c: Cluster): SeenVolumes {
  const t = c.state.podVolumes;
  if (!t) return [];
  const p = PENDING.get(c);
  if (p && p.table === t && p.looked.size === 0) {
    // nothing has read or written SEEN in this cluster since the adoption, nor a volume's hash
    const held = p.saved.filter(([k, seen]) => t[k]?.hash === seen.hash);
    return held.length === p.saved.length ? p.saved : held;
  }
  const out: [string, Seen][] = [];
  for (const [k, st] of Object.entries(t)) {
    lookPending(c, t, k);
    const seen = SEEN.get(st);
    if (seen && seen.hash === st.hash) out.push([k, seen]);
  }
  return out;
}

/** A saved list (seenVolumes) as a map by volume key, built once per list: every copy restored with it shares it. */
const SAVED_MAPS = new WeakMap<SeenVolumes, ReadonlyMap<string, Seen>>();

/**
 * The entries a cluster adopted (adoptSeenVolumes) at volumes it has not looked at since: the
 * table they were adopted into, the saved list and its map, and the keys looked at (each once).
 */
const PENDING = new WeakMap<Cluster, { table: PodVolumesState; saved: SeenVolumes; map: ReadonlyMap<string, Seen>; looked: Set<string> }>();

/**
 * Take seenVolumes' entries in a copy restored from the same state. Exact: the copy's store holds
 * the same objects at the same resourceVersions, so each volume's sources have the versions the
 * entry was found at, and the volume holds the same hash (checked); a source changed in the copy
 * has a newer version, which misses.
 *
 * Lazily: each entry is taken when its volume is first looked at (lookPending), not all of them
 * now (looping over every volume of every copy cost ~100 ms a validate run, kl27). That answers
 * as taking them all now would: until a volume is first looked at, nothing replaces its state
 * object, changes its hash or reads or sets SEEN of it (all of which only syncPodVolumes,
 * dropPodVolumes and seenVolumes do, each looking first), so the check at that first look sees
 * what it would have seen now.
 */
export function adoptSeenVolumes(c: Cluster, saved: SeenVolumes): void {
  const t = c.state.podVolumes;
  const had = PENDING.get(c);
  if (had) {
    // a second adoption: the first one's entries not looked at yet are taken now, as then
    for (const [k] of had.saved) lookPending(c, had.table, k);
    PENDING.delete(c);
  }
  if (!t || saved.length === 0) return;
  let map = SAVED_MAPS.get(saved);
  if (!map) SAVED_MAPS.set(saved, (map = new Map(saved)));
  PENDING.set(c, { table: t, saved, map, looked: new Set() });
}

/** Before a volume's state is read or changed: take its adopted entry (adoptSeenVolumes), the first time only. */
function lookPending(c: Cluster, t: PodVolumesState, k: string): void {
  const p = PENDING.get(c);
  if (!p || p.table !== t || p.looked.has(k)) return;
  p.looked.add(k);
  const seen = p.map.get(k);
  const st = t[k];
  if (seen && st && st.hash === seen.hash) SEEN.set(st, seen);
}

let contentBuilds = 0;
let volumePasses = 0;

/** How many times syncPodVolumes has looked at a pod's volumes (tests). */
export function volumeSyncPasses(): number {
  return volumePasses;
}

/** How many times syncPodVolumes has built a volume's content to look at it (tests). */
export function volumeContentBuilds(): number {
  return contentBuilds;
}

/** Downward API fields that never change for a pod (its identity). */
const FIXED_FIELDS = new Set(['metadata.namespace', 'metadata.name', 'metadata.uid']);

/**
 * The versions of everything a volume's content is built from: the ConfigMaps and Secrets it
 * projects (resourceVersion, or absent), and those objects themselves. Undefined when the content
 * depends on more than those (downward API fields other than the pod's identity, resource
 * fields): such a volume is rebuilt and hashed at every sync.
 */
function volumeSources(c: Cluster, pod: Pod, vol: Volume): { key: string; objects: (KObject | undefined)[] } | undefined {
  const ns = pod.metadata.namespace ?? 'default';
  const objects: (KObject | undefined)[] = [];
  const ref = (kind: 'ConfigMap' | 'Secret', name: string): string => {
    const o = c.store.get<KObject>(kind, ns, name);
    objects.push(o);
    return `${kind[0]}${name}@${o?.metadata.resourceVersion ?? '-'}`;
  };
  const downward = (items: DownwardItem[] | undefined): boolean => (items ?? []).every((it) => it.fieldRef !== undefined && FIXED_FIELDS.has(it.fieldRef.fieldPath));
  if (vol.configMap) return { key: ref('ConfigMap', (vol.configMap as { name: string }).name), objects };
  if (vol.secret) return { key: ref('Secret', (vol.secret as { secretName: string }).secretName), objects };
  if (vol['downwardAPI']) return downward((vol['downwardAPI'] as { items?: DownwardItem[] }).items) ? { key: '', objects } : undefined;
  if (!vol.projected) return undefined;
  const parts: string[] = [];
  for (const src of (vol.projected as { sources?: Record<string, unknown>[] }).sources ?? []) {
    if (src['configMap']) parts.push(ref('ConfigMap', (src['configMap'] as { name: string }).name));
    else if (src['secret']) parts.push(ref('Secret', (src['secret'] as { name: string }).name));
    else if (src['downwardAPI']) {
      if (!downward((src['downwardAPI'] as { items?: DownwardItem[] }).items)) return undefined;
    } else if (!src['serviceAccountToken']) return undefined;
  }
  return { key: parts.join(','), objects };
}

/**
 * The content hash of a pod's volume as built from its sources (volumeSources), by the pod's spec
 * and volume name, with the pod's identity and the source objects it was built from. The content
 * of such a volume is a function of the pod's spec (the volume's), its identity (the fields a
 * downward item may read here, FIXED_FIELDS; the uid that stands for a token: contentHash), the
 * ConfigMaps and Secrets it projects and nothing else; the store keeps each version of an object
 * frozen (the kubelet's working copy of a pod shares its spec), so the same spec and identity and
 * the very same source objects give the same hash, in any cluster that holds them. Restores
 * of one fixture snapshot share its frozen objects: the first sync of each pod in each of them
 * (SEEN is empty there) no longer builds and hashes every volume again. Only frozen objects are
 * kept (a WeakMap by spec, one entry per volume: the last build).
 */
const BUILT = new WeakMap<Pod['spec'], Map<string, { identity: string; objects: readonly (KObject | undefined)[]; hash: string }>>();

/** The pod's fields a sourced volume's content reads besides its spec (FIXED_FIELDS). */
function identityOf(pod: Pod): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name}/${pod.metadata.uid ?? ''}`;
}

function builtHash(pod: Pod, vol: Volume, objects: readonly (KObject | undefined)[]): string | undefined {
  const had = BUILT.get(pod.spec)?.get(vol.name);
  return had && had.identity === identityOf(pod) && sameItems(had.objects, objects) ? had.hash : undefined;
}

function rememberBuilt(pod: Pod, vol: Volume, objects: readonly (KObject | undefined)[], hash: string): void {
  if (!Object.isFrozen(pod.spec) || !objects.every((o) => o === undefined || Object.isFrozen(o))) return;
  let m = BUILT.get(pod.spec);
  if (!m) BUILT.set(pod.spec, (m = new Map()));
  m.set(vol.name, { identity: identityOf(pod), objects, hash });
}

/** hostPath type checks (pkg/volume/hostpath/host_path.go checkType) and DirectoryOrCreate/FileOrCreate. */
function setUpHostPath(c: Cluster, pod: Pod, hp: { path: string; type?: string }): string | undefined {
  const host = pod.spec.nodeName ? c.host(pod.spec.nodeName) : undefined;
  if (!host) return undefined;
  const fs = host.fs;
  const type = hp.type ?? '';
  switch (type) {
    case 'DirectoryOrCreate':
      if (!fs.isDir(hp.path)) fs.mkdir(hp.path);
      return undefined;
    case 'FileOrCreate':
      if (!fs.exists(hp.path)) fs.write(hp.path, '');
      return undefined;
    case 'Directory':
      return fs.isDir(hp.path) ? undefined : `hostPath type check failed: ${hp.path} is not a directory`;
    case 'File':
      return fs.isFile(hp.path) ? undefined : `hostPath type check failed: ${hp.path} is not a file`;
    default:
      // no check: the runtime creates a missing path as a directory when it bind-mounts it
      if (!fs.exists(hp.path)) fs.mkdir(hp.path);
      return undefined;
  }
}

/** The filesystem behind a volume, and the directory of it a mount shows. */
function volumeFs(c: Cluster, pod: Pod, vol: Volume): { fs: Vfs; source: string; readOnly: boolean } | undefined {
  if (vol.hostPath) {
    const host = pod.spec.nodeName ? c.host(pod.spec.nodeName) : undefined;
    return host ? { fs: host.fs, source: vol.hostPath.path, readOnly: false } : undefined;
  }
  if (vol.persistentVolumeClaim) {
    const ns = pod.metadata.namespace ?? 'default';
    const pvc = c.store.get<KObject>('PersistentVolumeClaim', ns, vol.persistentVolumeClaim.claimName);
    const pvName = (pvc?.['spec'] as { volumeName?: string } | undefined)?.volumeName;
    const pv = pvName ? c.store.get<KObject>('PersistentVolume', undefined, pvName) : undefined;
    const spec = pv?.['spec'] as { hostPath?: { path: string }; local?: { path: string } } | undefined;
    const path = spec?.hostPath?.path ?? spec?.local?.path;
    const host = pod.spec.nodeName ? c.host(pod.spec.nodeName) : undefined;
    if (path && host) return { fs: host.fs, source: path, readOnly: false };
    const t = table(c);
    const st = (t[`pvc/${ns}/${vol.persistentVolumeClaim.claimName}`] ??= { fs: { files: {}, dirs: ['/'] } });
    return { fs: new Vfs(st.fs, () => c.now()), source: '/', readOnly: false };
  }
  const st = table(c)[podPartKey(pod.metadata.uid ?? '', vol)];
  if (!st) return undefined;
  const apiBacked = vol.configMap !== undefined || vol.secret !== undefined || vol['downwardAPI'] !== undefined || vol.projected !== undefined;
  return { fs: new Vfs(st.fs, () => c.now()), source: '/', readOnly: apiBacked };
}

/**
 * Bind a container's subPath mounts as the runtime does when it starts: the path is resolved
 * through the volume's links then, so later updates of the volume do not reach it.
 */
export function bindSubPaths(c: Cluster, pod: Pod, ct: Container): void {
  for (const m of ct.volumeMounts ?? []) {
    if (!m.subPath) continue;
    const vol = (pod.spec.volumes ?? []).find((v) => v.name === m.name);
    const st = vol ? table(c)[key(pod, vol.name)] : undefined;
    if (!st) continue;
    const fs = new Vfs(st.fs, () => c.now());
    (st.subPaths ??= {})[`${ct.name}:${m.mountPath}`] = fs.follow(`/${m.subPath}`);
  }
}

const POD_FILES = ['/etc/resolv.conf', '/etc/hosts', '/etc/hostname'];

/**
 * An image's own files (images.ts rootFiles), by the image reference as a container names it,
 * their map built once: they are a pure function of the image and its tag (the catalogue's
 * constants, dated at the image's build), and every look at a container's files (each kubelet
 * sync of an nginx pod, each flush and exec) built the whole map again. Frozen: readers copy it
 * (node/devices.ts lays /dev over it). Bounded.
 */
const IMAGE_FILES = new Map<string, VirtualFiles | undefined>();
let imageFileBuilds = 0;

/** How many times an image's own files have been built (tests). */
export function imageRootFileBuilds(): number {
  return imageFileBuilds;
}

function imageRootFiles(image: string): VirtualFiles | undefined {
  if (IMAGE_FILES.has(image)) return IMAGE_FILES.get(image);
  const ref = parseImageRef(image);
  const own = ref ? lookupImage(image)?.rootFiles?.(ref.tag) : undefined;
  let built: Record<string, VirtualFile> | undefined;
  const build = (): Record<string, VirtualFile> => {
    imageFileBuilds++;
    const files = own!.files();
    for (const f of Object.values(files)) Object.freeze(f);
    return Object.freeze(files) as Record<string, VirtualFile>;
  };
  const out: VirtualFiles | undefined = own && { ...own, files: () => (built ??= build()) };
  remember(IMAGE_FILES, image, out, 256);
  return out;
}

/** What a container sees: its own root filesystem, the pod's files and its volumeMounts over it. */
export function containerFs(c: Cluster, pod: Pod, container: string): MountVfs {
  const uid = pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`;
  const root = podFs(c, `${uid}/${container}`);
  const ct = podContainers(pod).find((x) => x.name === container);
  // the image's own files (nginx's /etc/nginx): a read-only lower layer under what the container wrote
  const files = ct ? imageRootFiles(ct.image) : undefined;
  // and the runtime's /dev (null, zero, random, urandom, ...), made when the container started
  const started = (): number => {
    const st = pod.status?.containerStatuses?.find((s) => s.name === container)?.state?.running?.startedAt ?? pod.status?.startTime;
    const t = st ? Date.parse(st) : NaN;
    return Number.isNaN(t) ? c.now() : t;
  };
  root.setVirtual(containerDevices(started, files));
  // the kubelet bind-mounts the pod's resolv.conf, hosts and hostname into every container
  const podFiles = podFs(c, uid);
  const mounts: Mount[] = POD_FILES.map((p) => ({ path: p, fs: podFiles, source: p, readOnly: false }));
  for (const m of ct?.volumeMounts ?? []) {
    const vol = (pod.spec.volumes ?? []).find((v) => v.name === m.name);
    const v = vol ? volumeFs(c, pod, vol) : undefined;
    if (!v) continue;
    let source = v.source;
    if (m.subPath) {
      const bound = table(c)[key(pod, m.name)]?.subPaths?.[`${container}:${m.mountPath}`];
      source = bound ?? `${source.replace(/\/$/, '')}/${m.subPath}`;
    }
    mounts.push({ path: m.mountPath.replace(/\/+$/, '') || '/', fs: v.fs, source, readOnly: v.readOnly || m.readOnly === true });
  }
  return new MountVfs(root, mounts);
}
