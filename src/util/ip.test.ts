import { test } from 'node:test';
import assert from 'node:assert/strict';
import ipaddr from 'ipaddr.js';
import { isIPv4 } from './ip.js';

test('isIPv4 answers as ipaddr.IPv4.isValidFourPartDecimal for every shape a host file or flag holds', () => {
  const parts = ['0', '1', '9', '10', '00', '01', '08', '255', '256', '0255', '999', '0x1', '0xff', '0XFF', 'a', '', ' 1', '1 ', '4294967295', '99999999999999999999'];
  const cases = [
    'localhost', 'cp', 'controlplane.local', '::1', 'fe80::1', '1.2.3', '1.2', '1', '4294967295', '0x7f000001', '1.2.3.4.5', '1.2.3.4\n', '\n1.2.3.4', '1.2.3.4 ', '１.2.3.4',
    '127.0.0.1', '192.168.122.11', '10.96.0.1', '255.255.255.255', '256.0.0.1', '01.2.3.4', '1.2.3.04', '1..2.3', '.1.2.3', '1.2.3.',
  ];
  for (const a of parts) for (const b of parts) cases.push(`${a}.${b}.3.4`, `1.2.${a}.${b}`);
  for (const s of cases) assert.equal(isIPv4(s), ipaddr.IPv4.isValidFourPartDecimal(s), JSON.stringify(s));
});
