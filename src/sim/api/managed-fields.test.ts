import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyConfig, compare, conflictMessage, decodeFieldsV1, encodeFieldsV1, pathString, recordUpdate, sortedPaths, toFieldSet, type Json, type ManagedFieldsEntry, type WriteContext } from './managed-fields.js';

/**
 * FieldsV1 texts from sigs.k8s.io/structured-merge-diff fieldpath/serialize_test.go
 * TestSerializeV1GoldenData: decoding and encoding again gives the same bytes (element order:
 * field names, keys, values by value.Compare, indexes; `.` for a member that has children).
 */
const SERIALIZE_GOLDEN = [
  `{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\\"name\\":\\"first\\"}":{},"k:{\\"name\\":\\"second\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\\"aa\\"":{},"v:\\"ab\\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}`,
  `{"f:spec":{".":{},"f:apps":{".":{},"k:{\\"name\\":\\" app-💻\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port 🔑\\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}},"k:{\\"name\\":\\" app-🚀\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port-✅ \\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}}}}}`,
];

for (const [i, text] of SERIALIZE_GOLDEN.entries()) {
  test(`FieldsV1 round trip: serialize_test.go golden ${i}`, () => {
    assert.equal(JSON.stringify(encodeFieldsV1(decodeFieldsV1(JSON.parse(text) as Json))), text);
  });
}

const W: WriteContext = { manager: 'kubectl', apiVersion: 'v1', now: '2026-12-02T10:00:00Z', statusIsSubresource: false };

const cases: { name: string; source: string; config: Json; want: Json }[] = [
  {
    // https://kubernetes.io/docs/reference/using-api/server-side-apply/ (Field management example)
    name: 'the ConfigMap of the server-side apply documentation',
    source: 'kubernetes.io docs: server-side-apply, field management',
    config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'test-cm', namespace: 'default', labels: { 'test-label': 'test' } }, data: { key: 'some value' } },
    want: { 'f:data': { 'f:key': {} }, 'f:metadata': { 'f:labels': { 'f:test-label': {} } } },
  },
  {
    // typed/tofieldset.go: list items of a keyed list are members; atomic selector owned whole;
    // protocol defaults to TCP in a port's key
    name: 'a Deployment: keyed containers and ports, atomic selector',
    source: 'structured-merge-diff typed/tofieldset.go',
    config: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', args: ['-g', 'daemon off;'], ports: [{ containerPort: 80 }] }] } },
      },
    },
    want: {
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:args': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } } },
        },
      },
    },
  },
  {
    name: 'finalizers are a set (v: elements), an empty map is a member',
    source: 'k8s.io/apimachinery ObjectMeta finalizers +listType=set',
    config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', finalizers: ['b', 'a'], annotations: {} } },
    want: { 'f:metadata': { 'f:annotations': {}, 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} } } },
  },
];

for (const c of cases) {
  test(`apply owns the configuration's fields: ${c.name} (${c.source})`, () => {
    const r = applyConfig([], undefined, c.config, false, W);
    assert.equal(r.managedFields.length, 1);
    assert.deepEqual(r.managedFields[0]!.fieldsV1, c.want);
    assert.equal(r.managedFields[0]!.operation, 'Apply');
  });
}

test('pathString spells paths as fieldpath Path.String', () => {
  const cases: [string[], string][] = [
    [['f:spec', 'f:replicas'], '.spec.replicas'],
    [['f:spec', 'f:containers', 'k:{"name":"nginx"}', 'f:image'], '.spec.containers[name="nginx"].image'],
    [['f:spec', 'f:ports', 'k:{"port":80,"protocol":"TCP"}'], '.spec.ports[port=80,protocol="TCP"]'],
    [['f:metadata', 'f:finalizers', 'v:"a"'], '.metadata.finalizers[="a"]'],
  ];
  for (const [p, want] of cases) assert.equal(pathString(p), want);
});

test('compare: a map that appears counts itself as added; atomic lists are leaves', () => {
  const c = compare({ spec: {} }, { spec: { template: { labels: { a: 'b' } }, args: ['x'] } });
  assert.deepEqual(
    sortedPaths(c.added).map(pathString),
    ['.spec.args', '.spec.template', '.spec.template.labels', '.spec.template.labels.a'],
  );
  assert.equal(c.modified.size, 0);
});

test('an Update after an Apply takes the field it changed, and a later apply of another value conflicts', () => {
  const cfg: Json = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2 } };
  const w: WriteContext = { ...W, apiVersion: 'apps/v1', statusIsSubresource: true };
  const a = applyConfig([], undefined, cfg, false, w);
  const scaled = structuredClone(a.obj) as { spec: { replicas: number } };
  scaled.spec.replicas = 5;
  const entries = recordUpdate(a.managedFields, a.obj, scaled as unknown as Json, { ...w, manager: 'kubectl-edit', now: '2026-12-02T10:01:00Z' });
  assert.deepEqual(
    entries.map((e) => [e.manager, e.operation, JSON.stringify(e.fieldsV1)]),
    [['kubectl-edit', 'Update', '{"f:spec":{"f:replicas":{}}}']],
  );
  assert.throws(() => applyConfig(entries, scaled as unknown as Json, cfg, false, w), {
    message: 'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas',
  });
  const forced = applyConfig(entries, scaled as unknown as Json, cfg, true, w);
  assert.deepEqual(forced.managedFields.map((e) => e.manager), ['kubectl']);
  assert.equal((forced.obj as { spec: { replicas: number } }).spec.replicas, 2);
});

test('a field dropped from the configuration is removed unless another manager owns it', () => {
  const w = { ...W };
  const first = applyConfig([], undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { app: 'x' } }, data: { a: '1', b: '2' } }, false, w);
  const other: ManagedFieldsEntry[] = [...first.managedFields, { manager: 'kubectl-edit', operation: 'Update', apiVersion: 'v1', time: W.now, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:b': {} } } }];
  const second = applyConfig(other, first.obj, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } }, false, w);
  assert.deepEqual((second.obj as { data: unknown }).data, { a: '1', b: '2' });
  assert.equal((second.obj as { metadata: { labels?: unknown } }).metadata.labels, undefined);
});

test('conflicts with several managers are grouped by sorted manager identity (internal/conflict.go)', () => {
  const scale = { manager: 'kubectl', operation: 'Update' as const, apiVersion: 'apps/v1', fieldsType: 'FieldsV1' as const, subresource: 'scale' };
  const edit = { manager: 'kubectl-edit', operation: 'Update' as const, apiVersion: 'apps/v1', fieldsType: 'FieldsV1' as const };
  assert.equal(
    conflictMessage([
      { entry: edit, path: ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"nginx"}', 'f:image'] },
      { entry: scale, path: ['f:spec', 'f:replicas'] },
    ]),
    'Apply failed with 2 conflicts: conflicts with "kubectl" with subresource "scale" using apps/v1:\n- .spec.replicas\nconflicts with "kubectl-edit" using apps/v1:\n- .spec.template.spec.containers[name="nginx"].image',
  );
});

test('toFieldSet ignores nothing itself: the server strips apiVersion, kind and identity metadata', () => {
  const s = toFieldSet({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
  assert.deepEqual(sortedPaths(s).map(pathString), ['.apiVersion', '.kind', '.metadata.name']);
});

test('compare leaves out the top-level fields skipTop names and nothing else; recordUpdate owns the same fields without walking a status it drops', () => {
  const old: Json = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { a: '1' } }, spec: { replicas: 1 }, status: { replicas: 1, conditions: [{ type: 'Available', status: 'True' }] } };
  const nu: Json = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { a: '2' } }, spec: { replicas: 2 }, status: { replicas: 2, conditions: [{ type: 'Available', status: 'False' }] } };
  const all = compare(old, nu);
  const some = compare(old, nu, (k) => k === 'status' || k === 'kind');
  const under = (s: Map<string, readonly string[]>, top: string): string[] => [...s.values()].filter((p) => p[0] === top).map((p) => p.join('/'));
  assert.deepEqual(under(all.modified, 'f:status').sort(), ['f:status/f:conditions/k:{"type":"Available"}/f:status', 'f:status/f:replicas']);
  assert.deepEqual(under(some.modified, 'f:status'), []);
  for (const part of ['added', 'modified', 'removed'] as const)
    assert.deepEqual([...some[part].keys()], [...all[part].keys()].filter((k) => !k.startsWith('f:status') && !k.startsWith('f:kind')), part);
  // only the root's fields: a nested `status` (a condition's) is compared as ever
  assert.deepEqual(under(compare(old, nu, (k) => k === 'metadata').modified, 'f:status').sort(), under(all.modified, 'f:status').sort());
  const w: WriteContext = { manager: 'kubectl', apiVersion: 'apps/v1', now: '2026-01-01T00:00:00Z', statusIsSubresource: true };
  const fields = (e: ManagedFieldsEntry[]): Json[] => e.map((x) => x.fieldsV1 as Json);
  assert.deepEqual(fields(recordUpdate(undefined, old, nu, w)), [{ 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:spec': { 'f:replicas': {} } }]);
  assert.deepEqual(fields(recordUpdate(undefined, old, nu, { ...w, statusIsSubresource: false })), [{ 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:spec': { 'f:replicas': {} }, 'f:status': { 'f:conditions': { 'k:{"type":"Available"}': { 'f:status': {} } }, 'f:replicas': {} } }]);
  assert.deepEqual(fields(recordUpdate(undefined, old, nu, { ...w, subresource: 'status' })), [{ 'f:status': { 'f:conditions': { 'k:{"type":"Available"}': { 'f:status': {} } }, 'f:replicas': {} } }]);
});
