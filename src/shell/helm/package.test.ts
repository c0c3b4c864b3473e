/**
 * `helm env`, `helm package` and `helm dependency` against goldens recorded from the real helm
 * v4.1.4 by scripts/record-helm-package.mjs: each case of testdata/pkg/cases.tsv runs its helm
 * commands on a Vfs holding testdata/pkg/charts at the recorder's path, and must match exit
 * codes, stdout, stderr and the files it wrote (a .tgz as its entries and the Chart.yaml and
 * Chart.lock inside). The recorder served the repository at 127.0.0.1:8879; here it is
 * https://charts.example.com/stable, so for cases naming it the URL is swapped, uitable padding
 * and the sizes of files holding the URL are left out, and Chart.lock digests (sha256 over the
 * URL) are compared by the HashReq test below with the recorded inputs instead.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { Vfs } from '../../sim/node/vfs.js';
import { hashReq } from './dependency.js';
import { helm } from './index.js';
import { untgz } from './tar.js';

const TESTDATA = join(import.meta.dirname, 'testdata/pkg');
const CWD = '/tmp/cka-helm/pkg';
const HOME = '/tmp/cka-helm/home-pkg';
const RECORDED_URL = 'http://127.0.0.1:8879/stable';
const URL = 'https://charts.example.com/stable';
const NOW = Date.UTC(2026, 0, 15, 10, 0, 0);

function walk(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

function fixtureFs(): Vfs {
  const fs = new Vfs({ files: {}, dirs: ['/'] }, () => NOW);
  fs.mkdir(HOME);
  const charts = join(TESTDATA, 'charts');
  for (const f of walk(charts)) {
    const data = readFileSync(f);
    fs.write(`${CWD}/${relative(charts, f)}`, f.endsWith('.tgz') ? data.toString('latin1') : data.toString('utf8').replaceAll(RECORDED_URL, URL));
  }
  return fs;
}

function snapshot(fs: Vfs, dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const n of fs.list(dir)) {
    const p = `${dir}/${n}`;
    if (fs.isDir(p)) snapshot(fs, p, out);
    else out.set(p.slice(CWD.length + 1), fs.read(p));
  }
  return out;
}

const normalise = (s: string): string => s.replace(/^generated: .*$/gm, 'generated: "<TIME>"');

function describeFiles(before: Map<string, string>, after: Map<string, string>): string {
  let out = '';
  for (const p of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    if (!after.has(p)) {
      out += `=== ${p} (deleted)\n`;
      continue;
    }
    if (before.get(p) === after.get(p)) continue;
    if (!p.endsWith('.tgz')) {
      out += `=== ${p}\n${normalise(after.get(p)!)}`;
      continue;
    }
    const entries = [...untgz(Buffer.from(after.get(p)!, 'latin1'))];
    out += `=== ${p} (tgz)\n${entries.map(([n, d]) => `${n} ${d.length}\n`).join('')}`;
    for (const [n, d] of entries) if (/^[^/]+\/Chart\.(yaml|lock)$/.test(n)) out += `--- ${n}\n${normalise(d.toString('utf8'))}`;
  }
  return out;
}

const cases = readFileSync(join(TESTDATA, 'cases.tsv'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
for (const line of cases) {
  const [name, ...words] = line.split('\t');
  test(`helm ${words.join(' ')} (${name})`, async () => {
    const fs = fixtureFs();
    const before = snapshot(fs, CWD);
    const steps: string[][] = [[]];
    for (const w of words) if (w === ';;') steps.push([]);
    else steps.at(-1)!.push(w.replaceAll(RECORDED_URL, URL));
    let got = '';
    for (const args of steps) {
      const r = await helm({ argv: ['helm', ...args], stdin: '', env: { HOME }, cwd: CWD, user: 'root', fs, location: { kind: 'workstation', host: 'ws' }, now: () => NOW });
      got += `$ helm ${args.join(' ')}\nexit: ${r.exitCode}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
    }
    got += `--- files\n${describeFiles(before, snapshot(fs, CWD))}`;
    const golden = readFileSync(join(TESTDATA, `${name}.golden`), 'utf8');
    const urlCase = golden.includes(RECORDED_URL);
    const loose = (s: string): string =>
      urlCase
        ? s
            .replace(/ +(\t|\n)/g, '$1')
            .replace(/sha256:[0-9a-f]{64}/g, 'sha256:<DIGEST>')
            .replace(/^(\S+\/Chart\.(?:yaml|lock)) \d+$/gm, '$1 <SIZE>')
        : s;
    assert.equal(loose(got), loose(golden.replaceAll(RECORDED_URL, URL)));
  });
}

test('Chart.lock digest: resolver.HashReq of the recorded requirements and lock', () => {
  const req = [
    { name: 'web', version: '~1.1.0', repository: RECORDED_URL },
    { name: 'widget-operator', version: '^0', repository: RECORDED_URL, alias: 'op', condition: 'op.enabled' },
  ];
  const lock = [
    { name: 'web', version: '1.1.0', repository: RECORDED_URL },
    { name: 'widget-operator', version: '0.5.0', repository: RECORDED_URL },
  ];
  const golden = readFileSync(join(TESTDATA, 'dep-update.golden'), 'utf8');
  assert.equal(`digest: ${hashReq(req, lock)}`, /^digest: .*$/m.exec(golden)?.[0]);
  // `>=` is escaped as Go's json.Marshal escapes HTML
  const stale = readFileSync(join(TESTDATA, 'dep-update-stale.golden'), 'utf8');
  const staleReq = [
    { name: 'web', version: '1.2.0', repository: RECORDED_URL },
    { name: 'app-stack', version: '>=0.3.0', repository: RECORDED_URL },
  ];
  const staleLock = [
    { name: 'web', version: '1.2.0', repository: RECORDED_URL },
    { name: 'app-stack', version: '0.3.0', repository: RECORDED_URL },
  ];
  assert.equal(`digest: ${hashReq(staleReq, staleLock)}`, /^digest: .*$/m.exec(stale)?.[0]);
});
