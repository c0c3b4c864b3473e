/**
 * The iptables chains kubelet creates on every node before kube-proxy starts.
 *
 * Emulates kubernetes pkg/kubelet/kubelet_network_linux.go (syncIPTablesRules): the
 * KUBE-IPTABLES-HINT chain in mangle (tells kube-proxy which iptables backend the host uses),
 * KUBE-KUBELET-CANARY in mangle, nat and filter, and KUBE-FIREWALL (filter) with the
 * route_localnet martian-packet DROP rule, jumped to from INPUT and OUTPUT (EnsureRule Prepend).
 * The kubelet runs this for both families (initNetworkUtil: an IPv4 and an IPv6 client); for IPv6
 * only the hint and the canaries: KUBE-FIREWALL is inside `if !iptClient.IsIPv6()` ("ipv6 doesn't
 * have this issue").
 */
import type { IptablesState, TableName } from '../iptables.js';
import { addUserChain, ensureTable, familyOfState, findChain, ownChain } from '../iptables.js';
import { formatRuleBody } from '../render.js';
import { parseRuleArgs } from '../rule-parse.js';

function ensureRule(state: IptablesState, table: TableName, chain: string, args: string[], position: 'append' | 'prepend'): void {
  const t = ensureTable(state, table);
  const c = findChain(t, chain);
  if (!c) return;
  const parsed = parseRuleArgs(args, { chainExists: (n) => findChain(t, n)?.builtin === false });
  if (!parsed.ok) return;
  const want = formatRuleBody(parsed.rule);
  if (c.rules.some((r) => formatRuleBody(r) === want)) return;
  const own = ownChain(t, c);
  if (position === 'append') own.rules.push(parsed.rule);
  else own.rules.unshift(parsed.rule);
}

/** Idempotently installs kubelet's chains and rules into a node's ruleset. */
export function ensureKubeletRules(state: IptablesState): void {
  addUserChain(ensureTable(state, 'mangle'), 'KUBE-IPTABLES-HINT');
  for (const t of ['mangle', 'nat', 'filter'] as const) addUserChain(ensureTable(state, t), 'KUBE-KUBELET-CANARY');
  if (familyOfState(state) === 'ipv6') return;
  addUserChain(ensureTable(state, 'filter'), 'KUBE-FIREWALL');
  ensureRule(
    state,
    'filter',
    'KUBE-FIREWALL',
    ['-m', 'comment', '--comment', 'block incoming localnet connections', '--dst', '127.0.0.0/8', '!', '--src', '127.0.0.0/8', '-m', 'conntrack', '!', '--ctstate', 'RELATED,ESTABLISHED,DNAT', '-j', 'DROP'],
    'append',
  );
  ensureRule(state, 'filter', 'OUTPUT', ['-j', 'KUBE-FIREWALL'], 'prepend');
  ensureRule(state, 'filter', 'INPUT', ['-j', 'KUBE-FIREWALL'], 'prepend');
}
