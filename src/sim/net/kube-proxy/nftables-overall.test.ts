/**
 * The whole `ip kube-proxy` table against upstream's own expectation: kubernetes
 * pkg/proxy/nftables/proxier_test.go TestOverallNFTablesRules (baseRules plus the six Services'
 * chains, rules, sets and elements), stored in testdata/nftables/overall.nft. Compared as sorted
 * lines, as the test's assertNFTablesTransactionEqual does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { overallNftablesObjects } from '../../../testing/proxy-objects.js';
import { newNftState } from './nftables.js';
import { dumpNftTable } from './nftables-tx.js';
import { syncNftables } from './nftables-sync.js';

const expected = readFileSync(new URL('./testdata/nftables/overall.nft', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l !== '' && !l.startsWith('#'))
  .sort();

test('TestOverallNFTablesRules: the table a full sync writes for six kinds of Service', () => {
  const { services, slices } = overallNftablesObjects();
  const t = syncNftables(newNftState(), {
    services,
    endpointSlices: slices,
    node: { name: 'test-node', ips: ['192.168.0.2'] },
    config: { mode: 'nftables', clusterCIDR: '10.0.0.0/8' },
    serviceCIDRs: ['172.30.0.0/16'],
  });
  // NewFakeProxier sets the mark as the literal "0x4000"; NewProxier formats it with %#08x (0x004000)
  const got = dumpNftTable(t)
    .map((l) => l.replaceAll('0x004000', '0x4000'))
    .sort();
  assert.deepEqual(got, expected);
});
