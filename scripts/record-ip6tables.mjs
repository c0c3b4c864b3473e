#!/usr/bin/env node
/**
 * Re-records src/sim/net/testdata/ip6tables/*: for each case of src/testing/ip6tables-cases.ts,
 * the simulator's ip6tables-save text (<case>.save) is restored with the real ip6tables-restore
 * in a fresh network namespace, and the real ip6tables-save and listing commands are recorded
 * (<case>.txt: `$ ip6tables …` then stdout). Needs root, iproute2 and Debian 12's iptables
 * (1.8.9, nf_tables). Never run by the tests or the product.
 *
 *   apt-get install -y iptables && node scripts/record-ip6tables.mjs
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const dir = new URL('../src/sim/net/testdata/ip6tables/', import.meta.url);
const { cases, listings } = JSON.parse(
  execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', "import { ip6Cases, IP6_LISTINGS } from './src/testing/ip6tables-cases.ts'; console.log(JSON.stringify({ cases: ip6Cases(), listings: IP6_LISTINGS }));"],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  ),
);

for (const c of cases) {
  const ns = `cka-ip6-${process.pid}`;
  execFileSync('ip', ['netns', 'add', ns]);
  try {
    const r = spawnSync('ip', ['netns', 'exec', ns, 'ip6tables-restore'], { input: c.save, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${c.name}: the real ip6tables-restore refused the simulator's save:\n${r.stderr}`);
    let out = '';
    const run = (argv) => {
      const x = spawnSync('ip', ['netns', 'exec', ns, ...argv], { encoding: 'utf8' });
      out += `$ ${argv.join(' ')}\n${x.stdout}${x.stderr}${x.status ? `[exit ${x.status}]\n` : ''}`;
    };
    run(['ip6tables-save']);
    for (const l of listings) run(['ip6tables', ...l]);
    writeFileSync(new URL(`${c.name}.save`, dir), c.save);
    writeFileSync(new URL(`${c.name}.txt`, dir), out);
    console.log(`${c.name}: recorded`);
  } finally {
    execFileSync('ip', ['netns', 'del', ns]);
  }
}
