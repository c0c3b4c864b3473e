/** Node administration tools (available after `ssh NODE`), one file each. */
import type { CommandFn } from '../../types.js';
import { apt } from './apt.js';
import { aptCache } from './apt-cache.js';
import { aptGet } from './apt-get.js';
import { aptMark } from './apt-mark.js';
import { containerd } from './containerd.js';
import { crictl } from './crictl.js';
import { etcdctl } from './etcdctl.js';
import { etcdutl } from './etcdutl.js';
import { dpkg } from './dpkg.js';
import { dpkgQuery } from './dpkg-query.js';
import { ip } from './ip.js';
import { id } from './id.js';
import { df } from './df.js';
import { free } from './free.js';
import { mount } from './mount.js';
import { hostnamectl } from './hostnamectl.js';
import { uptime } from './uptime.js';
import { uname } from './uname.js';
import { pgrep, pidof, ps } from './ps.js';
import { iptables } from './iptables.js';
import { ip6tables } from './ip6tables.js';
import { ip6tablesRestore } from './ip6tables-restore.js';
import { ip6tablesSave } from './ip6tables-save.js';
import { iptablesRestore } from './iptables-restore.js';
import { iptablesSave } from './iptables-save.js';
import { journalctl } from './journalctl.js';
import { kubeadm } from './kubeadm.js';
import { kubelet } from './kubelet.js';
import { insmod } from './insmod.js';
import { lsmod } from './lsmod.js';
import { modinfo } from './modinfo.js';
import { rmmod } from './rmmod.js';
import { nft } from './nft.js';
import { modprobe } from './modprobe.js';
import { netstat } from './netstat.js';
import { route } from './route.js';
import { ss } from './ss.js';
import { reboot, shutdown } from './reboot.js';
import { swapoff } from './swapoff.js';
import { swapon } from './swapon.js';
import { sysctl } from './sysctl.js';
import { systemctl } from './systemctl.js';

export const NODE_COMMANDS: Record<string, CommandFn> = {
  apt,
  'apt-cache': aptCache,
  'apt-get': aptGet,
  'apt-mark': aptMark,
  containerd,
  crictl,
  etcdctl,
  etcdutl,
  dpkg,
  'dpkg-query': dpkgQuery,
  df,
  free,
  hostnamectl,
  id,
  ip,
  uname,
  uptime,
  pgrep,
  pidof,
  ps,
  iptables,
  'iptables-legacy': iptables,
  'iptables-nft': iptables,
  'iptables-restore': iptablesRestore,
  'iptables-save': iptablesSave,
  ip6tables,
  'ip6tables-legacy': ip6tables,
  'ip6tables-nft': ip6tables,
  'ip6tables-restore': ip6tablesRestore,
  'ip6tables-save': ip6tablesSave,
  journalctl,
  kubeadm,
  kubelet,
  insmod,
  lsmod,
  modinfo,
  rmmod,
  nft,
  modprobe,
  mount,
  netstat,
  reboot,
  route,
  shutdown,
  ss,
  swapoff,
  swapon,
  sysctl,
  systemctl,
};

/** The tools every Ubuntu machine of the exam has, the workstation included (procps, coreutils, util-linux, systemd). */
export const HOST_TOOLS: ReadonlySet<string> = new Set(['uname', 'id', 'free', 'uptime', 'hostnamectl', 'df', 'mount', 'ps', 'pgrep', 'pidof', 'ss']);
