#!/usr/bin/env node
/**
 * Record the Sprig (and Helm engine) function goldens from the real helm v4.1.4
 * (.cache/helm/helm, see scripts/record-helm.mjs for where it comes from).
 *
 *   node scripts/record-sprig.mjs [CASE…]
 *
 * Each line `NAME<TAB>TEXT` of src/shell/helm/testdata/sprig/cases.tsv becomes the chart
 * src/shell/helm/testdata/sprig/chart copied to /tmp/cka-sprig/c with one template,
 * templates/t.yaml, whose ConfigMap carries TEXT's output (through `include`, so what is compared
 * is exactly what the template prints) as a JSON string; `helm template t /tmp/cka-sprig/c` runs
 * on it and its exit code, stdout and stderr go to testdata/sprig/NAME.golden.
 * src/shell/helm/sprig-golden.test.ts renders the same chart at the same path with the simulated
 * helm and compares byte for byte.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const helmBin = join(root, '.cache/helm/helm');
const testdata = join(root, 'src/shell/helm/testdata/sprig');
const work = '/tmp/cka-sprig';
const chart = join(work, 'c');

/** The template a case's text is rendered in (src/shell/helm/sprig-golden.test.ts has the same). */
const wrap = (text) => `{{- define "case" }}${text}{{ end -}}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  out: {{ include "case" . | toJson }}\n`;

const only = process.argv.slice(2);
const cases = readFileSync(join(testdata, 'cases.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => {
    const i = l.indexOf('\t');
    return [l.slice(0, i), l.slice(i + 1)];
  });
const env = { HOME: join(work, 'home'), PATH: '/usr/bin:/bin', HELM_CACHE_HOME: join(work, 'cache'), HELM_CONFIG_HOME: join(work, 'config'), HELM_DATA_HOME: join(work, 'data') };
for (const [name, text] of cases) {
  if (only.length > 0 && !only.includes(name)) continue;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  cpSync(join(testdata, 'chart'), chart, { recursive: true });
  mkdirSync(join(chart, 'templates'));
  writeFileSync(join(chart, 'templates/t.yaml'), wrap(text));
  const r = spawnSync(helmBin, ['template', 't', chart], { cwd: work, env, encoding: 'utf8' });
  writeFileSync(join(testdata, `${name}.golden`), `exit: ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`);
  console.log(`${name}: exit ${r.status}`);
}
