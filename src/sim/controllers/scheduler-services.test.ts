/**
 * The scheduler's default spreading selector reads the Services selecting a pod (helper.DefaultSelector)
 * through an index of the namespace's Services by one selector pair (scheduler.ts selectingServices):
 * it must give what filtering every Service of the namespace gave, in store order, after any write.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import type { Labels, Service } from '../api/types.js';
import { matchMap } from '../api/selectors.js';
import { selectingServices } from './scheduler.js';

test('scheduler: the Services selecting a pod, through the selector index, after each write', () => {
  const c = loadFixture('kubeadm-calico');
  const svc = (name: string, selector?: Labels): Service => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { ...(selector ? { selector } : {}), ports: [{ port: 80 }] } }) as Service;
  const brute = (labels: Labels): string[] =>
    c.store.list<Service>('Service', 'default').filter((s) => s.spec.selector && Object.keys(s.spec.selector).length > 0 && matchMap(s.spec.selector, labels)).map((s) => s.metadata.name);
  const pods: Labels[] = [{ app: 'web' }, { app: 'web', tier: 'front' }, { tier: 'front' }, { app: 'db' }, {}];
  const check = (): void => {
    for (const labels of pods) assert.deepEqual(selectingServices(c, 'default', labels).map((s) => s.metadata.name), brute(labels), JSON.stringify(labels));
  };
  c.insert(svc('z-web', { app: 'web' }));
  c.insert(svc('a-front', { tier: 'front' }));
  c.insert(svc('m-both', { tier: 'front', app: 'web' }));
  c.insert(svc('headless'));
  c.insert(svc('empty', {}));
  check();
  assert.deepEqual(selectingServices(c, 'default', { app: 'web', tier: 'front' }).map((s) => s.metadata.name), ['a-front', 'm-both', 'z-web']);
  // a selector changed, a Service removed, one added: seen at the next question
  c.write({ ...c.store.get<Service>('Service', 'default', 'z-web')!, spec: { selector: { app: 'db' }, ports: [{ port: 80 }] } } as Service);
  c.store.remove('Service', 'default', 'a-front');
  c.insert(svc('b-web', { app: 'web' }));
  check();
  assert.deepEqual(selectingServices(c, 'default', { app: 'web', tier: 'front' }).map((s) => s.metadata.name), ['b-web', 'm-both']);
  assert.deepEqual(selectingServices(c, 'default', undefined), []);
});
