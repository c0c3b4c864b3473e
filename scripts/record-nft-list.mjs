#!/usr/bin/env node
/**
 * Re-records src/sim/net/testdata/nft-list/*.txt: what the real `nft list ruleset` prints for the
 * kube-proxy tables of src/testing/nft-list-cases.ts. Needs root, iproute2 and Debian's nftables
 * (nft 1.0.6): each case is loaded with `nft -f` into a fresh network namespace. The batch is kept
 * beside the golden (<case>.nft). For the `cluster` case it also records the other listing
 * commands and their errors (testdata/nft-list/commands.txt: `$ nft …`, stdout, stderr, exit
 * code), which src/shell/commands/node/nft.test.ts replays. Never run by the tests or the product.
 *
 *   apt-get install -y nftables iptables && node scripts/record-nft-list.mjs
 */
import { execFileSync, spawnSync } from 'node:child_process';

/** [seed, steps] of the replays (src/testing/nft-replay.ts). */
const REPLAYS = [
  [1, 40],
  [2, 40],
  [3, 40],
  [4, 40, true],
  [5, 40, true],
];

/** [seed, steps] of the iptables replays (src/testing/ipt-replay.ts). */
const IPT_REPLAYS = [
  [1, 30],
  [2, 30],
  [3, 30, true],
];

const COMMANDS = [
  'list tables',
  'list chains',
  'list sets',
  'list maps',
  'list table kube-proxy',
  'list chain ip kube-proxy services',
  'list chain ip kube-proxy filter-prerouting-pre-dnat',
  'list set ip kube-proxy cluster-ips',
  'list map ip kube-proxy service-ips',
  'list ruleset ip6',
  'list table ip foo',
  'list chain ip kube-proxy nope',
  'list map ip kube-proxy cluster-ips',
  'list bogus',
  'list table',
  'list',
  'list chain ip kube-proxy',
  'list set ip kube-proxy',
  'list table ip',
  'add element ip kube-proxy',
  'add element ip kube-proxy service-ips',
  'add element ip kube-proxy service-ips {',
  'flush chain ip kube-proxy',
  'delete table',
  'flush table ip kube-proxy extra',
  // edits, in order (each sees the table the ones before it left)
  'delete element ip kube-proxy service-ips { 172.30.0.10 . udp . 53 }',
  'delete element ip kube-proxy service-ips { 172.30.0.10 . udp . 53 }',
  'list map ip kube-proxy service-ips',
  'add element ip kube-proxy service-ips { 172.30.0.10 . udp . 53 }',
  'add element ip kube-proxy service-ips { 172.30.0.10 . udp . 53 : goto service-FY5PMXPG-kube-system/kube-dns/udp/dns }',
  'add element ip kube-proxy cluster-ips { 172.30.0.99, 172.30.0.98 }',
  'delete element ip kube-proxy cluster-ips { 172.30.0.98, 172.30.0.97 }',
  'list set ip kube-proxy cluster-ips',
  'delete chain ip kube-proxy services',
  'flush chain ip kube-proxy service-FY5PMXPG-kube-system/kube-dns/udp/dns',
  'list chain ip kube-proxy service-FY5PMXPG-kube-system/kube-dns/udp/dns',
  'delete chain ip kube-proxy service-FY5PMXPG-kube-system/kube-dns/udp/dns',
  'delete map ip kube-proxy service-ips',
  'flush map ip kube-proxy no-endpoint-services',
  'delete set ip kube-proxy nope',
  'flush table ip kube-proxy',
  'list chain ip kube-proxy services',
  'delete table ip kube-proxy',
  'list tables',
  'delete table ip kube-proxy',
];
import { mkdirSync, writeFileSync } from 'node:fs';

const out = new URL('../src/sim/net/testdata/nft-list/', import.meta.url);
mkdirSync(out, { recursive: true });
const json = execFileSync(
  process.execPath,
  ['--import', 'tsx', '--input-type=module', '-e', "import { nftListCases, creationBatch } from './src/testing/nft-list-cases.ts'; console.log(JSON.stringify(nftListCases().map((c) => ({ name: c.name, batch: creationBatch(c.table) }))));"],
  { cwd: new URL('..', import.meta.url), encoding: 'utf8', maxBuffer: 64 << 20 },
);
// kube-proxy's own batches, replayed: does the real kernel take each, and what table do they leave?
const replays = JSON.parse(
  execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', `import { nftReplay } from './src/testing/nft-replay.ts'; console.log(JSON.stringify(${JSON.stringify(REPLAYS)}.map(([seed, n, hand]) => ({ seed, n, hand: hand === true, batches: nftReplay(seed, n, hand === true).batches.map((b) => b.text) }))));`],
    { cwd: new URL('..', import.meta.url), encoding: 'utf8', maxBuffer: 256 << 20 },
  ),
);
for (const { seed, n, hand, batches } of replays) {
  const ns = `cka-nft-${process.pid}`;
  execFileSync('ip', ['netns', 'add', ns]);
  try {
    const rcs = batches.map((text) => spawnSync('ip', ['netns', 'exec', ns, 'nft', '-f', '-'], { input: text }).status);
    const listed = execFileSync('ip', ['netns', 'exec', ns, 'nft', 'list', 'table', 'ip', 'kube-proxy'], { encoding: 'utf8' });
    writeFileSync(new URL(`replay-${seed}-${n}${hand ? '-hand' : ''}.txt`, out), `# exit codes of the ${rcs.length} batches: ${rcs.join(' ')}\n${listed}`);
    console.log(`recorded replay ${seed}/${n}`);
  } finally {
    execFileSync('ip', ['netns', 'del', ns]);
  }
}
// and kube-proxy's iptables-restore inputs on the real iptables-nft (Debian's iptables 1.8.9)
const iptReplays = JSON.parse(
  execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', `import { iptReplay } from './src/testing/ipt-replay.ts'; console.log(JSON.stringify(${JSON.stringify(IPT_REPLAYS)}.map(([seed, n, hand]) => ({ seed, n, hand: hand === true, ...iptReplay(seed, n, hand === true) }))));`],
    { cwd: new URL('..', import.meta.url), encoding: 'utf8', maxBuffer: 256 << 20 },
  ),
);
for (const { seed, n, hand, start, restores } of iptReplays) {
  const ns = `cka-ipt-${process.pid}`;
  execFileSync('ip', ['netns', 'add', ns]);
  try {
    execFileSync('ip', ['netns', 'exec', ns, 'iptables-nft-restore'], { input: start });
    const rcs = restores.map(({ text }) => spawnSync('ip', ['netns', 'exec', ns, 'iptables-nft-restore', '-w', '5', '-W', '100000', '--noflush', '--counters'], { input: text }).status);
    const saved = execFileSync('ip', ['netns', 'exec', ns, 'iptables-nft-save'], { encoding: 'utf8' });
    const body = saved.split('\n').filter((l) => !l.startsWith('#')).join('\n');
    writeFileSync(new URL(`ipt-replay-${seed}-${n}${hand ? '-hand' : ''}.txt`, out), `# exit codes of the ${rcs.length} restores: ${rcs.join(' ')}\n${body}`);
    console.log(`recorded iptables replay ${seed}/${n}`);
  } finally {
    execFileSync('ip', ['netns', 'del', ns]);
  }
}
for (const { name, batch } of JSON.parse(json)) {
  const ns = `cka-nft-${process.pid}`;
  execFileSync('ip', ['netns', 'add', ns]);
  try {
    execFileSync('ip', ['netns', 'exec', ns, 'nft', '-f', '-'], { input: batch });
    const listed = execFileSync('ip', ['netns', 'exec', ns, 'nft', 'list', 'ruleset'], { encoding: 'utf8' });
    writeFileSync(new URL(`${name}.nft`, out), batch);
    writeFileSync(new URL(`${name}.txt`, out), listed);
    if (name === 'cluster') {
      let text = '';
      for (const cmd of COMMANDS) {
        const r = spawnSync('ip', ['netns', 'exec', ns, 'nft', ...cmd.split(' ')], { encoding: 'utf8' });
        text += `$ nft ${cmd}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}--- exit ${r.status}\n`;
      }
      writeFileSync(new URL('commands.txt', out), text);
    }
    console.log(`recorded ${name}`);
  } finally {
    execFileSync('ip', ['netns', 'del', ns]);
  }
}
