/**
 * Who a container runs as: the cases of the Kubernetes docs' security-context task
 * (content/en/docs/tasks/configure-pod-container/security-context.md) and the kubelet's
 * verifyRunAsNonRoot, with the ids busybox and coreutils `id` printed for the same process in a
 * chroot holding the image's databases.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from '../api/types.js';
import { processIdentity, verifyRunAsNonRoot } from './identity.js';

const pod = (image: string, podSc?: Record<string, unknown>, ctSc?: Record<string, unknown>): { pod: Pod; ct: Container } => {
  const ct = { name: 'c', image, ...(ctSc ? { securityContext: ctSc } : {}) } as Container;
  const p = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u-1' }, spec: { containers: [ct], ...(podSc ? { securityContext: podSc } : {}) } } as unknown as Pod;
  return { pod: p, ct };
};

const cases: Array<{ name: string; image: string; podSc?: Record<string, unknown>; ctSc?: Record<string, unknown>; uid: number; gid: number; groups: number[] }> = [
  { name: 'busybox as root: root is in wheel (buildroot /etc/group)', image: 'busybox', uid: 0, gid: 0, groups: [0, 10] },
  { name: 'nginx (Debian) as root: root is in no other group', image: 'nginx', uid: 0, gid: 0, groups: [0] },
  { name: 'alpine as root: the eleven groups alpine-baselayout lists root in', image: 'alpine', uid: 0, gid: 0, groups: [0, 1, 2, 3, 4, 6, 10, 11, 20, 26, 27] },
  { name: 'docs example: runAsUser, runAsGroup, fsGroup and supplementalGroups', image: 'busybox:1.28', podSc: { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, supplementalGroups: [4000] }, uid: 1000, gid: 3000, groups: [2000, 3000, 4000] },
  { name: 'runAsUser alone: an unknown uid keeps group 0', image: 'busybox', podSc: { runAsUser: 1000 }, uid: 1000, gid: 0, groups: [0] },
  { name: 'runAsUser of a known user: its passwd group and memberships', image: 'busybox', podSc: { runAsUser: 33 }, uid: 33, gid: 33, groups: [33] },
  { name: 'the container overrides the pod', image: 'busybox', podSc: { runAsUser: 1000 }, ctSc: { runAsUser: 2000 }, uid: 2000, gid: 0, groups: [0] },
  { name: 'Strict leaves out /etc/group memberships', image: 'busybox', podSc: { supplementalGroupsPolicy: 'Strict' }, uid: 0, gid: 0, groups: [0] },
  { name: 'the image USER (curl_user) decides without runAsUser', image: 'curlimages/curl', uid: 100, gid: 101, groups: [101] },
];

for (const c of cases) {
  test(`identity: ${c.name}`, () => {
    const { pod: p, ct } = pod(c.image, c.podSc, c.ctSc);
    const id = processIdentity(p, ct);
    assert.deepEqual({ uid: id.uid, gid: id.gid, groups: id.groups }, { uid: c.uid, gid: c.gid, groups: c.groups });
  });
}

const nonRoot: Array<{ name: string; image: string; podSc?: Record<string, unknown>; ctSc?: Record<string, unknown>; error?: string }> = [
  { name: 'not asked', image: 'nginx' },
  { name: 'an image running as root', image: 'nginx', podSc: { runAsNonRoot: true }, error: 'container has runAsNonRoot and image will run as root (pod: "p_ns(u-1)", container: c)' },
  { name: 'runAsUser 0', image: 'nginx', podSc: { runAsNonRoot: true, runAsUser: 0 }, error: `container's runAsUser breaks non-root policy (pod: "p_ns(u-1)", container: c)` },
  { name: 'a non-zero runAsUser passes whatever the image', image: 'nginx', podSc: { runAsNonRoot: true, runAsUser: 101 } },
  { name: 'an image user by name cannot be verified', image: 'curlimages/curl', podSc: { runAsNonRoot: true }, error: 'container has runAsNonRoot and image has non-numeric user (curl_user), cannot verify user is non-root (pod: "p_ns(u-1)", container: c)' },
  { name: 'the container turns it off', image: 'nginx', podSc: { runAsNonRoot: true }, ctSc: { runAsNonRoot: false } },
];

for (const c of nonRoot) {
  test(`verifyRunAsNonRoot: ${c.name}`, () => {
    const { pod: p, ct } = pod(c.image, c.podSc, c.ctSc);
    assert.equal(verifyRunAsNonRoot(p, ct), c.error);
  });
}
