/**
 * head's and tail's counts with size suffixes, replayed against recordings: GNU coreutils 9.1
 * (testdata/size-suffix.txt, from ../testdata/size-suffix-cases.txt by record-child-shells.sh:
 * `1b` 512, `1K` 1024, `1KB` 1000, `1KiB` 1024, a bare `k`, `Value too large` past 2^64-1) on a
 * node, and BusyBox 1.35.0 (testdata/busybox-size-suffix.txt, by record-ash.sh: only `b`, `k`,
 * `m`, else `invalid number 'X'`) in a busybox pod.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayInBusyboxPod, replayRecordingFile } from '../../testing/shell-recordings.js';

test("GNU head and tail read size suffixes as the recorded coreutils 9.1 does", async () => {
  assert.deepEqual(await replayRecordingFile(new URL('../testdata/size-suffix.txt', import.meta.url), '/tmp/size-suffix', 31), []);
});

test("busybox head and tail read b, k and m only, as the recorded busybox 1.35.0 does", async () => {
  assert.deepEqual(await replayInBusyboxPod(new URL('../testdata/busybox-size-suffix.txt', import.meta.url), '/tmp/size-suffix', 17), []);
});
