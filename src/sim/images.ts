/**
 * The image catalogue: what each image a CKA task uses does when it runs. It says which ports a
 * container listens on and what it serves there, which tools `kubectl exec` finds inside, whether
 * the default command keeps running, and which DNS client flavour its libc/busybox gives. An image
 * that is not in the catalogue (or a tag that does not exist) fails to pull, as on a real node.
 */

import { NGINX_50X, NGINX_IMAGE_PREFIXES, NGINX_PAGE, nginxBuild, nginxImageFiles } from './runtime/nginx/image.js';
import { nginxErrorPage } from './runtime/nginx/pages.js';
import type { VirtualFiles } from './node/vfs.js';
import { accountFiles, type AccountFamily } from './runtime/accounts.js';

export type DnsFlavour = 'glibc' | 'musl' | 'busybox' | 'none';

export interface HttpSite {
  /** Bodies by URL path (`/` and the files of the document root); other paths answer 404. */
  pages: Record<string, string>;
  server: string;
  /**
   * A server whose answers depend on its configuration and files (nginx, runtime/nginx): it
   * answers every request itself; undefined is a connection closed without a response.
   */
  respond?(req: HttpRequestLine): HttpAnswer | undefined;
}

/** What a web server is asked: method, path (no query), the Host header, the query string. */
export interface HttpRequestLine {
  method: string;
  path: string;
  host: string;
  query?: string;
}

/** One HTTP response as the shell's clients print it. */
export interface HttpAnswer {
  status: number;
  reason: string;
  body: string;
  server: string;
  /** Location header of a redirect. */
  location?: string;
  /** The Content-Type header; text/html when absent. */
  contentType?: string;
}

/**
 * What a web server answers: the one function curl/wget, probes, Ingress and Gateway backends ask.
 * A site with its own server (respond) answers itself; a catalogue site serves its pages and
 * answers 404 otherwise (nginx's page for an nginx server, Go's text for others).
 */
export function siteAnswer(site: HttpSite, path: string, req: Partial<HttpRequestLine> = {}): HttpAnswer | undefined {
  if (site.respond) return site.respond({ method: req.method ?? 'GET', path, host: req.host ?? '', ...(req.query ? { query: req.query } : {}) });
  const body = sitePage(site, path);
  if (body !== undefined) return { status: 200, reason: 'OK', body, server: site.server };
  const nf = site.server.startsWith('nginx') ? nginxErrorPage(404, 'Not Found', site.server) : '404 page not found\n';
  return { status: 404, reason: 'Not Found', body: nf, server: site.server };
}

/**
 * The body a site serves for a request path, or undefined for a 404. The query string and
 * fragment are not part of the file a web server looks up.
 */
export function sitePage(site: HttpSite, path: string): string | undefined {
  const file = path.replace(/[?#].*$/, '') || '/';
  return Object.hasOwn(site.pages, file) ? site.pages[file] : undefined;
}

export interface Listener {
  port: number;
  protocol: 'TCP' | 'UDP';
  http?: HttpSite;
  /**
   * A gRPC server on this port (what a gRPC probe, pkg/probe/grpc/grpc.go, can talk to):
   * `health` is its grpc.health.v1.Health service's status per service name ('' the server as a
   * whole); absent, the server does not implement the health protocol (Unimplemented).
   */
  grpc?: { health?: Record<string, 'SERVING' | 'NOT_SERVING'> };
}

export interface ImageInfo {
  repository: string;
  /** Tags that exist; a RegExp source string, matched in full. */
  tags: string;
  defaultTag: string;
  listeners: Listener[];
  /** Tools present in the image (as `kubectl exec` finds them). */
  tools: string[];
  dns: DnsFlavour;
  /** Executables that run until stopped (servers, agents), when started directly or from a shell. */
  daemons?: string[];
  /**
   * What the image's entrypoint serves when it depends on the container's args and on how long
   * the process has run (agnhost's subcommands: `liveness` answers /healthz with 200 for its first
   * 10 s and 500 after); absent, `listeners` is what every container of the image serves.
   */
  serve?(args: readonly string[], uptimeMs: number): Listener[];
  /**
   * The exit code of the entrypoint's process when it is sent SIGTERM and does not handle it
   * (a Go program without a signal handler dies of the signal: 128+15 = 143); absent, it shuts
   * down cleanly with 0.
   */
  sigtermExitCode?: number;
  /** What the default entrypoint does: serve forever, or exit at once with this code. */
  defaultCommand: { runs: true } | { runs: false; exitCode: number };
  /** The image ID digest shown in containerStatuses.imageID. */
  digest: string;
  sizeBytes: number;
  /** Files the image itself carries (a read-only lower layer under the container's own files), by tag. */
  rootFiles?(tag: string): VirtualFiles;
  /**
   * The tags are Kubernetes releases (`v1.35.2`): only the releases of the lab's world exist
   * (kubeReleaseExists), so a tag that was never released fails to pull.
   */
  kubeRelease?: true;
  /**
   * The image config's User (`USER` in its Dockerfile): a name or uid, optionally `:group`. Absent,
   * the image runs as root (kuberuntime helpers.go getImageUser: "treat it as root").
   */
  user?: string;
  /**
   * Tools the image ships as their own package where the rest are busybox applets (netshoot's
   * iproute2 `ip`): they speak their own layout, not busybox's.
   */
  packagedTools?: readonly string[];
}

/** When the nginx image's files were written (the 1.29.3 image's build, 2025-10-28). */
const NGINX_IMAGE_MTIME = Date.UTC(2025, 9, 28, 18, 0, 0);

/** When the busybox image's files were written (the 1.36.1 build its banner names). */
const BUSYBOX_IMAGE_MTIME = Date.UTC(2023, 4, 18, 22, 34, 17);

const ACCOUNT_PATHS = ['/etc/passwd', '/etc/group'];

/** /etc/passwd and /etc/group as the image carries them (runtime/accounts.ts), where known in full. */
function accountRootFiles(family: AccountFamily, repository: string, mtime: number): Record<string, { content: string; mtime: number; mode: number }> {
  const f = accountFiles(family, repository);
  return f ? { '/etc/passwd': { content: f.passwd, mtime, mode: 0o644 }, '/etc/group': { content: f.group, mtime, mode: 0o644 } } : {};
}

const HTTPD_PAGE = '<html><body><h1>It works!</h1></body></html>\n';

const BUSYBOX_TOOLS = ['sh', 'ash', 'cat', 'chroot', 'ls', 'echo', 'wget', 'nslookup', 'ping', 'nc', 'env', 'hostname', 'sleep', 'grep', 'head', 'tail', 'wc', 'ip', 'ifconfig', 'route', 'netstat', 'ps', 'date', 'id', 'whoami', 'printenv', 'true', 'false', 'sed', 'awk', 'cut', 'sort', 'tr', 'uniq', 'mkdir', 'rm', 'touch', 'tee', 'base64', 'traceroute', 'telnet', 'od', 'xxd', 'seq', 'basename', 'dirname', 'tac', 'which', 'find', 'xargs', 'expr', 'stat', 'mktemp', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'uname', 'df', 'free', 'uptime', 'timeout', 'top', 'nproc'];
/**
 * What every Debian image has beyond the shell basics: coreutils, findutils and debianutils are
 * Essential/required packages (uname, df, nproc, stat, mktemp, the sums, expr, timeout, find,
 * xargs, which ...); procps (ps, free, top, uptime) is not installed in them.
 */
const COREUTILS_TOOLS = ['basename', 'dirname', 'seq', 'tac', 'readlink', 'realpath', 'stat', 'mktemp', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'expr', 'nproc', 'timeout', 'find', 'xargs', 'which', 'cp', 'mv', 'ln', 'chmod', 'du'];
/** The same toolbox in Alpine's busybox (its applets; musl's option-error words are not modelled). */
const BUSYBOX_TOOLBOX = ['basename', 'dirname', 'seq', 'tac', 'which', 'find', 'xargs', 'expr', 'stat', 'mktemp', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'uname', 'df', 'free', 'uptime', 'timeout', 'top', 'nproc'];
const DEBIAN_BASE = ['sh', 'bash', 'cat', 'chroot', 'ls', 'echo', 'env', 'hostname', 'sleep', 'grep', 'head', 'tail', 'wc', 'date', 'id', 'whoami', 'printenv', 'true', 'false', 'sed', 'awk', 'cut', 'sort', 'tr', 'uniq', 'mkdir', 'rm', 'touch', 'tee', 'base64', 'getent', 'od', ...COREUTILS_TOOLS];
const ALPINE_BASE = ['sh', 'ash', 'cat', 'chroot', 'ls', 'echo', 'env', 'hostname', 'sleep', 'grep', 'head', 'tail', 'wc', 'date', 'id', 'whoami', 'ps', 'printenv', 'true', 'false', 'sed', 'awk', 'cut', 'sort', 'tr', 'uniq', 'mkdir', 'rm', 'touch', 'tee', 'base64', 'wget', 'nslookup', 'ping', 'nc', 'getent', 'od', ...BUSYBOX_TOOLBOX];

function img(
  repository: string,
  tags: string,
  defaultTag: string,
  rest: Omit<ImageInfo, 'repository' | 'tags' | 'defaultTag' | 'digest' | 'sizeBytes'> & { sizeBytes?: number },
): ImageInfo {
  let h = 0x811c9dc5;
  for (const ch of repository) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  const hex = Array.from({ length: 8 }, (_, i) => ((Math.imul(h, i + 1) ^ (h >>> i)) >>> 0).toString(16).padStart(8, '0')).join('');
  return { repository, tags, defaultTag, digest: `sha256:${hex}`, sizeBytes: rest.sizeBytes ?? 50_000_000, ...rest };
}

const http = (port: number, page: string, server: string, files: Record<string, string> = {}): Listener => ({ port, protocol: 'TCP', http: { pages: { '/': page, ...files }, server } });

/** The shape of a Kubernetes release tag; which releases exist is the lab's (kubeReleaseExists). */
const KUBE_RELEASE_TAG = 'v1\\.\\d+\\.\\d+';

/** What the nginx images share: the stock site, the nginx daemon, /etc/nginx and the accounts of the image's base. */
const nginxImage = (base: 'debian' | 'alpine'): Pick<ImageInfo, 'listeners' | 'daemons' | 'defaultCommand' | 'rootFiles'> => ({
  // default.conf: root /usr/share/nginx/html, index index.html; the root holds index.html and 50x.html
  // what a container serves is its nginx's (runtime/nginx/program.ts); this is the stock site
  listeners: [http(80, NGINX_PAGE, 'nginx/1.29.3', { '/index.html': NGINX_PAGE, '/50x.html': NGINX_50X })],
  daemons: ['nginx'],
  defaultCommand: { runs: true },
  // /etc/nginx and the document root as the image ships them, dated at the image's build
  rootFiles: (tag) => ({
    prefixes: [...NGINX_IMAGE_PREFIXES, ...ACCOUNT_PATHS],
    files: () => ({ ...nginxImageFiles(nginxBuild(tag), NGINX_IMAGE_MTIME), ...accountRootFiles(base, 'docker.io/library/nginx', NGINX_IMAGE_MTIME) }),
  }),
});

export const IMAGES: readonly ImageInfo[] = [
  // nginx:alpine is Alpine Linux: BusyBox's applets (its sh is ash, its ps BusyBox's) and musl
  img('docker.io/library/nginx', '((stable|mainline)-)?alpine|1(\\.\\d+){0,2}-alpine', 'latest', {
    ...nginxImage('alpine'),
    tools: [...ALPINE_BASE, 'nginx', 'curl'],
    dns: 'musl',
  }),
  img('docker.io/library/nginx', '(latest|stable|mainline|1(\\.\\d+){0,2})', 'latest', {
    ...nginxImage('debian'),
    tools: [...DEBIAN_BASE, 'nginx', 'curl'],
    dns: 'glibc',
  }),
  img('docker.io/library/httpd', '(latest|alpine|2(\\.\\d+){0,2}(-alpine)?)', 'latest', {
    // DocumentRoot /usr/local/apache2/htdocs holds index.html, the DirectoryIndex
    listeners: [http(80, HTTPD_PAGE, 'Apache/2.4.65 (Unix)', { '/index.html': HTTPD_PAGE })],
    tools: [...DEBIAN_BASE, 'httpd', 'httpd-foreground'],
    daemons: ['httpd', 'httpd-foreground'],
    dns: 'glibc',
    defaultCommand: { runs: true },
  }),
  img('docker.io/library/busybox', '(latest|stable|musl|glibc|uclibc|1\\.\\d+(\\.\\d+)?(-(musl|glibc|uclibc))?)', 'latest', {
    listeners: [],
    tools: BUSYBOX_TOOLS,
    dns: 'busybox',
    defaultCommand: { runs: false, exitCode: 0 },
    sizeBytes: 2_200_000,
    rootFiles: () => ({ prefixes: ACCOUNT_PATHS, files: () => accountRootFiles('busybox', 'docker.io/library/busybox', BUSYBOX_IMAGE_MTIME) }),
  }),
  // the copy of busybox the Kubernetes docs' examples pull (liveness-exec: registry.k8s.io/busybox:1.27.2)
  img('registry.k8s.io/busybox', '(latest|1\\.24|1\\.27(\\.2)?)', 'latest', {
    listeners: [],
    tools: BUSYBOX_TOOLS,
    dns: 'busybox',
    defaultCommand: { runs: false, exitCode: 0 },
    sizeBytes: 1_144_547,
    rootFiles: () => ({ prefixes: ACCOUNT_PATHS, files: () => accountRootFiles('busybox', 'registry.k8s.io/busybox', BUSYBOX_IMAGE_MTIME) }),
  }),
  img('docker.io/library/alpine', '(latest|edge|3(\\.\\d+){0,2})', 'latest', {
    listeners: [],
    tools: ALPINE_BASE,
    dns: 'musl',
    defaultCommand: { runs: false, exitCode: 0 },
    sizeBytes: 3_600_000,
  }),
  img('docker.io/library/redis', '(latest|alpine|[5-8](\\.\\d+){0,2}(-alpine)?)', 'latest', {
    listeners: [{ port: 6379, protocol: 'TCP' }],
    tools: [...DEBIAN_BASE, 'redis-cli', 'redis-server'],
    daemons: ['redis-server'],
    dns: 'glibc',
    defaultCommand: { runs: true },
  }),
  img('docker.io/library/mysql', '(latest|[5-9](\\.\\d+){0,2})', 'latest', {
    listeners: [{ port: 3306, protocol: 'TCP' }, { port: 33060, protocol: 'TCP' }],
    tools: [...DEBIAN_BASE, 'mysql', 'mysqld'],
    daemons: ['mysqld'],
    dns: 'glibc',
    defaultCommand: { runs: true },
  }),
  img('docker.io/library/postgres', '(latest|alpine|1[0-9](\\.\\d+)?(-alpine)?)', 'latest', {
    listeners: [{ port: 5432, protocol: 'TCP' }],
    tools: [...DEBIAN_BASE, 'psql', 'postgres', 'pg_isready'],
    daemons: ['postgres'],
    dns: 'glibc',
    defaultCommand: { runs: true },
  }),
  img('docker.io/curlimages/curl', '(latest|8(\\.\\d+){0,2})', 'latest', {
    listeners: [],
    tools: [...ALPINE_BASE, 'curl'],
    dns: 'musl',
    defaultCommand: { runs: false, exitCode: 2 },
    // curl-container's Dockerfile: `USER curl_user` (a name: runAsNonRoot cannot verify it)
    user: 'curl_user',
  }),
  img('registry.k8s.io/e2e-test-images/jessie-dnsutils', '1\\.\\d+', '1.7', {
    listeners: [],
    tools: [...DEBIAN_BASE, 'nslookup', 'dig', 'host', 'ping', 'curl', 'wget', 'nc'],
    dns: 'glibc',
    defaultCommand: { runs: false, exitCode: 0 },
  }),
  img('docker.io/nicolaka/netshoot', '(latest|v0\\.\\d+)', 'latest', {
    listeners: [],
    tools: [...ALPINE_BASE, 'bash', 'curl', 'dig', 'host', 'nslookup', 'ip', 'ss', 'iptables', 'tcpdump', 'nc'],
    packagedTools: ['ip'],
    dns: 'musl',
    defaultCommand: { runs: true },
  }),
  // the memory hog of the Kubernetes docs' "Assign Memory Resources" task (stress 1.0.4 on Alpine)
  img('docker.io/polinux/stress', '(latest|1\\.0\\.4)', 'latest', {
    listeners: [],
    tools: [...ALPINE_BASE, 'stress'],
    dns: 'musl',
    defaultCommand: { runs: false, exitCode: 1 },
    sizeBytes: 4_900_000,
  }),
  img('registry.k8s.io/pause', '3\\.\\d+(?:\\.\\d+)?', '3.10.1', { listeners: [], tools: [], dns: 'none', defaultCommand: { runs: true }, sizeBytes: 320_000 }),
  img('registry.k8s.io/kube-apiserver', KUBE_RELEASE_TAG, 'v1.35.9', { kubeRelease: true, listeners: [{ port: 6443, protocol: 'TCP' }], tools: [], dns: 'none', defaultCommand: { runs: true } }),
  img('registry.k8s.io/kube-controller-manager', KUBE_RELEASE_TAG, 'v1.35.9', { kubeRelease: true, listeners: [{ port: 10257, protocol: 'TCP' }], tools: [], dns: 'none', defaultCommand: { runs: true } }),
  img('registry.k8s.io/kube-scheduler', KUBE_RELEASE_TAG, 'v1.35.9', { kubeRelease: true, listeners: [{ port: 10259, protocol: 'TCP' }], tools: [], dns: 'none', defaultCommand: { runs: true } }),
  img('registry.k8s.io/kube-proxy', KUBE_RELEASE_TAG, 'v1.35.9', { kubeRelease: true, listeners: [{ port: 10249, protocol: 'TCP' }, { port: 10256, protocol: 'TCP' }], tools: ['sh', 'iptables', 'iptables-save', 'kube-proxy'], daemons: ['kube-proxy'], dns: 'none', defaultCommand: { runs: true } }),
  // etcd registers grpc.health.v1.Health on its client port (server/etcdserver/api/v3rpc/grpc.go),
  // the server the Kubernetes docs' gRPC liveness example probes
  img('registry.k8s.io/etcd', '3\\.\\d+\\.\\d+-\\d+', '3.6.6-0', { listeners: [{ port: 2379, protocol: 'TCP', grpc: { health: { '': 'SERVING' } } }, { port: 2380, protocol: 'TCP' }, { port: 2381, protocol: 'TCP' }], tools: ['etcdctl', 'etcdutl'], daemons: ['etcd'], dns: 'none', defaultCommand: { runs: true } }),
  img('registry.k8s.io/coredns/coredns', 'v1\\.\\d+\\.\\d+', 'v1.13.1', { listeners: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }, { port: 9153, protocol: 'TCP' }, { port: 8080, protocol: 'TCP', http: { pages: { '/health': 'OK' }, server: 'coredns' } }, { port: 8181, protocol: 'TCP', http: { pages: { '/ready': 'OK' }, server: 'coredns' } }], tools: ['coredns'], daemons: ['coredns'], dns: 'none', defaultCommand: { runs: true } }),
  img('registry.cn-hangzhou.aliyuncs.com/google_containers/coredns', '1\\.\\d+\\.\\d+', '1.3.1', { listeners: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }, { port: 9153, protocol: 'TCP' }, { port: 8080, protocol: 'TCP', http: { pages: { '/health': 'OK' }, server: 'coredns' } }], tools: ['coredns'], daemons: ['coredns'], dns: 'none', defaultCommand: { runs: true } }),
  img('docker.io/calico/node', 'v3\\.\\d+\\.\\d+', 'v3.33.0', { listeners: [], tools: ['calico-node'], dns: 'glibc', defaultCommand: { runs: true } }),
  img('docker.io/calico/cni', 'v3\\.\\d+\\.\\d+', 'v3.33.0', { listeners: [], tools: [], dns: 'none', defaultCommand: { runs: false, exitCode: 0 } }),
  img('docker.io/calico/kube-controllers', 'v3\\.\\d+\\.\\d+', 'v3.33.0', { listeners: [], tools: [], dns: 'none', defaultCommand: { runs: true } }),
  img('docker.io/flannel/flannel', 'v0\\.\\d+\\.\\d+', 'v0.27.4', { listeners: [], tools: ['sh', 'flanneld'], daemons: ['flanneld'], dns: 'musl', defaultCommand: { runs: true } }),
  // flannel's manifest since v0.26 (Documentation/kube-flannel.yml): its init containers `cp` the plugin and the conflist
  img('ghcr.io/flannel-io/flannel', 'v0\\.\\d+\\.\\d+', 'v0.27.4', { listeners: [], tools: ['sh', 'cp', 'flanneld'], daemons: ['flanneld'], dns: 'musl', defaultCommand: { runs: true } }),
  img('ghcr.io/flannel-io/flannel-cni-plugin', 'v1\\.\\d+\\.\\d+-flannel\\d+', 'v1.8.0-flannel1', { listeners: [], tools: ['cp'], dns: 'none', defaultCommand: { runs: false, exitCode: 0 } }),
  img('quay.io/coreos/flannel', 'v0\\.\\d+\\.\\d+(-amd64)?', 'v0.11.0-amd64', { listeners: [], tools: ['sh'], dns: 'musl', defaultCommand: { runs: true } }),
  img('docker.io/weaveworks/weave-kube', '2\\.\\d+\\.\\d+', '2.8.1', { listeners: [{ port: 6784, protocol: 'TCP' }], tools: ['sh', 'weave'], dns: 'musl', defaultCommand: { runs: true } }),
  img('docker.elastic.co/elasticsearch/elasticsearch', '[5-9](\\.\\d+){1,2}', '8.19.0', { listeners: [http(9200, '{"tagline":"You Know, for Search"}\n', 'elasticsearch'), { port: 9300, protocol: 'TCP' }], tools: DEBIAN_BASE, dns: 'glibc', defaultCommand: { runs: true } }),
  img('docker.elastic.co/kibana/kibana', '[5-9](\\.\\d+){1,2}', '8.19.0', { listeners: [http(5601, 'Kibana server is not ready yet', 'kibana')], tools: DEBIAN_BASE, dns: 'glibc', defaultCommand: { runs: true } }),
  img('quay.io/fluentd_elasticsearch/fluentd', 'v[2-5](\\.\\d+){1,2}', 'v4.7.2', { listeners: [], tools: DEBIAN_BASE, dns: 'glibc', defaultCommand: { runs: true } }),
  img('docker.io/rancher/local-path-provisioner', 'v0\\.0\\.\\d+', 'v0.0.32', { listeners: [], tools: ['sh', 'local-path-provisioner'], daemons: ['local-path-provisioner'], dns: 'musl', defaultCommand: { runs: true } }),
  // the e2e test image the Kubernetes docs' probe examples run (test/images/agnhost): one Go
  // binary whose first arg picks the server (AGNHOST_SERVERS below)
  img('registry.k8s.io/e2e-test-images/agnhost', '2\\.\\d+', '2.40', { listeners: [], serve: agnhostServe, sigtermExitCode: 143, tools: [], dns: 'none', defaultCommand: { runs: true } }),
  // the docs' TCP probe example (registry.k8s.io/goproxy:0.1): an HTTP proxy on 8080
  img('registry.k8s.io/goproxy', '0\\.1', '0.1', { listeners: [{ port: 8080, protocol: 'TCP' }], sigtermExitCode: 143, tools: [], dns: 'none', defaultCommand: { runs: true }, sizeBytes: 2_500_000 }),
  img('registry.k8s.io/metrics-server/metrics-server', 'v0\\.\\d+\\.\\d+', 'v0.8.0', { listeners: [{ port: 10250, protocol: 'TCP', http: { pages: { '/readyz': 'ok', '/livez': 'ok' }, server: 'metrics-server' } }], tools: [], dns: 'none', defaultCommand: { runs: true } }),
  img('registry.k8s.io/hpa-example', 'latest', 'latest', { listeners: [http(80, 'OK!', 'Apache/2.4.10 (Debian)')], tools: DEBIAN_BASE, dns: 'glibc', defaultCommand: { runs: true } }),
  img('docker.io/polinux/stress', 'latest|1\\.0\\.4', 'latest', { listeners: [], tools: ['sh', 'stress'], daemons: ['stress'], dns: 'musl', defaultCommand: { runs: false, exitCode: 1 } }),
  // NGINX Gateway Fabric 1.x (static mode): the control plane (health on 8081, metrics 9113) and
  // its nginx data plane in the same pod, listening on the served Gateway's listener ports
  img('ghcr.io/nginx/nginx-gateway-fabric', '1\\.\\d+\\.\\d+', '1.6.2', { listeners: [{ port: 8081, protocol: 'TCP', http: { pages: { '/readyz': 'ok' }, server: 'nginx-gateway' } }, { port: 9113, protocol: 'TCP' }], tools: [], dns: 'none', defaultCommand: { runs: true } }),
  img('ghcr.io/nginx/nginx-gateway-fabric/nginx', '1\\.\\d+\\.\\d+', '1.6.2', { listeners: [{ port: 80, protocol: 'TCP' }, { port: 443, protocol: 'TCP' }, { port: 8080, protocol: 'TCP' }], tools: ['sh'], dns: 'musl', defaultCommand: { runs: true } }),
  img('registry.k8s.io/ingress-nginx/controller', 'v1\\.\\d+\\.\\d+', 'v1.14.0', { listeners: [http(80, NGINX_PAGE, 'nginx'), { port: 443, protocol: 'TCP' }, { port: 8443, protocol: 'TCP' }, { port: 10254, protocol: 'TCP', http: { pages: { '/healthz': 'ok' }, server: 'ingress-nginx' } }], tools: ['sh', 'curl'], dns: 'musl', defaultCommand: { runs: true } }),
];

/**
 * agnhost's servers by subcommand (test/images/agnhost): `liveness` (liveness/server.go) serves
 * /healthz on 8080 with 200 "ok" while the process has run 10 seconds or less and 500
 * "error: <seconds>" after; `grpc-health-checking` (grpc-health-checking.go) serves the gRPC health
 * service on 5000 (SERVING) and its control endpoints on 8080; `serve-hostname` answers the pod's
 * hostname on 9376. Other subcommands listen on nothing the simulation knows.
 */
function agnhostServe(args: readonly string[], uptimeMs: number): Listener[] {
  const sub = args[0];
  const flag = (name: string, dflt: number): number => {
    for (let i = 1; i < args.length; i++) {
      const a = args[i]!;
      if (a.startsWith(`--${name}=`)) return Number(a.slice(name.length + 3));
      if (a === `--${name}` && args[i + 1] !== undefined) return Number(args[i + 1]);
    }
    return dflt;
  };
  if (sub === 'liveness') {
    const seconds = uptimeMs / 1000;
    const respond = (req: HttpRequestLine): HttpAnswer => {
      if (req.path === '/started') return { status: 200, reason: 'OK', body: `${seconds}s`, server: '', contentType: 'text/plain; charset=utf-8' };
      if (req.path !== '/healthz') return { status: 404, reason: 'Not Found', body: '404 page not found\n', server: '', contentType: 'text/plain; charset=utf-8' };
      return seconds > 10
        ? { status: 500, reason: 'Internal Server Error', body: `error: ${seconds}`, server: '', contentType: 'text/plain; charset=utf-8' }
        : { status: 200, reason: 'OK', body: 'ok', server: '', contentType: 'text/plain; charset=utf-8' };
    };
    return [{ port: 8080, protocol: 'TCP', http: { pages: {}, server: '', respond } }];
  }
  if (sub === 'grpc-health-checking')
    return [
      { port: flag('port', 5000), protocol: 'TCP', grpc: { health: { '': 'SERVING' } } },
      { port: flag('http-port', 8080), protocol: 'TCP', http: { pages: { '/make-serving': '', '/make-not-serving': '' }, server: '' } },
    ];
  if (sub === 'serve-hostname') return [{ port: flag('port', 9376), protocol: 'TCP' }];
  return [];
}

export interface ImageRef {
  /** Fully qualified repository, e.g. docker.io/library/nginx. */
  repository: string;
  tag: string;
  /** What the user wrote. */
  raw: string;
}

/** Normalise an image reference as containerd does (docker.io/library default, latest tag). */
export function parseImageRef(raw: string): ImageRef | undefined {
  if (!raw || /\s/.test(raw) || /[A-Z]/.test(raw.split(':')[0] ?? '')) return undefined;
  let ref = raw.split('@')[0]!;
  let tag = 'latest';
  const lastColon = ref.lastIndexOf(':');
  if (lastColon > ref.lastIndexOf('/')) {
    tag = ref.slice(lastColon + 1);
    ref = ref.slice(0, lastColon);
  }
  const first = ref.split('/')[0]!;
  const hasRegistry = ref.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  let repository = hasRegistry ? ref : `docker.io/${ref.includes('/') ? ref : `library/${ref}`}`;
  if (repository.startsWith('k8s.gcr.io/')) repository = repository.replace('k8s.gcr.io/', 'registry.k8s.io/');
  return { repository, tag, raw };
}

/** The catalogue entry for an image reference, or undefined when pulling it would fail. */
export function lookupImage(raw: string): ImageInfo | undefined {
  // the catalogue is constant: each reference is looked up once (the kubelet asks at every sync)
  if (LOOKED_UP.has(raw)) return LOOKED_UP.get(raw);
  const ref = parseImageRef(raw);
  // a repository may have several entries, by tag (nginx's Debian and Alpine images)
  const found = ref ? IMAGES.find((i) => i.repository === ref.repository && new RegExp(`^(?:${i.tags})$`).test(ref.tag)) : undefined;
  if (LOOKED_UP.size >= 4096) LOOKED_UP.clear();
  LOOKED_UP.set(raw, found);
  return found;
}

const LOOKED_UP = new Map<string, ImageInfo | undefined>();

/**
 * What the lab's world knows of Kubernetes releases: the cluster's own version and what its
 * pkgs.k8s.io serves (ClusterMeta; sim/node/packages.ts channelPackages: every patch of a channel
 * up to its highest). The control-plane images on registry.k8s.io are published for exactly those
 * releases (kubernetes/release: one image set per release tag), which are also the targets
 * `kubeadm upgrade plan|apply` can reach.
 */
export interface KubeReleases {
  kubernetesVersion: string;
  packageRepos?: Readonly<Record<string, number>>;
}

/** Whether `v1.N.M` is a release of the lab's world (its own version, or a patch its repositories publish). */
export function kubeReleaseExists(world: KubeReleases, tag: string): boolean {
  if (tag === world.kubernetesVersion) return true;
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(tag);
  if (!m) return false;
  const top = world.packageRepos?.[`v${m[1]}.${m[2]}`];
  return top !== undefined && Number(m[3]) <= top && String(Number(m[3])) === m[3];
}

/**
 * The catalogue entry the kubelet pulls for an image reference in this world, or undefined when
 * the pull fails (not in the catalogue, no such tag, or a Kubernetes release that does not exist).
 */
export function pullImage(raw: string, world: KubeReleases): ImageInfo | undefined {
  const info = lookupImage(raw);
  if (!info?.kubeRelease) return info;
  return kubeReleaseExists(world, parseImageRef(raw)!.tag) ? info : undefined;
}

/** containerd's pull error text for an image that does not exist. */
export function pullErrorMessage(raw: string): string {
  const ref = parseImageRef(raw);
  const full = ref ? `${ref.repository}:${ref.tag}` : raw;
  return `Failed to pull image "${raw}": rpc error: code = NotFound desc = failed to pull and unpack image "${full}": failed to resolve reference "${full}": ${full}: not found`;
}

/**
 * Which nslookup applet and which libc a busybox image tag carries (docker.io/library/busybox).
 * busybox's networking/nslookup.c: up to 1.28.x the small applet that asks the libc resolver
 * (getaddrinfo, so the resolv.conf search list applies) and prints `Address 1: IP NAME`; 1.29.0
 * (commit 0dd3be8c0) brought the "big" applet with its own resolver and no search list; 1.30.0
 * (commit 9408978a4) added search domains to it. A tag without a libc suffix is the uclibc build
 * (the image's default variant); `-glibc` / `-musl` tags link those libcs.
 */
export interface BusyboxNslookup {
  applet: 'libc' | 'big-no-search' | 'big';
  libc: 'uclibc' | 'glibc' | 'musl';
  /** `x.y[.z]` from the tag; undefined for latest/stable/musl/glibc/uclibc (the newest release). */
  version?: string;
}

export function busyboxNslookup(raw: string): BusyboxNslookup | undefined {
  const ref = parseImageRef(raw);
  if (!ref || ref.repository !== 'docker.io/library/busybox' || !lookupImage(raw)) return undefined;
  const m = /^(?:(1\.\d+(?:\.\d+)?)(?:-(musl|glibc|uclibc))?|(musl|glibc|uclibc|latest|stable))$/.exec(ref.tag);
  const version = m?.[1];
  const suffix = m?.[2] ?? m?.[3];
  const libc = suffix === 'glibc' || suffix === 'musl' ? suffix : 'uclibc';
  if (version === undefined) return { applet: 'big', libc };
  const minor = Number(version.split('.')[1]);
  const applet = minor <= 28 ? 'libc' : minor === 29 ? 'big-no-search' : 'big';
  return { applet, libc, version };
}
