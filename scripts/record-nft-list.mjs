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
import { execFileSync, spawn, spawnSync } from 'node:child_process';

/** [seed, steps] of the replays (src/testing/nft-replay.ts). */
const REPLAYS = [
  [1, 40],
  [4, 40, true],
  [5, 40, true],
];

/** [seed, steps] of the iptables replays (src/testing/ipt-replay.ts). */
const IPT_REPLAYS = [
  [1, 30],
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
// connections from a pod through the overall table on a real node namespace (src/testing/nft-flows.ts)
{
  const { FLOW_CASES, NODE_FLOW_CASES } = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "import { FLOW_CASES, NODE_FLOW_CASES } from './src/testing/nft-flows.ts'; console.log(JSON.stringify({ FLOW_CASES, NODE_FLOW_CASES }));"], { cwd: new URL('..', import.meta.url), encoding: 'utf8' }),
  );
  const overall = JSON.parse(json).find((c) => c.name === 'overall').batch;
  const sh = (cmd) => execFileSync('bash', ['-c', cmd], { encoding: 'utf8' });
  const [kn, kp, ke] = ['node', 'pod', 'eps'].map((x) => `cka-${x}-${process.pid}`);
  const server = `import socket, threading
def serve(ip):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind((ip, 80)); s.listen(16)
    while True:
        c, a = s.accept(); c.sendall(f"{ip}:80 from {a[0]}\\n".encode()); c.close()
for i in range(1, 6): threading.Thread(target=serve, args=(f"10.180.0.{i}",), daemon=True).start()
threading.Event().wait()`;
  const client = `import socket, sys
s = socket.socket(); s.settimeout(0.5)
try:
    s.connect((sys.argv[1], int(sys.argv[2]))); print(s.recv(100).decode().strip())
except ConnectionRefusedError: print("REFUSED")
except socket.timeout: print("TIMEOUT")
except OSError as e: print("ERROR", e.errno)`;
  writeFileSync('/tmp/cka-flow-server.py', server);
  writeFileSync('/tmp/cka-flow-client.py', client);
  try {
    sh(`for n in ${kn} ${kp} ${ke}; do ip netns add $n; ip -n $n link set lo up; done
ip link add cka-vp0 netns ${kn} type veth peer name cka-vp1 netns ${kp}
ip link add cka-ve0 netns ${kn} type veth peer name cka-ve1 netns ${ke}
ip -n ${kn} addr add 10.0.0.1/24 dev cka-vp0; ip -n ${kn} link set cka-vp0 up
ip -n ${kp} addr add 10.0.0.2/24 dev cka-vp1; ip -n ${kp} link set cka-vp1 up; ip -n ${kp} route add default via 10.0.0.1
ip -n ${kn} addr add 192.168.0.2/24 dev cka-ve0; ip -n ${kn} link set cka-ve0 up
ip -n ${ke} addr add 192.168.0.3/24 dev cka-ve1; for i in 1 2 3 4 5; do ip -n ${ke} addr add 10.180.0.$i/32 dev cka-ve1; done; ip -n ${ke} link set cka-ve1 up
ip -n ${ke} route add default via 192.168.0.2
ip -n ${kn} route add 10.180.0.0/24 via 192.168.0.3; ip -n ${kn} route add default via 192.168.0.3
ip netns exec ${kn} sysctl -qw net.ipv4.ip_forward=1; ip netns exec ${kn} sysctl -qw net.ipv4.icmp_ratelimit=0`);
    const srv = spawn('ip', ['netns', 'exec', ke, 'python3', '/tmp/cka-flow-server.py'], { stdio: 'ignore' });
    sh('sleep 0.5');
    const flows = () => {
      let text = '';
      for (const [from, cases] of [
        [kp, FLOW_CASES],
        [kn, NODE_FLOW_CASES],
      ]) {
        for (const [dst, port, what] of cases) {
          const seen = new Set();
          for (let k = 0; k < 16; k++) seen.add(execFileSync('ip', ['netns', 'exec', from, 'python3', '/tmp/cka-flow-client.py', dst, String(port)], { encoding: 'utf8' }).trim());
          text += `${from === kn ? 'node ' : ''}${dst}:${port}\t${[...seen].sort().join(' | ')}\t# ${what}\n`;
        }
      }
      return text;
    };
    try {
      execFileSync('ip', ['netns', 'exec', kn, 'nft', '-f', '-'], { input: overall });
      writeFileSync(new URL('flows-overall.txt', out), flows());
      execFileSync('ip', ['netns', 'exec', kn, 'nft', 'delete', 'table', 'ip', 'kube-proxy']);
      const save = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "import { overallIptables } from './src/testing/nft-flows.ts'; import { renderSave } from './src/sim/net/render.ts'; process.stdout.write(renderSave(overallIptables().tables, { now: 0 }));"], { cwd: new URL('..', import.meta.url), encoding: 'utf8' });
      execFileSync('ip', ['netns', 'exec', kn, 'iptables-nft-restore'], { input: save });
      writeFileSync(new URL('flows-overall-iptables.txt', out), flows());
    } finally {
      srv.kill();
    }
    console.log('recorded flows');
  } finally {
    sh(`for n in ${kn} ${kp} ${ke}; do ip netns del $n 2>/dev/null || true; done`);
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
