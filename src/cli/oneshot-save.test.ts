/**
 * A one-shot `cka-lab kubectl` saves its session only when the command changed something (a
 * read-only `get` skips the write), and a write to the workstation's own files is a change: the
 * kubeconfig that `config set-context` / `use-context` edit must be there for the next command.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness } from './testing/harness.js';

test('one-shot: `kubectl config set-context --current --namespace` holds for the next command', async () => {
  const h = harness();
  assert.equal((await h.run(['kubectl', 'get', 'deploy', '-o', 'name'])).stdout, '');
  const set = await h.run(['kubectl', 'config', 'set-context', '--current', '--namespace=kube-system']);
  assert.equal(set.stdout, 'Context "kubernetes-admin@kubernetes" modified.\n');
  assert.equal((await h.run(['kubectl', 'config', 'view', '--minify', '-o', 'jsonpath={..namespace}'])).stdout, 'kube-system');
  assert.equal((await h.run(['kubectl', 'get', 'deploy', '-o', 'name'])).stdout, 'deployment.apps/calico-kube-controllers\ndeployment.apps/coredns\n');
});
