#!/usr/bin/env node
/**
 * Re-records src/sim/net/testdata/nft-xlate/: what the real `nft list ruleset` (nft 1.0.6) prints
 * after the real `iptables-nft-restore --counters` (Debian's iptables 1.8.9, nf_tables backend)
 * loads a node's iptables-save, each case in a fresh network namespace. <case>.save is the input
 * (written here from the simulator, except the hand-written probe.save), <case>.txt the listing
 * (stdout), <case>.stderr what nft warned. src/sim/net/nft-xlate.test.ts compares the simulator's
 * translation (nft-xlate.ts) against them. Needs root and iproute2; never run by the tests or the
 * product.
 *
 *   apt-get install -y nftables iptables && node scripts/record-nft-xlate.mjs
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const out = new URL('../src/sim/net/testdata/nft-xlate/', import.meta.url);

// the simulator's iptables-save of each generated case
const gen = `
import { loadFixture } from './src/testing/fixtures.ts';
import { overallIptables } from './src/testing/nft-flows.ts';
import { addSeed000Web } from './src/sim/traffic/seed000.ts';
import { ApiServer } from './src/sim/apiserver.ts';
import { nodeIptables } from './src/sim/node/runtime.ts';
import { renderSave } from './src/sim/net/render.ts';
const save = (st) => renderSave(st.tables, { now: 0 });
const cases = {};
const calico = loadFixture('kubeadm-calico', 0);
addSeed000Web(calico);
cases['calico-w1-web'] = save(nodeIptables(calico.host('cka-w1')));
const flannel = loadFixture('flannel-single', 0);
for (const h of flannel.nodeHosts ? flannel.nodeHosts() : [...flannel.hosts.values()].filter((h) => h.data.role !== 'workstation')) cases['flannel-' + h.data.name] = save(nodeIptables(h));
cases['overall'] = save(overallIptables());
// kube-proxy switched to nftables mode: only the kubelet's chains stay in iptables
const api = new ApiServer(calico);
const cm = structuredClone(calico.store.get('ConfigMap', 'kube-system', 'kube-proxy'));
cm.data['config.conf'] = cm.data['config.conf'].replace(/^mode: ""$/m, 'mode: nftables');
api.update(cm);
calico.advance(60_000);
cases['calico-w1-nftables-mode'] = save(nodeIptables(calico.host('cka-w1')));
console.log(JSON.stringify(cases));
`;
const cases = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', gen], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }));
for (const [name, text] of Object.entries(cases)) writeFileSync(new URL(`${name}.save`, out), text);

for (const file of readdirSync(out).filter((f) => f.endsWith('.save')).sort()) {
  const name = file.slice(0, -'.save'.length);
  const ns = `cka-xlate-${process.pid}`;
  execFileSync('ip', ['netns', 'add', ns]);
  try {
    execFileSync('ip', ['netns', 'exec', ns, 'iptables-nft-restore', '--counters', new URL(file, out).pathname]);
    const r = spawnSync('ip', ['netns', 'exec', ns, 'nft', 'list', 'ruleset'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`nft list ruleset: ${r.stderr}`);
    writeFileSync(new URL(`${name}.txt`, out), r.stdout);
    writeFileSync(new URL(`${name}.stderr`, out), r.stderr);
    console.log(`recorded ${name}`);
  } finally {
    execFileSync('ip', ['netns', 'del', ns]);
  }
}
