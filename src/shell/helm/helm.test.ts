/**
 * Goldens recorded from the real helm v4.1.4 by scripts/record-helm.mjs: each case of
 * testdata/cases.tsv runs here on a Vfs holding the same unpacked charts and values files, with
 * the repository `stable` added (the recorder served it at 127.0.0.1:8879, here it is
 * https://charts.example.com/stable), and must match byte for byte (exit, stdout, stderr).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Vfs } from '../../sim/node/vfs.js';
import { HELM_DATA } from './data.generated.js';
import { helm } from './index.js';
import { untgz } from './tar.js';

const TESTDATA = join(import.meta.dirname, 'testdata');
const CWD = '/tmp/cka-helm/charts';
const RECORDED_URL = 'http://127.0.0.1:8879/stable';
const URL = 'https://charts.example.com/stable';

function fixtureFs(): Vfs {
  const fs = new Vfs({ files: {}, dirs: ['/'] }, () => Date.UTC(2026, 0, 15, 10, 0, 0));
  fs.mkdir('/root');
  for (const [key, b64] of Object.entries(HELM_DATA)) {
    const m = /^stable\/(.*)-(\d+\.\d+\.\d+)\.tgz$/.exec(key);
    if (!m) continue;
    for (const [p, data] of untgz(Buffer.from(b64, 'base64'))) fs.write(`${CWD}/${m[1]}-${m[2]}/${p}`, data.toString('utf8'));
  }
  for (const f of readdirSync(join(TESTDATA, 'values'))) fs.write(`${CWD}/values/${f}`, readFileSync(join(TESTDATA, 'values', f), 'utf8'));
  return fs;
}

async function run(fs: Vfs, argv: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  return helm({ argv: ['helm', ...argv], stdin: '', env: { HOME: '/root' }, cwd: CWD, user: 'root', fs, location: { kind: 'workstation', host: 'ws' }, now: () => Date.UTC(2026, 0, 15, 10, 0, 0) });
}

const cases = readFileSync(join(TESTDATA, 'cases.tsv'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
for (const line of cases) {
  const [name, ...args] = line.split('\t');
  test(`helm ${args.join(' ')} (${name})`, async () => {
    const fs = fixtureFs();
    assert.equal((await run(fs, ['repo', 'add', 'stable', URL])).exitCode, 0);
    const r = await run(fs, args);
    const got = `exit: ${r.exitCode}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
    const golden = readFileSync(join(TESTDATA, `${name}.golden`), 'utf8');
    // a URL of another length changes uitable's padding: compare those cases without it
    const unpad = (s: string): string => (golden.includes(RECORDED_URL) ? s.replace(/ +(\t|\n)/g, '$1') : s);
    assert.equal(unpad(got), unpad(golden.replaceAll(RECORDED_URL, URL)));
  });
}
