/**
 * iptables-nft's tables as `nft list ruleset` shows them, byte for byte against the real tools:
 * each testdata/nft-xlate/<case>.save (a node's iptables-save from the simulator, or the
 * hand-written probe.save of every rule form) was loaded with the real iptables-nft-restore 1.8.9
 * and listed with the real nft 1.0.6 (<case>.txt, warnings in <case>.stderr; re-record with
 * scripts/record-nft-xlate.mjs). Here the simulator's own restore parses the same input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import type { IptablesState } from './iptables.js';
import { applyRestore } from './restore.js';
import { iptablesNftTables, iptablesNftWarnings, renderListedTables } from './nft-xlate.js';

const dir = new URL('./testdata/nft-xlate/', import.meta.url);
const read = (f: string): string => readFileSync(new URL(f, dir), 'utf8');

for (const file of readdirSync(dir).filter((f) => f.endsWith('.save')).sort()) {
  const name = file.slice(0, -'.save'.length);
  test(`nft list ruleset of iptables-nft's tables: ${name}`, () => {
    const st: IptablesState = { tables: {} };
    const r = applyRestore(st, read(file), { counters: true });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(renderListedTables(iptablesNftTables(st)), read(`${name}.txt`));
    assert.equal(iptablesNftWarnings(st), read(`${name}.stderr`));
  });
}

test('a table the ruleset never touched is not listed', () => {
  const st: IptablesState = { tables: {} };
  applyRestore(st, '*nat\n:POSTROUTING ACCEPT [0:0]\n-A POSTROUTING -o eth0 -j ACCEPT\nCOMMIT\n');
  const tables = iptablesNftTables(st);
  assert.deepEqual(tables.map((t) => t.name), ['nat']);
  assert.equal(iptablesNftWarnings(st), '', 'only native expressions: nft has nothing to warn about');
});
