/**
 * What the nginx image (docker.io/library/nginx, github.com/nginx/docker-nginx) carries: the
 * stock configuration of the nginx.org package (github.com/nginx/pkg-oss debian/debian/nginx.conf
 * and nginx.default.conf; the Alpine files are the same), the document root, and the version each
 * tag runs. Tags move: the table is the newest patch release of each line as of nginx 1.29.3
 * (2025-10-28), the release `latest` and `mainline` carry in this catalogue.
 */
import type { VirtualFile } from '../../node/vfs.js';
import { MIME_TYPES } from './mime-types.js';

/** nginx.org's welcome page (/usr/share/nginx/html/index.html). */
export const NGINX_PAGE = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

/** The default.conf error_page for 5xx (/usr/share/nginx/html/50x.html). */
export const NGINX_50X = `<!DOCTYPE html>
<html>
<head>
<title>Error</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>An error occurred.</h1>
<p>Sorry, the page you are looking for is currently unavailable.<br/>
Please try again later.</p>
<p>If you are the system administrator of this resource then you should check
the error log for details.</p>
<p><em>Faithfully yours, nginx.</em></p>
</body>
</html>
`;

/** pkg-oss nginx.default.conf as packaged (before the image's entrypoint adds the IPv6 listen). */
export const PACKAGED_DEFAULT_CONF = `server {
    listen       80;
    server_name  localhost;

    #access_log  /var/log/nginx/host.access.log  main;

    location / {
        root   /usr/share/nginx/html;
        index  index.html index.htm;
    }

    #error_page  404              /404.html;

    # redirect server error pages to the static page /50x.html
    #
    error_page   500 502 503 504  /50x.html;
    location = /50x.html {
        root   /usr/share/nginx/html;
    }

    # proxy the PHP scripts to Apache listening on 127.0.0.1:80
    #
    #location ~ \\.php$ {
    #    proxy_pass   http://127.0.0.1;
    #}

    # pass the PHP scripts to FastCGI server listening on 127.0.0.1:9000
    #
    #location ~ \\.php$ {
    #    root           html;
    #    fastcgi_pass   127.0.0.1:9000;
    #    fastcgi_index  index.php;
    #    fastcgi_param  SCRIPT_FILENAME  /scripts$fastcgi_script_name;
    #    include        fastcgi_params;
    #}

    # deny access to .htaccess files, if Apache's document root
    # concurs with nginx's one
    #
    #location ~ /\\.ht {
    #    deny  all;
    #}
}

`;

/**
 * /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh's edit of a packaged default.conf:
 * `sed -i -E 's,listen       80;,listen       80;\\n    listen  [::]:80;,'`.
 */
export function withIpv6Listen(conf: string): string {
  return conf.replace('listen       80;', 'listen       80;\n    listen  [::]:80;');
}

/** pkg-oss nginx.conf; `pid` moved from /var/run to /run in January 2025 (pkg-oss d7e1df9, nginx 1.26.3 and 1.27.4 on). */
export function nginxConf(version: string): string {
  const text = `
user  nginx;
worker_processes  auto;

error_log  /var/log/nginx/error.log notice;
pid        /run/nginx.pid;


events {
    worker_connections  1024;
}


http {
    include       /etc/nginx/mime.types;
    default_type  application/octet-stream;

    log_format  main  '$remote_addr - $remote_user [$time_local] "$request" '
                      '$status $body_bytes_sent "$http_referer" '
                      '"$http_user_agent" "$http_x_forwarded_for"';

    access_log  /var/log/nginx/access.log  main;

    sendfile        on;
    #tcp_nopush     on;

    keepalive_timeout  65;

    #gzip  on;

    include /etc/nginx/conf.d/*.conf;
}
`;
  return runPidPath(version) ? text : text.replace('pid        /run/nginx.pid;', 'pid        /var/run/nginx.pid;');
}

/** The build's pid file moved from /var/run to /run (pkg-oss d7e1df9). */
export function runPidPath(version: string): boolean {
  const [maj, min, patch] = version.split('.').map(Number) as [number, number, number];
  if (maj !== 1) return maj > 1;
  return min > 27 || (min === 27 && patch >= 4) || (min === 26 && patch >= 3);
}

/**
 * The nginx release a tag runs: a full `1.x.y` tag is that release, a line tag the newest patch of
 * the line, latest/mainline/stable the branch heads (hub.docker.com/_/nginx, docker-nginx's
 * history of "Updated mainline/stable to …" commits).
 */
const LINE_HEADS: Record<string, string> = {
  '1.29': '1.29.3', '1.28': '1.28.0', '1.27': '1.27.5', '1.26': '1.26.3', '1.25': '1.25.5', '1.24': '1.24.0',
  '1.23': '1.23.4', '1.22': '1.22.1', '1.21': '1.21.6', '1.20': '1.20.2', '1.19': '1.19.10', '1.18': '1.18.0',
};
const MAINLINE = '1.29.3';
const STABLE = '1.28.0';

export interface NginxBuild {
  version: string;
  alpine: boolean;
}

/** The release and flavour of an nginx image tag (`1.27-alpine`, `stable`, `latest`). */
export function nginxBuild(tag: string): NginxBuild {
  const alpine = /(^|-)alpine(-slim)?$/.test(tag);
  const base = tag.replace(/-?alpine(-slim)?$/, '').replace(/-(perl|otel)$/, '');
  let version = MAINLINE;
  if (base === 'stable') version = STABLE;
  else if (/^\d+\.\d+\.\d+$/.test(base)) version = base;
  else if (/^\d+\.\d+$/.test(base)) version = LINE_HEADS[base] ?? `${base}.0`;
  return { version, alpine };
}

/** The compiler line of `nginx -V` and the startup notice (NGX_COMPILER keeps gcc's trailing space). */
export function builtBy(b: NginxBuild): string {
  const [, min, patch] = b.version.split('.').map(Number) as [number, number, number];
  // Debian trixie from 1.29.1 (docker-nginx "Update mainline to Debian trixie", 2025-08-13), bookworm before
  const trixie = min > 29 || (min === 29 && patch >= 1);
  if (b.alpine) return trixie || min >= 28 ? 'gcc 14.2.0 (Alpine 14.2.0) ' : 'gcc 13.2.1 20240309 (Alpine 13.2.1_git20240309) ';
  return trixie ? 'gcc 14.2.0 (Debian 14.2.0-19) ' : 'gcc 12.2.0 (Debian 12.2.0-14) ';
}

/** The image's files under /etc/nginx and the document root, as read-only lower-layer files of the container. */
export function nginxImageFiles(b: NginxBuild, mtime: number): Record<string, VirtualFile> {
  const f = (content: string): VirtualFile => ({ content, mtime });
  return {
    '/etc/nginx/nginx.conf': f(nginxConf(b.version)),
    // the entrypoint has added the IPv6 listen before anything in the container can read it
    '/etc/nginx/conf.d/default.conf': f(withIpv6Listen(PACKAGED_DEFAULT_CONF)),
    '/etc/nginx/mime.types': f(MIME_TYPES),
    '/usr/share/nginx/html/index.html': f(NGINX_PAGE),
    '/usr/share/nginx/html/50x.html': f(NGINX_50X),
  };
}

export const NGINX_IMAGE_PREFIXES = ['/etc/nginx', '/usr/share/nginx'];
