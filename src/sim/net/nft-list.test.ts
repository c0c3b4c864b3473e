/**
 * `nft list ruleset` of kube-proxy's table, byte for byte as the real nft 1.0.6 prints the same
 * table (testdata/nft-list/<case>.txt, recorded by scripts/record-nft-list.mjs from the batch
 * <case>.nft that src/testing/nft-list-cases.ts makes), and the element order nft sorts by.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nftListCases, creationBatch } from '../../testing/nft-list-cases.js';
import { elementOrder, listTable, nftDuration, priorityText } from './nft-list.js';

for (const c of nftListCases()) {
  test(`nft list ruleset: ${c.name}`, () => {
    const dir = new URL('./testdata/nft-list/', import.meta.url);
    // the recorded batch must still be the one this table makes, or the golden is stale
    assert.equal(creationBatch(c.table), readFileSync(new URL(`${c.name}.nft`, dir), 'utf8'), 're-record: node scripts/record-nft-list.mjs');
    assert.equal(listTable(c.table), readFileSync(new URL(`${c.name}.txt`, dir), 'utf8'));
  });
}

test('elementOrder: concatenations compare as little-endian bytes, addresses as numbers', () => {
  const cases: { name: string; type: string; keys: string[][]; want: string[] }[] = [
    {
      name: 'ip . proto . port (seen with nft 1.0.6)',
      type: 'ipv4_addr . inet_proto . inet_service',
      keys: [['10.96.0.10', 'tcp', '9153'], ['10.96.0.1', 'tcp', '443'], ['10.96.0.10', 'udp', '53'], ['10.96.0.10', 'tcp', '53']],
      want: ['10.96.0.10 . tcp . 53', '10.96.0.10 . udp . 53', '10.96.0.1 . tcp . 443', '10.96.0.10 . tcp . 9153'],
    },
    { name: 'addresses', type: 'ipv4_addr', keys: [['172.30.0.41'], ['10.96.0.10'], ['10.0.0.5'], ['10.96.0.1']], want: ['10.0.0.5', '10.96.0.1', '10.96.0.10', '172.30.0.41'] },
    { name: 'proto . port', type: 'inet_proto . inet_service', keys: [['udp', '30000'], ['tcp', '30001'], ['tcp', '30000']], want: ['tcp . 30000', 'udp . 30000', 'tcp . 30001'] },
  ];
  for (const tc of cases) {
    const got = tc.keys.map((key) => ({ key })).sort(elementOrder(tc.type)).map((e) => e.key.join(' . '));
    assert.deepEqual(got, tc.want, tc.name);
  }
});

test('priorityText and nftDuration: the names and units nft prints', () => {
  const cases: { priority: number; hook: string; want: string }[] = [
    { priority: -110, hook: 'prerouting', want: 'dstnat - 10' },
    { priority: -110, hook: 'output', want: '-110' },
    { priority: -100, hook: 'output', want: '-100' },
    { priority: 0, hook: 'output', want: 'filter' },
    { priority: 100, hook: 'postrouting', want: 'srcnat' },
  ];
  for (const tc of cases) assert.equal(priorityText(tc.priority, tc.hook), tc.want, `${tc.priority} ${tc.hook}`);
  assert.equal(nftDuration(10_800_000), '3h');
  assert.equal(nftDuration(10_799_996), '2h59m59s996ms');
});
