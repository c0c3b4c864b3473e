import { BUILTIN } from '../../sim/api/registry.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deletions, isSubset, mergePatch, strategicMerge, type JsonValue } from './merge.js';
import { jsonPatch, JsonPatchError } from './json-patch.js';
import { decodeManifest } from './manifest.js';
import { KubectlError } from './errors.js';

const live: JsonValue = { spec: { replicas: 1, template: { spec: { containers: [{ name: 'a', image: 'x:1' }, { name: 'b', image: 'y:1' }] } } } };

test('patch flavours', () => {
  const cases: { name: string; got: JsonValue; want: JsonValue }[] = [
    { name: 'merge replaces lists', got: mergePatch(live, { spec: { template: { spec: { containers: [{ name: 'a', image: 'x:2' }] } } } }), want: { spec: { replicas: 1, template: { spec: { containers: [{ name: 'a', image: 'x:2' }] } } } } },
    { name: 'merge null deletes', got: mergePatch({ a: 1, b: 2 }, { a: null }), want: { b: 2 } },
    { name: 'strategic merges containers by name', got: strategicMerge(live, { spec: { template: { spec: { containers: [{ name: 'b', image: 'y:2' }] } } } }), want: { spec: { replicas: 1, template: { spec: { containers: [{ name: 'a', image: 'x:1' }, { name: 'b', image: 'y:2' }] } } } } },
    { name: 'json patch replace', got: jsonPatch(live, [{ op: 'replace', path: '/spec/replicas', value: 3 }]), want: { spec: { replicas: 3, template: { spec: { containers: [{ name: 'a', image: 'x:1' }, { name: 'b', image: 'y:1' }] } } } } },
    { name: 'json patch add to list end', got: jsonPatch({ l: [1] }, [{ op: 'add', path: '/l/-', value: 2 }]), want: { l: [1, 2] } },
    { name: 'deletions of dropped keys', got: deletions({ a: 1, m: { x: 1, y: 2 } }, { m: { x: 1 } }) ?? null, want: { a: null, m: { y: null } } },
    {
      name: 'deletions of a keyed list element',
      got: deletions({ ports: [{ containerPort: 80 }] }, { ports: [{ containerPort: 8080 }] }) ?? null,
      want: { ports: [{ containerPort: 80, $patch: 'delete' }] },
    },
    {
      name: 'deletions inside a kept keyed element',
      got: deletions({ env: [{ name: 'A', value: '1' }] }, { env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'x' } } }] }) ?? null,
      want: { env: [{ name: 'A', value: null }] },
    },
    {
      name: 'apply changes a containerPort: the old port goes',
      got: strategicMerge(strategicMerge({ ports: [{ containerPort: 80, protocol: 'TCP' }] }, { ports: [{ containerPort: 8080 }] }), { ports: [{ containerPort: 80, $patch: 'delete' }] }, '', true),
      want: { ports: [{ containerPort: 8080 }] },
    },
    {
      name: 'a deletion for an element no longer live adds nothing',
      got: strategicMerge({ env: [{ name: 'B', value: '2' }] }, { env: [{ name: 'A', value: null }], gone: { x: null } }, '', true),
      want: { env: [{ name: 'B', value: '2' }] },
    },
  ];
  for (const c of cases) assert.deepEqual(c.got, c.want, c.name);
  assert.throws(() => jsonPatch({ a: 1 }, [{ op: 'remove', path: '/b' }]), JsonPatchError);
  assert.equal(isSubset({ spec: { replicas: 1 } }, live), true);
  assert.equal(isSubset({ spec: { replicas: 2 } }, live), false);
});

test('manifest decoding errors carry kubectl wording', () => {
  const cases: { name: string; text: string; want: RegExp }[] = [
    { name: 'no kind', text: 'apiVersion: v1\nmetadata:\n  name: x\n', want: /^unable to decode "f.yaml": Object 'Kind' is missing in '\{"apiVersion":"v1","metadata":\{"name":"x"\}\}'$/ },
    { name: 'unknown kind', text: 'apiVersion: v1\nkind: Foo\nmetadata:\n  name: x\n', want: /no matches for kind "Foo" in version "v1"/ },
    { name: 'bad yaml', text: 'a: b\n c: d\n', want: /^error parsing f.yaml: error converting YAML to JSON: yaml: line \d+: / },
  ];
  for (const c of cases) {
    assert.throws(() => decodeManifest(c.text, 'f.yaml', BUILTIN), (e: unknown) => e instanceof KubectlError && c.want.test(e.message), c.name);
  }
  const objs = decodeManifest('apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n---\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n', 'f.yaml', BUILTIN);
  assert.deepEqual(objs.map((o) => o.kind), ['ConfigMap', 'Namespace']);
});
