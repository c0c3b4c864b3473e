/**
 * Sprig and Helm template functions against the real helm v4.1.4: each case of
 * testdata/sprig/cases.tsv is the chart testdata/sprig/chart with one template printing the case's
 * text (scripts/record-sprig.mjs wrote the same template and recorded `helm template t
 * /tmp/cka-sprig/c`); the simulated helm renders it at the same path and must match byte for byte.
 * Cases whose output is random (bcrypt, AES, generated keys and certificates) check it in the
 * template itself: a regexMatch of its shape, a decryptAES round trip, the PEM headers.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { Vfs } from '../../sim/node/vfs.js';
import { helm } from './index.js';

const DIR = join(import.meta.dirname, 'testdata/sprig');
const CHART = '/tmp/cka-sprig/c';
/** Same text as scripts/record-sprig.mjs wrap(). */
const wrap = (text: string): string => `{{- define "case" }}${text}{{ end -}}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  out: {{ include "case" . | toJson }}\n`;

function files(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) files(p, out);
    else out.push(p);
  }
  return out;
}

const cases = readFileSync(join(DIR, 'cases.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => [l.slice(0, l.indexOf('\t')), l.slice(l.indexOf('\t') + 1)] as const);

for (const [name, text] of cases) {
  test(`sprig ${name}`, async () => {
    const fs = new Vfs({ files: {}, dirs: ['/'] }, () => Date.UTC(2026, 0, 15, 10, 0, 0));
    fs.mkdir('/root');
    for (const p of files(join(DIR, 'chart'))) fs.write(`${CHART}/${relative(join(DIR, 'chart'), p)}`, readFileSync(p, 'utf8'));
    fs.write(`${CHART}/templates/t.yaml`, wrap(text));
    const r = await helm({ argv: ['helm', 'template', 't', CHART], stdin: '', env: { HOME: '/root' }, cwd: '/tmp/cka-sprig', user: 'root', fs, location: { kind: 'workstation', host: 'ws' }, now: () => Date.UTC(2026, 0, 15, 10, 0, 0) });
    const got = `exit: ${r.exitCode}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
    assert.equal(got, readFileSync(join(DIR, `${name}.golden`), 'utf8'));
  });
}
