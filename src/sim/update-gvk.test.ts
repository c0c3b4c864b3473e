/**
 * An update whose body lacks apiVersion is stored with the endpoint's group and version, as on
 * create (found by `npm run fuzz -- --seeds 2`: an edited CronJob stored without one crashed every
 * later `kubectl get` of it and the CronJob controller's writes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { ApiServer } from './apiserver.js';
import { Session } from '../shell/session.js';
import type { KObject } from './api/types.js';

test('update: a body without apiVersion takes the resource\'s group and version', async () => {
  const c = loadFixture('kubeadm-calico');
  const s = new Session(c);
  assert.equal((await s.exec('kubectl create cronjob cj --image=busybox:1.36 --schedule="*/1 * * * *" -- sleep 3600')).exitCode, 0);
  const api = new ApiServer(c);
  const { apiVersion: _drop, ...body } = structuredClone(c.store.get<KObject>('CronJob', 'default', 'cj')!);
  api.update({ ...body, metadata: { ...body.metadata, labels: { edited: 'yes' } } } as unknown as KObject);
  assert.equal(c.store.get<KObject>('CronJob', 'default', 'cj')!.apiVersion, 'batch/v1');
  c.advance(70_000);
  const r = await s.exec('kubectl get cj,jobs -o wide');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /cronjob\.batch\/cj/);
});
