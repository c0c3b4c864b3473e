/**
 * The etcd member of the control plane and the data directory it serves from. The cluster's API
 * objects (Cluster.store) are the contents of the running member's data directory: when the etcd
 * static pod starts from another directory (its --data-dir, or the hostPath volume mounted there,
 * changed), the member it left is written back into its old directory and the new directory's
 * database becomes the store. A directory without a database starts a new, empty cluster, as
 * etcd would (server/etcdserver/bootstrap.go: no WAL → new member from --initial-cluster), and
 * kube-apiserver and the kubelets then recreate only what they always recreate.
 *
 * Files: `<dir>/member/snap/db` (the database, db.ts) and `<dir>/member/wal/<seq>-<index>.wal`.
 * The running member's db file is written when the member starts and when it leaves the
 * directory; reads of the live database go through liveDb(), which is the store as it is now.
 */
import type { Cluster } from '../cluster.js';
import type { Host } from '../node/host.js';
import type { KObject, Pod } from '../api/types.js';
import type { StoreData } from '../api/store.js';
import { commandFlags } from '../controlplane.js';
import { release } from '../cni/ipam.js';
import { dropPodFs } from '../runtime/podfs.js';
import { clusterId, memberId, parseDb, parseInitialCluster, serializeDb, type EtcdDb, type EtcdMember } from './db.js';

/** The running member, kept in the cluster state (state.ts `etcdMember`). */
export interface EtcdMemberState {
  /** The node whose etcd static pod runs the member. */
  node: string;
  /** Host path of the data directory; undefined when it is inside the container (lost on restart). */
  dataDir?: string;
  clusterId: string;
  /** ID of the local member (the one this node runs). */
  localId: string;
  members: EtcdMember[];
  /** Raft term: one more at every start (a single member elects itself). */
  term: number;
  /** Raft index: grows with every write; derived from the store revision plus the starts. */
  indexBase: number;
  /** Keys written with `etcdctl put` outside /registry (the API server never reads them). */
  extraKeys?: Record<string, string>;
}

export const DB_FILE = 'member/snap/db';
export const WAL_FILE = 'member/wal/0000000000000000-0000000000000000.wal';

export function etcdMember(c: Cluster): EtcdMemberState | undefined {
  return c.state.etcdMember;
}

/** Whether etcd serves clients (its static pod runs). */
export function etcdUp(c: Cluster): boolean {
  return !!c.state.etcdMember && c.state.etcd?.up !== false;
}

/** The database as the running member holds it now. */
export function liveDb(c: Cluster): EtcdDb | undefined {
  const m = c.state.etcdMember;
  if (!m) return undefined;
  const store = c.store.toJSON();
  return { clusterId: m.clusterId, members: m.members, revision: store.resourceVersion, store };
}

/**
 * Where `--data-dir` of an etcd pod lives on the host: the hostPath volume mounted over it
 * (kubeadm mounts /var/lib/etcd at /var/lib/etcd), or undefined when no volume covers it and the
 * directory lives in the container's own filesystem.
 */
export function hostDataDir(pod: Pod): string | undefined {
  const flags = commandFlags(pod);
  const name = flags.get('name') ?? 'default';
  const raw = flags.get('data-dir') ?? `${name}.etcd`;
  const dir = raw.startsWith('/') ? raw.replace(/\/+$/, '') || '/' : `/${raw}`;
  const ct = pod.spec.containers[0];
  const mounts = [...(ct?.volumeMounts ?? [])].sort((a, b) => b.mountPath.length - a.mountPath.length);
  for (const m of mounts) {
    const mp = m.mountPath.replace(/\/+$/, '');
    if (dir !== mp && !dir.startsWith(`${mp}/`)) continue;
    const vol = (pod.spec.volumes ?? []).find((v) => v.name === m.name) as { hostPath?: { path: string } } | undefined;
    if (!vol?.hostPath) return undefined;
    return `${vol.hostPath.path.replace(/\/+$/, '')}${dir.slice(mp.length)}`;
  }
  return undefined;
}

/** The local member as the flags describe it (a new member, or the attributes it publishes). */
function memberFromFlags(flags: Map<string, string>): { name: string; peerURLs: string[]; clientURLs: string[]; token: string; initial: { name: string; url: string }[] } {
  const name = flags.get('name') ?? 'default';
  const peerURLs = (flags.get('initial-advertise-peer-urls') ?? 'http://localhost:2380').split(',').filter(Boolean);
  const clientURLs = (flags.get('advertise-client-urls') ?? 'http://localhost:2379').split(',').filter(Boolean);
  const initial = parseInitialCluster(flags.get('initial-cluster') ?? `${name}=${peerURLs[0] ?? 'http://localhost:2380'}`);
  return { name, peerURLs, clientURLs, token: flags.get('initial-cluster-token') ?? 'etcd-cluster', initial };
}

/** Write a data directory: the db and an (opaque) WAL. */
export function writeDataDir(host: Host, dir: string, db: EtcdDb): void {
  host.fs.mkdir(`${dir}/member/snap`);
  host.fs.mkdir(`${dir}/member/wal`);
  host.fs.write(`${dir}/${DB_FILE}`, serializeDb(db), 0o600);
  host.fs.write(`${dir}/${WAL_FILE}`, `wal ${db.clusterId} ${db.members.map((m) => m.id).join(',')} ${db.revision}\n`, 0o600);
}

/**
 * What kube-apiserver, the kubelets and the controllers recreate on an empty etcd within
 * seconds: the system namespaces, the `kubernetes` Service and its endpoints, the bootstrap RBAC
 * and priority classes, every node (kubelets re-register) and the namespaces' default
 * ServiceAccount and root CA ConfigMap. Everything else (Deployments, kube-proxy, CoreDNS, the
 * user's objects) is gone, as on a real cluster whose etcd lost its data.
 */
export function isRecreatedOnEmptyEtcd(o: KObject): boolean {
  const ns = o.metadata.namespace;
  const SYSTEM_NS = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
  switch (o.kind) {
    case 'Namespace':
      return SYSTEM_NS.includes(o.metadata.name);
    case 'Service':
    case 'Endpoints':
      return ns === 'default' && o.metadata.name === 'kubernetes';
    case 'EndpointSlice':
      return ns === 'default' && o.metadata.name === 'kubernetes';
    case 'PriorityClass':
      return o.metadata.name.startsWith('system-');
    case 'ClusterRole':
    case 'ClusterRoleBinding':
    case 'Role':
    case 'RoleBinding':
      return o.metadata.labels?.['kubernetes.io/bootstrapping'] === 'rbac-defaults';
    case 'Node':
      return true;
    case 'Lease':
      return ns === 'kube-node-lease';
    case 'ServiceAccount':
      return SYSTEM_NS.includes(ns ?? '') && o.metadata.name === 'default';
    case 'ConfigMap':
      return SYSTEM_NS.includes(ns ?? '') && o.metadata.name === 'kube-root-ca.crt';
    default:
      return false;
  }
}

export type StartResult = { ok: true } | { ok: false; logs: string[] };

/**
 * The etcd static pod started on `host`: bind the cluster's store to the data directory it serves.
 * First start (a fixture, or a session saved before members were kept): the store is what the
 * directory holds. Same directory again: nothing changes. Another directory: the old member's data
 * goes back into its directory and the new directory's database (or an empty cluster) becomes the store.
 */
export function etcdStarted(c: Cluster, host: Host, pod: Pod, logLine: (msg: string, fields: Record<string, unknown>) => string): StartResult {
  const flags = commandFlags(pod);
  const dir = hostDataDir(pod);
  const self = memberFromFlags(flags);
  const live = c.state.etcdMember;
  if (live && live.node === host.name && live.dataDir !== undefined && live.dataDir === dir && host.fs.exists(`${dir}/${DB_FILE}`)) {
    live.term += 1;
    publishAttributes(live, self);
    return { ok: true };
  }
  if (!live) {
    const id = memberId(self.peerURLs, self.token);
    const members = self.initial.map((m) => ({ id: memberId([m.url], self.token), name: m.name, peerURLs: [m.url], clientURLs: m.name === self.name ? self.clientURLs : [] }));
    if (!members.some((m) => m.id === id)) members.push({ id, name: self.name, peerURLs: self.peerURLs, clientURLs: self.clientURLs });
    const state: EtcdMemberState = { node: host.name, ...(dir !== undefined ? { dataDir: dir } : {}), clusterId: clusterId(members.map((m) => m.id)), localId: id, members, term: 2, indexBase: 0 };
    c.state.etcdMember = state;
    if (dir !== undefined) writeDataDir(host, dir, liveDb(c)!);
    return { ok: true };
  }
  // leave the old directory: what the member held stays there
  const oldHost = c.host(live.node);
  if (oldHost && live.dataDir !== undefined && oldHost.fs.isDir(`${live.dataDir}/member`)) writeDataDir(oldHost, live.dataDir, liveDb(c)!);
  const text = dir !== undefined ? host.fs.tryRead(`${dir}/${DB_FILE}`) : undefined;
  let next: EtcdMemberState;
  let data: StoreData;
  if (text !== undefined) {
    const parsed = parseDb(text);
    if (!parsed.ok)
      return { ok: false, logs: [logLine('failed to open backend', { path: `${dir}/${DB_FILE}`, error: parsed.error }), logLine('failed to start etcd', { error: `failed to open database: ${parsed.error}` })] };
    const db = parsed.db;
    const local = db.members[0]!;
    next = { node: host.name, dataDir: dir!, clusterId: db.clusterId, localId: local.id, members: db.members.map((m) => ({ ...m })), term: 2, indexBase: live.indexBase + 7 };
    data = { ...db.store, uidCounter: Math.max(db.store.uidCounter, c.store.toJSON().uidCounter) };
  } else {
    const id = memberId(self.peerURLs, self.token);
    const members = [{ id, name: self.name, peerURLs: self.peerURLs, clientURLs: self.clientURLs }];
    next = { node: host.name, ...(dir !== undefined ? { dataDir: dir } : {}), clusterId: clusterId([id]), localId: id, members, term: 2, indexBase: 0 };
    const cur = c.store.toJSON();
    const kept = cur.objects.filter(isRecreatedOnEmptyEtcd);
    data = { resourceVersion: 1 + kept.length, uidCounter: cur.uidCounter, objects: kept };
  }
  publishAttributes(next, self);
  swapStore(c, data);
  c.state.etcdMember = next;
  if (dir !== undefined) writeDataDir(host, dir, liveDb(c)!);
  return { ok: true };
}

/** A starting member publishes its name and client URLs (etcdserver publishV3). */
function publishAttributes(m: EtcdMemberState, self: { name: string; clientURLs: string[] }): void {
  const local = m.members.find((x) => x.id === m.localId);
  if (!local) return;
  local.name = self.name;
  local.clientURLs = self.clientURLs;
}

/**
 * Replace the API objects with another database's, and drop the kubelet's and CNI's private state
 * of pods that no longer exist (their sandboxes are torn down as the kubelet would on a pod it no
 * longer knows).
 */
function swapStore(c: Cluster, data: StoreData): void {
  const keep = new Set(data.objects.filter((o) => o.kind === 'Pod').map((o) => o.metadata.uid ?? ''));
  for (const p of c.store.list('Pod')) {
    const uid = p.metadata.uid ?? '';
    if (keep.has(uid)) continue;
    release(c, uid);
    dropPodFs(c, uid);
    delete c.state.sandboxAt?.[uid];
  }
  c.store.load(data);
}

/** The raft index the member reports: every write is one entry, plus the entries of each start. */
export function raftIndex(c: Cluster, m: EtcdMemberState): number {
  return c.store.toJSON().resourceVersion + m.indexBase + m.term * 3;
}
