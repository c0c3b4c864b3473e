/**
 * Who a container's processes run as: the kubelet's effective security context
 * (pkg/securitycontext/util.go DetermineEffectiveSecurityContext: the container's runAsUser,
 * runAsGroup and runAsNonRoot over the pod's; pkg/kubelet/kuberuntime/security_context.go adds the
 * pod's fsGroup and supplementalGroups), the image's USER when none is set (helpers.go
 * getImageUser), and containerd's resolution against the image's /etc/passwd and /etc/group
 * (oci/spec_opts.go WithUserID/WithUsername, WithAdditionalGIDs under supplementalGroupsPolicy
 * Merge, ensureAdditionalGids putting the primary group first). The kernel keeps supplementary
 * groups sorted (kernel/groups.c groups_sort), which is the order `id` prints them in.
 */
import type { Container, Pod } from '../api/types.js';
import { lookupImage, parseImageRef, type ImageInfo } from '../images.js';
import { type AccountFamily, type Accounts, accountsOf, groupByGid, userByName, userByUid } from './accounts.js';

export interface ProcessIdentity {
  uid: number;
  gid: number;
  /** The supplementary groups as getgroups(2) returns them: sorted, the primary group among them. */
  groups: number[];
  /** The image's databases, for names (undefined: the image has none). */
  accounts?: Accounts;
}

type Sc = Record<string, unknown> | undefined;
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** The fields of the effective security context this module needs. */
export function effectiveSecurityContext(pod: Pod, ct: Container): { runAsUser?: number; runAsGroup?: number; runAsNonRoot?: boolean } {
  const p = pod.spec.securityContext as Sc;
  const c = ct['securityContext'] as Sc;
  const pick = (k: string): unknown => (c?.[k] !== undefined ? c[k] : p?.[k]);
  const runAsUser = int(pick('runAsUser'));
  const runAsGroup = int(pick('runAsGroup'));
  const nonRoot = pick('runAsNonRoot');
  return {
    ...(runAsUser !== undefined ? { runAsUser } : {}),
    ...(runAsGroup !== undefined ? { runAsGroup } : {}),
    ...(typeof nonRoot === 'boolean' ? { runAsNonRoot: nonRoot } : {}),
  };
}

/** Which databases an image carries: its libc family (alpine variants by tag). */
export function accountFamily(info: ImageInfo, tag: string): AccountFamily | undefined {
  if (/alpine/.test(tag)) return 'alpine';
  if (info.dns === 'busybox') return 'busybox';
  if (info.dns === 'musl') return 'alpine';
  if (info.dns === 'glibc') return 'debian';
  return undefined;
}

function imageAccounts(image: string): { info?: ImageInfo; accounts?: Accounts } {
  const info = lookupImage(image);
  const ref = parseImageRef(image);
  const family = info && ref ? accountFamily(info, ref.tag) : undefined;
  return { ...(info ? { info } : {}), ...(family && info ? { accounts: accountsOf(family, info.repository) } : {}) };
}

/**
 * The image user as the CRI reports it (containerd's image status: the part before `:`, a uid
 * when numeric, else a name); neither set means root.
 */
export function imageUser(info: ImageInfo | undefined): { uid: number } | { username: string } {
  const user = (info?.user ?? '').split(':')[0]!;
  if (user === '') return { uid: 0 };
  return /^\d+$/.test(user) ? { uid: Number(user) } : { username: user };
}

/**
 * kuberuntime/security_context_others.go verifyRunAsNonRoot (v1.35): the error that keeps the
 * container from being created (CreateContainerConfigError), or undefined.
 */
export function verifyRunAsNonRoot(pod: Pod, ct: Container): string | undefined {
  const sc = effectiveSecurityContext(pod, ct);
  if (sc.runAsNonRoot !== true) return undefined;
  const where = `(pod: "${pod.metadata.name}_${pod.metadata.namespace ?? 'default'}(${pod.metadata.uid ?? ''})", container: ${ct.name})`;
  if (sc.runAsUser !== undefined) return sc.runAsUser === 0 ? `container's runAsUser breaks non-root policy ${where}` : undefined;
  const user = imageUser(lookupImage(ct.image));
  if ('username' in user) return `container has runAsNonRoot and image has non-numeric user (${user.username}), cannot verify user is non-root ${where}`;
  if (user.uid === 0) return `container has runAsNonRoot and image will run as root ${where}`;
  return undefined;
}

/** The uid, gid and groups of the container's processes. */
export function processIdentity(pod: Pod, ct: Container): ProcessIdentity {
  const sc = effectiveSecurityContext(pod, ct);
  const { info, accounts } = imageAccounts(ct.image);
  let uid: number;
  let gid: number;
  let name: string | undefined;
  if (sc.runAsUser !== undefined) {
    // WithUserID: the uid's passwd entry gives the group; an unknown uid gets group 0
    uid = sc.runAsUser;
    const pw = accounts ? userByUid(accounts, uid) : undefined;
    gid = pw?.gid ?? 0;
    name = pw?.name;
  } else {
    const user = imageUser(info);
    const pw = accounts ? ('uid' in user ? userByUid(accounts, user.uid) : userByName(accounts, user.username)) : undefined;
    uid = 'uid' in user ? user.uid : pw?.uid ?? 0;
    gid = pw?.gid ?? 0;
    name = pw?.name;
  }
  if (sc.runAsGroup !== undefined) gid = sc.runAsGroup;
  const podSc = pod.spec.securityContext as Sc;
  const strict = podSc?.['supplementalGroupsPolicy'] === 'Strict';
  const extra: number[] = [];
  // WithAdditionalGIDs (policy Merge): the groups that list the user by name in /etc/group
  if (!strict && accounts && name) for (const g of accounts.groups) if (g.members.includes(name)) extra.push(g.gid);
  const fsGroup = int(podSc?.['fsGroup']);
  if (fsGroup !== undefined) extra.push(fsGroup);
  for (const g of (podSc?.['supplementalGroups'] as unknown[] | undefined) ?? []) if (int(g) !== undefined) extra.push(g as number);
  const groups = [...new Set([gid, ...extra])].sort((a, b) => a - b);
  return { uid, gid, groups, ...(accounts ? { accounts } : {}) };
}

/** The user's name in the image, or undefined. */
export const userName = (id: ProcessIdentity, uid = id.uid): string | undefined => (id.accounts ? userByUid(id.accounts, uid)?.name : undefined);
/** The group's name in the image, or undefined. */
export const groupName = (id: ProcessIdentity, gid: number): string | undefined => (id.accounts ? groupByGid(id.accounts, gid)?.name : undefined);
