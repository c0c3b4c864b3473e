/** The dns check reads rcode and answers back from the clients' real output formats (src/sim/dns/clients/testdata). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseDig, parseNslookup } from './dns.js';

const td = (name: string): string => readFileSync(new URL(`../../sim/dns/clients/testdata/${name}.txt`, import.meta.url), 'utf8');

const CASES: { file: string; parse: (s: string) => unknown; want: unknown }[] = [
  { file: 'dig-success', parse: parseDig, want: { rcode: 'NOERROR', answers: ['10.96.120.5'] } },
  { file: 'dig-nxdomain', parse: parseDig, want: { rcode: 'NXDOMAIN', answers: [] } },
  { file: 'dig-timeout', parse: parseDig, want: { rcode: 'TIMEOUT', answers: [] } },
  { file: 'busybox-success', parse: (s) => parseNslookup(s, 'A'), want: { rcode: 'NOERROR', answers: ['10.96.120.5'] } },
  { file: 'busybox-nxdomain', parse: (s) => parseNslookup(s, 'A'), want: { rcode: 'NXDOMAIN', answers: [] } },
  { file: 'busybox-servfail', parse: (s) => parseNslookup(s, 'A'), want: { rcode: 'SERVFAIL', answers: [] } },
  { file: 'busybox-nodata', parse: (s) => parseNslookup(s, 'A'), want: { rcode: 'NOERROR', answers: [] } },
  { file: 'busybox-timeout', parse: (s) => parseNslookup(s, 'A'), want: { rcode: 'TIMEOUT', answers: [] } },
  { file: 'bind9-success', parse: (s) => parseNslookup(s, 'A'), want: { rcode: 'NOERROR', answers: ['10.96.120.5'] } },
  { file: 'bind9-nxdomain', parse: (s) => parseNslookup(s, 'A'), want: { rcode: 'NXDOMAIN', answers: [] } },
];

for (const c of CASES) test(`parse ${c.file}`, () => assert.deepEqual(c.parse(td(c.file)), c.want));
