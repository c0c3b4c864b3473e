import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatConfError, parseNginxConf, tokenize, type ReadConf } from './conf.js';
import { findLocation, nginxServe, normalizeUri, type NginxRequest, type ServeFiles } from './serve.js';
import { nginxBuild, nginxConf, nginxImageFiles, PACKAGED_DEFAULT_CONF, withIpv6Listen } from './image.js';
import { globRegex, nginxLaunch } from './program.js';
import { nginxStatusPage } from './pages.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';

/** A container's /etc/nginx: the image's nginx.conf and mime.types, plus the files a case gives. */
function confFiles(files: Record<string, string>): ReadConf {
  const image = nginxImageFiles(nginxBuild('latest'), 0);
  const all: Record<string, string> = { '/etc/nginx/nginx.conf': image['/etc/nginx/nginx.conf']!.content, '/etc/nginx/mime.types': image['/etc/nginx/mime.types']!.content, ...files };
  return {
    read: (p) => all[p] ?? (Object.keys(all).some((k) => k.startsWith(`${p}/`)) ? 'EISDIR' : 'ENOENT'),
    glob: (pattern) => {
      const dir = pattern.slice(0, pattern.lastIndexOf('/'));
      const re = globRegex(pattern.slice(pattern.lastIndexOf('/') + 1));
      return Object.keys(all)
        .filter((k) => k.slice(0, k.lastIndexOf('/')) === dir && re.test(k.slice(k.lastIndexOf('/') + 1)))
        .sort();
    },
  };
}

const STOCK = withIpv6Listen(PACKAGED_DEFAULT_CONF);

test('the parser reports errors as nginx does (ngx_conf_file.c, ngx_http_core_module.c)', () => {
  const cases: { name: string; conf: string; extra?: Record<string, string>; want: string }[] = [
    { name: 'stock config parses', conf: STOCK, want: 'ok' },
    { name: 'unknown directive', conf: 'server {\n    lisen 80;\n}\n', want: 'unknown directive "lisen" in /etc/nginx/conf.d/default.conf:2' },
    { name: 'listen without a port', conf: 'server {\n    listen;\n}\n', want: 'invalid number of arguments in "listen" directive in /etc/nginx/conf.d/default.conf:2' },
    { name: 'missing closing brace', conf: 'server {\n    listen 80;\n', want: 'unexpected end of file, expecting "}" in /etc/nginx/conf.d/default.conf:3' },
    { name: 'stray closing brace', conf: 'server { listen 80; }\n}\n', want: 'unexpected "}" in /etc/nginx/conf.d/default.conf:2' },
    { name: 'missing semicolon before brace', conf: 'server { listen 8080 }', want: 'unexpected "}" in /etc/nginx/conf.d/default.conf:1' },
    { name: 'missing semicolon at end of file', conf: 'server { listen 80; }\ninclude x', want: 'unexpected end of file, expecting ";" or "}" in /etc/nginx/conf.d/default.conf:2' },
    { name: 'a whole nginx.conf mounted into conf.d', conf: 'events {}\nhttp { server { listen 80; } }\n', want: '"events" directive is not allowed here in /etc/nginx/conf.d/default.conf:1' },
    { name: 'listen outside a server', conf: 'listen 80;\n', want: '"listen" directive is not allowed here in /etc/nginx/conf.d/default.conf:1' },
    { name: 'server without a block', conf: 'server;\n', want: 'directive "server" has no opening "{" in /etc/nginx/conf.d/default.conf:1' },
    { name: 'root with a block', conf: 'server { root /x { } }', want: 'directive "root" is not terminated by ";" in /etc/nginx/conf.d/default.conf:1' },
    { name: 'listen parameter typo', conf: 'server {\n  listen 80 default_sever;\n}', want: 'invalid parameter "default_sever" in /etc/nginx/conf.d/default.conf:2' },
    { name: 'listen on a name', conf: 'server { listen web; }', want: 'host not found in "web" of the "listen" directive in /etc/nginx/conf.d/default.conf:1' },
    { name: 'listen port out of range', conf: 'server { listen 70000; }', want: 'invalid port in "70000" of the "listen" directive in /etc/nginx/conf.d/default.conf:1' },
    { name: 'duplicate root', conf: 'server { location / { root /a; root /b; } }', want: '"root" directive is duplicate in /etc/nginx/conf.d/default.conf:1' },
    { name: 'alias after root', conf: 'server { location / { root /a; alias /b; } }', want: '"alias" directive is duplicate, "root" directive was specified earlier in /etc/nginx/conf.d/default.conf:1' },
    { name: 'flag value', conf: 'server { autoindex yes; }', want: 'invalid value "yes" in "autoindex" directive, it must be "on" or "off" in /etc/nginx/conf.d/default.conf:1' },
    { name: 'error_page code range', conf: 'server { error_page 200 /x.html; }', want: 'value "200" must be between 300 and 599 in /etc/nginx/conf.d/default.conf:1' },
    { name: 'duplicate location', conf: 'server {\n location / { }\n location / { }\n}', want: 'duplicate location "/" in /etc/nginx/conf.d/default.conf:3' },
    { name: 'duplicate default server', conf: 'server { listen 80 default_server; }\nserver { listen 80 default_server; }', want: 'a duplicate default server for 0.0.0.0:80 in /etc/nginx/conf.d/default.conf:2' },
    { name: 'include of a missing file', conf: 'include /etc/nginx/other.conf;', want: 'open() "/etc/nginx/other.conf" failed (2: No such file or directory) in /etc/nginx/conf.d/default.conf:1' },
    { name: 'include glob matching nothing', conf: 'include /etc/nginx/sites/*.conf;', want: 'ok' },
    { name: 'include cycle is bounded', conf: 'include /etc/nginx/conf.d/default.conf;', want: 'open() "/etc/nginx/conf.d/default.conf" failed (24: Too many open files) in /etc/nginx/conf.d/default.conf:1' },
    { name: 'unknown variable', conf: 'server { return 200 $nope; }', want: 'unknown "nope" variable' },
    { name: 'variable defined by set', conf: 'server { set $v x; return 200 $v; }', want: 'ok' },
    { name: 'unterminated quote', conf: 'server { return 200 "abc; }', want: 'unexpected end of file, expecting ";" or "}" in /etc/nginx/conf.d/default.conf:1' },
    { name: 'text after a quoted word', conf: 'server { return 200 "a"b; }', want: 'unexpected "b" in /etc/nginx/conf.d/default.conf:1' },
    { name: 'types block with a nested block', conf: 'types { text/x { } }', want: 'unexpected "{" in /etc/nginx/conf.d/default.conf:1' },
  ];
  for (const tc of cases) {
    const r = parseNginxConf(confFiles({ '/etc/nginx/conf.d/default.conf': tc.conf, ...tc.extra }));
    assert.equal(r.ok ? 'ok' : formatConfError(r.error), tc.want, tc.name);
  }
});

test('the stock configuration: one server on 80 and [::]:80, mime types, default_type', () => {
  const r = parseNginxConf(confFiles({ '/etc/nginx/conf.d/default.conf': STOCK }));
  assert.ok(r.ok);
  const http = r.conf.http!;
  assert.deepEqual(
    http.servers.map((s) => ({ names: s.names, listens: s.listens.map((l) => l.text) })),
    [{ names: ['localhost'], listens: ['0.0.0.0:80', '[::]:80'] }],
  );
  assert.equal(http.types['html'], 'text/html');
  assert.equal(http.settings.defaultType, 'application/octet-stream');
  assert.deepEqual(r.conf.files.map((f) => f.path), ['/etc/nginx/nginx.conf', '/etc/nginx/mime.types', '/etc/nginx/conf.d/default.conf']);
  assert.deepEqual(r.conf.warnings, []);
});

test('the tokenizer never throws and always ends on arbitrary text', () => {
  const samples = ['', '{', '}', ';', '"', "'", '\\', '${', 'a b c', '#', 'x "y" z;', '\u0000\n\r\t', 'a{b}c;d'.repeat(50)];
  for (const s of samples) {
    const toks = tokenize(s);
    assert.ok(toks.length >= 1);
    const last = toks[toks.length - 1]!;
    assert.ok(last.kind === 'eof' || last.kind === 'error' || toks.length < 100_000, JSON.stringify(s));
    const r = parseNginxConf(confFiles({ '/etc/nginx/conf.d/default.conf': s }));
    assert.equal(typeof r.ok, 'boolean');
  }
});

test('location matching follows ngx_http_core_find_location', () => {
  const conf = `server {
    location / { }
    location /images/ { location /images/big/ { } }
    location ^~ /static/ { }
    location = /exact { }
    location ~ \\.php$ { }
    location ~* \\.(png|jpg)$ { }
}`;
  const r = parseNginxConf(confFiles({ '/etc/nginx/conf.d/default.conf': conf }));
  assert.ok(r.ok);
  const locs = r.conf.http!.servers[0]!.locations;
  const cases: { name: string; uri: string; want: string }[] = [
    { name: 'root prefix', uri: '/index.html', want: '/' },
    { name: 'longest prefix', uri: '/images/a.gif', want: '/images/' },
    { name: 'nested prefix', uri: '/images/big/a.gif', want: '/images/ > /images/big/' },
    { name: 'regex after prefix', uri: '/images/a.png', want: '~* \\.(png|jpg)$' },
    { name: '^~ stops the regex search', uri: '/static/a.png', want: '^~ /static/' },
    { name: 'exact match', uri: '/exact', want: '= /exact' },
    { name: 'exact does not match a longer uri', uri: '/exact/x', want: '/' },
    { name: 'case-sensitive regex', uri: '/a.PHP', want: '/' },
    { name: 'case-insensitive regex', uri: '/A.PNG', want: '~* \\.(png|jpg)$' },
  ];
  for (const tc of cases) {
    const got = findLocation(locs, tc.uri)
      .map((l) => (l.modifier ? `${l.modifier} ${l.path}` : l.path))
      .join(' > ');
    assert.equal(got, tc.want, tc.name);
  }
});

/** A container filesystem for serving: paths to contents; directories implied. */
function files(tree: Record<string, string>): ServeFiles {
  return {
    kind: (p) => (tree[p] !== undefined ? 'file' : Object.keys(tree).some((k) => k.startsWith(`${p.replace(/\/$/, '')}/`)) ? 'dir' : undefined),
    read: (p) => tree[p],
    list: (d) => [...new Set(Object.keys(tree).filter((k) => k.startsWith(`${d}/`)).map((k) => k.slice(d.length + 1).split('/')[0]!))].sort(),
  };
}

test('requests are answered from the configuration and the files', () => {
  const conf = `server {
    listen 80;
    listen 8080;
    server_name localhost;
    location / {
        root /usr/share/nginx/html;
        index index.html index.htm;
    }
    location /app/ {
        alias /srv/app/;
        try_files $uri $uri/ /app/index.html;
    }
    location = /health { return 200 "ok\\n"; }
    location /old { return 301 /new; }
    location /gone { return 410; }
    error_page 404 /404.html;
    location = /404.html { root /usr/share/nginx/errors; internal; }
    error_page 500 502 503 504 /50x.html;
    location = /50x.html { root /usr/share/nginx/html; }
    location /api/ { proxy_pass http://backend:8080; }
}
server {
    listen 80;
    server_name other.example.com;
    server_tokens off;
    return 403;
}`;
  const r = parseNginxConf(confFiles({ '/etc/nginx/conf.d/default.conf': conf }));
  assert.ok(r.ok, r.ok ? '' : formatConfError(r.error));
  const tree = files({
    '/usr/share/nginx/html/index.html': '<h1>home</h1>\n',
    '/usr/share/nginx/html/style.css': 'body{}',
    '/usr/share/nginx/html/data.bin': 'x',
    '/usr/share/nginx/html/docs/readme.txt': 'read me',
    '/usr/share/nginx/html/50x.html': 'fifty',
    '/usr/share/nginx/errors/404.html': 'custom 404\n',
    '/srv/app/index.html': 'spa\n',
    '/srv/app/main.js': 'js',
  });
  const req = (uri: string, o: Partial<NginxRequest> = {}): NginxRequest => ({ method: 'GET', uri, host: 'localhost', port: 80, ...o });
  const cases: { name: string; req: NginxRequest; want: { status: number; body?: string; type?: string; location?: string; server?: string } }[] = [
    { name: 'index of /', req: req('/'), want: { status: 200, body: '<h1>home</h1>\n', type: 'text/html' } },
    { name: 'a file by extension', req: req('/style.css'), want: { status: 200, body: 'body{}', type: 'text/css' } },
    { name: 'unknown extension is default_type', req: req('/data.bin'), want: { status: 200, type: 'application/octet-stream' } },
    { name: 'missing file: error_page 404', req: req('/nope.html'), want: { status: 404, body: 'custom 404\n' } },
    { name: 'directory without slash: 301', req: req('/docs'), want: { status: 301, location: 'http://localhost/docs/' } },
    { name: 'redirect keeps a non-80 port', req: req('/docs', { port: 8080, host: 'localhost:8080' }), want: { status: 301, location: 'http://localhost:8080/docs/' } },
    { name: 'directory without index: 403', req: req('/docs/'), want: { status: 403, server: 'nginx/1.29.3' } },
    { name: 'alias and try_files', req: req('/app/main.js'), want: { status: 200, body: 'js' } },
    { name: 'try_files falls back to the SPA index', req: req('/app/some/route'), want: { status: 200, body: 'spa\n' } },
    { name: 'exact return', req: req('/health'), want: { status: 200, body: 'ok\n', type: 'application/octet-stream' } },
    { name: 'return 301 is absolute', req: req('/old'), want: { status: 301, location: 'http://localhost/new' } },
    { name: 'bare return code: built-in page', req: req('/gone'), want: { status: 410 } },
    { name: 'proxy_pass without an upstream: 502 → 50x.html', req: req('/api/x'), want: { status: 502, body: 'fifty' } },
    { name: 'POST to a static file: 405', req: req('/style.css', { method: 'POST' }), want: { status: 405 } },
    { name: 'server by name, server_tokens off', req: req('/', { host: 'other.example.com' }), want: { status: 403, server: 'nginx' } },
    { name: 'dot-dot above the root: 400', req: req('/../etc/passwd'), want: { status: 400 } },
  ];
  for (const tc of cases) {
    const a = nginxServe(r.conf.http!, tc.req, tree, '1.29.3');
    assert.ok(a, tc.name);
    assert.equal(a.status, tc.want.status, tc.name);
    if (tc.want.body !== undefined) assert.equal(a.body, tc.want.body, tc.name);
    if (tc.want.type !== undefined) assert.equal(a.contentType, tc.want.type, tc.name);
    if (tc.want.location !== undefined) assert.equal(a.location, tc.want.location, tc.name);
    if (tc.want.server !== undefined) assert.equal(a.server, tc.want.server, tc.name);
  }
  // port 8080 has one server; nothing listens on 9090
  assert.equal(nginxServe(r.conf.http!, req('/', { port: 9090 }), tree, '1.29.3'), undefined);
});

test('the stock configuration serves the stock page bytes and nginx 404 page', () => {
  const r = parseNginxConf(confFiles({ '/etc/nginx/conf.d/default.conf': STOCK }));
  assert.ok(r.ok);
  const img = nginxImageFiles(nginxBuild('latest'), 0);
  const tree = files(Object.fromEntries(Object.entries(img).map(([k, v]) => [k, v.content])));
  const home = nginxServe(r.conf.http!, { method: 'GET', uri: '/', host: '10.0.0.1', port: 80 }, tree, '1.29.3');
  assert.equal(home?.body, img['/usr/share/nginx/html/index.html']!.content);
  const pages = [404, 403, 301, 405, 500, 502, 503, 504].map((s) => nginxStatusPage(s, 'nginx/1.29.3')).join('');
  assertGolden(goldenPath(import.meta.url, 'error-pages.txt'), pages);
  const missing = nginxServe(r.conf.http!, { method: 'GET', uri: '/x', host: '10.0.0.1', port: 80 }, tree, '1.29.3');
  assert.equal(missing?.body, nginxStatusPage(404, 'nginx/1.29.3'));
});

test('image tags map to releases, and the pid path follows the package', () => {
  const cases: { tag: string; version: string; alpine: boolean }[] = [
    { tag: 'latest', version: '1.29.3', alpine: false },
    { tag: 'alpine', version: '1.29.3', alpine: true },
    { tag: 'stable', version: '1.28.0', alpine: false },
    { tag: '1.27', version: '1.27.5', alpine: false },
    { tag: '1.25-alpine', version: '1.25.5', alpine: true },
    { tag: '1.27.4', version: '1.27.4', alpine: false },
  ];
  for (const tc of cases) assert.deepEqual(nginxBuild(tc.tag), { version: tc.version, alpine: tc.alpine }, tc.tag);
  assert.match(nginxConf('1.29.3'), /pid {8}\/run\/nginx\.pid;/);
  assert.match(nginxConf('1.25.5'), /pid {8}\/var\/run\/nginx\.pid;/);
});

test('which containers run nginx, and through the entrypoint', () => {
  const cases: { name: string; command?: string[]; args?: string[]; want: { nginx: boolean; entrypoint: boolean } }[] = [
    { name: 'image default', want: { nginx: true, entrypoint: true } },
    { name: 'args to the entrypoint', args: ['nginx', '-g', 'daemon off;'], want: { nginx: true, entrypoint: true } },
    { name: 'nginx directly', command: ['nginx', '-g', 'daemon off;'], want: { nginx: true, entrypoint: false } },
    { name: 'a script that starts nginx', command: ['sh', '-c', 'echo hi > /usr/share/nginx/html/index.html && nginx -g "daemon off;"'], want: { nginx: true, entrypoint: false } },
    { name: 'sleep', command: ['sleep', '3600'], want: { nginx: false, entrypoint: false } },
  ];
  for (const tc of cases) {
    const ct = { name: 'c', image: 'nginx', ...(tc.command ? { command: tc.command } : {}), ...(tc.args ? { args: tc.args } : {}) };
    assert.deepEqual(nginxLaunch(ct), tc.want, tc.name);
  }
});

test('uri normalisation', () => {
  const cases: { uri: string; want: string | undefined }[] = [
    { uri: '/a//b/./c', want: '/a/b/c' },
    { uri: '/a/../b', want: '/b' },
    { uri: '/%61bc', want: '/abc' },
    { uri: '/..', want: undefined },
    { uri: '/dir/', want: '/dir/' },
  ];
  for (const tc of cases) assert.equal(normalizeUri(tc.uri), tc.want, tc.uri);
});
