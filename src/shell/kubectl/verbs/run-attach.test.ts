import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import { ATTACH_NOTICES } from '../attachable.js';

test('run --rm -it: hint first, output, deletion, and a failed container ends the command with its exit code', async () => {
  const s = new Session(loadFixture('kubeadm-calico'));
  const ok = await s.exec('kubectl run t --image=busybox:1.36 --rm -it --restart=Never -- echo hello');
  assert.deepEqual(ok.output.map((c) => [c.stream, c.text]), [
    ['stderr', ATTACH_NOTICES],
    ['stdout', 'hello\npod "t" deleted from default namespace\n'],
  ]);
  assert.equal(ok.exitCode, 0);
  const bad = await s.exec("kubectl run u --image=busybox:1.36 --rm -it --restart=Never -- sh -c 'exit 3'");
  assert.equal(bad.exitCode, 3);
  assert.equal(bad.stdout, 'pod "u" deleted from default namespace\n');
  assert.equal(bad.stderr, `${ATTACH_NOTICES}error: pod default/u terminated (Error)\n`);
  // stdin without a TTY attaches too (the notices are attach.go's, not the terminal's); -q silences them
  const plain = await s.exec('kubectl run v --image=busybox:1.36 --rm -i --restart=Never -- echo hi');
  assert.equal(plain.stderr, ATTACH_NOTICES);
  const quiet = await s.exec('kubectl run w --image=busybox:1.36 --rm -i -q --restart=Never -- echo hi');
  assert.equal(quiet.stderr, '');
});
