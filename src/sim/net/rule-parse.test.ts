import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRuleArgs, tokenizeRuleLine } from './rule-parse.js';
import { formatRuleBody } from './render.js';

const chains = new Set(['KUBE-SVC-X', 'KUBE-MARK-MASQ', 'KUBE-SEP-X']);
const opts = { chainExists: (n: string) => chains.has(n) };

// Reference §5.2: restore syntax → iptables-save syntax.
const cases: { name: string; input: string; want: string }[] = [
  {
    name: 'kube-proxy cluster IP rule: -p moves to the header, /32 added, comment quoted',
    input: '-m comment --comment "ns/svc:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j KUBE-SVC-X',
    want: ' -d 172.30.0.41/32 -p tcp -m comment --comment "ns/svc:p80 cluster IP" -m tcp --dport 80 -j KUBE-SVC-X',
  },
  { name: 'one-word comment is quoted when it has / or :', input: '-m comment --comment ns/svc:p80 -s 10.180.0.1 -j KUBE-MARK-MASQ', want: ' -s 10.180.0.1/32 -m comment --comment "ns/svc:p80" -j KUBE-MARK-MASQ' },
  { name: 'bare comment stays bare', input: '-m comment --comment abc_D-9 -j ACCEPT', want: ' -m comment --comment abc_D-9 -j ACCEPT' },
  { name: 'quotes and backslashes escaped', input: `-m comment --comment "a \\"b\\" c" -j ACCEPT`, want: ' -m comment --comment "a \\"b\\" c" -j ACCEPT' },
  { name: 'implicit -m udp after -p udp --dport', input: '-p udp --dport 53 -j ACCEPT', want: ' -p udp -m udp --dport 53 -j ACCEPT' },
  { name: '-p tcp alone gets no -m tcp', input: '-p tcp -j ACCEPT', want: ' -p tcp -j ACCEPT' },
  { name: 'probability to 11 decimals (1/3)', input: '-m statistic --mode random --probability 0.3333333333 -j KUBE-SEP-X', want: ' -m statistic --mode random --probability 0.33333333349 -j KUBE-SEP-X' },
  { name: 'probability 0.2', input: '-m statistic --mode random --probability 0.2000000000 -j KUBE-SEP-X', want: ' -m statistic --mode random --probability 0.20000000019 -j KUBE-SEP-X' },
  { name: 'recent --rcheck canonical order', input: '-m recent --name KUBE-SEP-X --rcheck --seconds 10800 --reap -j KUBE-SEP-X', want: ' -m recent --rcheck --seconds 10800 --reap --name KUBE-SEP-X --mask 255.255.255.255 --rsource -j KUBE-SEP-X' },
  { name: 'recent --set', input: '-m recent --name KUBE-SEP-X --set -m tcp -p tcp -j DNAT --to-destination 10.1.2.3:80', want: ' -p tcp -m recent --set --name KUBE-SEP-X --mask 255.255.255.255 --rsource -m tcp -j DNAT --to-destination 10.1.2.3:80' },
  { name: 'MARK --or-mark', input: '-j MARK --or-mark 0x4000', want: ' -j MARK --set-xmark 0x4000/0x4000' },
  { name: 'MARK --xor-mark', input: '-j MARK --xor-mark 0x4000', want: ' -j MARK --set-xmark 0x4000/0x0' },
  { name: 'MARK --set-mark decimal', input: '-j MARK --set-mark 16', want: ' -j MARK --set-xmark 0x10/0xffffffff' },
  { name: 'mark match with mask', input: '-m mark ! --mark 0x4000/0x4000 -j RETURN', want: ' -m mark ! --mark 0x4000/0x4000 -j RETURN' },
  { name: 'REJECT default type', input: '-j REJECT', want: ' -j REJECT --reject-with icmp-port-unreachable' },
  { name: 'REJECT alias', input: '-j REJECT --reject-with host-prohib', want: ' -j REJECT --reject-with icmp-host-prohibited' },
  { name: 'conntrack states in fixed order', input: '-m conntrack ! --ctstate DNAT,ESTABLISHED,RELATED -j DROP', want: ' -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP' },
  { name: 'KUBE-FIREWALL header order -s before -d', input: '-m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP', want: ' ! -s 127.0.0.0/8 -d 127.0.0.0/8 -m comment --comment "block incoming localnet connections" -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP' },
  { name: 'nfacct two spaces', input: '-m conntrack --ctstate INVALID -m nfacct --nfacct-name ct_state_invalid_dropped_pkts -j DROP', want: ' -m conntrack --ctstate INVALID -m nfacct --nfacct-name  ct_state_invalid_dropped_pkts -j DROP' },
  { name: 'address masked to its network', input: '-s 10.1.2.3/8 -j ACCEPT', want: ' -s 10.0.0.0/8 -j ACCEPT' },
  { name: 'interfaces and negated dport', input: '-i eth0 ! -o cni0 -p tcp ! --dport 22 -j DROP', want: ' -i eth0 ! -o cni0 -p tcp -m tcp ! --dport 22 -j DROP' },
  { name: 'port range', input: '-p tcp --dport 30000:32767 -j ACCEPT', want: ' -p tcp -m tcp --dport 30000:32767 -j ACCEPT' },
  { name: 'service name port', input: '-p udp --dport domain -j ACCEPT', want: ' -p udp -m udp --dport 53 -j ACCEPT' },
  { name: 'MASQUERADE --random-fully', input: '-j MASQUERADE --random-fully', want: ' -j MASQUERADE --random-fully' },
  { name: 'no target', input: '-m comment --comment "other traffic"', want: ' -m comment --comment "other traffic"' },
  { name: 'goto chain', input: '-g KUBE-SVC-X', want: ' -g KUBE-SVC-X' },
  { name: 'DNAT --to alias', input: '-p tcp -j DNAT --to 10.0.0.1:8080', want: ' -p tcp -j DNAT --to-destination 10.0.0.1:8080' },
];

for (const c of cases) {
  test(`normalise: ${c.name}`, () => {
    const r = parseRuleArgs(tokenizeRuleLine(c.input), opts);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(formatRuleBody(r.rule), c.want);
  });
}

const errors: { name: string; input: string; want: string }[] = [
  { name: 'unknown target', input: '-j FOO', want: "Couldn't load target `FOO':No such file or directory\n" },
  { name: 'unknown match', input: '-m foo', want: "Couldn't load match `foo':No such file or directory\n" },
  { name: '--dport without -p', input: '--dport 80 -j ACCEPT', want: 'unknown option "--dport"' },
  { name: 'bad protocol', input: '-p foo', want: 'unknown protocol "foo" specified' },
  { name: 'bad address', input: '-s 10.0.0.300', want: "host/network `10.0.0.300' not found" },
  { name: 'bad port', input: '-p tcp --dport 99999', want: "invalid port/service `99999' specified" },
  { name: 'stray word', input: '-j ACCEPT extra', want: "Bad argument `extra'" },
  { name: 'recent without command', input: '-m recent --name X', want: "recent: you must specify one of `--set', `--rcheck' `--update' or `--remove'" },
  { name: 'duplicate option', input: '-p tcp --dport 1 --dport 2', want: 'tcp: option "--dport" can only be used once.\n' },
];

for (const c of errors) {
  test(`parse error: ${c.name}`, () => {
    const r = parseRuleArgs(tokenizeRuleLine(c.input), opts);
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.message, c.want);
  });
}

test('tokenizer keeps quoted words together and drops the quotes', () => {
  assert.deepEqual(tokenizeRuleLine('-A X -m comment --comment "a b" -j Y'), ['-A', 'X', '-m', 'comment', '--comment', 'a b', '-j', 'Y']);
});
