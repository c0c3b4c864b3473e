/**
 * `containerd --version` (and `-v`) on a node names the runtime the node reports: the release
 * build's line (cmd/containerd/command/main.go VersionPrinter: name, version.Package, the tag,
 * the tag's commit) for the containerd://2.1.4 in `kubectl get nodes -o wide`'s CONTAINER-RUNTIME
 * column and `kubectl describe node`'s Container Runtime Version.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import { containerdVersionLine } from './containerd.js';

const LINE = 'containerd github.com/containerd/containerd/v2 v2.1.4 75cb2b7193e4e490e9fbdc236c0e811ccaba3376\n';

test('containerd --version and -v print the release line of the version the node reports', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const wide = await s.exec('kubectl get nodes -o wide');
  const runtimes = new Set(wide.stdout.split('\n').slice(1).filter(Boolean).map((l) => l.trim().split(/\s+/).pop()));
  assert.deepEqual([...runtimes], ['containerd://2.1.4']);
  await s.exec('ssh cka-cp1');
  for (const cmd of ['containerd --version', 'containerd -v', 'exit', 'ssh cka-w1 containerd --version']) {
    const r = await s.exec(cmd);
    if (cmd !== 'exit') assert.deepEqual([r.stdout, r.stderr, r.exitCode], [LINE, '', 0], cmd);
  }
  assert.equal(containerdVersionLine('1.7.99'), undefined);
});
