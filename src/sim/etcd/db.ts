/**
 * etcd's backend database as the lab keeps it: the bbolt file `member/snap/db` of a data
 * directory, and the file `etcdctl snapshot save` writes, hold the same thing: the cluster's API
 * objects (what kube-apiserver stored under /registry/...), the revision, and the membership.
 *
 * A real bbolt file is binary; here its body is one JSON document, so a snapshot copied with
 * `cp`, moved, or restored elsewhere carries the cluster state with it and nothing is kept aside.
 * A snapshot ends with the sha256 of the body, as etcd's snapshot stream appends it
 * (server/etcdserver/api/v3rpc/maintenance.go); a db copied from a data directory has none, and
 * `etcdutl snapshot restore` then insists on --skip-hash-check (etcdutl/snapshot/v3_snapshot.go).
 */
import { createHash } from 'node:crypto';
import type { StoreData } from '../api/store.js';
import type { KObject } from '../api/types.js';
import { infoForKind } from '../api/registry.js';

/** The storage version etcd 3.6 writes into its meta bucket (what `snapshot status` prints). */
export const STORAGE_VERSION = '3.6.0';

const MAGIC = 'etcd-bbolt-db/v1';

export interface EtcdMember {
  /** Member ID, 16 hex digits as etcdctl prints it (`%x`). */
  id: string;
  name: string;
  peerURLs: string[];
  clientURLs: string[];
  /** A learner (`member add --learner`): it replicates but does not vote, so it never counts for quorum. */
  isLearner?: boolean;
}

export interface EtcdDb {
  clusterId: string;
  members: EtcdMember[];
  /** The store's revision (the API objects' resourceVersion counter). */
  revision: number;
  store: StoreData;
}

/** The file body of a db (no checksum). */
export function serializeDb(db: EtcdDb): string {
  return `${MAGIC}\n${JSON.stringify({ clusterId: db.clusterId, members: db.members, revision: db.revision, store: db.store })}\n`;
}

/** A snapshot file: the db body followed by its sha256, as the snapshot stream sends it. */
export function serializeSnapshot(db: EtcdDb): string {
  const body = serializeDb(db);
  return `${body}sha256:${sha256(body)}\n`;
}

export type ParsedDb = { ok: true; db: EtcdDb; hasChecksum: boolean; checksumOk: boolean; body: string } | { ok: false; error: string };

/** Read a db or snapshot file. Anything else is not a bolt database (bbolt's "invalid database"). */
export function parseDb(text: string): ParsedDb {
  if (!text.startsWith(`${MAGIC}\n`)) return { ok: false, error: 'invalid database' };
  const lines = text.split('\n');
  const body = `${lines[0]}\n${lines[1]}\n`;
  let doc: EtcdDb;
  try {
    doc = JSON.parse(lines[1] ?? '') as EtcdDb;
  } catch {
    return { ok: false, error: 'invalid database' };
  }
  if (!doc || !Array.isArray(doc.members) || !doc.store || !Array.isArray(doc.store.objects)) return { ok: false, error: 'invalid database' };
  const trailer = /^sha256:([0-9a-f]{64})$/.exec(lines[2] ?? '');
  return { ok: true, db: doc, hasChecksum: !!trailer, checksumOk: !!trailer && trailer[1] === sha256(body), body };
}

export function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** Byte length of a file body (UTF-8), which is what `ls -l` and `snapshot status` report. */
export function byteSize(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * etcd's member ID (server/etcdserver/api/membership/member.go computeMemberID): the first 8
 * bytes of sha1(sorted peer URLs joined + cluster token), big endian. Deterministic, so a
 * kubeadm etcd and a restored member get the same IDs as the real ones.
 */
export function memberId(peerURLs: readonly string[], token = 'etcd-cluster'): string {
  const joined = [...peerURLs].sort().join('');
  return createHash('sha1').update(joined + token).digest('hex').slice(0, 16);
}

/** The cluster ID (membership/cluster.go genID): sha1 over the sorted member IDs, big endian. */
export function clusterId(memberIds: readonly string[]): string {
  const sorted = [...memberIds].sort((a, b) => (BigInt(`0x${a}`) < BigInt(`0x${b}`) ? -1 : 1));
  const buf = Buffer.alloc(8 * sorted.length);
  sorted.forEach((id, i) => buf.writeBigUInt64BE(BigInt(`0x${id}`), 8 * i));
  return createHash('sha1').update(buf).digest('hex').slice(0, 16);
}

/** `%x` of a member ID: etcdctl prints IDs without leading zeros. */
export function hexId(id: string): string {
  return BigInt(`0x${id}`).toString(16);
}

/** Parse `name1=url1,name2=url2` (--initial-cluster). */
export function parseInitialCluster(s: string): { name: string; url: string }[] {
  return s
    .split(',')
    .filter((x) => x.includes('='))
    .map((x) => ({ name: x.slice(0, x.indexOf('=')), url: x.slice(x.indexOf('=') + 1) }));
}

/**
 * The key kube-apiserver stores an object under (its registry's KeyRootFunc/KeyFunc, with
 * --etcd-prefix=/registry): `/registry/<resource>/<namespace>/<name>`; custom and aggregated
 * groups are prefixed by their group; a few built-ins keep historical paths.
 */
export function registryKey(o: KObject): string {
  const SPECIAL: Record<string, string> = {
    Service: 'services/specs',
    Endpoints: 'services/endpoints',
    Node: 'minions',
    Ingress: 'ingress',
    CustomResourceDefinition: 'apiextensions.k8s.io/customresourcedefinitions',
    APIService: 'apiregistration.k8s.io/apiservices',
  };
  let resource = SPECIAL[o.kind];
  if (!resource) {
    let info: ReturnType<typeof infoForKind> | undefined;
    try {
      info = infoForKind(o.kind);
    } catch {
      info = undefined;
    }
    const group = info?.group ?? o.apiVersion.split('/')[0] ?? '';
    const plural = info?.resource ?? `${o.kind.toLowerCase()}s`;
    // built-in groups (no dot, or *.k8s.io) keep just the resource; custom resources carry their group
    resource = group.includes('.') && !group.endsWith('.k8s.io') ? `${group}/${plural}` : plural;
  }
  const ns = o.metadata.namespace;
  return ns ? `/registry/${resource}/${ns}/${o.metadata.name}` : `/registry/${resource}/${o.metadata.name}`;
}

/** Every key of the keyspace, sorted as etcd ranges them (bytewise). */
export function keysOf(store: StoreData): string[] {
  return store.objects.map(registryKey).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Keys the bolt file holds besides the key space (meta: consistent_index, term, confState,
 * storageVersion, scheduledCompactRev, finishedCompactRev; members and cluster version; auth
 * enabled and revision): what `snapshot status` counts in TOTAL KEYS on top of the objects.
 */
export function totalKeys(db: EtcdDb): number {
  return db.store.objects.length + 8 + db.members.length + 1;
}

/** crc32 (Castagnoli), which etcdutl uses for the snapshot hash (snapshot.Status). */
export function crc32c(s: string): number {
  let crc = 0xffffffff;
  const bytes = Buffer.from(s, 'utf8');
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** go-humanize Bytes (SI, base 1000): what etcd prints for sizes ("5.6 MB", "24 kB"). */
export function humanizeBytes(n: number): string {
  if (n < 10) return `${n} B`;
  const sizes = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  const e = Math.floor(Math.log(n) / Math.log(1000));
  const val = Math.floor((n / 1000 ** e) * 10 + 0.5) / 10;
  return val < 10 ? `${val.toFixed(1)} ${sizes[e]}` : `${val.toFixed(0)} ${sizes[e]}`;
}
