/** Node administration tools (available after `ssh NODE`), one file each. */
import type { CommandFn } from '../../types.js';
import { crictl } from './crictl.js';
import { etcdctl } from './etcdctl.js';
import { etcdutl } from './etcdutl.js';
import { ip } from './ip.js';
import { iptables } from './iptables.js';
import { iptablesRestore } from './iptables-restore.js';
import { iptablesSave } from './iptables-save.js';
import { journalctl } from './journalctl.js';
import { kubeadm } from './kubeadm.js';
import { kubelet } from './kubelet.js';
import { netstat } from './netstat.js';
import { route } from './route.js';
import { ss } from './ss.js';
import { sysctl } from './sysctl.js';
import { systemctl } from './systemctl.js';

export const NODE_COMMANDS: Record<string, CommandFn> = {
  crictl,
  etcdctl,
  etcdutl,
  ip,
  iptables,
  'iptables-legacy': iptables,
  'iptables-nft': iptables,
  'iptables-restore': iptablesRestore,
  'iptables-save': iptablesSave,
  journalctl,
  kubeadm,
  kubelet,
  netstat,
  route,
  ss,
  sysctl,
  systemctl,
};
