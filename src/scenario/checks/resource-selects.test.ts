/** `resource` check `selects`: selectors graded by what they select, not by how they are written. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectsCandidate, valuesAt } from './resource.js';
import { CheckSchema } from '../schema.js';

const policy = {
  spec: {
    podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['db'] }] },
    egress: [
      { to: [{ podSelector: { matchLabels: { app: 'db' } } }] },
      {
        to: [
          {
            namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['kube-system'] }] },
            podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
          },
        ],
      },
    ],
  },
};

test('valuesAt walks dotted paths with [*] and [n]', () => {
  assert.equal(valuesAt(policy, 'spec.egress[*].to[*]').length, 2);
  assert.deepEqual(valuesAt(policy, 'spec.egress[0].to[0]'), [policy.spec.egress[0]!.to[0]]);
  assert.deepEqual(valuesAt(policy, 'spec.ingress[*].from[*]'), []);
  assert.deepEqual(valuesAt(policy, 'spec'), [policy.spec]);
});

test('matchExpressions and matchLabels select alike', () => {
  assert.equal(selectsCandidate(policy.spec, { podSelector: { app: 'db' } }, { podSelector: { app: 'frontend' } }), true);
  assert.equal(selectsCandidate({ podSelector: { matchLabels: { app: 'db' } } }, { podSelector: { app: 'db', extra: 'x' } }), true);
  assert.equal(selectsCandidate(policy.spec, { podSelector: { app: 'frontend' } }), false);
});

test('an empty or absent selector selects everything, so rejects catch it', () => {
  assert.equal(selectsCandidate({ podSelector: {} }, { podSelector: { app: 'db' } }, { podSelector: { app: 'web' } }), false);
  const nsOnly = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } };
  assert.equal(selectsCandidate(nsOnly, { podSelector: { 'k8s-app': 'kube-dns' } }, { podSelector: { 'k8s-app': 'other' } }), false);
});

test('a peer must satisfy every field at once', () => {
  const peers = valuesAt(policy, 'spec.egress[*].to[*]');
  const want = { namespaceSelector: { 'kubernetes.io/metadata.name': 'kube-system' }, podSelector: { 'k8s-app': 'kube-dns' } };
  assert.equal(peers.some((p) => selectsCandidate(p, want)), true);
  assert.equal(peers.some((p) => selectsCandidate(p, { ...want, podSelector: { 'k8s-app': 'other' } })), false);
});

test('selects needs a named target and no jsonpath', () => {
  const base = { id: 'x', description: 'x', kind: 'resource', selects: { path: 'spec', matches: { podSelector: { app: 'db' } } } };
  assert.equal(CheckSchema.safeParse({ ...base, target: { kind: 'NetworkPolicy', name: 'p' } }).success, true);
  assert.equal(CheckSchema.safeParse({ ...base, target: { kind: 'NetworkPolicy' } }).success, false);
  assert.equal(CheckSchema.safeParse({ ...base, target: { kind: 'NetworkPolicy', name: 'p' }, jsonpath: '{.spec}', expect: { equals: 'x' } }).success, false);
});
