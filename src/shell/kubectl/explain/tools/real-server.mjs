/**
 * Runs the real kubectl v1.35 binary (node scripts/real-kubectl.mjs extracts it to .cache/kubectl)
 * against a tiny local apiserver that answers discovery and /openapi/v3 with the given documents,
 * so `kubectl explain` output can be recorded from the real template for the same schema data.
 */
import { createServer } from 'node:http';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const KUBECTL = join(dirname(fileURLToPath(import.meta.url)), '../../../../../.cache/kubectl/kubectl');

/** docs: { 'api/v1': openapiDoc, 'apis/apps/v1': doc }, discovery: { 'v1': [[resource, kind, namespaced, short]] } */
export async function runReal(docs, discoveryMap, argvs) {
  const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  function discovery(path) {
    if (path === '/api') return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }] };
    if (path === '/apis') {
      const groups = Object.keys(discoveryMap).filter((gv) => gv.includes('/')).map((gv) => {
        const [group, version] = gv.split('/');
        return { name: group, versions: [{ groupVersion: gv, version }], preferredVersion: { groupVersion: gv, version } };
      });
      return { kind: 'APIGroupList', apiVersion: 'v1', groups };
    }
    if (path === '/openapi/v3') {
      const paths = {};
      for (const k of Object.keys(docs)) paths[k] = { serverRelativeURL: `/openapi/v3/${k}?hash=ABC` };
      return { paths };
    }
    if (path.startsWith('/openapi/v3/')) return docs[path.slice('/openapi/v3/'.length)];
    const gv = path === '/api/v1' ? 'v1' : path.startsWith('/apis/') ? path.slice(6) : undefined;
    const list = gv && discoveryMap[gv];
    if (!list) return undefined;
    return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv,
      resources: list.map(([name, kind, namespaced, shortNames]) => ({ name, singularName: kind.toLowerCase(), namespaced, kind, verbs: VERBS, ...(shortNames.length ? { shortNames } : {}) })) };
  }
  const server = createServer((req, res) => {
    const body = discovery((req.url ?? '').split('?')[0]);
    if (!body) { res.writeHead(404, { 'Content-Type': 'application/json' }); res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 })); return; }
    res.writeHead(200, { 'Content-Type': 'application/json' }); res.end(JSON.stringify(body));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const dir = mkdtempSync(join(tmpdir(), 'kx-'));
  const kc = join(dir, 'config');
  writeFileSync(kc, `apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: http://127.0.0.1:${server.address().port}\n  name: k\ncontexts:\n- context:\n    cluster: k\n    user: u\n  name: c\ncurrent-context: c\nusers:\n- name: u\n  user:\n    token: dummy\n`);
  const out = [];
  for (const argv of argvs) {
    out.push(await new Promise((resolve) => execFile(KUBECTL, argv, { env: { HOME: dir, KUBECONFIG: kc, PATH: process.env.PATH ?? '' }, encoding: 'utf8', cwd: dir },
      (err, stdout, stderr) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }))));
  }
  server.close();
  return out;
}
