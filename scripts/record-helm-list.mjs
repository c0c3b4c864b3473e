#!/usr/bin/env node
/**
 * Record `helm list` output formats from the real helm v4.1.4 (.cache/helm/helm) against a stub
 * API server that serves /version and the release Secrets (the Secret driver's encoding:
 * base64(gzip(JSON)) in data.release) of the releases below, into
 * src/shell/helm/testdata/list-formats.golden: per case `### ARGS`, then stdout, stderr and the exit
 * code as `(exit N)`. src/shell/helm/list.test.ts serves the same releases to the simulator.
 *
 *   node scripts/record-helm-list.mjs
 */
import http from 'node:http';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Buffer } from 'node:buffer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LIST_RELEASES = [
  ['web', 'default', 1, 'superseded', '2026-01-15T10:00:00Z', '1.25.0'],
  ['web', 'default', 2, 'deployed', '2026-01-15T10:05:00.123456789Z', '1.25.0'],
  ['api', 'default', 1, 'deployed', '2026-01-15T10:01:00.5Z', ''],
  ['db', 'default', 1, 'failed', '2026-01-15T10:01:00.2Z', '1.25.0'],
  ['cache', 'shop', 1, 'deployed', '2026-07-04T23:03:09Z', '1.25.0'],
];
const CASES = [
  ['list', '-o', 'json'],
  ['list', '-o', 'yaml'],
  ['list'],
  ['list', '-A', '-o', 'yaml', '--time-format', '2006-01-02 15:04:05Z0700'],
  ['list', '-q', '-o', 'json'],
  ['list', '-q', '-o', 'yaml'],
  ['list', '-q', '-o', 'table'],
  ['list', '-f', 'zzz', '-o', 'json'],
  ['list', '-f', 'zzz', '-o', 'yaml'],
  ['list', '-A', '--time-format', 'Mon Jan _2 03:04:05.000 PM MST 2006 -07:00 Z07:00 .999 002 __2 06 1 2 3 4 5 pm January Monday ,000000000'],
  ['list', '-o', 'xml'],
  ['list', '-A', '-d', '-r', '-o', 'json'],
  ['ls', '--all-namespaces', '--filter', '^(web|cache)$', '--output=yaml'],
];

const release = ([name, namespace, version, status, at, app]) => ({
  name, namespace, version,
  info: { first_deployed: at, last_deployed: at, deleted: '', description: 'Install complete', status },
  chart: { metadata: { name: 'web', version: '1.0.0', appVersion: app, apiVersion: 'v2' }, templates: [], values: {} },
  config: {}, manifest: '',
});
const secret = (r) => ({
  metadata: { name: `sh.helm.release.v1.${r.name}.v${r.version}`, namespace: r.namespace, labels: { name: r.name, owner: 'helm', status: r.info.status, version: String(r.version) } },
  type: 'helm.sh/release.v1',
  data: { release: Buffer.from(gzipSync(Buffer.from(JSON.stringify(r))).toString('base64')).toString('base64') },
});

const server = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  res.setHeader('content-type', 'application/json');
  if (u.pathname === '/version') return res.end(JSON.stringify({ major: '1', minor: '35', gitVersion: 'v1.35.2', platform: 'linux/amd64' }));
  const m = /^\/api\/v1\/(?:namespaces\/([^/]+)\/)?secrets$/.exec(u.pathname);
  if (!m) return (res.statusCode = 404), res.end('{}');
  const items = LIST_RELEASES.map(release).filter((r) => !m[1] || r.namespace === m[1]).map(secret);
  res.end(JSON.stringify({ kind: 'SecretList', apiVersion: 'v1', metadata: {}, items }));
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const home = mkdtempSync(join(tmpdir(), 'helm-list-'));
  const kc = join(home, 'kubeconfig');
  writeFileSync(kc, `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}"}}]\ncontexts: [{name: c, context: {cluster: c, user: u, namespace: default}}]\ncurrent-context: c\nusers: [{name: u, user: {}}]\n`);
  let out = '';
  const run = (i) => {
    if (i === CASES.length) {
      writeFileSync(join(root, 'src/shell/helm/testdata/list-formats.golden'), out);
      server.close();
      return;
    }
    // async so the server in this process can answer
    execFile(join(root, '.cache/helm/helm'), CASES[i], { env: { HOME: home, KUBECONFIG: kc, PATH: process.env.PATH ?? '' } }, (err, stdout, stderr) => {
      out += `### ${JSON.stringify(CASES[i])}\n${stdout}${stderr}(exit ${err ? err.code : 0})\n`;
      run(i + 1);
    });
  };
  run(0);
});
