/**
 * `kubectl replace -f FILE --subresource=NAME` as real kubectl v1.35.2 reports it: recorded by
 * scripts/record-replace-subresource.mjs against a stub server (testdata/replace-subresource/).
 * kubectl checks no subresource name: a Deployment PUT to …/scale is the server's 400 after
 * `error when replacing "FILE": ` (the stub's message is a placeholder; the simulator's is the
 * decoder's, sim/apiserver.ts replaceScale), one to a subresource nothing routes is the server's
 * plain 404, and a file of kind Scale never reaches the server (no resource maps to it).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

const dir = new URL('./testdata/replace-subresource/', import.meta.url);

function recorded(name: string): { argv: string[]; file: string; exit: number; stdout: string; stderr: string } {
  const text = readFileSync(new URL(`${name}.txt`, dir), 'utf8');
  const m = /^# Client Version: v1\.35\.\d+\nargv: (.*)\nexit: (\d+)\n--- requests\n[\s\S]*?--- stdout\n([\s\S]*)--- stderr\n([\s\S]*)$/.exec(text);
  assert.ok(m, `${name}: unexpected format`);
  const argv = JSON.parse(m[1]!) as string[];
  return { argv, file: argv[argv.indexOf('-f') + 1]!, exit: Number(m[2]), stdout: m[3]!, stderr: m[4]! };
}

const FILES: Record<string, string> = {
  'd.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  replicas: 3\n  selector:\n    matchLabels:\n      app: d\n  template:\n    metadata:\n      labels:\n        app: d\n    spec:\n      containers:\n      - name: c\n        image: nginx\n',
  's.yaml': 'apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: d\nspec:\n  replicas: 3\n',
};

async function run(name: string): Promise<{ rec: ReturnType<typeof recorded>; got: { stdout: string; stderr: string; exitCode: number } }> {
  const rec = recorded(name);
  const s = new Session(loadFixture('kubeadm-calico', 0));
  await s.exec('kubectl create deploy d --image=nginx');
  s.cluster.host(s.cluster.meta.workstation)!.fs.write(`/root/${rec.file}`, FILES[rec.file]!);
  const { stdout, stderr, exitCode } = await s.exec(`cd /root && kubectl ${rec.argv.join(' ')}`);
  return { rec, got: { stdout, stderr, exitCode } };
}

describe('replace --subresource against real kubectl v1.35.2', () => {
  it('a subresource nothing routes: the server 404 after "error when replacing"', async () => {
    const { rec, got } = await run('unknown');
    assert.deepEqual(got, { stdout: rec.stdout, stderr: rec.stderr, exitCode: rec.exit });
  });
  it('a Deployment PUT to …/scale: the server 400 after "error when replacing"', async () => {
    const { rec, got } = await run('scale');
    const prefix = rec.stderr.slice(0, rec.stderr.indexOf('SERVER-MESSAGE'));
    assert.equal(prefix, 'Error from server (BadRequest): error when replacing "d.yaml": ');
    assert.ok(got.stderr.startsWith(prefix), got.stderr);
    assert.equal(got.exitCode, rec.exit);
    assert.equal(got.stdout, rec.stdout);
  });
  it('a file of kind Scale maps to no resource', async () => {
    const { rec, got } = await run('scale-kind');
    assert.deepEqual(got, { stdout: rec.stdout, stderr: rec.stderr, exitCode: rec.exit });
  });
});
