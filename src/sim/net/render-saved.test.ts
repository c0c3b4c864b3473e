/**
 * iptables-save of a large table prints the text of its last save again when the table holds the
 * same chains and rule objects (render.ts SAVED_BODIES), and prints anew after any change: a rule
 * deleted, inserted or replaced, a chain renamed, a policy or its counters changed, a rule edited
 * on another copy of the ruleset.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newIptablesState, type IptablesState } from './iptables.js';
import { applyRestore } from './restore.js';
import { runIptables } from './iptables-cmd.js';
import { renderSave } from './render.js';

/** 5,000 rules in 1,000 chains (above the size whose saves are kept), as kube-proxy-like lines. */
function bigState(): IptablesState {
  const st = newIptablesState();
  const lines = ['*nat'];
  for (let i = 0; i < 1000; i++) lines.push(`:RS-${i} - [0:0]`);
  lines.push(...Array.from({ length: 1000 }, (_, i) => `-A PREROUTING -d 10.96.${i >> 8}.${i & 255}/32 -p tcp -m tcp --dport 80 -j RS-${i}`));
  for (let i = 0; i < 1000; i++) for (let j = 0; j < 4; j++) lines.push(`-A RS-${i} -s 10.244.${i >> 8}.${(i + j) & 255}/32 -j RETURN`);
  lines.push('COMMIT', '');
  assert.equal(applyRestore(st, lines.join('\n'), { noflush: true }).exitCode, 0);
  return st;
}

/** The save as printed line by line (below the size whose saves are kept: one chain at a time). */
function printedAnew(st: IptablesState): string {
  return renderSave(st.tables, { now: 0, counters: true }).replace(/^\[\d+:\d+\] /gm, '');
}

test('iptables-save: a large table saved again, on the same or another ruleset, prints the same text', () => {
  const a = bigState();
  const first = renderSave(a.tables, { now: 0 });
  assert.equal(first, printedAnew(a));
  assert.equal(renderSave(a.tables, { now: 0 }), first);
  const b = bigState();
  assert.equal(renderSave(b.tables, { now: 0 }), first);
});

test('iptables-save: a large table changed since its last save prints anew', () => {
  const st = bigState();
  const edits: string[][] = [
    ['-t', 'nat', '-D', 'RS-5', '1'],
    ['-t', 'nat', '-I', 'RS-6', '1', '-s', '10.0.0.1/32', '-j', 'RETURN'],
    ['-t', 'nat', '-R', 'RS-7', '1', '-s', '10.0.0.2/32', '-j', 'RETURN'],
    ['-t', 'nat', '-E', 'RS-8', 'RS-EIGHT'],
    ['-t', 'nat', '-P', 'PREROUTING', 'DROP'],
    ['-t', 'nat', '-A', 'RS-9', '-j', 'RETURN'],
    ['-t', 'nat', '-Z'],
  ];
  let before = renderSave(st.tables, { now: 0 });
  for (const e of edits) {
    assert.equal(runIptables(st, e).exitCode, 0, e.join(' '));
    const after = renderSave(st.tables, { now: 0 });
    assert.equal(after, printedAnew(st), e.join(' '));
    if (e[2] !== '-Z') assert.notEqual(after, before, e.join(' '));
    before = after;
  }
  assert.match(before, /^:PREROUTING DROP \[0:0\]$/m);
  assert.match(before, /^-A RS-EIGHT /m);
});
