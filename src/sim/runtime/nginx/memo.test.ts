/** The nginx runtime's memos: a loaded configuration's ports and an image's build, each worked out once. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseNginxConf, type NginxHttp, type ReadConf } from './conf.js';
import { listeningPorts, selectServer, serverSelections } from './serve.js';
import { containerBuild } from './program.js';
import { nginxBuild } from './image.js';

function http(conf: string): NginxHttp {
  const files: Record<string, string> = { '/etc/nginx/nginx.conf': conf };
  const read: ReadConf = { read: (p) => files[p] ?? 'ENOENT', glob: () => [] };
  const r = parseNginxConf(read, '/etc/nginx/nginx.conf');
  assert.ok(r.ok && r.conf.http, JSON.stringify(r));
  return r.conf.http;
}

test('listeningPorts: worked out once per loaded configuration, the same answer as before', () => {
  const a = http('events {}\nhttp {\n  server { listen 8080; listen [::]:8080; }\n  server { listen 80; listen 8080; }\n  server { listen [::]:9090; }\n}\n');
  const first = listeningPorts(a);
  assert.deepEqual(first, [80, 8080]);
  assert.equal(listeningPorts(a), first, 'the ports were worked out again');
  assert.ok(Object.isFrozen(first));
  // another configuration (a reload parses a new one) has its own
  const b = http('events {}\nhttp {\n  server { listen 81; }\n}\n');
  assert.deepEqual(listeningPorts(b), [81]);
  assert.deepEqual(listeningPorts(undefined), []);
});

test("containerBuild: an image's build is worked out once, as nginxBuild gives it", () => {
  for (const image of ['nginx:1.27', 'nginx:1.27-alpine', 'nginx', 'docker.io/library/nginx:stable', 'nginx:1.25.3']) {
    const first = containerBuild({ name: 'web', image });
    assert.deepEqual(first, nginxBuild(image.includes(':') ? image.slice(image.lastIndexOf(':') + 1) : 'latest'));
    assert.equal(containerBuild({ name: 'other', image }), first, `${image}: the build was worked out again`);
    assert.ok(Object.isFrozen(first));
  }
});

test('selectServer: chosen once per configuration, port and Host, the same server as looking again', () => {
  const a = http('events {}\nhttp {\n  server { listen 80; server_name a.example; }\n  server { listen 80 default_server; server_name *.b.example; }\n  server { listen 8080; server_name ~^c; }\n}\n');
  const [first, wild, regex] = a.servers;
  const before = serverSelections();
  assert.equal(selectServer(a, 80, 'a.example'), first);
  assert.equal(selectServer(a, 80, 'x.b.example:80'), wild);
  assert.equal(selectServer(a, 80, 'nothing.example'), wild, 'the default_server');
  assert.equal(selectServer(a, 8080, 'c.example'), regex);
  assert.equal(selectServer(a, 81, 'a.example'), undefined);
  assert.equal(serverSelections(), before + 5);
  // asked again: the same answers, none looked for again
  assert.equal(selectServer(a, 80, 'a.example'), first);
  assert.equal(selectServer(a, 80, 'nothing.example'), wild);
  assert.equal(selectServer(a, 81, 'a.example'), undefined);
  assert.equal(serverSelections(), before + 5);
  // another configuration (a reload) chooses among its own servers
  const b = http('events {}\nhttp {\n  server { listen 80; server_name a.example; }\n}\n');
  assert.equal(selectServer(b, 80, 'a.example'), b.servers[0]);
  assert.equal(serverSelections(), before + 6);
});
