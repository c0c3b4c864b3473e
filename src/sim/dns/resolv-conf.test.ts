import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podResolvConf, parseResolvConf, type PodDnsInput } from './resolv-conf.js';

const base: PodDnsInput = {
  namespace: 'net',
  clusterDNS: ['10.96.0.10'],
  clusterDomain: 'cluster.local',
  nodeResolvConf: 'nameserver 192.168.122.1\n',
};

const cases: { name: string; input: Partial<PodDnsInput>; text: string; events?: string[] }[] = [
  {
    name: 'ClusterFirst (seed 000)',
    input: {},
    text: 'search net.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
  },
  { name: 'Default = the node file (seed 000)', input: { dnsPolicy: 'Default' }, text: 'nameserver 192.168.122.1\n' },
  { name: 'ClusterFirst + hostNetwork falls back to Default', input: { hostNetwork: true }, text: 'nameserver 192.168.122.1\n' },
  {
    name: 'ClusterFirstWithHostNet',
    input: { dnsPolicy: 'ClusterFirstWithHostNet', hostNetwork: true },
    text: 'search net.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
  },
  {
    name: 'None with dnsConfig (seed 000)',
    input: { dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'], searches: ['example.internal'], options: [{ name: 'ndots', value: '2' }] } },
    text: 'search example.internal\nnameserver 1.1.1.1\noptions ndots:2\n',
  },
  {
    name: 'node searches appended, node options not inherited',
    input: { nodeResolvConf: 'search lab.example.\noptions edns0\nnameserver 192.168.122.1\n' },
    text: 'search net.svc.cluster.local svc.cluster.local cluster.local lab.example\nnameserver 10.96.0.10\noptions ndots:5\n',
  },
  {
    name: 'dnsConfig merged on top: ndots overridden, bare option, dedupe',
    input: { dnsConfig: { nameservers: ['8.8.8.8'], searches: ['svc.cluster.local', 'x.example'], options: [{ name: 'ndots', value: '2' }, { name: 'single-request' }] } },
    text: 'search net.svc.cluster.local svc.cluster.local cluster.local x.example\nnameserver 10.96.0.10\nnameserver 8.8.8.8\noptions ndots:2 single-request\n',
  },
  {
    name: 'at most 3 nameservers',
    input: { dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'] } },
    text: 'nameserver 1.1.1.1\nnameserver 2.2.2.2\nnameserver 3.3.3.3\n',
    events: ['DNSConfigForming: Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 1.1.1.1 2.2.2.2 3.3.3.3'],
  },
  { name: 'kubelet resolvConf ""', input: { dnsPolicy: 'Default', nodeResolvConf: undefined }, text: 'search .\nnameserver 127.0.0.1\n' },
];

describe('podResolvConf', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const r = podResolvConf({ ...base, ...tc.input });
      assert.equal(r.text, tc.text);
      assert.deepEqual(r.events.map((e) => `${e.reason}: ${e.message}`), tc.events ?? []);
    });
  }
});

describe('parseResolvConf', () => {
  it('accumulates nameservers, last search and options win, comments ignored', () => {
    assert.deepEqual(parseResolvConf('# x\nnameserver 1.1.1.1\nsearch a.\nsearch b c\nnameserver 2.2.2.2 ; y\noptions ndots:1\noptions ndots:3\n'), {
      nameservers: ['1.1.1.1', '2.2.2.2'],
      searches: ['b', 'c'],
      options: ['ndots:3'],
    });
  });
});
