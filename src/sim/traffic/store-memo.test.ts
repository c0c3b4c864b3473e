/**
 * The Gateway's served listeners, attached routes and upstream lists are kept while the store's
 * generation stands (store-memo.ts): a second request builds none of them again, and a write to
 * the objects they are built from (a route deleted, a Deployment scaled to 0) is seen at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../../shell/session.js';
import { loadFixture } from '../../testing/fixtures.js';
import { gatewayConfigBuilds } from './gateway.js';
import { upstreamBuilds } from './ingress.js';
import { StoreMemo } from './store-memo.js';
import { Store } from '../api/store.js';

const SETUP = [
  'kubectl create ns shop',
  'kubectl -n shop create deployment pay --image=nginx:1.27 --port=80',
  'kubectl -n shop expose deployment pay --name=pay-service --port=8282 --target-port=80',
  `kubectl apply -f - <<'EOF'
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: web, namespace: shop}
spec:
  gatewayClassName: nginx
  listeners:
  - {name: http, protocol: HTTP, port: 80, hostname: "*.shop.example"}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: pay, namespace: shop}
spec:
  parentRefs: [{name: web, sectionName: http}]
  hostnames: [pay.shop.example]
  rules:
  - backendRefs: [{name: pay-service, port: 8282}]
EOF`,
];

test('a Gateway request builds the served listeners, routes and upstreams once per store generation', async () => {
  const c = loadFixture('kubeadm-calico-gateway');
  const s = new Session(c);
  for (const line of SETUP) assert.equal((await s.exec(line)).exitCode, 0, line);
  c.advance(30_000);
  const ip = (await s.exec('kubectl -n shop get gateway web -o jsonpath={.status.addresses[0].value}')).stdout;
  const curl = `curl -s -o /dev/null -w '%{http_code}' -H 'Host: pay.shop.example' http://${ip}/`;
  const fromNode = async (): Promise<string> => {
    assert.equal((await s.exec('ssh cka-w1')).exitCode, 0);
    const out = (await s.exec(curl)).stdout;
    assert.equal((await s.exec('exit')).exitCode, 0);
    return out;
  };
  assert.equal(await fromNode(), '200');
  const built = [gatewayConfigBuilds(), upstreamBuilds()];
  const generation = c.store.generation;
  assert.equal(await fromNode(), '200');
  assert.equal(c.store.generation, generation, 'the requests wrote nothing');
  assert.deepEqual([gatewayConfigBuilds(), upstreamBuilds()], built, 'a second request builds nothing again');
  // no ready endpoints: the upstream list is built again from the new EndpointSlice
  assert.equal((await s.exec('kubectl -n shop scale deployment pay --replicas=0')).exitCode, 0);
  c.advance(30_000);
  assert.equal(await fromNode(), '502');
  // the route gone: the listener's routes are built again, the default server answers 404
  assert.equal((await s.exec('kubectl -n shop delete httproute pay')).exitCode, 0);
  c.advance(5_000);
  assert.equal(await fromNode(), '404');
});

test('StoreMemo keeps a value per key until the store writes, per store, bounded', () => {
  const a = new Store();
  const b = new Store();
  const m = new StoreMemo<number>(2);
  let n = 0;
  const next = (): number => ++n;
  assert.equal(m.get(a, 'k', next), 1);
  assert.equal(m.get(a, 'k', next), 1);
  assert.equal(m.get(b, 'k', next), 2, 'another store has its own');
  a.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } });
  assert.equal(m.get(a, 'k', next), 3, 'a write makes it build again');
  m.get(a, 'j', next);
  m.get(a, 'i', next);
  assert.equal(m.get(a, 'k', next), 6, 'past the bound, the kept values are dropped');
  assert.equal(m.buildCount(), 6);
});
