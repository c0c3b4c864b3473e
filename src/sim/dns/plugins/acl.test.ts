/**
 * acl, ported from coredns v1.13.1 plugin/acl/acl_test.go TestACLServeDNS (the next handler is
 * whoami here, so "allowed" is a NOERROR answer) and setup_test.go TestSetup (with the error text
 * setup.go's c.Errf calls produce).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../../util/clock.js';
import { Random } from '../../../util/random.js';
import { staticClusterView } from '../cluster-view.js';
import { newQuery, type QType } from '../message.js';
import { startCoreDns } from '../server.js';

function start(keys: string, stanza: string) {
  return startCoreDns({
    corefile: `${keys} {\n    ${stanza}\n    whoami\n}\n`,
    readFile: () => undefined,
    view: staticClusterView({}),
    transport: () => 'timeout',
    clock: new ManualClock(0),
    random: new Random(1),
    podIp: '10.244.0.2',
  });
}

/** rcode, then the EDE if any, or "no reply" for a drop. */
function outcome(keys: string, stanza: string, qname: string, qtype: QType, ip: string): string {
  const r = start(keys, stanza);
  if (!r.ok) throw new Error(r.stderr);
  const m = r.server.query(newQuery(1, qname, qtype), { ip, port: 40000, proto: 'udp' });
  if (!m) return 'no reply';
  return m.edns?.ede !== undefined ? `${m.rcode} EDE ${m.edns.ede}` : m.rcode;
}

const BLOCKED = 'REFUSED EDE 15';
const cases: { name: string; keys?: string; config: string; domain: string; sourceIP: string; qtype: QType; want: string }[] = [
  { name: 'Blacklist 1 BLOCKED', config: 'acl example.org {\n block type A net 192.168.0.0/16\n }', domain: 'www.example.org.', sourceIP: '192.168.0.2', qtype: 'A', want: BLOCKED },
  { name: 'Blacklist 1 ALLOWED', config: 'acl example.org {\n block type A net 192.168.0.0/16\n }', domain: 'www.example.org.', sourceIP: '192.167.0.2', qtype: 'A', want: 'NOERROR' },
  { name: 'Blacklist 2 BLOCKED', config: 'acl example.org {\n block type * net 192.168.0.0/16\n }', domain: 'www.example.org.', sourceIP: '192.168.0.2', qtype: 'AAAA', want: BLOCKED },
  { name: 'Blacklist 3 BLOCKED', config: 'acl example.org {\n block type A\n }', domain: 'www.example.org.', sourceIP: '10.1.0.2', qtype: 'A', want: BLOCKED },
  { name: 'Blacklist 3 ALLOWED', config: 'acl example.org {\n block type A\n }', domain: 'www.example.org.', sourceIP: '10.1.0.2', qtype: 'AAAA', want: 'NOERROR' },
  { name: 'Blacklist 4 Single IP BLOCKED', config: 'acl example.org {\n block type A net 192.168.1.2\n }', domain: 'www.example.org.', sourceIP: '192.168.1.2', qtype: 'A', want: BLOCKED },
  { name: 'Blacklist 4 Single IP ALLOWED', config: 'acl example.org {\n block type A net 192.168.1.2\n }', domain: 'www.example.org.', sourceIP: '192.168.1.3', qtype: 'A', want: 'NOERROR' },
  { name: 'Filter 1 FILTERED', config: 'acl example.org {\n filter type A net 192.168.0.0/16\n }', domain: 'www.example.org.', sourceIP: '192.168.0.2', qtype: 'A', want: 'NOERROR EDE 17' },
  { name: 'Filter 1 ALLOWED', config: 'acl example.org {\n filter type A net 192.168.0.0/16\n }', domain: 'www.example.org.', sourceIP: '192.167.0.2', qtype: 'A', want: 'NOERROR' },
  { name: 'Whitelist 1 ALLOWED', config: 'acl example.org {\n allow net 192.168.0.0/16\n block\n }', domain: 'www.example.org.', sourceIP: '192.168.0.2', qtype: 'A', want: 'NOERROR' },
  { name: 'Whitelist 1 REFUSED', config: 'acl example.org {\n allow type * net 192.168.0.0/16\n block\n }', domain: 'www.example.org.', sourceIP: '10.1.0.2', qtype: 'A', want: BLOCKED },
  { name: 'Drop 1 DROPPED', config: 'acl example.org {\n drop net 192.168.0.0/16\n }', domain: 'www.example.org.', sourceIP: '192.168.0.2', qtype: 'A', want: 'no reply' },
  { name: 'Subnet-Order 1 REFUSED', config: 'acl example.org {\n block net 192.168.1.0/24\n drop net 192.168.0.0/16\n }', domain: 'www.example.org.', sourceIP: '192.168.1.2', qtype: 'A', want: BLOCKED },
  { name: 'Subnet-Order 2 DROPPED', config: 'acl example.org {\n drop net 192.168.0.0/16\n block net 192.168.1.0/24\n }', domain: 'www.example.org.', sourceIP: '192.168.1.1', qtype: 'A', want: 'no reply' },
  { name: 'Drop-Type 1 DROPPED', config: 'acl example.org {\n drop type A\n allow net 192.168.0.0/16\n }', domain: 'www.example.org.', sourceIP: '192.168.1.1', qtype: 'A', want: 'no reply' },
  { name: 'Drop-Type 2 ALLOWED', config: 'acl example.org {\n drop type A\n allow net 192.168.0.0/16\n }', domain: 'www.example.org.', sourceIP: '192.168.1.1', qtype: 'AAAA', want: 'NOERROR' },
  { name: 'Fine-Grained 1 REFUSED', keys: 'example.org', config: 'acl a.example.org {\n block type * net 192.168.1.0/24\n }', domain: 'a.example.org.', sourceIP: '192.168.1.2', qtype: 'A', want: BLOCKED },
  { name: 'Fine-Grained 1 ALLOWED', keys: 'example.org', config: 'acl a.example.org {\n block net 192.168.1.0/24\n }', domain: 'www.example.org.', sourceIP: '192.168.1.2', qtype: 'A', want: 'NOERROR' },
  { name: 'Fine-Grained 2 REFUSED', keys: 'example.org', config: 'acl example.org {\n block net 192.168.1.0/24\n }', domain: 'a.example.org.', sourceIP: '192.168.1.2', qtype: 'A', want: BLOCKED },
  { name: 'Fine-Grained 3 REFUSED', keys: 'example.org', config: 'acl a.example.org {\n block net 192.168.1.0/24\n }\n acl b.example.org {\n block type * net 192.168.2.0/24\n }', domain: 'b.example.org.', sourceIP: '192.168.2.2', qtype: 'A', want: BLOCKED },
  { name: 'Fine-Grained 3 ALLOWED', keys: 'example.org', config: 'acl a.example.org {\n block net 192.168.1.0/24\n }\n acl b.example.org {\n block net 192.168.2.0/24\n }', domain: 'b.example.org.', sourceIP: '192.168.1.2', qtype: 'A', want: 'NOERROR' },
  { name: 'Blacklist 1 BLOCKED IPv6', config: 'acl example.org {\n block type A net 2001:db8:abcd:0012::0/64\n }', domain: 'www.example.org.', sourceIP: '2001:db8:abcd:0012::1230', qtype: 'A', want: BLOCKED },
  { name: 'Blacklist 1 ALLOWED IPv6', config: 'acl example.org {\n block type A net 2001:db8:abcd:0012::0/64\n }', domain: 'www.example.org.', sourceIP: '2001:db8:abcd:0013::0', qtype: 'A', want: 'NOERROR' },
  { name: 'Blacklist 3 Single IP BLOCKED IPv6', config: 'acl example.org {\n block type A net 2001:0db8:85a3:0000:0000:8a2e:0370:7334\n }', domain: 'www.example.org.', sourceIP: '2001:0db8:85a3:0000:0000:8a2e:0370:7334', qtype: 'A', want: BLOCKED },
  { name: 'Blacklist 3 Single IP ALLOWED IPv6', config: 'acl example.org {\n block type A net 2001:0db8:85a3:0000:0000:8a2e:0370:7334\n }', domain: 'www.example.org.', sourceIP: '2001:0db8:85a3:0000:0000:8a2e:0370:7335', qtype: 'A', want: 'NOERROR' },
  { name: 'Subnet-Order 1 REFUSED IPv6', config: 'acl example.org {\n block net 2001:db8:abcd:0012:8000::/66\n drop net 2001:db8:abcd:0012::0/64\n }', domain: 'www.example.org.', sourceIP: '2001:db8:abcd:0012:8000::1', qtype: 'AAAA', want: BLOCKED },
  { name: 'Subnet-Order 2 DROPPED IPv6', config: 'acl example.org {\n drop net 2001:db8:abcd:0012::0/64\n block net 2001:db8:abcd:0012:8000::/66\n }', domain: 'www.example.org.', sourceIP: '2001:db8:abcd:0012:8000::1', qtype: 'AAAA', want: 'no reply' },
];

describe('acl ServeDNS (acl_test.go)', () => {
  for (const tc of cases)
    it(tc.name, () => {
      assert.equal(outcome(tc.keys ?? '.', tc.config, tc.domain, tc.qtype, tc.sourceIP), tc.want);
    });

  it('a block reply carries the request OPT size and EDE 15; without EDNS it is 4096 with DO', () => {
    const r = start('.', 'acl {\n block\n }');
    if (!r.ok) throw new Error(r.stderr);
    const client = { ip: '10.0.0.1', port: 1, proto: 'udp' as const };
    assert.deepEqual(r.server.query(newQuery(1, 'x.', 'A', { udpSize: 1232, do: false }), client)?.edns, { udpSize: 1232, do: false, ede: 15 });
    assert.deepEqual(r.server.query(newQuery(1, 'x.', 'A'), client)?.edns, { udpSize: 4096, do: true, ede: 15 });
  });
});

describe('acl setup (setup_test.go)', () => {
  const table: { name: string; config: string; err?: string }[] = [
    { name: 'Blacklist 4', config: 'acl {\n allow type * net 192.168.1.0/24\n block type * net 192.168.0.0/16\n }' },
    { name: 'Multiple Qtypes 1', config: 'acl example.org {\n block type TXT ANY CNAME net 192.168.3.0/24\n }' },
    { name: 'Blacklist 4 IPv6', config: 'acl {\n allow net 2001:db8:abcd:0012::0/64\n block net 2001:db8:abcd:0012::0/48\n }' },
    { name: 'Missing argument 1', config: 'acl {\n block A net 192.168.0.0/16\n }', err: `unexpected token "A"; expect 'type | net'` },
    { name: 'Missing argument 2', config: 'acl {\n block type net 192.168.0.0/16\n }', err: 'no token specified in "type" section' },
    { name: 'Illegal argument 1', config: 'acl {\n block type ABC net 192.168.0.0/16\n }', err: 'unexpected token "ABC"; expect legal QTYPE' },
    { name: 'Illegal argument 2', config: 'acl {\n blck type A net 192.168.0.0/16\n }', err: `unexpected token "blck"; expect 'allow', 'block', 'filter' or 'drop'` },
    { name: 'Illegal argument 3', config: 'acl {\n block type A net 192.168.0/16\n }', err: 'illegal CIDR notation "192.168.0/16"' },
    { name: 'Illegal argument 4', config: 'acl {\n block type A net 192.168.0.0/33\n }', err: 'illegal CIDR notation "192.168.0.0/33"' },
    { name: 'Illegal argument 1 IPv6', config: 'acl {\n block type A net 2001::85a3::8a2e:370:7334\n }', err: 'illegal CIDR notation "2001::85a3::8a2e:370:7334/128"' },
    { name: 'Illegal argument 2 IPv6', config: 'acl {\n block type A net 2001:db8:85a3:::8a2e:370:7334\n }', err: 'illegal CIDR notation "2001:db8:85a3:::8a2e:370:7334/128"' },
  ];
  for (const tc of table)
    it(tc.name, () => {
      const r = start('.', tc.config);
      if (tc.err === undefined) assert.equal(r.ok ? 'started' : r.stderr, 'started');
      else assert.equal(r.ok ? 'started' : r.stderr, `plugin/acl: /etc/coredns/Corefile:3 - Error during parsing: ${tc.err}\n`);
    });
});
