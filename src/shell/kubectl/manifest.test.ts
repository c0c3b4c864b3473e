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
