/**
 * kube-proxy's iptables-restore inputs against the real iptables-nft: the restores of two random
 * edit sequences (src/testing/ipt-replay.ts: full and partial syncs, stale chains deleted, large
 * cluster mode switched on and off, one with KUBE-SVC chains flushed by hand) were fed to
 * Debian's iptables 1.8.9 (nf_tables) in a network namespace after the node's starting rules
 * (scripts/record-nft-list.mjs). The real restore took
 * each input the simulator took, and its iptables-save at the end, comments aside, is the
 * simulator's byte for byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { iptReplay } from '../../testing/ipt-replay.js';

for (const [seed, steps, hand] of [
  [1, 30, false],
  [3, 30, true],
] as const) {
  test(`iptables replay: seed ${seed}, ${steps} syncs of random edits${hand ? ' and flushed KUBE-SVC chains' : ''}, as the real iptables-restore took them`, () => {
    const golden = readFileSync(new URL(`./testdata/nft-list/ipt-replay-${seed}-${steps}${hand ? '-hand' : ''}.txt`, import.meta.url), 'utf8');
    const [head = '', ...rest] = golden.split('\n');
    const rcs = head.replace(/^# exit codes of the \d+ restores: /, '').split(' ').map(Number);
    const r = iptReplay(seed, steps, hand);
    assert.deepEqual(r.restores.map((x) => (x.ok ? 0 : 1)), rcs);
    assert.equal(r.save, rest.join('\n'));
  });
}
