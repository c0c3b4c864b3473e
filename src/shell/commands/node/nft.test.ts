/**
 * `nft list …` and the edits (add/delete element, flush/delete chain, set, map, table) replayed
 * in order against the real nft 1.0.6's answers for the same table
 * (src/sim/net/testdata/nft-list/commands.txt, recorded by scripts/record-nft-list.mjs): stdout,
 * stderr and exit code of each command, each seeing what the edits before it left.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nftListCases } from '../../../testing/nft-list-cases.js';
import { newNftState } from '../../../sim/net/kube-proxy/nftables.js';
import { nftEdit, nftList } from './nft.js';

interface Recorded {
  cmd: string;
  stdout: string;
  stderr: string;
  exitCode: number;
}

function recorded(): Recorded[] {
  const text = readFileSync(new URL('../../../sim/net/testdata/nft-list/commands.txt', import.meta.url), 'utf8');
  const out: Recorded[] = [];
  for (const block of text.split(/^\$ nft /m).slice(1)) {
    const m = /^(.*)\n--- stdout\n([\s\S]*?)--- stderr\n([\s\S]*?)--- exit (\d+)\n$/.exec(block);
    assert.ok(m, `malformed block: ${block.slice(0, 40)}`);
    out.push({ cmd: m[1] ?? '', stdout: m[2] ?? '', stderr: m[3] ?? '', exitCode: Number(m[4]) });
  }
  return out;
}

test('nft commands against the recorded answers, in order', () => {
  const st = newNftState();
  st.tables = [nftListCases().find((c) => c.name === 'cluster')!.table];
  for (const r of recorded()) {
    const words = r.cmd.split(' ');
    const got = words[0] === 'list' ? nftList(words, st.tables, () => new Map()) : nftEdit(words, st);
    assert.deepEqual({ stdout: got.stdout, stderr: got.stderr, exitCode: got.exitCode }, { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }, `nft ${r.cmd}`);
  }
});
