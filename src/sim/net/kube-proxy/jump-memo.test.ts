/**
 * The jump rules' memo (sync.ts JUMP_BODIES): a full sync that finds its jump rules already there
 * parses none of them again, and one that misses a jump (deleted by hand, another family) still
 * puts back the very rule, where a sync with nothing remembered puts it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cloneState, findChain, newIptablesState, ownChain, type IptablesState } from '../iptables.js';
import { renderSave } from '../render.js';
import { ensureKubeletRules } from './kubelet-rules.js';
import { jumpRuleParses, syncProxyRules, type KubeProxyConfig } from './sync.js';

const CONFIG: KubeProxyConfig = { clusterCIDR: '10.244.0.0/16' };
const NODE = { name: 'jump-n1', ips: ['192.168.122.31'] };

function fullSync(st: IptablesState): void {
  const r = syncProxyRules(st, { services: [], endpointSlices: [], node: NODE, config: CONFIG });
  assert.equal(r.error, undefined);
}

function fresh(): IptablesState {
  const st = newIptablesState();
  ensureKubeletRules(st);
  return st;
}

test('jump memo: a full sync (of a state or of its copy) that finds its jumps parses none again', () => {
  const st = fresh();
  fullSync(st);
  const before = jumpRuleParses();
  fullSync(st);
  fullSync(cloneState(st));
  assert.equal(jumpRuleParses(), before, 'jump rules parsed again');
});

test('jump memo: a jump deleted by hand comes back as the same rule, at the top of its chain', () => {
  const want = fresh();
  fullSync(want);
  const st = fresh();
  fullSync(st);
  // a second state, both memos warm: delete KUBE-SERVICES' jump from nat PREROUTING
  const nat = st.tables.nat;
  assert.ok(nat);
  const pre = findChain(nat, 'PREROUTING');
  assert.ok(pre);
  const owned = ownChain(nat, pre);
  const at = owned.rules.findIndex((r) => r.target?.name === 'KUBE-SERVICES');
  assert.ok(at >= 0);
  owned.rules.splice(at, 1);
  const parses = jumpRuleParses();
  fullSync(st);
  assert.equal(jumpRuleParses(), parses + 1, 'only the missing jump is parsed');
  assert.equal(renderSave(st.tables, { now: 0 }), renderSave(want.tables, { now: 0 }));
});

test('jump memo: the ip6tables proxier gets its own family of jump rules', () => {
  const v6 = newIptablesState(['filter', 'nat', 'mangle'], 'ipv6');
  fullSync(v6);
  const save = renderSave(v6.tables, { now: 0 });
  assert.match(save, /-A INPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES/);
  const parses = jumpRuleParses();
  fullSync(v6);
  assert.equal(jumpRuleParses(), parses);
  assert.equal(renderSave(v6.tables, { now: 0 }), save);
});
