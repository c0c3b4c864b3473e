/**
 * TokenREST.Create as the simulator answers it (pkg/registry/core/serviceaccount/storage/token.go):
 * what it refuses, in its order, and what a bound token carries.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { ApiServer } from './apiserver.js';
import { ApiError } from './api/errors.js';
import type { KObject, Pod } from './api/types.js';
import { createToken, type TokenRequestSpec } from './token-request.js';

function setup(): { c: ReturnType<typeof loadFixture>; api: ApiServer; pod: Pod; secret: KObject } {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot', namespace: 'default' } });
  const pod = api.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } as Pod);
  const secret = api.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' } });
  return { c, api, pod, secret };
}

const pod = (name: string, uid?: string): TokenRequestSpec => ({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name, ...(uid ? { uid } : {}) } });

const refusals: { name: string; sa: string; spec: TokenRequestSpec; reason: string; message: string }[] = [
  { name: 'no such service account', sa: 'nope', spec: {}, reason: 'NotFound', message: 'serviceaccounts "nope" not found' },
  {
    name: 'a lifetime under 10 minutes',
    sa: 'robot',
    spec: { expirationSeconds: 60 },
    reason: 'Invalid',
    message: 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
  },
  {
    name: 'a lifetime over 2^32 s',
    sa: 'robot',
    spec: { expirationSeconds: 2 ** 32 + 1 },
    reason: 'Invalid',
    message: 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
  },
  { name: 'the service account is looked up before the lifetime', sa: 'nope', spec: { expirationSeconds: 60 }, reason: 'NotFound', message: 'serviceaccounts "nope" not found' },
  { name: 'a bound pod that does not exist', sa: 'robot', spec: pod('nope'), reason: 'NotFound', message: 'pods "nope" not found' },
  { name: 'a bound secret that does not exist', sa: 'robot', spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'nope' } }, reason: 'NotFound', message: 'secrets "nope" not found' },
  { name: 'a bound node that does not exist', sa: 'robot', spec: { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'nope' } }, reason: 'NotFound', message: 'nodes "nope" not found' },
  {
    name: 'a pod running as another service account',
    sa: 'robot',
    spec: pod('web'),
    reason: 'BadRequest',
    message: 'cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.',
  },
  {
    name: 'a UID that is not the pod’s',
    sa: 'default',
    spec: pod('web', 'u-1'),
    reason: 'Conflict',
    message: 'Operation cannot be fulfilled on Pod "web": the UID in the bound object reference (u-1) does not match the UID in record. The object might have been deleted and then recreated',
  },
  { name: 'another kind', sa: 'robot', spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } }, reason: 'BadRequest', message: 'cannot bind token to object of type /v1, Kind=ConfigMap' },
];

for (const tc of refusals) {
  test(`TokenRequest refused: ${tc.name}`, () => {
    const { c, api } = setup();
    assert.throws(
      () => createToken(c, api, 'default', tc.sa, tc.spec),
      (e: unknown) => e instanceof ApiError && e.reason === tc.reason && e.message === tc.message,
    );
  });
}

const claims = (token: string): Record<string, unknown> => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

test('a pod-bound token names the pod and its node; a secret-bound one the secret; the lifetime is as asked', () => {
  const { c, api, pod: p, secret } = setup();
  const stored = c.store.get<Pod>('Pod', 'default', p.metadata.name)!;
  const t = claims(createToken(c, api, 'default', 'default', { ...pod('web', stored.metadata.uid!), expirationSeconds: 1200 }));
  const k = t['kubernetes.io'] as Record<string, { name: string; uid?: string }>;
  assert.equal(Object.keys(k).join(','), stored.spec.nodeName ? 'namespace,node,pod,serviceaccount' : 'namespace,pod,serviceaccount');
  assert.deepEqual(k['pod'], { name: 'web', uid: stored.metadata.uid });
  assert.equal((t['exp'] as number) - (t['iat'] as number), 1200);
  const s = claims(createToken(c, api, 'default', 'robot', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's' } }));
  assert.deepEqual((s['kubernetes.io'] as Record<string, unknown>)['secret'], { name: 's', uid: secret.metadata.uid });
  assert.equal((s['exp'] as number) - (s['iat'] as number), 3600, 'the default lifetime');
});
