/**
 * json-fnv.ts hashes a value's JSON text without making it: the same number as fnv32a of
 * JSON.stringify's text, for the port and endpoint infos kube-proxy fingerprints and for the odd
 * values a hand-written Service or EndpointSlice can put in them (escapes, non-ASCII, undefined
 * and non-finite numbers, nesting), so a saved session's fingerprints (NodeSync.fps) still match.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fnv32a } from '../../../util/fnv.js';
import { FNV_BASIS, fnvJson, fnvStr } from './json-fnv.js';
import { endpointsByPort, servicePorts } from './service-model.js';
import type { EndpointSlice, Service } from '../../api/types.js';

const same = (v: unknown): void => assert.equal(fnvJson(FNV_BASIS, v), fnv32a(JSON.stringify(v) ?? ''), JSON.stringify(v));

test('fnvJson is fnv32a of the JSON text', () => {
  const values: unknown[] = [
    '',
    'plain',
    'quote " and \\ backslash',
    'tab\tnewline\n\u0001ctl',
    'caf\u00e9 \u{1F600} \ud800 lone surrogate',
    0,
    -0,
    42,
    -1.5,
    1e21,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    false,
    null,
    [],
    {},
    [1, 'a', null, undefined, () => 1, [2, [3]], { x: 1 }],
    { b: 1, a: 'x', 2: 'int key first', 1: 'one', u: undefined, f: () => 0, n: null, nested: { arr: [{}, []] } },
    { 'k"ey': 'v\\', '\u00e9': [true] },
    { toJSON: () => 'custom' },
    new Date(0),
    [new Map(), new Set([1])],
  ];
  for (const v of values) same(v);
  // continued hashes: one value after another is the hash of the two texts joined
  assert.equal(fnvJson(fnvStr(FNV_BASIS, '[]'), { a: 1 }), fnv32a('[]{"a":1}'));
});

test('fnvJson of service port and endpoint infos', () => {
  const svc: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'prod' },
    spec: {
      type: 'LoadBalancer',
      clusterIP: '10.96.0.10',
      externalIPs: ['192.0.2.1'],
      loadBalancerSourceRanges: ['203.0.113.0/24'],
      externalTrafficPolicy: 'Local',
      sessionAffinity: 'ClientIP',
      ports: [{ name: 'http', port: 80, protocol: 'TCP', nodePort: 30080 }, { port: 53, protocol: 'UDP' }],
    },
    status: { loadBalancer: { ingress: [{ ip: '198.51.100.7' }] } },
  } as Service;
  for (const p of servicePorts(svc)) same(p);
  const slice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'web-x', namespace: 'prod', labels: { 'kubernetes.io/service-name': 'web' } },
    addressType: 'IPv4',
    endpoints: [
      { addresses: ['10.244.1.5'], conditions: { ready: true }, nodeName: 'n1' },
      { addresses: ['10.244.2.5'], conditions: { ready: false, serving: true, terminating: true }, nodeName: 'n2' },
    ],
    ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  } as EndpointSlice;
  for (const eps of endpointsByPort([slice], 'n1').values()) same(eps);
});
