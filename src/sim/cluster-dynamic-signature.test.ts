/**
 * The part of a signature a controller's dynamic watches of single objects make is kept while
 * the counters of their kinds stand (Cluster.dynamicSignature): the objects are not looked up
 * again at each signature, and a write of a watched object (or of one that was missing) still
 * wakes the controller, as the lookup did.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Cluster, type Controller } from './cluster.js';
import { ManualClock } from '../util/clock.js';
import { Random } from '../util/random.js';
import type { KObject } from './api/types.js';

const cm = (name: string, v: string): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { v } }) as KObject;

test('a dynamic watch of objects is not looked up again while their kinds stand, and still wakes its controller', () => {
  const runs = { r: 0 };
  const list = ['ConfigMap@default/a', 'ConfigMap@default/b'];
  const controllers: Controller[] = [
    // its list follows the Pods, so a Pod write builds its signature again
    { name: 'r', watches: ['Pod'], dynamicInputs: ['Pod'], dynamicWatches: () => list, reconcile: () => void runs.r++ },
  ];
  const c = new Cluster({ clock: new ManualClock(0), random: new Random([1, 2, 3, 4]), meta: loadFixture('kubeadm-calico').meta, controllers });
  c.insert(cm('a', '1'));
  c.settle();
  assert.equal(runs.r, 1);
  const get = c.store.get.bind(c.store);
  let lookups = 0;
  c.store.get = ((kind: string, ns: string | undefined, name: string) => {
    if (kind === 'ConfigMap') lookups++;
    return get(kind, ns, name);
  }) as typeof c.store.get;
  const pod = (name: string): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [] } }) as KObject;
  c.insert(pod('p1'));
  c.settle();
  c.insert(pod('p2'));
  c.settle();
  assert.equal(runs.r, 3, 'each Pod write runs it');
  assert.equal(lookups, 0, 'no ConfigMap was looked up: none was written');
  // the missing one is created: its version moves from `-`, the controller runs
  c.insert(cm('b', '1'));
  c.insert(pod('p3'));
  c.settle();
  assert.equal(runs.r, 4);
  assert.equal(lookups, 2, 'looked up again once, after the ConfigMap write');
  // a watched one is written: looked up again and run; the Pod write alone after it is not looked up
  c.write({ ...c.store.get('ConfigMap', 'default', 'a')!, data: { v: '2' } } as KObject);
  c.insert(pod('p4'));
  c.settle();
  assert.equal(runs.r, 5);
  assert.equal(lookups, 6);
  c.insert(pod('p5'));
  c.settle();
  assert.equal(runs.r, 6);
  assert.equal(lookups, 6);
});
