/** decodeManifest reads YAML as kubectl's go-yaml v2 does where it differs from YAML 1.2. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeManifest } from './manifest.js';
import { BUILTIN } from '../../sim/api/registry.js';

test('a leading-zero integer is octal (defaultMode: 0400 is 256); quoted or plain decimal stays as written', () => {
  const [pod] = decodeManifest(
    `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  volumes:
  - {name: a, secret: {secretName: s, defaultMode: 0400}}
  - {name: b, configMap: {name: c, defaultMode: 0644, items: [{key: k, path: k, mode: 0600}]}}
  - {name: d, secret: {secretName: s, defaultMode: 420}}
  containers: [{name: c, image: busybox, env: [{name: X, value: "0400"}]}]
`,
    'STDIN',
    BUILTIN,
  );
  const spec = (pod as unknown as { spec: { volumes: { secret?: { defaultMode: number }; configMap?: { defaultMode: number; items: { mode: number }[] } }[]; containers: { env: { value: string }[] }[] } }).spec;
  assert.equal(spec.volumes[0]!.secret!.defaultMode, 256);
  assert.equal(spec.volumes[1]!.configMap!.defaultMode, 420);
  assert.equal(spec.volumes[1]!.configMap!.items[0]!.mode, 384);
  assert.equal(spec.volumes[2]!.secret!.defaultMode, 420);
  assert.equal(spec.containers[0]!.env[0]!.value, '0400');
});

test('decodeManifest: a text decoded again gives equal objects of its own (parses are memoised, values copied)', () => {
  const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: &l {app: x}}\nspec: {nodeSelector: *l, containers: [{name: c, image: nginx}]}\n';
  const first = decodeManifest(text, 'f.yaml', BUILTIN);
  const fresh = JSON.stringify(first);
  (first[0]!['data'] as Record<string, string>)['k'] = 'changed';
  first[1]!.metadata.name = 'changed';
  for (let i = 0; i < 2; i++) {
    const again = decodeManifest(text, 'f.yaml', BUILTIN);
    assert.equal(JSON.stringify(again), fresh, 'what a caller changed in its objects does not reach the next');
    const pod = again[1]!;
    // an alias is the anchored object itself, as the yaml package's toJS makes it
    assert.equal(pod.metadata.labels, (pod['spec'] as { nodeSelector: unknown }).nodeSelector);
  }
  assert.notEqual(decodeManifest(text, 'f.yaml', BUILTIN)[0], decodeManifest(text, 'f.yaml', BUILTIN)[0]);
});

test('decodeManifest: a text that fails to parse fails the same way every time, after the documents before it', () => {
  const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\nkind: [\n';
  for (let i = 0; i < 2; i++) {
    const errors: unknown[] = [];
    assert.throws(() => decodeManifest(text, 'f.yaml', BUILTIN, errors), /error parsing f\.yaml: error converting YAML to JSON: yaml: line \d+: /);
  }
  const bad = 'apiVersion: v1\nkind: Nope\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n';
  for (let i = 0; i < 2; i++) {
    const errors: unknown[] = [];
    const objs = decodeManifest(bad, 'f.yaml', BUILTIN, errors);
    assert.deepEqual(objs.map((o) => o.metadata.name), ['b']);
    assert.equal(errors.length, 1);
  }
});
