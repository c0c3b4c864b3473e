import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointPort, EndpointSlice } from '../../api/types.js';
import { applyDefaults } from '../../api/defaults.js';
import { endpointsByPort } from './service-model.js';
import { deepFreeze } from '../../../util/json-copy.js';

function slice(ports: EndpointPort[]): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'web-abcde', namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.244.1.5'], conditions: { ready: true }, nodeName: 'cka-w1' }],
    ports,
  };
}

// pkg/proxy/endpointslicecache.go endpointInfoByServicePort: a port whose Name is nil is ignored
// ("Ignoring port with nil name"), as is one whose Port is nil or 0 ("Ignoring invalid endpoint
// port"); `name: ""` is the unnamed port of a single-port Service.
test('endpointsByPort: which slice ports kube-proxy keeps', () => {
  const cases: { name: string; ports: EndpointPort[]; keys: string[] }[] = [
    { name: 'empty name', ports: [{ name: '', port: 80, protocol: 'TCP' }], keys: ['default/web/tcp'] },
    { name: 'named', ports: [{ name: 'http', port: 80, protocol: 'TCP' }], keys: ['default/web:http/tcp'] },
    { name: 'no name key', ports: [{ port: 80, protocol: 'TCP' }], keys: [] },
    { name: 'no port key', ports: [{ name: '', protocol: 'TCP' }], keys: [] },
    { name: 'port 0', ports: [{ name: '', port: 0, protocol: 'TCP' }], keys: [] },
    { name: 'no protocol key (never stored: defaulted to TCP)', ports: [{ name: '', port: 80 }], keys: [] },
    { name: 'one bad port, one good', ports: [{ port: 81, protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }], keys: ['default/web:dns/udp'] },
  ];
  for (const k of cases) assert.deepEqual([...endpointsByPort([slice(k.ports)], 'cka-w1').keys()], k.keys, k.name);
});

// pkg/apis/discovery/v1/defaults.go SetDefaults_EndpointPort: what the API server stores, so a
// slice applied without a port name reaches kube-proxy as `name: ""`.
test('EndpointSlice ports are defaulted like the API server does (name "", protocol TCP)', () => {
  const s = slice([{ port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }]);
  applyDefaults(s);
  assert.deepEqual(s.ports, [{ name: '', port: 80, protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }]);
  assert.deepEqual([...endpointsByPort([s], 'cka-w1').keys()], ['default/web/tcp', 'default/web:dns/udp']);
});

// The node that runs some of a stored slice's endpoints sees them as the other nodes do, those
// local (isLocal, which decides nothing else): its view is made from theirs (service-model.ts
// localParts), sharing the other endpoints, and must be what computing it from the slice gives,
// duplicates included (the first non-terminating copy of an address wins, with its node).
test('endpointsByPort: a node with local endpoints of a stored slice sees what the slice gives, the others shared with the other nodes', () => {
  const s: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'web-abcde', namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
    addressType: 'IPv4',
    endpoints: [
      { addresses: ['10.244.2.9'], conditions: { ready: true }, nodeName: 'cka-w2' },
      { addresses: ['10.244.1.5'], conditions: { ready: false, serving: true, terminating: true }, nodeName: 'cka-w1' },
      { addresses: ['10.244.1.5'], conditions: { ready: true }, nodeName: 'cka-w2' },
      { addresses: ['10.244.1.7'], conditions: { ready: true }, nodeName: 'cka-w1' },
      { addresses: ['10.244.1.8'], conditions: { ready: true } },
    ],
    ports: [
      { name: 'http', port: 80, protocol: 'TCP' },
      { name: 'dns', port: 53, protocol: 'UDP' },
    ],
  };
  const stored = structuredClone(s);
  deepFreeze(stored);
  const other = endpointsByPort([stored], 'cka-cp');
  for (const node of ['cka-w1', 'cka-w2']) {
    const mine = endpointsByPort([stored], node);
    // the same text (the fingerprints hash it) as from the slice itself, which is not memoised
    assert.equal(JSON.stringify([...mine]), JSON.stringify([...endpointsByPort([structuredClone(s)], node)]), node);
    for (const [key, eps] of mine) {
      eps.forEach((e, i) => {
        const theirs = other.get(key)?.[i];
        if (e.isLocal) assert.notEqual(e, theirs, `${node} ${e.endpoint}`);
        else assert.equal(e, theirs, `${node} ${e.endpoint}: the very object`);
      });
    }
  }
  assert.deepEqual(
    endpointsByPort([stored], 'cka-w1').get('default/web:http/tcp')?.map((e) => `${e.endpoint} ${e.isLocal}`),
    ['10.244.1.5:80 false', '10.244.1.7:80 true', '10.244.1.8:80 false', '10.244.2.9:80 false'],
  );
});
