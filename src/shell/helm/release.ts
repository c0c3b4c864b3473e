/**
 * Release records (helm pkg/storage/driver/secrets.go, pkg/release/v1/release.go): one Secret
 * `sh.helm.release.v1.NAME.vREVISION` of type helm.sh/release.v1 in the release namespace,
 * labelled name/owner=helm/status/version, whose `release` key holds base64(gzip(JSON)) of
 * the release exactly as helm encodes it (so the Secret's data is that text base64'd again).
 * The JSON keeps helm's field names; the chart part carries metadata, values and templates.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ApiServer } from '../../sim/apiserver.js';
import type { KObject } from '../../sim/api/types.js';
import type { GoValue } from '../gotemplate/value.js';
import { toPlain } from '../gotemplate/sprig.js';
import type { Chart } from './chart.js';
import { ApiError } from '../../sim/api/errors.js';
import { HelmError } from './repo.js';

export type Status = 'deployed' | 'superseded' | 'failed' | 'uninstalled' | 'pending-install' | 'pending-upgrade' | 'pending-rollback' | 'uninstalling';

export interface Release {
  name: string;
  namespace: string;
  version: number;
  info: { first_deployed: string; last_deployed: string; deleted: string; description: string; status: Status; notes?: string };
  chart: { metadata: Chart['metadata']; values: unknown; templates: { name: string; data: string }[] };
  /** The values the user supplied (helm get values). */
  config: Record<string, unknown>;
  manifest: string;
  hooks?: ReleaseHook[];
  /** How the objects were applied: `ssa` (helm v4's default) or `csa` (--server-side=false). */
  apply_method?: 'ssa' | 'csa';
  /**
   * The release's labels (`--labels`), kept on the storage Secret and never in the encoded JSON
   * (release.go: `json:"-"`). Read back as the driver reads them: every label of the Secret from
   * List and Query (listReleases, history), without the system ones from Get (userLabels).
   */
  labels?: Record<string, string>;
}

/** A hook as helm records it (pkg/release/v1/hook.go). */
export interface ReleaseHook {
  name: string;
  kind: string;
  path: string;
  manifest: string;
  events?: string[];
  last_run?: { started_at?: string; completed_at?: string; phase: string };
  weight?: number;
  delete_policies?: string[];
}

/** chartutil.ValidateReleaseName: a DNS-1123 subdomain of at most 53 characters. */
export const RELEASE_NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
export const validReleaseName = (name: string): boolean => name.length <= 53 && RELEASE_NAME_RE.test(name);

/** chartutil.ValidateReleaseName's error as Install.availableName reports it. */
export const invalidReleaseName = (name: string): string =>
  `release name "${name}": invalid release name, must match regex ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$ and the length must not be longer than 53`;

export const secretName = (name: string, version: number): string => `sh.helm.release.v1.${name}.v${version}`;

export function encodeRelease(r: Release): string {
  const { labels: _labels, ...encoded } = r;
  return gzipSync(Buffer.from(JSON.stringify(encoded), 'utf8')).toString('base64');
}

/** The storage driver's own labels (pkg/storage/driver/util.go systemLabels). */
export const SYSTEM_LABELS = ['name', 'owner', 'status', 'version', 'createdAt', 'modifiedAt'];

/** filterSystemLabels: what Secrets.Get returns as the release's labels. */
export function userLabels(labels: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(labels ?? {}).filter(([k]) => !SYSTEM_LABELS.includes(k)));
}

export function decodeRelease(text: string): Release {
  return JSON.parse(gunzipSync(Buffer.from(text, 'base64')).toString('utf8')) as Release;
}

export function chartRecord(chart: Chart): Release['chart'] {
  return { metadata: chart.metadata, values: toPlain(chart.values), templates: chart.templates.map((t) => ({ name: t.name, data: t.data.toString('base64') })) };
}

export const plainConfig = (v: Record<string, GoValue>): Record<string, unknown> => toPlain(v) as Record<string, unknown>;

type Secret = KObject & { type?: string; data?: Record<string, string> };

/**
 * newSecretsObject with the labels Secrets.Create and Update give it: the release's labels, the
 * time stamp (`createdAt` on create, `modifiedAt` on update: Unix seconds, so an update drops
 * createdAt), then name/owner/status/version over anything of those names.
 */
function toSecret(r: Release, stamp: ['createdAt' | 'modifiedAt', number]): Secret {
  const labels = { ...(r.labels ?? {}), [stamp[0]]: String(Math.floor(stamp[1] / 1000)), name: r.name, owner: 'helm', status: r.info.status, version: String(r.version) };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: secretName(r.name, r.version), namespace: r.namespace, labels },
    type: 'helm.sh/release.v1',
    data: { release: Buffer.from(encodeRelease(r), 'utf8').toString('base64') },
  } as Secret;
}

/** Every revision of every release in a namespace (all namespaces when undefined), oldest first. */
export function listReleases(api: ApiServer, namespace?: string): Release[] {
  return api
    .list<Secret>('Secret', namespace)
    .filter((s) => s.type === 'helm.sh/release.v1' && s.metadata.labels?.['owner'] === 'helm' && s.data?.['release'])
    .map((s) => ({ ...decodeRelease(Buffer.from(s.data!['release']!, 'base64').toString('utf8')), labels: { ...(s.metadata.labels ?? {}) } }))
    .sort((a, b) => (a.name === b.name ? a.version - b.version : a.name < b.name ? -1 : 1));
}

export function history(api: ApiServer, namespace: string, name: string): Release[] {
  return listReleases(api, namespace).filter((r) => r.name === name);
}

export function latest(api: ApiServer, namespace: string, name: string): Release | undefined {
  return history(api, namespace, name).at(-1);
}

/** Secrets.Create at `now` (the simulated clock, ms): `create: failed to create: …` on refusal. */
export function createRecord(api: ApiServer, r: Release, now: number): void {
  try {
    api.create(toSecret(r, ['createdAt', now]));
  } catch (e) {
    if (e instanceof ApiError) throw new HelmError(`create: failed to create: ${e.message}`);
    throw e;
  }
}

/** Secrets.Update at `now` (ms). */
export function updateRecord(api: ApiServer, r: Release, now: number): void {
  const cur = api.get<Secret>('Secret', r.namespace, secretName(r.name, r.version));
  const next = toSecret(r, ['modifiedAt', now]);
  api.update({ ...cur, metadata: { ...cur.metadata, labels: next.metadata.labels }, data: next.data } as Secret);
}

/** Mark every deployed revision of a release superseded (Releases.DeployedAll, then Update). */
export function supersedeDeployed(api: ApiServer, namespace: string, name: string, now: number): void {
  for (const r of history(api, namespace, name)) if (r.info.status === 'deployed') updateRecord(api, { ...r, info: { ...r.info, status: 'superseded' } }, now);
}

export function deleteRecord(api: ApiServer, r: Release): void {
  api.delete('Secret', r.namespace, secretName(r.name, r.version));
}

/** helm's time format in tables and status: Go's time.Time String() in UTC. */
export function goTime(iso: string): string {
  const d = new Date(iso);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  // the nanoseconds as stored (RFC 3339 in the release JSON), trailing zeros trimmed
  const frac = /T[^.]*\.(\d+)/.exec(iso)?.[1];
  const ns = (frac !== undefined ? frac.slice(0, 9) : `${p(d.getUTCMilliseconds(), 3)}000000`).replace(/0+$/, '');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}${ns ? `.${ns}` : ''} +0000 UTC`;
}

/** ANSIC-like format of `helm history` (time.Time.Format(time.ANSIC)): `Mon Jan  2 15:04:05 2006`. */
export function ansic(iso: string): string {
  const d = new Date(iso);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}
