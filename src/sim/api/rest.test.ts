/** The API server's GET over HTTP (sim/api/rest.ts) and its JSON encoding (sim/api/wire-json.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { isPrettyPrint, requestInfo, serveGet, storageVersionHash, type RestRequest } from './rest.js';
import type { UserInfo } from './rbac.js';

const ADMIN: UserInfo = { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] };
const ANON: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
const KUBECTL = 'kubectl/v1.35.2 (linux/amd64) kubernetes/0000000';

const cluster = loadFixture('kubeadm-calico', 1);

const cases: { name: string; req: RestRequest; status: number; contentType?: string; body?: string; bodyStarts?: string; check?: (v: Record<string, unknown>) => void }[] = [
  {
    name: 'an object that does not exist: errors.NewNotFound with the resource and name',
    req: { path: '/api/v1/namespaces/default/pods/nope', user: ADMIN, userAgent: KUBECTL },
    status: 404,
    contentType: 'application/json',
    body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","kind":"pods"},"code":404}\n',
  },
  {
    name: 'a group resource names its group in the NotFound details',
    req: { path: '/apis/apps/v1/namespaces/default/deployments/nope', user: ADMIN, userAgent: KUBECTL },
    status: 404,
    body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","group":"apps","kind":"deployments"},"code":404}\n',
  },
  {
    name: 'anonymous may not list pods: Forbidden with the resource as details.kind',
    req: { path: '/api/v1/namespaces/default/pods', user: ANON, userAgent: KUBECTL },
    status: 403,
    body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \\"system:anonymous\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"kind":"pods"},"code":403}\n',
  },
  {
    name: 'an unknown resource of a served group version: go-restful’s generic NotFound',
    req: { path: '/api/v1/foos', user: ADMIN, userAgent: KUBECTL },
    status: 404,
    body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}\n',
  },
  {
    name: 'a group nobody serves: the NotFoundHandler’s plain text',
    req: { path: '/apis/nope.example.com/v1/widgets', user: ADMIN, userAgent: KUBECTL },
    status: 404,
    contentType: 'text/plain; charset=utf-8',
    body: '404 page not found\n',
  },
  {
    name: 'curl’s User-Agent gets MarshalIndent with two spaces and no final newline',
    req: { path: '/api/v1/namespaces/default/pods/nope', user: ADMIN, userAgent: 'curl/8.14.1' },
    status: 404,
    body: '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "pods \\"nope\\" not found",\n  "reason": "NotFound",\n  "details": {\n    "name": "nope",\n    "kind": "pods"\n  },\n  "code": 404\n}',
  },
  {
    name: '?pretty=false wins over curl’s User-Agent',
    req: { path: '/api?pretty=false', user: ADMIN, userAgent: 'curl/8.14.1' },
    status: 200,
    bodyStarts: '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"',
  },
  {
    name: 'a collection: PodList, v1, the store’s resourceVersion, items without TypeMeta',
    req: { path: '/api/v1/namespaces/kube-system/pods', user: ADMIN, userAgent: KUBECTL },
    status: 200,
    bodyStarts: '{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"',
    check: (v) => {
      const items = v['items'] as Record<string, unknown>[];
      assert.ok(items.length > 0);
      assert.deepEqual(Object.keys(items[0]!), ['metadata', 'spec', 'status']);
      assert.equal((v['metadata'] as Record<string, string>)['resourceVersion'], cluster.store.currentResourceVersion());
    },
  },
  {
    name: 'limit: continue token and remainingItemCount',
    req: { path: '/api/v1/namespaces/kube-system/pods?limit=2', user: ADMIN, userAgent: KUBECTL },
    status: 200,
    check: (v) => {
      const meta = v['metadata'] as Record<string, unknown>;
      assert.deepEqual(Object.keys(meta), ['resourceVersion', 'continue', 'remainingItemCount']);
      assert.equal((v['items'] as unknown[]).length, 2);
      const token = JSON.parse(Buffer.from(meta['continue'] as string, 'base64url').toString()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(token), ['v', 'rv', 'start']);
      assert.ok((token['start'] as string).endsWith('\u0000'));
    },
  },
  {
    name: 'labelSelector filters the list',
    req: { path: '/api/v1/namespaces/kube-system/pods?labelSelector=k8s-app%3Dkube-dns', user: ADMIN, userAgent: KUBECTL },
    status: 200,
    check: (v) => assert.ok((v['items'] as { metadata: { labels: Record<string, string> } }[]).every((p) => p.metadata.labels['k8s-app'] === 'kube-dns')),
  },
  {
    name: 'an unsupported field label: BadRequest',
    req: { path: '/api/v1/pods?fieldSelector=spec.bogus%3D1', user: ADMIN, userAgent: KUBECTL },
    status: 400,
    body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"field label not supported: spec.bogus","reason":"BadRequest","details":{},"code":400}\n',
  },
  {
    name: 'a cluster-scoped object',
    req: { path: '/api/v1/namespaces/default', user: ADMIN, userAgent: KUBECTL },
    status: 200,
    bodyStarts: '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"default",',
  },
  {
    name: 'APIGroupList',
    req: { path: '/apis', user: ADMIN, userAgent: KUBECTL },
    status: 200,
    bodyStarts: '{"kind":"APIGroupList","apiVersion":"v1","groups":[{"name":"apiregistration.k8s.io","versions":[{"groupVersion":"apiregistration.k8s.io/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apiregistration.k8s.io/v1","version":"v1"}},',
  },
  {
    name: 'the legacy APIResourceList has no apiVersion',
    req: { path: '/api/v1', user: ADMIN, userAgent: KUBECTL },
    status: 200,
    bodyStarts: '{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"bindings","singularName":"binding","namespaced":true,"kind":"Binding","verbs":["create"],',
  },
  {
    name: 'health paths stay open to anonymous',
    req: { path: '/livez', user: ANON, userAgent: 'curl/8.14.1' },
    status: 200,
    body: 'ok',
  },
];

for (const tc of cases) {
  test(`serveGet: ${tc.name}`, () => {
    const r = serveGet(cluster, tc.req);
    assert.equal(r.status, tc.status, r.body);
    if (tc.contentType) assert.equal(r.contentType, tc.contentType);
    if (tc.body !== undefined) assert.equal(r.body, tc.body);
    if (tc.bodyStarts !== undefined) assert.ok(r.body.startsWith(tc.bodyStarts), r.body.slice(0, 300));
    if (tc.check) tc.check(JSON.parse(r.body) as Record<string, unknown>);
  });
}

const infos: { path: string; verb: string; resource?: Record<string, string> }[] = [
  { path: '/api/v1', verb: 'get' },
  { path: '/apis/apps/v1', verb: 'get' },
  { path: '/api/v1/pods', verb: 'list', resource: { group: '', version: 'v1', resource: 'pods' } },
  { path: '/api/v1/namespaces/ns1', verb: 'get', resource: { group: '', version: 'v1', resource: 'namespaces', name: 'ns1' } },
  { path: '/api/v1/namespaces/ns1/status', verb: 'get', resource: { group: '', version: 'v1', resource: 'namespaces', name: 'ns1', subresource: 'status' } },
  { path: '/apis/apps/v1/namespaces/ns1/deployments/web/scale', verb: 'get', resource: { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'ns1', name: 'web', subresource: 'scale' } },
];
for (const tc of infos) {
  test(`requestInfo: ${tc.path}`, () => {
    const ri = requestInfo(tc.path, new URLSearchParams());
    assert.equal(ri.verb, tc.verb);
    assert.deepEqual(ri.resource, tc.resource);
  });
}

test('isPrettyPrint: ParseBool of ?pretty, else the User-Agent', () => {
  const rows: { query: string; ua: string; want: boolean }[] = [
    { query: '', ua: 'curl/8.14.1', want: true },
    { query: '', ua: 'Wget/1.21', want: true },
    { query: '', ua: KUBECTL, want: false },
    { query: 'pretty=1', ua: KUBECTL, want: true },
    { query: 'pretty=yes', ua: 'curl/8.14.1', want: false },
  ];
  for (const r of rows) assert.equal(isPrettyPrint(new URLSearchParams(r.query), r.ua), r.want, `${r.query} ${r.ua}`);
});

test('storageVersionHash: sha256 of group/version/kind, 8 bytes in base64', () => {
  assert.equal(storageVersionHash('apps', 'v1', 'Deployment'), '8aSe+NMegvE=');
  assert.equal(storageVersionHash('apps', 'v1', 'ControllerRevision'), '85nkx63pcBU=');
});
