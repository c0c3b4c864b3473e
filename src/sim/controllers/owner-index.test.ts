/**
 * The namespace's objects by controller (owner-index.ts): each group and the claim's merge of a
 * controller's objects with the orphans keep store order, and a write to the namespace's objects
 * of the kind is seen at the next question.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../api/store.js';
import type { KObject } from '../api/types.js';
import { ownerIndex } from './owner-index.js';

function pod(name: string, owner?: string, ns = 'default'): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: `uid-${owner}`, controller: true }] } : {}) },
  } as KObject;
}

const names = (xs: readonly KObject[]): string[] => xs.map((o) => o.metadata.name);

test('owner index: groups and the claim merge in store order; a write is seen at once', () => {
  const s = new Store();
  for (const p of [pod('e', 'a'), pod('b'), pod('c', 'b'), pod('a', 'a'), pod('d'), pod('x', 'a', 'other')]) s.put(p);
  const ix = ownerIndex(s, 'Pod', 'default');
  assert.deepEqual(names(ix.all), ['a', 'b', 'c', 'd', 'e']);
  assert.deepEqual(names(ix.controlled('uid-a')), ['a', 'e']);
  assert.deepEqual(names(ix.orphans), ['b', 'd']);
  assert.deepEqual(names(ix.controlledOrOrphan('uid-a')), ['a', 'b', 'd', 'e']);
  assert.deepEqual(names(ix.controlledOrOrphan('uid-none')), ['b', 'd']);
  // an owner without a uid: the orphans, as isOwnedBy compares an absent uid with an absent controller
  assert.deepEqual(names(ix.controlled(undefined)), ['b', 'd']);
  // unchanged: the same index; another namespace's write does not change this one's
  assert.equal(ownerIndex(s, 'Pod', 'default'), ix);
  s.put(pod('y', 'a', 'other'));
  assert.equal(ownerIndex(s, 'Pod', 'default'), ix);
  // a pod adopted and one removed: seen at the next question
  s.put(pod('b', 'a'));
  s.remove('Pod', 'default', 'e');
  const next = ownerIndex(s, 'Pod', 'default');
  assert.deepEqual(names(next.controlled('uid-a')), ['a', 'b']);
  assert.deepEqual(names(next.controlledOrOrphan('uid-b')), ['c', 'd']);
});
