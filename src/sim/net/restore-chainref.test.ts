/**
 * iptables-restore reads a known line's chain, and whether its jump's chain is there, on the refs
 * its writer declared them through (restore.ts ChainRef) only while the stamp is this
 * transaction's and nothing since changed the transaction's chains; otherwise it looks them up,
 * as for any line, and fails as the text would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findChain, newIptablesState } from './iptables.js';
import { ChainRef, applyRestoreLines, type KnownLine, type ParsedLine } from './restore.js';
import { parseRuleArgs } from './rule-parse.js';
import { renderSave } from './render.js';

/** `-A <chain> -j <target>` as a writer hands it over, built with the parse and the refs given. */
function known(chain: ChainRef, target: ChainRef | 'RETURN'): ParsedLine {
  const parsed = parseRuleArgs(['-j', typeof target === 'string' ? target : target.name], { chainExists: () => true });
  assert.ok(parsed.ok);
  const rule = Object.freeze({ ...parsed.rule, counters: Object.freeze({ packets: 0, bytes: 0 }) });
  const ref = typeof target === 'string' ? undefined : target;
  return { chain: chain.name, rule, needs: ref?.name, chainRef: chain, needsRef: ref };
}

function restore(lines: string[], told: KnownLine[], state = newIptablesState()): { state: ReturnType<typeof newIptablesState>; code: number; err: string } {
  const r = applyRestoreLines(state, lines, { noflush: true }, told);
  return { state, code: r.exitCode, err: r.stderr };
}

test("restore: a ref stamped by another ruleset's transaction is not this one's chain", () => {
  const a = new ChainRef('KUBE-REF-A');
  const first = restore(['*nat', ':KUBE-REF-A - [0:0]', 'COMMIT', ''], [undefined, a, undefined, undefined]);
  assert.equal(first.code, 0, first.err);
  // a second node: the ref holds the first node's chain, which this ruleset does not have
  const second = restore(['*nat', '-A KUBE-REF-A -j RETURN', 'COMMIT', ''], [undefined, known(a, 'RETURN'), undefined, undefined]);
  assert.equal(second.code, 2);
  assert.match(second.err, /Error occurred at line: 2/);
  assert.equal(findChain(second.state.tables.nat ?? { name: 'nat', chains: [] }, 'KUBE-REF-A'), undefined);
  // and the first node's chain was not written through it
  assert.deepEqual(findChain(first.state.tables.nat ?? { name: 'nat', chains: [] }, 'KUBE-REF-A')?.rules, []);
});

test('restore: a chain declared again by its text after its ref was stamped gets the appends', () => {
  const a = new ChainRef('KUBE-REF-A');
  const b = new ChainRef('KUBE-REF-B');
  const lines = ['*nat', ':KUBE-REF-A - [0:0]', ':KUBE-REF-B - [0:0]', ':KUBE-REF-A - [0:0]', '-A KUBE-REF-A -j KUBE-REF-B', 'COMMIT', ''];
  const r = restore(lines, [undefined, a, b, undefined, known(a, b), undefined, undefined]);
  assert.equal(r.code, 0, r.err);
  const save = renderSave(r.state.tables, { now: 0 });
  assert.match(save, /^-A KUBE-REF-A -j KUBE-REF-B$/m);
});

test('restore: a jump to a chain deleted after its ref was stamped fails as its text does', () => {
  const a = new ChainRef('KUBE-REF-A');
  const b = new ChainRef('KUBE-REF-B');
  const lines = ['*nat', ':KUBE-REF-A - [0:0]', ':KUBE-REF-B - [0:0]', '-X KUBE-REF-B', '-A KUBE-REF-A -j KUBE-REF-B', 'COMMIT', ''];
  const r = restore(lines, [undefined, a, b, undefined, known(a, b), undefined, undefined]);
  assert.equal(r.code, 2);
  assert.match(r.err, /Error occurred at line: 5/);
});
