/**
 * The user and group databases (/etc/passwd, /etc/group) an image carries, which decide the names
 * `id`, `whoami` and `ps` print inside a container and the groups containerd adds to its process
 * (its WithAdditionalGIDs reads the image's /etc/group). Three families cover the catalogue:
 *
 * - busybox: the docker-library images copy buildroot's skeleton (system/skeleton/etc/passwd and
 *   group, buildroot 2025.02; docker-library/busybox Dockerfile.builder). root is a member of wheel.
 * - debian: Debian's base-passwd master files (3.6.1, /usr/share/base-passwd/*.master), which
 *   every Debian-based official image (nginx, httpd, redis, mysql, postgres) starts from, plus the
 *   users the image's Dockerfile adds (nginx: uid/gid 101).
 * - alpine: alpine-baselayout, as far as recorded: `docker run alpine id` prints
 *   `uid=0(root) gid=0(root) groups=0(root),1(bin),2(daemon),3(sys),4(adm),6(disk),10(wheel),11(floppy),20(dialout),26(tape),27(video)`;
 *   only root, nobody and the groups root belongs to are listed here.
 */

export type AccountFamily = 'busybox' | 'debian' | 'alpine';

export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

export interface GroupEntry {
  name: string;
  gid: number;
  members: string[];
}

export interface Accounts {
  users: PasswdEntry[];
  groups: GroupEntry[];
}

const BUSYBOX_PASSWD = `root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/bin/false
bin:x:2:2:bin:/bin:/bin/false
sys:x:3:3:sys:/dev:/bin/false
sync:x:4:100:sync:/bin:/bin/sync
mail:x:8:8:mail:/var/spool/mail:/bin/false
www-data:x:33:33:www-data:/var/www:/bin/false
operator:x:37:37:Operator:/var:/bin/false
nobody:x:65534:65534:nobody:/home:/bin/false
`;

const BUSYBOX_GROUP = `root:x:0:
daemon:x:1:
bin:x:2:
sys:x:3:
adm:x:4:
tty:x:5:
disk:x:6:
lp:x:7:
mail:x:8:
kmem:x:9:
wheel:x:10:root
cdrom:x:11:
dialout:x:18:
floppy:x:19:
video:x:28:
audio:x:29:
tape:x:32:
www-data:x:33:
operator:x:37:
utmp:x:43:
plugdev:x:46:
staff:x:50:
lock:x:54:
netdev:x:82:
users:x:100:
nobody:x:65534:
`;

const DEBIAN_PASSWD = `root:x:0:0:root:/root:/bin/bash
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
bin:x:2:2:bin:/bin:/usr/sbin/nologin
sys:x:3:3:sys:/dev:/usr/sbin/nologin
sync:x:4:65534:sync:/bin:/bin/sync
games:x:5:60:games:/usr/games:/usr/sbin/nologin
man:x:6:12:man:/var/cache/man:/usr/sbin/nologin
lp:x:7:7:lp:/var/spool/lpd:/usr/sbin/nologin
mail:x:8:8:mail:/var/mail:/usr/sbin/nologin
news:x:9:9:news:/var/spool/news:/usr/sbin/nologin
uucp:x:10:10:uucp:/var/spool/uucp:/usr/sbin/nologin
proxy:x:13:13:proxy:/bin:/usr/sbin/nologin
www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin
backup:x:34:34:backup:/var/backups:/usr/sbin/nologin
list:x:38:38:Mailing List Manager:/var/list:/usr/sbin/nologin
irc:x:39:39:ircd:/run/ircd:/usr/sbin/nologin
_apt:x:42:65534::/nonexistent:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
`;

const DEBIAN_GROUP = `root:x:0:
daemon:x:1:
bin:x:2:
sys:x:3:
adm:x:4:
tty:x:5:
disk:x:6:
lp:x:7:
mail:x:8:
news:x:9:
uucp:x:10:
man:x:12:
proxy:x:13:
kmem:x:15:
dialout:x:20:
fax:x:21:
voice:x:22:
cdrom:x:24:
floppy:x:25:
tape:x:26:
sudo:x:27:
audio:x:29:
dip:x:30:
www-data:x:33:
backup:x:34:
operator:x:37:
list:x:38:
irc:x:39:
src:x:40:
shadow:x:42:
utmp:x:43:
video:x:44:
sasl:x:45:
plugdev:x:46:
staff:x:50:
games:x:60:
users:x:100:
nogroup:x:65534:
`;

const ALPINE_PASSWD = `root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/:/sbin/nologin
`;

const ALPINE_GROUP = `root:x:0:root
bin:x:1:root,bin,daemon
daemon:x:2:root,bin,daemon
sys:x:3:root,bin
adm:x:4:root,daemon
disk:x:6:root
wheel:x:10:root
floppy:x:11:root
dialout:x:20:root
tape:x:26:root
video:x:27:root
nobody:x:65534:
`;

/** Users an image's own Dockerfile adds, by repository. */
const IMAGE_USERS: Record<string, { passwd: string; group: string }> = {
  // nginx's Dockerfile (debian and alpine variants): groupadd/addgroup --gid 101 nginx, uid 101
  'docker.io/library/nginx': { passwd: 'nginx:x:101:101:nginx user:/nonexistent:/bin/false\n', group: 'nginx:x:101:\n' },
  // curl-container's Dockerfile: addgroup -S curl_group && adduser -S curl_user -G curl_group (alpine -S: the first free system ids)
  'docker.io/curlimages/curl': { passwd: 'curl_user:x:100:101:Linux User,,,:/home/curl_user:/sbin/nologin\n', group: 'curl_group:x:101:curl_user\n' },
};

function parsePasswd(text: string): PasswdEntry[] {
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(':'))
    .filter((f) => f.length >= 7)
    .map((f) => ({ name: f[0]!, uid: Number(f[2]), gid: Number(f[3]), home: f[5]! }));
}

function parseGroup(text: string): GroupEntry[] {
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(':'))
    .filter((f) => f.length >= 4)
    .map((f) => ({ name: f[0]!, gid: Number(f[2]), members: f[3] ? f[3].split(',') : [] }));
}

const FAMILY_FILES: Record<AccountFamily, { passwd: string; group: string }> = {
  busybox: { passwd: BUSYBOX_PASSWD, group: BUSYBOX_GROUP },
  debian: { passwd: DEBIAN_PASSWD, group: DEBIAN_GROUP },
  alpine: { passwd: ALPINE_PASSWD, group: ALPINE_GROUP },
};

/**
 * The files themselves, as the image carries them: only where the whole file is known (busybox's
 * buildroot skeleton; the nginx image's Debian base with its nginx user). Undefined otherwise.
 */
export function accountFiles(family: AccountFamily, repository: string): { passwd: string; group: string } | undefined {
  if (family === 'alpine') return undefined;
  if (family === 'debian' && repository !== 'docker.io/library/nginx') return undefined;
  const extra = IMAGE_USERS[repository];
  return { passwd: FAMILY_FILES[family].passwd + (extra?.passwd ?? ''), group: FAMILY_FILES[family].group + (extra?.group ?? '') };
}

const CACHE = new Map<string, Accounts>();

/** The databases of an image of this family, with what the repository's own Dockerfile adds. */
export function accountsOf(family: AccountFamily, repository: string): Accounts {
  const key = `${family} ${repository}`;
  const hit = CACHE.get(key);
  if (hit) return hit;
  const extra = IMAGE_USERS[repository];
  const files = FAMILY_FILES[family];
  const out = { users: parsePasswd(files.passwd + (extra?.passwd ?? '')), groups: parseGroup(files.group + (extra?.group ?? '')) };
  CACHE.set(key, out);
  return out;
}

export const userByUid = (a: Accounts, uid: number): PasswdEntry | undefined => a.users.find((u) => u.uid === uid);
export const userByName = (a: Accounts, name: string): PasswdEntry | undefined => a.users.find((u) => u.name === name);
export const groupByGid = (a: Accounts, gid: number): GroupEntry | undefined => a.groups.find((g) => g.gid === gid);
