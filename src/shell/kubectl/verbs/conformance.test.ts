/**
 * Conformance with real kubectl v1.35.2: every case in testdata/conformance/cases.txt was run
 * through the real binary by `node scripts/real-kubectl.mjs --record`; the simulator must print
 * the same stdout, stderr and exit code. klog headers (`W1202 10:07:50.666386   18604 file:line]`)
 * carry wall time and a pid, so only their text after `] ` is compared.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

const dir = new URL('./testdata/conformance/', import.meta.url);

interface Case {
  name: string;
  line: string;
}

function cases(): Case[] {
  return readFileSync(new URL('cases.txt', dir), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => ({ name: l.slice(0, l.indexOf(' ')), line: l.slice(l.indexOf(' ') + 1) }));
}

function golden(name: string): { exit: number; stdout: string; stderr: string } {
  const text = readFileSync(new URL(`${name}.txt`, dir), 'utf8');
  const m = /^exit: (\d+)\n--- stdout\n([\s\S]*)--- stderr\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`bad golden ${name}`);
  return { exit: Number(m[1]), stdout: m[2]!, stderr: m[3]! };
}

const klog = (s: string): string => s.replace(/^([WEI])\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ [\w.]+:\d+\] /gm, '$1 ');

// Every case is client-side or fails before reaching the server, so one session serves them all.
const s = new Session(loadFixture('kubeadm-calico', 1));

// the manifests the recording's working directory held (testdata/conformance/files), in the session's
test('conformance: the cases\' files', async () => {
  const files = new URL('files/', dir);
  for (const f of readdirSync(files)) {
    const r = await s.exec(`cat > ${f} <<'END_OF_FILE'\n${readFileSync(new URL(f, files), 'utf8')}END_OF_FILE`);
    assert.equal(r.exitCode, 0, r.stderr);
  }
});

for (const c of cases()) {
  test(`conformance: ${c.name}`, async () => {
    const want = golden(c.name);
    const got = await s.exec(c.line);
    assert.equal(got.stdout, want.stdout, 'stdout');
    assert.equal(klog(got.stderr), klog(want.stderr), 'stderr');
    assert.equal(got.exitCode, want.exit, 'exit code');
  });
}
