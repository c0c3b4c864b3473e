/**
 * hostname 3.23 on the hosts: `-I` lists every address of every interface but the loopback and
 * IPv6 link-local ones, IPv4 first, each followed by a space (what `ip addr` shows with scope global, as
 * hostname(1) says); `-d` of a name without a dot prints nothing, not even a newline; an unknown
 * option prints getopt's complaint on stderr and the usage on stdout with status 255
 * (testdata/hostname-usage.txt, recorded from Debian's hostname 3.23+nmu1: `hostname -x`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../session.js';

const USAGE = readFileSync(new URL('./testdata/hostname-usage.txt', import.meta.url), 'utf8');

test('hostname -I, -d and an unknown option on a node and the workstation', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const ws = await s.exec('hostname -I');
  const wsIp = s.cluster.host('cka-ws')!.ip;
  assert.deepEqual([ws.stdout, ws.exitCode], [`${wsIp} \n`, 0]);
  await s.exec('ssh cka-w1');
  // the addresses `ip addr` shows with scope global (lo's are scope host, link-local ones scope link)
  const global = (await s.exec('ip addr')).stdout.split('\n').flatMap((l) => /^ +(inet6?) (\S+)\/\d+ .*scope global/.exec(l) ?? []);
  const ips = (fam: string): string[] => global.flatMap((_, i) => (i % 3 === 1 && global[i] === fam ? [global[i + 1]!] : []));
  const want = [...ips('inet'), ...ips('inet6')].map((ip) => `${ip} `).join('');
  const cases = [
    { name: '-I', line: 'hostname -I', stdout: `${want}\n`, stderr: '', exitCode: 0 },
    { name: '--all-ip-addresses', line: 'hostname --all-ip-addresses', stdout: `${want}\n`, stderr: '', exitCode: 0 },
    { name: '-d without a domain', line: 'hostname -d', stdout: '', stderr: '', exitCode: 0 },
    { name: 'unknown option', line: 'hostname -x', stdout: USAGE, stderr: "hostname: invalid option -- 'x'\n", exitCode: 255 },
    { name: 'plain', line: 'hostname', stdout: 'cka-w1\n', stderr: '', exitCode: 0 },
  ];
  assert.ok(want.split(' ').length > 2, `a node has its NIC and the CNI's addresses: ${want}`);
  for (const c of cases) {
    const r = await s.exec(c.line);
    assert.deepEqual({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }, { stdout: c.stdout, stderr: c.stderr, exitCode: c.exitCode }, c.name);
  }
});
