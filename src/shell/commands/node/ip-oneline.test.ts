/**
 * `ip -o` (`-oneline`), iproute2 6.1: a link's record on one line, its inner line break written as
 * `\`; `ip -o addr` prints one line per address, `INDEX: NAME` before it and no link line. The
 * loopback's lines are the same on every Linux host and were recorded from iproute2-6.1.0
 * (`ip -o addr show dev lo`, `ip -o link show dev lo`); every other line must be the
 * multi-line output's, joined the same way.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

test('ip -o addr and ip -o link: one line per address or link, joined by a backslash', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-w1');
  const run = async (line: string): Promise<string> => {
    const r = await s.exec(line);
    assert.deepEqual([r.stderr, r.exitCode], ['', 0], line);
    return r.stdout;
  };
  const cases = [
    { name: 'addr of lo', line: 'ip -o addr show dev lo', want: '1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n1: lo    inet6 ::1/128 scope host noprefixroute \\       valid_lft forever preferred_lft forever\n' },
    { name: '-oneline -4 of lo', line: 'ip -oneline -4 a show lo', want: '1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n' },
    { name: 'link of lo', line: 'ip -o link show dev lo', want: '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000\\    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n' },
  ];
  for (const c of cases) assert.equal(await run(c.line), c.want, c.name);
  // every address of the multi-line output, as one line each
  const full = await run('ip addr');
  const want: string[] = [];
  let head = '';
  const lines = full.split('\n');
  lines.forEach((l, i) => {
    const m = /^(\d+): ([^:@]+)[@:]/.exec(l);
    if (m) head = `${m[1]}: ${m[2]}`;
    else if (/^ {4}inet6? /.test(l)) want.push(`${head}${l}\\${lines[i + 1]}\n`);
  });
  assert.ok(want.length >= 4, full);
  assert.equal(await run('ip -o addr'), want.join(''));
  const links = (await run('ip link')).split('\n').filter(Boolean);
  assert.equal(await run('ip -o link'), links.map((l, i) => (i % 2 === 0 ? `${l}\\` : `${l}\n`)).join(''));
});
