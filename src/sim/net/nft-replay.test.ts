/**
 * kube-proxy's own nftables batches against the real kernel: the batches of three random edit
 * sequences (src/testing/nft-replay.ts: full and partial syncs, stale chains flushed and deleted
 * later, affinity sets and firewall chains coming and going) were fed to the real nft 1.0.6 in a
 * network namespace (scripts/record-nft-list.mjs), two of them with hand edits the proxier does not
 * know about. Each batch the kernel accepted the simulator accepts too, each it refused (a partial
 * sync deleting what a hand edit removed) the simulator refuses, and the table they leave lists
 * byte for byte as the real one did.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nftReplay } from '../../testing/nft-replay.js';
import { listTable } from './nft-list.js';

for (const [seed, steps, hand] of [
  [1, 40, false],
  [4, 40, true],
  [5, 40, true],
] as const) {
  test(`nft replay: seed ${seed}, ${steps} syncs of random edits${hand ? ' and hand edits' : ''}, as the real kernel took them`, () => {
    const golden = readFileSync(new URL(`./testdata/nft-list/replay-${seed}-${steps}${hand ? '-hand' : ''}.txt`, import.meta.url), 'utf8');
    const [head = '', ...rest] = golden.split('\n');
    const rcs = head.replace(/^# exit codes of the \d+ batches: /, '').split(' ').map(Number);
    const r = nftReplay(seed, steps, hand);
    assert.deepEqual(r.batches.map((b) => (b.ok ? 0 : 1)), rcs);
    assert.ok(r.table, 'the table is there');
    assert.equal(listTable(r.table), rest.join('\n'));
  });
}
