/**
 * The mount table of a node, derived as /proc/self/mounts would list it: an Ubuntu 24.04 cloud
 * image on a libvirt disk (vda1 root, vda16 /boot, vda15 /boot/efi, the kernel's pseudo file
 * systems, systemd's tmpfs mounts, root's /run/user/0 while logged in), then what the runtime and
 * the kubelet mount for the pods on it: each sandbox's /dev/shm and network namespace, each
 * running container's overlay rootfs (containerd's overlayfs snapshotter) and each pod's
 * secret-backed volumes as tmpfs under /var/lib/kubelet/pods. Used by `mount` and `df`.
 * Sizes are KiB; the root file system's size is the node's ephemeral-storage capacity and its
 * usage a modelled OS share plus the unpacked images of the containers on the node.
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { Node, Pod } from '../../../sim/api/types.js';
import { memBytes } from '../../../sim/metrics.js';
import { fnv } from './host.js';
import { imageSize, runtimeState } from './crictl.js';
import { memTotalKiB } from './processes.js';

export interface Mount {
  source: string;
  target: string;
  type: string;
  options: string;
  /** 1K blocks, used and available, for the file systems df reports (undefined: a pseudo file system). */
  size?: number;
  used?: number;
  avail?: number;
}

const SNAPSHOTS = '/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots';

/** df's dummy file systems (coreutils mountlist.c ME_DUMMY): not listed without -a. */
export const DUMMY_TYPES = new Set(['autofs', 'proc', 'subfs', 'debugfs', 'devpts', 'fusectl', 'mqueue', 'rpc_pipefs', 'sysfs', 'devfs', 'kernfs', 'ignore', 'securityfs', 'cgroup2', 'pstore', 'bpf', 'tracefs', 'configfs', 'hugetlbfs', 'nsfs', 'binfmt_misc']);

function fs(source: string, target: string, type: string, options: string, size?: number, used = 0): Mount {
  return size === undefined ? { source, target, type, options } : { source, target, type, options, size, used, avail: size - used };
}

export function nodeMounts(c: Cluster, host: Host): Mount[] {
  const mem = memTotalKiB(c, host);
  const node = c.store.get<Node>('Node', undefined, host.name);
  const rootSize = Math.round((memBytes(node?.status?.capacity?.['ephemeral-storage']) ?? 20_775_936_000) / 1024);
  const { sandboxes, containers } = runtimeState(c, host);
  const running = containers.filter((x) => x.state === 'Running');
  const images = new Set([...running.map((x) => x.image), 'registry.k8s.io/pause:3.10.1']);
  const imageKiB = [...images].reduce((a, ref) => a + Math.round((imageSize(ref.replace(/:[^/:]*$/, '')) * 2.2) / 1024), 0);
  const rootUsed = 5_610_000 + (fnv(`${host.name}/os`) % 300_000) + imageKiB;
  // ext4 keeps 5 % of the blocks for root: df's Avail leaves them out
  const root: Required<Mount> = { source: '/dev/vda1', target: '/', type: 'ext4', options: 'rw,relatime,discard,errors=remount-ro,commit=30', size: rootSize, used: rootUsed, avail: Math.max(0, rootSize - rootUsed - Math.round(rootSize * 0.05)) };
  const run = Math.round(mem / 10 / 4) * 4;
  const out: Mount[] = [
    fs('sysfs', '/sys', 'sysfs', 'rw,nosuid,nodev,noexec,relatime'),
    fs('proc', '/proc', 'proc', 'rw,nosuid,nodev,noexec,relatime'),
    fs('udev', '/dev', 'devtmpfs', `rw,nosuid,relatime,size=${Math.round(mem / 2 - 40_000)}k,nr_inodes=${Math.round(mem / 8)},mode=755,inode64`, Math.round(mem / 2 - 40_000)),
    fs('devpts', '/dev/pts', 'devpts', 'rw,nosuid,noexec,relatime,gid=5,mode=620,ptmxmode=000'),
    fs('tmpfs', '/run', 'tmpfs', `rw,nosuid,nodev,noexec,relatime,size=${run}k,mode=755,inode64`, run, 1_100 + (fnv(`${host.name}/run`) % 400)),
    root,
    fs('securityfs', '/sys/kernel/security', 'securityfs', 'rw,nosuid,nodev,noexec,relatime'),
    fs('tmpfs', '/dev/shm', 'tmpfs', 'rw,nosuid,nodev,inode64', Math.round(mem / 2)),
    fs('tmpfs', '/run/lock', 'tmpfs', 'rw,nosuid,nodev,noexec,relatime,size=5120k,inode64', 5120),
    fs('cgroup2', '/sys/fs/cgroup', 'cgroup2', 'rw,nosuid,nodev,noexec,relatime,nsdelegate,memory_recursiveprot'),
    fs('pstore', '/sys/fs/pstore', 'pstore', 'rw,nosuid,nodev,noexec,relatime'),
    fs('bpf', '/sys/fs/bpf', 'bpf', 'rw,nosuid,nodev,noexec,relatime,mode=700'),
    fs('hugetlbfs', '/dev/hugepages', 'hugetlbfs', 'rw,nosuid,nodev,relatime,pagesize=2M'),
    fs('mqueue', '/dev/mqueue', 'mqueue', 'rw,nosuid,nodev,noexec,relatime'),
    fs('debugfs', '/sys/kernel/debug', 'debugfs', 'rw,nosuid,nodev,noexec,relatime'),
    fs('tracefs', '/sys/kernel/tracing', 'tracefs', 'rw,nosuid,nodev,noexec,relatime'),
    fs('fusectl', '/sys/fs/fuse/connections', 'fusectl', 'rw,nosuid,nodev,noexec,relatime'),
    fs('configfs', '/sys/kernel/config', 'configfs', 'rw,nosuid,nodev,noexec,relatime'),
    fs('/dev/vda16', '/boot', 'ext4', 'rw,relatime', 901_520, 80_532 + (fnv(`${host.name}/boot`) % 20_000)),
    fs('/dev/vda15', '/boot/efi', 'vfat', 'rw,relatime,fmask=0077,dmask=0077,codepage=437,iocharset=iso8859-1,shortname=mixed,errors=remount-ro', 106_832, 6_246),
    fs('binfmt_misc', '/proc/sys/fs/binfmt_misc', 'binfmt_misc', 'rw,nosuid,nodev,noexec,relatime'),
  ];
  // the runtime's and the kubelet's mounts, in the order the pods started
  const pods = new Map(c.store.list<Pod>('Pod').filter((p) => p.spec.nodeName === host.name).map((p) => [p.metadata.uid ?? '', p]));
  let snapshot = 20;
  for (const sb of [...sandboxes].reverse()) {
    const pod = pods.get(sb.uid);
    // the kubelet sets up the pod's volumes before it asks the runtime for the sandbox
    if (pod) {
      const limit = pod.spec.containers.reduce((a, ct) => a + (memBytes(ct.resources?.limits?.['memory']) ?? 0), 0);
      const size = limit > 0 ? Math.round(limit / 1024) : Math.round((memBytes(node?.status?.allocatable?.['memory']) ?? mem * 1024) / 1024);
      for (const v of pod.spec.volumes ?? []) {
        const kind = v.projected ? 'projected' : v.secret ? 'secret' : undefined;
        if (kind) out.push(fs('tmpfs', `/var/lib/kubelet/pods/${sb.uid}/volumes/kubernetes.io~${kind}/${v.name}`, 'tmpfs', `rw,relatime,size=${size}k,inode64`, size, 12));
      }
    }
    out.push(fs('shm', `/run/containerd/io.containerd.grpc.v1.cri/sandboxes/${sb.id}/shm`, 'tmpfs', 'rw,nosuid,nodev,noexec,relatime,size=65536k,inode64', 65_536));
    if (pod && !pod.spec.hostNetwork) out.push(fs('nsfs', `/run/netns/cni-${sb.id.slice(0, 8)}-${sb.id.slice(8, 12)}-${sb.id.slice(12, 16)}-${sb.id.slice(16, 20)}-${sb.id.slice(20, 32)}`, 'nsfs', 'rw'));
    const overlay = (id: string): Mount => {
      snapshot += 3;
      const opts = `rw,relatime,lowerdir=${SNAPSHOTS}/${snapshot - 2}/fs,upperdir=${SNAPSHOTS}/${snapshot}/fs,workdir=${SNAPSHOTS}/${snapshot}/work,uuid=on,nouserxattr`;
      return { source: 'overlay', target: `/run/containerd/io.containerd.runtime.v2.task/k8s.io/${id}/rootfs`, type: 'overlay', options: opts, size: root.size, used: root.used, avail: root.avail };
    };
    out.push(overlay(sb.id));
    for (const ct of running.filter((x) => x.podId === sb.id).reverse()) out.push(overlay(ct.id));
  }
  out.push(fs('tmpfs', '/run/user/0', 'tmpfs', `rw,nosuid,nodev,relatime,size=${run}k,nr_inodes=${Math.round(mem / 40)},mode=700,inode64`, run, 4));
  return out;
}
