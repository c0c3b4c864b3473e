import type { CommandFn } from '../../types.js';
import { curl } from './curl.js';
import { dig } from './dig.js';
import { getent } from './getent.js';
import { host } from './host.js';
import { id } from './id.js';
import { ifconfig } from './ifconfig.js';
import { ip } from './ip.js';
import { nc } from './nc.js';
import { nginx } from './nginx.js';
import { nslookup } from './nslookup.js';
import { ping } from './ping.js';
import { ps } from './ps.js';
import { route } from './route.js';
import { wget } from './wget.js';
import { whoami } from './whoami.js';
import { why } from './why.js';
import { etcdctl } from '../node/etcdctl.js';
import { etcdutl } from '../node/etcdutl.js';
import { xxd } from './xxd.js';
import { df } from './df.js';
import { free } from './free.js';
import { top } from './top.js';
import { uname } from './uname.js';
import { uptime } from './uptime.js';

/** Network and DNS tools that run on nodes and inside containers, and busybox's ps and xxd, one file each. */
/** etcdctl and etcdutl run inside the etcd image too (`kubectl -n kube-system exec etcd-cka-cp1 -- etcdctl …`). */
/** df, free, top, uname and uptime: busybox's applets, reading the node the pod runs on (a node and the workstation have their own, node/). */
export const POD_COMMANDS: Record<string, CommandFn> = { curl, df, etcdctl, etcdutl, dig, free, getent, host, id, ifconfig, ip, nc, nginx, nslookup, ping, ps, route, top, uname, uptime, wget, whoami, why, xxd };

/** Tools that exist only inside containers here (a node has its own ps, the workstation none; nginx runs in its image; xxd is busybox's, Ubuntu's optional package is not installed). */
export const CONTAINER_ONLY: ReadonlySet<string> = new Set(['ps', 'nginx', 'id', 'whoami', 'ip', 'ifconfig', 'route', 'xxd', 'top', 'df', 'free', 'uname', 'uptime']);

/**
 * What the container's own shell (dash, busybox ash) answers itself, so it works whatever
 * executables the image holds: `printf` and `test` are builtins there even where the image has no
 * /usr/bin/printf (dash's src/builtins.def, busybox's ash.c builtintab).
 */
export const SHELL_BUILTINS: ReadonlySet<string> = new Set(['echo', 'printf', 'test', '[', 'true', 'false', 'pwd']);
