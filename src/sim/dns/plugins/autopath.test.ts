/**
 * autopath, from coredns v1.13.1 plugin/autopath/autopath_test.go (TestInSearchPath, the CNAME
 * of TestAutoPath) and setup_test.go, with the search path of plugin/kubernetes/autopath.go:
 * the client pod net/client (10.244.62.167) searches net.svc.cluster.local, svc.cluster.local,
 * cluster.local, then CoreDNS's own resolv.conf search list.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../../util/clock.js';
import { Random } from '../../../util/random.js';
import { newQuery, type QType } from '../message.js';
import { startCoreDns } from '../server.js';
import { showReply, testView, upstreamTransport } from '../test-fixture.js';
import { firstInSearchPath } from './autopath.js';

const RESOLV = 'search corp.example\nnameserver 192.168.122.1\n';

function start(autopath: string, pods: string) {
  return startCoreDns({
    corefile: `.:53 {\n    ${autopath}\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods ${pods}\n        fallthrough in-addr.arpa ip6.arpa\n        ttl 30\n    }\n    forward . /etc/resolv.conf\n}\n`,
    readFile: (p) => (p === '/etc/resolv.conf' ? RESOLV : undefined),
    view: testView(),
    transport: upstreamTransport(),
    clock: new ManualClock(0),
    random: new Random(3),
    podIp: '10.244.0.2',
  });
}

const CLIENT = '10.244.62.167';
const SOA = 'NS: cluster.local. 30 SOA ns.dns.cluster.local. hostmaster.cluster.local. 1718000000 7200 1800 86400 30';

describe('autopath @kubernetes', () => {
  const cases: { name: string; pods: string; qname: string; qtype?: QType; ip?: string; want: string }[] = [
    {
      name: 'a service of another namespace, asked with the first search suffix, is a CNAME to the real name',
      pods: 'verified',
      qname: 'web.default.svc.cluster.local.net.svc.cluster.local.',
      want: 'NOERROR aa=true; AN: web.default.svc.cluster.local.net.svc.cluster.local. 30 CNAME web.default.svc.cluster.local. | web.default.svc.cluster.local. 30 A 10.96.120.5',
    },
    {
      name: 'short name svc.ns expands through svc.cluster.local',
      pods: 'verified',
      qname: 'web.default.net.svc.cluster.local.',
      want: 'NOERROR aa=true; AN: web.default.net.svc.cluster.local. 30 CNAME web.default.svc.cluster.local. | web.default.svc.cluster.local. 30 A 10.96.120.5',
    },
    {
      name: 'an external name ends at the empty sentinel and is forwarded',
      pods: 'verified',
      qname: 'example.com.net.svc.cluster.local.',
      want: 'NOERROR aa=false; AN: example.com.net.svc.cluster.local. 300 CNAME example.com. | example.com. 300 A 93.184.215.14',
    },
    { name: 'a name outside the first search domain is untouched', pods: 'verified', qname: 'web.default.svc.cluster.local.', want: 'NOERROR aa=true; AN: web.default.svc.cluster.local. 30 A 10.96.120.5' },
    { name: 'nothing found anywhere returns the first reply', pods: 'verified', qname: 'nope.net.svc.cluster.local.', want: `NXDOMAIN aa=true; ${SOA}` },
    { name: 'a client that is no pod gets no autopath', pods: 'verified', ip: '10.0.0.9', qname: 'web.default.svc.cluster.local.net.svc.cluster.local.', want: `NXDOMAIN aa=true; ${SOA}` },
    { name: 'pods insecure: the kubernetes plugin gives no search path', pods: 'insecure', qname: 'web.default.svc.cluster.local.net.svc.cluster.local.', want: `NXDOMAIN aa=true; ${SOA}` },
  ];
  for (const tc of cases)
    it(tc.name, () => {
      const r = start('autopath @kubernetes', tc.pods);
      if (!r.ok) throw new Error(r.stderr);
      assert.equal(showReply(r.server.query(newQuery(1, tc.qname, tc.qtype ?? 'A'), { ip: tc.ip ?? CLIENT, port: 40000, proto: 'udp' })), tc.want);
    });
});

describe('autopath setup (setup_test.go)', () => {
  const table: { input: string; stderr?: string }[] = [
    { input: 'autopath @kubernetes' },
    { input: 'autopath cluster.local @kubernetes' },
    { input: 'autopath /etc/resolv.conf' },
    { input: 'autopath kubernetes', stderr: 'plugin/autopath: failed to parse "kubernetes": open kubernetes: no such file or directory' },
    { input: 'autopath', stderr: 'plugin/autopath: no resolv-conf specified' },
    { input: 'autopath @forward', stderr: 'plugin/autopath: forward does not implement the AutoPather interface' },
    { input: 'autopath @etcd' },
  ];
  for (const tc of table)
    it(tc.input, () => {
      const r = start(tc.input, 'verified');
      assert.equal(r.ok ? 'started' : r.stderr, tc.stderr === undefined ? 'started' : `${tc.stderr}\n`);
    });
});

describe('firstInSearchPath (TestInSearchPath)', () => {
  const search = ['default.svc.cluster.local.', 'svc.cluster.local.', 'cluster.local.'];
  for (const [qname, want] of [
    ['google.com', false],
    ['default.svc.cluster.local.', true],
    ['a.default.svc.cluster.local.', true],
    ['a.b.svc.cluster.local.', false],
  ] as const)
    it(qname, () => assert.equal(firstInSearchPath(qname, search), want));
});
