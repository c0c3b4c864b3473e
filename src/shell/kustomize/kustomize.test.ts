/**
 * `kubectl kustomize` against real kubectl v1.35 (kustomize v5.7.1): every directory under
 * testdata/ is a kustomization tree; `node scripts/record-kustomize.mjs` built it with the real
 * binary at /tmp/cka-kustomize/<case> and stored exit code, stdout and stderr in <case>.golden.
 * Here the same tree is written at the same path on the simulated workstation and built by the
 * simulator; the output must match byte for byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../session.js';

const testdata = fileURLToPath(new URL('./testdata/', import.meta.url));
const BASE = '/tmp/cka-kustomize';

function files(dir: string, rel = ''): { rel: string; text: string }[] {
  const out: { rel: string; text: string }[] = [];
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(join(dir, r)).isDirectory()) out.push(...files(dir, r));
    else out.push({ rel: r, text: readFileSync(join(dir, r), 'utf8') });
  }
  return out;
}

const cases = readdirSync(testdata).filter((c) => statSync(join(testdata, c)).isDirectory());
const s = new Session(loadFixture('kubeadm-calico', 1));
const fs = s.cluster.host(s.cluster.meta.workstation)!.fs;

for (const c of cases) {
  test(`kustomize: ${c}`, async () => {
    const text = readFileSync(join(testdata, `${c}.golden`), 'utf8');
    const m = /^exit: (\d+)\n--- stdout\n([\s\S]*)--- stderr\n([\s\S]*)$/.exec(text);
    assert.ok(m, `bad golden ${c}`);
    for (const f of files(join(testdata, c))) fs.write(`${BASE}/${c}/${f.rel}`, f.text);
    const targetFile = join(testdata, c, '.target');
    const target = existsSync(targetFile) ? readFileSync(targetFile, 'utf8').trim() : '.';
    const got = await s.exec(`kubectl kustomize ${BASE}/${c}/${target}`.replace(/\/\.$/, ''));
    assert.equal(got.stdout, m[2], 'stdout');
    assert.equal(got.stderr, m[3], 'stderr');
    assert.equal(got.exitCode, Number(m[1]), 'exit code');
  });
}
