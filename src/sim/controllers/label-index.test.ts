/**
 * The pods a Service's selector matches, through the namespace's pod label index (label-index.ts):
 * what filtering every pod of the namespace gives, in store order, after each write.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../api/store.js';
import type { Labels, Pod } from '../api/types.js';
import { matchMap } from '../api/selectors.js';
import { podsSelected } from './label-index.js';

const pod = (name: string, labels?: Labels, ns = 'default'): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, ...(labels ? { labels } : {}) }, spec: { containers: [] } }) as unknown as Pod;

test('pod label index: the pods a selector matches, in store order, after each write', () => {
  const s = new Store();
  for (const p of [pod('d', { app: 'web', tier: 'front' }), pod('a', { app: 'web' }), pod('c', { tier: 'front' }), pod('b'), pod('e', { app: 'web' }, 'other')]) s.put(p);
  const selectors: Labels[] = [{ app: 'web' }, { tier: 'front' }, { tier: 'front', app: 'web' }, { app: 'db' }];
  const check = (): void => {
    for (const sel of selectors) {
      const brute = s.list<Pod>('Pod', 'default').filter((p) => matchMap(sel, p.metadata.labels)).map((p) => p.metadata.name);
      assert.deepEqual(podsSelected(s, 'default', sel).map((p) => p.metadata.name), brute, JSON.stringify(sel));
    }
  };
  check();
  assert.deepEqual(podsSelected(s, 'default', { app: 'web' }).map((p) => p.metadata.name), ['a', 'd']);
  // relabelled, removed, added: seen at the next question
  s.put(pod('a', { app: 'db' }));
  s.remove('Pod', 'default', 'd');
  s.put(pod('f', { tier: 'front', app: 'web' }));
  check();
  assert.deepEqual(podsSelected(s, 'default', { app: 'web' }).map((p) => p.metadata.name), ['f']);
  assert.throws(() => podsSelected(s, 'default', {}));
});
