/**
 * A sync whose payload would change nothing but the ruleset's revision is not restored again
 * (sync.ts restoresNothing): the ruleset after it, counters and revision included, is what
 * restoring the payload gives; and anything that could make a second restore differ (a counted
 * rule, someone's write, a chain added behind the revision's back, a payload that deletes a
 * chain) makes the sync restore.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterIPService, endpointSlice } from '../../../testing/proxy-objects.js';
import { addUserChain, findChain, newIptablesState, type IptablesState } from '../iptables.js';
import { runIptables } from '../iptables-cmd.js';
import { renderSave } from '../render.js';
import { applyRestore } from '../restore.js';
import { ensureKubeletRules } from './kubelet-rules.js';
import { restoresFoundUnchanged, syncProxyRules, type KubeProxyConfig, type KubeProxyInput, type SyncResult } from './sync.js';

const CONFIG: KubeProxyConfig = { clusterCIDR: '10.244.0.0/16', randomFully: true };
const NODE = { name: 'node01', ips: ['192.168.1.11'] };

function objects(): Pick<KubeProxyInput, 'services' | 'endpointSlices'> {
  return {
    services: [clusterIPService('default', 'web', '10.96.0.10', 'http', 80), clusterIPService('default', 'api', '10.96.0.11', 'http', 8080)],
    endpointSlices: [endpointSlice('default', 'web', 'http', 80, ['10.244.1.5', '10.244.2.6']), endpointSlice('default', 'api', 'http', 8080, ['10.244.1.7'])],
  };
}

function freshState(): IptablesState {
  const st = newIptablesState();
  ensureKubeletRules(st);
  return st;
}

function saved(st: IptablesState): string {
  return `${renderSave(st.tables, { now: 0, counters: true })}rev ${st.rev ?? 0}\n`;
}

/**
 * A partial sync of `st` after `last`, checked against restoring its payload into a copy of the
 * ruleset as it was before: the same ruleset and revision. Returns the sync and whether its
 * restore was skipped.
 */
function partialSync(st: IptablesState, input: Pick<KubeProxyInput, 'services' | 'endpointSlices'>, last: SyncResult): { r: SyncResult; skipped: boolean } {
  const before = structuredClone(st);
  const skips = restoresFoundUnchanged();
  const r = syncProxyRules(st, { ...input, node: NODE, config: CONFIG, previous: last.fingerprints as ReadonlyMap<string, number> });
  assert.equal(r.error, undefined);
  assert.equal(applyRestore(before, r.payload, { noflush: true, counters: false }).exitCode, 0);
  assert.equal(saved(st), saved(before));
  return { r, skipped: restoresFoundUnchanged() > skips };
}

function synced(): { st: IptablesState; input: Pick<KubeProxyInput, 'services' | 'endpointSlices'>; last: SyncResult } {
  const st = freshState();
  const input = objects();
  const last = syncProxyRules(st, { ...input, node: NODE, config: CONFIG });
  assert.equal(last.error, undefined);
  return { st, input, last };
}

test('restore again: a partial sync with nothing changed bumps the revision only, without restoring', () => {
  const { st, input, last } = synced();
  // the first partial sync writes the top-level chains as the full one did: after it, the same payload again
  const first = partialSync(st, input, last);
  const second = partialSync(st, input, first.r);
  assert.equal(second.skipped, true);
  const third = partialSync(st, input, second.r);
  assert.equal(third.skipped, true);
  assert.equal(third.r.payload, second.r.payload);
});

test('restore again: a counted rule in a chain the payload declares is zeroed by a restore, as iptables-restore does', () => {
  const { st, input, last } = synced();
  const first = partialSync(st, input, last);
  // the packet path counts in place (packet.ts bump), without a write
  const nat = st.tables.nat;
  const svcRule = nat && findChain(nat, 'KUBE-SERVICES')?.rules[0];
  assert.ok(svcRule);
  if (Object.isFrozen(svcRule.counters)) {
    const chain = findChain(nat, 'KUBE-SERVICES');
    assert.ok(chain && !Object.isFrozen(chain));
    chain.rules[0] = { ...svcRule, counters: { packets: 3, bytes: 180 } };
  } else svcRule.counters.packets = 3;
  const again = partialSync(st, input, first.r);
  assert.equal(again.skipped, false);
  const after = st.tables.nat;
  assert.ok(after);
  assert.equal(findChain(after, 'KUBE-SERVICES')?.rules[0]?.counters.packets, 0);
});

test("restore again: someone's rule in a declared chain (a write) is flushed by the next sync", () => {
  const { st, input, last } = synced();
  const first = partialSync(st, input, last);
  assert.equal(runIptables(st, ['-t', 'nat', '-A', 'KUBE-SERVICES', '-d', '10.96.0.99/32', '-j', 'RETURN']).exitCode, 0);
  const again = partialSync(st, input, first.r);
  assert.equal(again.skipped, false);
  assert.doesNotMatch(saved(st), /10\.96\.0\.99/);
});

test('restore again: a chain added without a write (no new revision) makes the sync restore', () => {
  const { st, input, last } = synced();
  const first = partialSync(st, input, last);
  const filter = st.tables.filter;
  assert.ok(filter);
  addUserChain(filter, 'KUBE-EXTRA');
  const again = partialSync(st, input, first.r);
  assert.equal(again.skipped, false);
});

test('restore again: a payload that deletes a stale chain is restored, and the one after it is not', () => {
  const { st, input, last } = synced();
  const first = partialSync(st, input, last);
  // a Service goes away: its chains are stale, declared and deleted (`-X`) by the next sync
  const fewer = { services: input.services.slice(0, 1), endpointSlices: input.endpointSlices.slice(0, 1) };
  const gone = partialSync(st, fewer, first.r);
  assert.match(gone.r.payload, /^-X /m);
  assert.equal(gone.skipped, false);
  const after = partialSync(st, fewer, gone.r);
  assert.doesNotMatch(after.r.payload, /^-X /m);
  // (this one still writes the deleted Service's top-level rules away: only the next is the same again)
  const quiet = partialSync(st, fewer, after.r);
  assert.equal(quiet.skipped, true);
});
