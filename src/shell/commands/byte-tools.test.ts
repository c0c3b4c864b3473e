/**
 * The byte-counting tools on raw and multi-byte text: `head -c`, `tail -c`, `cut -b` (and GNU's
 * `cut -c`, bytes too) count bytes, not characters, so they may split a UTF-8 sequence and keep
 * the lone bytes (util/bytes.ts); `cat -v`/`-A`/`-e`/`-t` show control bytes as `^X`, DEL as `^?`
 * and bytes above 0x7f as `M-` and their low seven bits (GNU coreutils src/cat.c, BusyBox
 * coreutils/cat.c and libbb/printable.c alike, busybox numbering `%6u  ` without a tab).
 * Replayed against testdata/byte-tools.txt (GNU coreutils 9.1, bash 5.2.15, by
 * record-child-shells.sh byte-tools-cases.txt) on a node and testdata/busybox-bytes.txt (busybox
 * 1.35.0 by record-ash.sh busybox-bytes-cases.txt) in a busybox pod; busybox's xxd
 * (util-linux/hexdump_xxd.c) against testdata/busybox-xxd.txt (record-ash.sh busybox-xxd-cases.txt).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFixture } from '../../testing/fixtures.js';
import { replayInBusyboxPod, replayRecordingFile } from '../../testing/shell-recordings.js';
import { Session } from '../session.js';

test('head -c, tail -c, cut -b and cat -v on a node count and show bytes as GNU coreutils does', async () => {
  assert.deepEqual(await replayRecordingFile(new URL('../testdata/byte-tools.txt', import.meta.url), '/tmp/bt', 22), []);
});

test('head -c, tail -c, cut -b and cat -v in a busybox pod count and show bytes as busybox does', async () => {
  assert.deepEqual(await replayInBusyboxPod(new URL('../testdata/busybox-bytes.txt', import.meta.url), '/tmp/bt', 21), []);
});

test("busybox's xxd in a busybox pod dumps, plain-dumps, C-includes and reverses bytes as busybox does", async () => {
  assert.deepEqual(await replayInBusyboxPod(new URL('../testdata/busybox-xxd.txt', import.meta.url), '/tmp/xx', 11), []);
});

test('xxd is busybox-only: a node has none (Ubuntu package xxd is priority optional), a busybox pod has it', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  assert.equal((await s.exec('ssh cka-cp1 xxd /etc/hostname')).exitCode, 127);
  for (const l of ['kubectl run bb --image=busybox -- sleep 3600', 'sleep 20']) await s.exec(l);
  const r = await s.exec('kubectl exec bb -- xxd /etc/hostname');
  assert.deepEqual([r.stdout, r.exitCode], ['00000000: 6262 0a                                  bb.\n', 0]);
});
