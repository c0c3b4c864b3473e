/**
 * Deletion with finalizers as the generic registry does it (store.go), finalizer-name validation
 * (apimachinery objectmeta.go, core validation.go) and the namespace deleter's conditions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from './types.js';
import { finishesDeletion, markDeleted, newFinalizersError, STANDARD_FINALIZERS } from './deletion.js';
import { finalizerWarnings, qualifiedNameProblems, validateFinalizers } from './validation.js';
import { deletionConditions } from '../controllers/namespace.js';
import { podUsesClaim } from '../controllers/pvc-protection.js';
import type { Pod } from './types.js';

const obj = (meta: Partial<KObject['metadata']>, kind = 'ConfigMap'): KObject => ({ apiVersion: 'v1', kind, metadata: { name: 'x', namespace: 'default', ...meta } });
const TS = '2026-12-02T10:00:00Z';

test('markDeleted: the first DELETE stamps the time and grace 0; a second changes nothing', () => {
  const cases: { name: string; in: KObject; extra?: string[]; want: Partial<KObject['metadata']> | undefined }[] = [
    { name: 'first delete', in: obj({ finalizers: ['example.com/a'] }), want: { finalizers: ['example.com/a'], deletionTimestamp: TS, deletionGracePeriodSeconds: 0 } },
    { name: 'again', in: obj({ finalizers: ['example.com/a'], deletionTimestamp: '2026-12-01T00:00:00Z', deletionGracePeriodSeconds: 0 }), want: undefined },
    { name: 'graceful pod, kubelet done', in: obj({ finalizers: ['example.com/a'], deletionTimestamp: '2026-12-01T00:00:00Z', deletionGracePeriodSeconds: 30 }, 'Pod'), want: { deletionTimestamp: '2026-12-01T00:00:00Z', deletionGracePeriodSeconds: 0 } },
    { name: 'foreground adds its finalizer once', in: obj({}), extra: ['foregroundDeletion'], want: { finalizers: ['foregroundDeletion'], deletionTimestamp: TS } },
    { name: 'foreground again', in: obj({ finalizers: ['foregroundDeletion'], deletionTimestamp: TS, deletionGracePeriodSeconds: 0 }), extra: ['foregroundDeletion'], want: undefined },
  ];
  for (const c of cases) {
    const got = markDeleted(c.in, TS, c.extra);
    if (c.want === undefined) assert.equal(got, undefined, c.name);
    else for (const [k, v] of Object.entries(c.want)) assert.deepEqual(got?.metadata[k as keyof KObject['metadata']], v, `${c.name}: ${k}`);
  }
});

test('finishesDeletion: only the update that takes the last finalizer off a held object removes it', () => {
  const held = obj({ finalizers: ['example.com/a'], deletionTimestamp: TS, deletionGracePeriodSeconds: 0 });
  const cases: { name: string; old: KObject | undefined; upd: KObject; want: boolean }[] = [
    { name: 'last finalizer removed', old: held, upd: obj({ deletionTimestamp: TS, deletionGracePeriodSeconds: 0 }), want: true },
    { name: 'finalizers: []', old: held, upd: obj({ finalizers: [], deletionTimestamp: TS }), want: true },
    { name: 'one of two removed', old: obj({ finalizers: ['a/b', 'c/d'], deletionTimestamp: TS, deletionGracePeriodSeconds: 0 }), upd: obj({ finalizers: ['c/d'], deletionTimestamp: TS }), want: false },
    { name: 'not being deleted', old: obj({ finalizers: ['a/b'] }), upd: obj({}), want: false },
    { name: 'pod still in its grace period', old: obj({ finalizers: ['a/b'], deletionTimestamp: TS, deletionGracePeriodSeconds: 30 }, 'Pod'), upd: obj({ deletionTimestamp: TS }, 'Pod'), want: false },
    { name: 'graceful pod without finalizers (the kubelet ends it)', old: obj({ deletionTimestamp: TS, deletionGracePeriodSeconds: 0 }, 'Pod'), upd: obj({ deletionTimestamp: TS }, 'Pod'), want: false },
    { name: 'namespace (spec.finalizers rule)', old: obj({ finalizers: ['a/b'], deletionTimestamp: TS }, 'Namespace'), upd: obj({ deletionTimestamp: TS }, 'Namespace'), want: false },
    { name: 'new object', old: undefined, upd: obj({ deletionTimestamp: TS }), want: false },
  ];
  for (const c of cases) assert.equal(finishesDeletion(c.old, c.upd), c.want, c.name);
});

test('no new finalizers on an object being deleted, printed as Go %#v of the sorted extras', () => {
  const old = obj({ finalizers: ['kubernetes.io/pvc-protection'], deletionTimestamp: TS });
  assert.equal(
    newFinalizersError(old, obj({ finalizers: ['z.io/b', 'kubernetes.io/pvc-protection', 'a.io/a'] })),
    'no new finalizers can be added if the object is being deleted, found new finalizers []string{"a.io/a", "z.io/b"}',
  );
  assert.equal(newFinalizersError(old, obj({ finalizers: [] })), undefined);
  assert.equal(newFinalizersError(obj({}), obj({ finalizers: ['a.io/a'] })), undefined);
});

test('finalizer names: qualified names everywhere, a domain on built-in kinds unless standard', () => {
  const cases: { name: string; finalizers: string[]; builtin: boolean; want: string[] }[] = [
    { name: 'domain-qualified', finalizers: ['example.com/cleanup'], builtin: true, want: [] },
    { name: 'standard names', finalizers: ['kubernetes', 'orphan'], builtin: true, want: [] },
    { name: 'bare name on a built-in', finalizers: ['example.com/a', 'hold'], builtin: true, want: ['metadata.finalizers[1]: Invalid value: "hold": name is neither a standard finalizer name nor is it fully qualified'] },
    { name: 'bare name on a custom resource', finalizers: ['hold'], builtin: false, want: [] },
    { name: 'orphan and foreground together', finalizers: ['orphan', 'foregroundDeletion'], builtin: true, want: ['metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set'] },
    {
      name: 'bad prefix',
      finalizers: ['Example.com/a'],
      builtin: false,
      want: [
        `metadata.finalizers: Invalid value: "Example.com/a": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    },
  ];
  for (const c of cases) {
    const got = validateFinalizers(c.finalizers, c.builtin, STANDARD_FINALIZERS).map((e) => `${e.field}: ${e.body}`);
    assert.deepEqual(got, c.want, c.name);
  }
  assert.deepEqual(qualifiedNameProblems('a/b/c').length, 1);
  assert.deepEqual(qualifiedNameProblems('/b'), ['prefix part must be non-empty']);
  assert.deepEqual(finalizerWarnings(['hold', 'example.com/x', 'kubernetes'], STANDARD_FINALIZERS), [
    'metadata.finalizers: "hold": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers',
  ]);
});

test('namespace deletion conditions: all five, the failing ones True with sorted counts; times move on status changes only', () => {
  const first = deletionConditions([], new Map([['persistentvolumeclaims.', 1], ['deployments.apps', 2]]), new Map([['kubernetes.io/pvc-protection', 1]]), TS);
  assert.deepEqual(
    first.map((c) => [c.type, c.status, c.reason, c.message]),
    [
      ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
      ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
      ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
      ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain', 'Some resources are remaining: deployments.apps has 2 resource instances, persistentvolumeclaims. has 1 resource instances'],
      ['NamespaceFinalizersRemaining', 'True', 'SomeFinalizersRemain', 'Some content in the namespace has finalizers remaining: kubernetes.io/pvc-protection in 1 resource instances'],
    ],
  );
  const later = deletionConditions(first, new Map([['persistentvolumeclaims.', 1]]), new Map([['kubernetes.io/pvc-protection', 1]]), '2026-12-02T10:05:00Z');
  assert.equal(later[3]!.lastTransitionTime, TS, 'message changed, status did not');
  const done = deletionConditions(later, new Map([['pods.', 1]]), new Map(), '2026-12-02T10:06:00Z');
  assert.deepEqual([done[4]!.status, done[4]!.lastTransitionTime], ['False', '2026-12-02T10:06:00Z']);
});

test('podUsesPVC: scheduled pods whatever their phase; an ephemeral claim until the pod is shut down', () => {
  const pod = (meta: Partial<Pod['metadata']>, nodeName: string | undefined, volumes: Pod['spec']['volumes']): Pod =>
    ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', ...meta }, spec: { containers: [], ...(nodeName ? { nodeName } : {}), volumes }, status: { phase: 'Succeeded' } }) as Pod;
  const claim = [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }];
  const eph = [{ name: 'v', ephemeral: {} }] as unknown as Pod['spec']['volumes'];
  const cases: { name: string; pod: Pod; claim: string; want: boolean }[] = [
    { name: 'scheduled, completed', pod: pod({}, 'w1', claim), claim: 'data', want: true },
    { name: 'not scheduled', pod: pod({}, undefined, claim), claim: 'data', want: false },
    { name: 'other claim', pod: pod({}, 'w1', claim), claim: 'logs', want: false },
    { name: 'ephemeral', pod: pod({}, 'w1', eph), claim: 'p-v', want: true },
    { name: 'ephemeral, pod shut down', pod: pod({ deletionTimestamp: TS, deletionGracePeriodSeconds: 0 }, 'w1', eph), claim: 'p-v', want: false },
  ];
  for (const c of cases) assert.equal(podUsesClaim(c.pod, c.claim), c.want, c.name);
});
