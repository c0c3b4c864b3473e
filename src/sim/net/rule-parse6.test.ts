/**
 * ip6tables' rule forms: what the real ip6tables 1.8.9 (nf_tables) saves for each input, and the
 * errors it gives. Each `want` was checked against the real binary in a network namespace
 * (`ip6tables -A` then `ip6tables -S`, see scripts/record-ip6tables.mjs for the recorded goldens).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRuleArgs, tokenizeRuleLine } from './rule-parse.js';
import { formatRuleBody } from './render.js';

const chains = new Set(['KUBE-SVC-X', 'KUBE-MARK-MASQ', 'KUBE-SEP-X', 'KUBE-NODEPORTS']);
const opts = { chainExists: (n: string) => chains.has(n), family: 'ipv6' as const };

const cases: { input: string; want: string }[] = [
  { input: '-s fd00:0:0::1 -d FD00::/64 -p tcp -m tcp --dport 80 -j REJECT', want: ' -s fd00::1/128 -d fd00::/64 -p tcp -m tcp --dport 80 -j REJECT --reject-with icmp6-port-unreachable' },
  { input: '! -s ::1 -i eth0 -j KUBE-SVC-X', want: ' ! -s ::1/128 -i eth0 -j KUBE-SVC-X' },
  { input: '-m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL ! -d ::1/128 -j KUBE-NODEPORTS', want: ' ! -d ::1/128 -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS' },
  { input: '-p udp -m recent --name X --set -j DROP', want: ' -p udp -m recent --set --name X --mask ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff --rsource -j DROP' },
  { input: '-p ipv6-icmp -j ACCEPT', want: ' -p ipv6-icmp -j ACCEPT' },
  { input: '-p icmpv6 -j ACCEPT', want: ' -p ipv6-icmp -j ACCEPT' },
  { input: '-s 2001:db8::5/32 -j ACCEPT', want: ' -s 2001:db8::/32 -j ACCEPT' },
  { input: '-s ::ffff:1.2.3.4 -d fd00::1/ffff:ffff:: -j ACCEPT', want: ' -s ::ffff:1.2.3.4/128 -d fd00::/32 -j ACCEPT' },
  { input: '-d fd00::10/128 -p tcp -m tcp --dport 80 -j DNAT --to-destination [fd00::1:2]:8080', want: ' -d fd00::10/128 -p tcp -m tcp --dport 80 -j DNAT --to-destination [fd00::1:2]:8080' },
  { input: '-d fd00::11 -p tcp -j DNAT --to-destination fd00::1:3', want: ' -d fd00::11/128 -p tcp -j DNAT --to-destination fd00::1:3' },
  { input: '-j DNAT --to-destination FD00::0001:80', want: ' -j DNAT --to-destination fd00::1:80' },
  { input: '-j REJECT --reject-with port-unreach', want: ' -j REJECT --reject-with icmp6-port-unreachable' },
  { input: '-j REJECT --reject-with adm-prohibited', want: ' -j REJECT --reject-with icmp6-adm-prohibited' },
  { input: '-j MASQUERADE --random-fully', want: ' -j MASQUERADE --random-fully' },
];

for (const c of cases) {
  test(`ip6tables saves ${c.input}`, () => {
    const r = parseRuleArgs(tokenizeRuleLine(c.input), opts);
    assert.ok(r.ok, r.ok ? '' : r.message);
    if (r.ok) assert.equal(formatRuleBody(r.rule, false, 'ipv6'), c.want);
  });
}

const errors: { input: string; message: string }[] = [
  { input: '-s 10.0.0.1 -j ACCEPT', message: "host/network `10.0.0.1' not found" },
  { input: '-s fd00::/129 -j ACCEPT', message: "invalid mask `129' specified" },
  { input: '-s fd00::1 -f', message: "`-f' is not supported in IPv6, use -m frag instead" },
  { input: '-j REJECT --reject-with icmp-port-unreachable', message: 'unknown reject type "icmp-port-unreachable"' },
  { input: '-j DNAT --to-destination 10.0.0.1', message: 'Bad IP address "10.0.0.1"\n' },
];

for (const e of errors) {
  test(`ip6tables refuses ${e.input}`, () => {
    const r = parseRuleArgs(tokenizeRuleLine(e.input), opts);
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.message, e.message);
  });
}

test('iptables refuses an IPv6 address as ip6tables refuses an IPv4 one', () => {
  const r = parseRuleArgs(['-s', 'fd00::1', '-j', 'ACCEPT'], { chainExists: () => false });
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.message, "host/network `fd00::1' not found");
});
