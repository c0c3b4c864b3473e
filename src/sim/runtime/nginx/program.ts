/**
 * The nginx process of a docker.io/library/nginx container (listed in runtime/overrides.ts):
 *  - start: the image's entrypoint (docker-nginx docker-entrypoint.sh and its
 *    /docker-entrypoint.d scripts, whose lines open the container log) and then nginx, which
 *    reads /etc/nginx/nginx.conf and its includes from the container's filesystem as mounted. A
 *    configuration error ends the container with nginx's emerg lines (the error log is
 *    /dev/stderr in the image, and nginx also writes `nginx: [emerg] …` to stderr while it
 *    starts: src/core/ngx_log.c), so the kubelet restarts it into CrashLoopBackOff;
 *  - serving: the configuration the master loaded answers requests (serve.ts), with bodies read
 *    from the container's files at request time;
 *  - the `nginx` binary inside the container (`kubectl exec … -- nginx -t`): src/core/nginx.c
 *    ngx_get_options and main: -v/-V, -t/-T (test, dump), -q, -c, -s reload|reopen|stop|quit.
 *    `-s reload` parses the configuration in the signalling process first: a broken one fails
 *    there and the running master keeps its configuration.
 * Plain data in cluster.state.nginx, keyed by `<pod uid>/<container>`.
 */
import type { Cluster } from '../../cluster.js';
import type { Container, Node, Pod } from '../../api/types.js';
import type { ProgramOverride } from '../overrides.js';
import { parseImageRef, type HttpAnswer, type HttpSite } from '../../images.js';
import { containerFs } from '../volumes.js';
import type { MountVfs } from '../mountfs.js';
import { CONF_PATH, formatConfError, parseNginxConfCached, type ConfError, type NginxHttp, type ReadConf } from './conf.js';
import { listeningPorts, nginxServe } from './serve.js';
import { builtBy, nginxBuild, PACKAGED_DEFAULT_CONF, runPidPath, withIpv6Listen, type NginxBuild } from './image.js';
import { processIdentity } from '../identity.js';
import { remember } from '../../../util/bounded-map.js';

export const NGINX_REPOSITORY = 'docker.io/library/nginx';

export interface NginxInstance {
  /** The master process runs (false after it failed to start or was told to stop). */
  running: boolean;
  exitCode?: number;
  /** The container runs nginx at all (a `command: [sleep, …]` override does not). */
  nginx: boolean;
  /** The http configuration the master serves with (undefined: no http block). */
  loaded?: NginxHttp;
  startedAt: number;
  logs: string[];
  previousLogs: string[];
  /** Worker pids of the master (29 on in the image: the entrypoint's scripts used the pids before). */
  workers: number[];
  nextPid: number;
}

export interface NginxState {
  pods: Record<string, NginxInstance>;
}

function table(c: Cluster): Record<string, NginxInstance> {
  return (c.state.nginx ??= { pods: {} }).pods;
}

function key(pod: Pod, container: string): string {
  return `${pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`}/${container}`;
}

export function nginxInstance(c: Cluster, pod: Pod, container: string): NginxInstance | undefined {
  return c.state.nginx?.pods[key(pod, container)];
}

/**
 * The builds by image reference: a pure function of the text (bounded), asked
 * at every request an nginx container serves. Frozen: shared by every caller.
 */
const BUILDS = new Map<string, Readonly<NginxBuild>>();
const BUILDS_MAX = 256;

/** The build of the image a container runs. */
export function containerBuild(ct: Container): NginxBuild {
  return BUILDS.get(ct.image) ?? remember(BUILDS, ct.image, Object.freeze(nginxBuild(parseImageRef(ct.image)?.tag ?? 'latest')), BUILDS_MAX);
}

/** nginx's error log time (ngx_times.c: local time, UTC in the container). */
export function logTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/** The container's files as nginx's configuration reader opens them. */
export function confReader(fs: MountVfs): ReadConf {
  return {
    read(p) {
      if (fs.isFile(p)) return fs.tryRead(p) ?? 'ENOENT';
      return fs.isDir(p) ? 'EISDIR' : 'ENOENT';
    },
    glob(pattern) {
      const dir = pattern.slice(0, pattern.lastIndexOf('/')) || '/';
      const base = pattern.slice(pattern.lastIndexOf('/') + 1);
      if (/[*?[]/.test(dir) || !fs.isDir(dir)) return [];
      const re = globRegex(base);
      return fs
        .list(dir)
        .filter((n) => re.test(n) && fs.isFile(`${dir}/${n}`))
        .map((n) => `${dir === '/' ? '' : dir}/${n}`);
    },
  };
}

/** glob(3) for one path component: `*`, `?`, `[…]`; a leading dot is matched only by a dot. */
export function globRegex(pattern: string): RegExp {
  let src = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*') src += '[^/]*';
    else if (ch === '?') src += '[^/]';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) src += '\\[';
      else {
        const body = pattern.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        src += `[${body}]`;
        i = end;
      }
    } else src += ch.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  const lead = pattern.startsWith('.') ? '' : '(?!\\.)';
  return new RegExp(`^${lead}${src}$`);
}

/** How the container's command runs nginx: through the image's entrypoint, directly, from a script, or not at all. */
export function nginxLaunch(ct: Container): { nginx: boolean; entrypoint: boolean } {
  const command = ct.command ?? [];
  const args = ct.args ?? [];
  const isNginx = (exe: string | undefined): boolean => exe !== undefined && /^nginx(-debug)?$/.test(exe.split('/').pop() ?? '');
  if (command.length === 0) {
    // docker-entrypoint.sh configures only when it runs nginx, then execs the arguments
    if (args.length === 0) return { nginx: true, entrypoint: true };
    return { nginx: isNginx(args[0]), entrypoint: isNginx(args[0]) };
  }
  if ((command[0] ?? '').endsWith('docker-entrypoint.sh')) return { nginx: isNginx(args[0] ?? command[1]), entrypoint: isNginx(args[0] ?? command[1]) };
  if (isNginx(command[0])) return { nginx: true, entrypoint: false };
  const script = [...command, ...args].join(' ');
  return { nginx: /(^|[\s;&|(/])nginx(-debug)?(\s|$)/.test(script) && /(^|\/)(ba|a)?sh$/.test(command[0] ?? ''), entrypoint: false };
}

/**
 * The entrypoint's lines (docker-entrypoint.sh; 10-listen-on-ipv6-by-default.sh decides from
 * default.conf as the container has it: missing, read-only (a ConfigMap over it), already edited,
 * or not the packaged file). 15-local-resolvers.envsh exists since May 2023 (nginx 1.24/1.25 images).
 */
export function entrypointLog(fs: MountVfs, build: NginxBuild, root = true): string[] {
  const ME = '/docker-entrypoint.sh';
  const out = [`${ME}: /docker-entrypoint.d/ is not empty, will attempt to perform configuration`, `${ME}: Looking for shell scripts in /docker-entrypoint.d/`];
  out.push(`${ME}: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh`);
  out.push(...ipv6Script(fs, root));
  const [, min] = build.version.split('.').map(Number) as [number, number];
  if (min >= 24) out.push(`${ME}: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh`);
  out.push(`${ME}: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh`, `${ME}: Launching /docker-entrypoint.d/30-tune-worker-processes.sh`, `${ME}: Configuration complete; ready for start up`);
  return out;
}

function ipv6Script(fs: MountVfs, root: boolean): string[] {
  const ME = '10-listen-on-ipv6-by-default.sh';
  const FILE = '/etc/nginx/conf.d/default.conf';
  if (!fs.isFile(FILE)) return [`${ME}: info: ${FILE} is not a file or does not exist`];
  const r = fs.route(FILE);
  // `touch` fails on a read-only mount, and for any user but root on the image's own root-owned file
  if (r.mount?.readOnly || (!root && !r.mount)) return [`${ME}: info: can not modify ${FILE} (read-only file system?)`];
  // the image's own file (lower layer): the packaged text, which the script edits
  const own = r.mount !== undefined || Object.hasOwn(r.fs.data.files, r.fs.follow(r.path));
  const text = fs.tryRead(FILE) ?? '';
  if (!own) return [`${ME}: info: Getting the checksum of ${FILE}`, `${ME}: info: Enabled listen on IPv6 in ${FILE}`];
  if (text.includes('listen  [::]:80;')) return [`${ME}: info: IPv6 listen already enabled`];
  const lines = [`${ME}: info: Getting the checksum of ${FILE}`];
  if (text !== PACKAGED_DEFAULT_CONF) return [...lines, `${ME}: info: ${FILE} differs from the packaged version`];
  fs.write(FILE, withIpv6Listen(text));
  return [...lines, `${ME}: info: Enabled listen on IPv6 in ${FILE}`];
}

/** The line of nginx.conf's `user` directive (the image's is line 2), or undefined. */
function userDirectiveLine(fs: MountVfs): number | undefined {
  const lines = (fs.tryRead(CONF_PATH) ?? '').split('\n');
  const i = lines.findIndex((l) => /^\s*user\s+[^;]*;/.test(l));
  return i < 0 ? undefined : i + 1;
}

/**
 * What stops nginx started by a user other than root (ngx_init_cycle, then main's
 * ngx_create_pidfile): the temp directories the build compiled in under /var/cache/nginx and the
 * pid file belong to root in the image, so they must sit on a writable volume (an emptyDir), as
 * the nginx-unprivileged image arranges instead. Undefined when both are writable.
 */
function unprivilegedDenial(fs: MountVfs, build: NginxBuild): string | undefined {
  const writable = (p: string): boolean => {
    const m = fs.route(p).mount;
    return m !== undefined && !m.readOnly;
  };
  if (!writable('/var/cache/nginx/client_temp')) return 'mkdir() "/var/cache/nginx/client_temp" failed (13: Permission denied)';
  const conf = fs.tryRead(CONF_PATH) ?? '';
  const pid = /^\s*pid\s+([^;\s]+)\s*;/m.exec(conf)?.[1] ?? (runPidPath(build.version) ? '/run/nginx.pid' : '/var/run/nginx.pid');
  if (!writable(pid)) return `open() "${pid}" failed (13: Permission denied)`;
  return undefined;
}

/** The number of worker processes: `worker_processes N`, or one per CPU of the node for `auto` (the image's setting). */
function workerCount(c: Cluster, pod: Pod, setting: string | undefined): number {
  if (setting !== undefined && /^\d+$/.test(setting)) return Math.max(1, Math.min(64, Number(setting)));
  const node = pod.spec.nodeName ? c.store.get<Node>('Node', undefined, pod.spec.nodeName) : undefined;
  const cpu = Number.parseInt(String(node?.status?.capacity?.['cpu'] ?? '2'), 10);
  return Number.isFinite(cpu) && cpu > 0 ? Math.min(cpu, 64) : 2;
}

function kernel(c: Cluster, pod: Pod): string {
  const host = pod.spec.nodeName ? c.hosts.get(pod.spec.nodeName) : undefined;
  return host?.data.os.kernel ?? '6.8.0-1015-aws';
}

/** Both places an error reaches while nginx starts: the error log (/dev/stderr) and ngx_log_stderr's copy. */
function errorLines(ts: string, pid: number, level: 'emerg' | 'warn', message: string): string[] {
  return [`${ts} [${level}] ${pid}#${pid}: ${message}`, `nginx: [${level}] ${message}`];
}

export type LoadResult = { ok: true; http?: NginxHttp; warnings: string[]; workerProcesses?: string; files: { path: string; text: string }[] } | { ok: false; error: ConfError };

export function loadConfig(fs: MountVfs, path = CONF_PATH): LoadResult {
  const r = parseNginxConfCached(confReader(fs), path);
  if (!r.ok) return { ok: false, error: r.error };
  return { ok: true, ...(r.conf.http ? { http: r.conf.http } : {}), warnings: r.conf.warnings, ...(r.conf.workerProcesses !== undefined ? { workerProcesses: r.conf.workerProcesses } : {}), files: r.conf.files };
}

/** Instances of pods that are gone (no other controller owns nginx's state). */
function prune(c: Cluster): void {
  const t = table(c);
  const live = new Set(c.store.list<Pod>('Pod').map((p) => p.metadata.uid ?? `${p.metadata.namespace}/${p.metadata.name}`));
  for (const k of Object.keys(t)) if (!live.has(k.slice(0, k.lastIndexOf('/')))) delete t[k];
}

export const nginxProgram: ProgramOverride = {
  repositories: [NGINX_REPOSITORY],
  kubeletProbes: true,
  start(c, pod, ct) {
    prune(c);
    const t = table(c);
    const k = key(pod, ct.name);
    const prev = t[k];
    const build = containerBuild(ct);
    const launch = nginxLaunch(ct);
    const inst: NginxInstance = { running: true, nginx: launch.nginx, startedAt: c.now(), logs: [], previousLogs: prev ? prev.logs : [], workers: [], nextPid: 29 };
    t[k] = inst;
    if (!launch.nginx) return { ok: true };
    const fs = containerFs(c, pod, ct.name);
    const ts = logTime(c.now());
    const root = processIdentity(pod, ct).uid === 0;
    if (launch.entrypoint) inst.logs.push(...entrypointLog(fs, build, root));
    const r = loadConfig(fs);
    const fail = (message: string): ReturnType<ProgramOverride['start']> => {
      inst.logs.push(...errorLines(ts, 1, 'emerg', message));
      inst.running = false;
      inst.exitCode = 1;
      return { ok: false, exitCode: 1, output: inst.logs.map((l) => `${l}\n`).join('') };
    };
    if (!r.ok) return fail(formatConfError(r.error));
    if (!root) {
      const user = userDirectiveLine(fs);
      if (user !== undefined) inst.logs.push(...errorLines(ts, 1, 'warn', `the "user" directive makes sense only if the master process runs with super-user privileges, ignored in ${CONF_PATH}:${user}`));
    }
    for (const w of r.warnings) inst.logs.push(...errorLines(ts, 1, 'warn', w));
    if (!root) {
      const denied = unprivilegedDenial(fs, build);
      if (denied) return fail(denied);
    }
    if (r.http) inst.loaded = r.http;
    const n = workerCount(c, pod, r.workerProcesses);
    inst.workers = Array.from({ length: n }, (_, i) => 29 + i);
    inst.nextPid = 29 + n;
    const notice = (m: string): string => `${ts} [notice] 1#1: ${m}`;
    inst.logs.push(
      notice('using the "epoll" event method'),
      notice(`nginx/${build.version}`),
      notice(`built by ${builtBy(build)}`),
      notice(`OS: Linux ${kernel(c, pod)}`),
      notice('getrlimit(RLIMIT_NOFILE): 1048576:1048576'),
      notice('start worker processes'),
      ...inst.workers.map((p) => notice(`start worker process ${p}`)),
    );
    return { ok: true };
  },
  status(c, pod, ct) {
    const inst = nginxInstance(c, pod, ct.name);
    if (inst && !inst.running) return { running: false, ready: false, exitCode: inst.exitCode ?? 1 };
    return { running: true, ready: true };
  },
  logs(c, pod, container, previous) {
    const inst = nginxInstance(c, pod, container);
    const ct = pod.spec.containers.find((x) => x.name === container);
    // a container whose command is a script that starts nginx prints what its script prints
    if (!inst || !inst.nginx || (ct && !nginxLaunch(ct).entrypoint && (ct.command?.length ?? 0) > 0)) return undefined;
    const st = pod.status?.containerStatuses?.find((s) => s.name === container);
    const waiting = st?.state.waiting !== undefined;
    // kubelet validateContainerLogStatus: a container waiting to restart shows its last run both ways
    return (previous && !waiting ? inst.previousLogs : inst.logs).map((l) => `${l}\n`).join('');
  },
  listens(c, pod, ct, port, proto) {
    const inst = nginxInstance(c, pod, ct.name);
    if (!inst) return undefined;
    if (!inst.nginx || !inst.running || proto !== 'tcp') return false;
    return listeningPorts(inst.loaded).includes(port);
  },
  http(c, pod, ct, port) {
    const inst = nginxInstance(c, pod, ct.name);
    if (!inst?.nginx || !inst.running || !inst.loaded) return undefined;
    return nginxSite(c, pod, ct, inst.loaded, port);
  },
};

/** What the running nginx serves on `port`: every request answered from the loaded configuration and the files at that moment. */
function nginxSite(c: Cluster, pod: Pod, ct: Container, http: NginxHttp, port: number): HttpSite {
  const version = containerBuild(ct).version;
  return {
    pages: {},
    server: `nginx/${version}`,
    respond(req): HttpAnswer | undefined {
      const fs = containerFs(c, pod, ct.name);
      return nginxServe(
        http,
        { method: req.method, uri: req.path, host: req.host, port, hostname: pod.spec.hostname ?? pod.metadata.name, ...(req.query ? { query: req.query } : {}) },
        {
          kind: (p) => (fs.isFile(p) ? 'file' : fs.isDir(p) ? 'dir' : undefined),
          read: (p) => fs.tryRead(p),
          list: (d) => fs.list(d),
        },
        version,
      );
    },
  };
}

/* ------------------------------------------------------------------ the nginx binary */

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** `nginx -h` (nginx.c ngx_show_version_info). */
function helpText(version: string): string {
  return `nginx version: nginx/${version}
Usage: nginx [-?hvVtTq] [-s signal] [-p prefix]
             [-e filename] [-c filename] [-g directives]

Options:
  -?,-h         : this help
  -v            : show version and exit
  -V            : show version and configure options then exit
  -t            : test configuration and exit
  -T            : test configuration, dump it and exit
  -q            : suppress non-error messages during configuration testing
  -s signal     : send signal to a master process: stop, quit, reopen, reload
  -p prefix     : set prefix path (default: /etc/nginx/)
  -e filename   : set error log file (default: /var/log/nginx/error.log)
  -c filename   : set configuration file (default: /etc/nginx/nginx.conf)
  -g directives : set global directives out of configuration file

`;
}

/** Run the `nginx` binary in a container (kubectl exec). */
export function nginxCli(c: Cluster, pod: Pod, container: string, argv: readonly string[]): CliResult {
  const ct = pod.spec.containers.find((x) => x.name === container);
  const build = ct ? containerBuild(ct) : nginxBuild('latest');
  const fs = containerFs(c, pod, container);
  const k = key(pod, container);
  const inst = table(c)[k];
  const pid = inst ? inst.nextPid++ : 30;
  let test = false;
  let dump = false;
  let quiet = false;
  let signal: string | undefined;
  let confPath = CONF_PATH;
  let help = false;
  let version: 'v' | 'V' | undefined;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-') || a.length < 2) return { stdout: '', stderr: `nginx: invalid option: "${a}"\n`, exitCode: 1 };
    for (let j = 1; j < a.length; j++) {
      const ch = a[j]!;
      if (ch === '?' || ch === 'h') help = true;
      else if (ch === 'v') version = version ?? 'v';
      else if (ch === 'V') version = 'V';
      else if (ch === 't') test = true;
      else if (ch === 'T') [test, dump] = [true, true];
      else if (ch === 'q') quiet = true;
      else if ('spceg'.includes(ch)) {
        const rest = a.slice(j + 1);
        const v = rest !== '' ? rest : argv[++i];
        if (v === undefined) return { stdout: '', stderr: `nginx: option "-${ch}" requires ${ch === 's' ? 'signal name' : ch === 'g' ? 'parameter' : ch === 'p' ? 'directory name' : 'file name'}\n`, exitCode: 1 };
        if (ch === 's') {
          if (!['stop', 'quit', 'reopen', 'reload'].includes(v)) return { stdout: '', stderr: `nginx: invalid option: "-s ${v}"\n`, exitCode: 1 };
          signal = v;
        } else if (ch === 'c') confPath = v.startsWith('/') ? v : `/etc/nginx/${v}`;
        break;
      } else return { stdout: '', stderr: `nginx: invalid option: "${a.slice(j)}"\n`, exitCode: 1 };
    }
  }
  // ngx_show_version_info: -v/-V/-h print and exit before anything is read
  if (help || version) {
    let err = help ? helpText(build.version) : `nginx version: nginx/${build.version}\n`;
    if (!help && version === 'V') err += `built by ${builtBy(build)}\n${configureLine(build)}`;
    if (!test && !signal) return { stdout: '', stderr: err, exitCode: 0 };
    if (help) return { stdout: '', stderr: err, exitCode: 0 };
    return { ...runWith(c, pod, fs, build, inst, pid, { test, dump, quiet, signal, confPath }), stderr: err };
  }
  const r = runWith(c, pod, fs, build, inst, pid, { test, dump, quiet, signal, confPath });
  return r;
}

function configureLine(b: NginxBuild): string {
  return `built with OpenSSL ${b.alpine ? '3.5.4 30 Sep 2025' : '3.5.1 1 Jul 2025'}\nTLS SNI support enabled\nconfigure arguments: --prefix=/etc/nginx --sbin-path=/usr/sbin/nginx --modules-path=/usr/lib/nginx/modules --conf-path=/etc/nginx/nginx.conf --error-log-path=/var/log/nginx/error.log --http-log-path=/var/log/nginx/access.log --pid-path=/run/nginx.pid --lock-path=/run/nginx.lock --http-client-body-temp-path=/var/cache/nginx/client_temp --http-proxy-temp-path=/var/cache/nginx/proxy_temp --http-fastcgi-temp-path=/var/cache/nginx/fastcgi_temp --http-uwsgi-temp-path=/var/cache/nginx/uwsgi_temp --http-scgi-temp-path=/var/cache/nginx/scgi_temp --user=nginx --group=nginx --with-compat --with-file-aio --with-threads --with-http_addition_module --with-http_auth_request_module --with-http_dav_module --with-http_flv_module --with-http_gunzip_module --with-http_gzip_static_module --with-http_mp4_module --with-http_random_index_module --with-http_realip_module --with-http_secure_link_module --with-http_slice_module --with-http_ssl_module --with-http_stub_status_module --with-http_sub_module --with-http_v2_module --with-http_v3_module --with-mail --with-mail_ssl_module --with-stream --with-stream_realip_module --with-stream_ssl_module --with-stream_ssl_preread_module --with-cc-opt='-g -O2 -ffile-prefix-map=/home/builder/debuild/nginx-${b.version}/debian/debuild-base/nginx-${b.version}=. -fstack-protector-strong -Wformat -Werror=format-security -Wp,-D_FORTIFY_SOURCE=2 -fPIC' --with-ld-opt='-Wl,-z,relro -Wl,-z,now -Wl,--as-needed -pie'\n`;
}

function runWith(
  c: Cluster,
  pod: Pod,
  fs: MountVfs,
  build: NginxBuild,
  inst: NginxInstance | undefined,
  pid: number,
  o: { test: boolean; dump: boolean; quiet: boolean; signal?: string | undefined; confPath: string },
): CliResult {
  const ts = logTime(c.now());
  const r = loadConfig(fs, o.confPath);
  if (!r.ok) {
    const lines = errorLines(ts, pid, 'emerg', formatConfError(r.error));
    if (o.test) lines.push(`nginx: configuration file ${o.confPath} test failed`);
    return { stdout: '', stderr: lines.map((l) => `${l}\n`).join(''), exitCode: 1 };
  }
  const warn = r.warnings.flatMap((w) => errorLines(ts, pid, 'warn', w)).map((l) => `${l}\n`).join('');
  if (o.test) {
    const okLines = o.quiet ? '' : `nginx: the configuration file ${o.confPath} syntax is ok\nnginx: configuration file ${o.confPath} test is successful\n`;
    // nginx.c: the dump follows the test, each file once in the order first read, each followed by a newline
    const seen = new Set<string>();
    const out = o.dump ? r.files.filter((f) => !seen.has(f.path) && seen.add(f.path)).map((f) => `# configuration file ${f.path}:\n${f.text}\n`).join('') : '';
    return { stdout: out, stderr: `${warn}${okLines}`, exitCode: 0 };
  }
  if (o.signal) {
    // ngx_signal_process: the master's pid from the pid file; the signaller logs that it started
    const started = `${ts} [notice] ${pid}#${pid}: signal process started\n`;
    if (!inst || !inst.running || !inst.nginx) {
      return { stdout: '', stderr: `${warn}${started}${ts} [error] ${pid}#${pid}: open() "/run/nginx.pid" failed (2: No such file or directory)\nnginx: [error] open() "/run/nginx.pid" failed (2: No such file or directory)\n`, exitCode: 1 };
    }
    signalMaster(c, pod, inst, o.signal, pid, r);
    return { stdout: '', stderr: `${warn}${started}`, exitCode: 0 };
  }
  // a second master in the same container: the listening sockets are taken (ngx_open_listening_sockets retries 5 times)
  const port = listeningPorts(r.http)[0] ?? 80;
  const bind = `bind() to 0.0.0.0:${port} failed (98: Address in use)`;
  const lines = Array.from({ length: 5 }, () => errorLines(ts, pid, 'emerg', bind)).flat();
  lines.push(...errorLines(ts, pid, 'emerg', 'still could not bind()'));
  return { stdout: '', stderr: `${warn}${lines.map((l) => `${l}\n`).join('')}`, exitCode: 1 };
}

/** The master's side of a signal (src/os/unix/ngx_process_cycle.c ngx_master_process_cycle). */
function signalMaster(c: Cluster, pod: Pod, inst: NginxInstance, signal: string, from: number, r: Extract<LoadResult, { ok: true }>): void {
  const ts = logTime(c.now());
  const m = (msg: string): string => `${ts} [notice] 1#1: ${msg}`;
  const w = (p: number, msg: string): string => `${ts} [notice] ${p}#${p}: ${msg}`;
  const old = inst.workers;
  if (signal === 'reload') {
    inst.logs.push(m(`signal 1 (SIGHUP) received from ${from}, reconfiguring`), m('reconfiguring'));
    inst.logs.push(...r.warnings.map((x) => `${ts} [warn] 1#1: ${x}`));
    if (r.http) inst.loaded = r.http;
    else delete inst.loaded;
    const n = workerCount(c, pod, r.workerProcesses);
    inst.workers = Array.from({ length: n }, (_, i) => inst.nextPid + i);
    inst.nextPid += n;
    inst.logs.push(m('using the "epoll" event method'), m('start worker processes'), ...inst.workers.map((p) => m(`start worker process ${p}`)));
    for (const p of old) inst.logs.push(w(p, 'gracefully shutting down'), w(p, 'exiting'), w(p, 'exit'));
    for (const p of old) inst.logs.push(m(`signal 17 (SIGCHLD) received from ${p}`), m(`worker process ${p} exited with code 0`));
    inst.logs.push(m('signal 29 (SIGIO) received'));
    return;
  }
  if (signal === 'reopen') {
    inst.logs.push(m(`signal 10 (SIGUSR1) received from ${from}, reopening logs`), m('reopening logs'));
    return;
  }
  const sig = signal === 'stop' ? 'signal 15 (SIGTERM)' : 'signal 3 (SIGQUIT)';
  inst.logs.push(m(`${sig} received from ${from}, ${signal === 'stop' ? 'exiting' : 'shutting down'}`));
  for (const p of old) inst.logs.push(w(p, signal === 'stop' ? 'exiting' : 'gracefully shutting down'), w(p, 'exit'));
  for (const p of old) inst.logs.push(m(`signal 17 (SIGCHLD) received from ${p}`), m(`worker process ${p} exited with code 0`));
  inst.logs.push(m('exit'));
  inst.running = false;
  inst.exitCode = 0;
}
