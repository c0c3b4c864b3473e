import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { cniConfigParses, cniStatus } from './config.js';

test('cniStatus: each config text is parsed once; a file that is not JSON is passed over at every look', () => {
  const c = loadFixture('kubeadm-calico');
  const host = c.nodeHosts()[0]!;
  const was = cniStatus(host);
  assert.equal(was.ready, true);
  // texts of their own (no other test has parsed them), lexically before the fixture's conflist
  host.fs.write('/etc/cni/net.d/00-memo.conflist', JSON.stringify({ cniVersion: '0.3.1', name: 'memo-test', plugins: [{ type: 'calico' }, { type: 'portmap' }] }));
  host.fs.write('/etc/cni/net.d/00-a-broken.conf', '{"type": "calico", memo-test');
  const before = cniConfigParses();
  const a = cniStatus(host);
  const b = cniStatus(host);
  assert.deepEqual(a, { ready: true, file: '/etc/cni/net.d/00-memo.conflist' });
  assert.deepEqual(b, a);
  assert.equal(cniConfigParses() - before, 2, 'the two new texts, once each over two looks');
  // a plugin the node does not have: the same parse, another answer
  host.fs.remove('/opt/cni/bin/portmap');
  assert.deepEqual(cniStatus(host), { ready: false, message: 'failed to find plugin "portmap" in path [/opt/cni/bin]' });
  assert.equal(cniConfigParses() - before, 2);
});
