/**
 * The busybox image's toolbox applets (which, find, xargs, expr, stat, mktemp, md5sum and the sha
 * sums, uname, df, free, uptime, timeout, top, nproc) and its device files, replayed against
 * testdata/busybox-toolbox.txt: the cases of testdata/busybox-toolbox-cases.txt recorded by
 * testdata/record-ash.sh from busybox 1.36.1 built with `make defconfig` (the configuration
 * docker-library/busybox builds the image with), each case in a scratch directory with every
 * applet linked into PATH.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayInBusyboxPod } from '../testing/shell-recordings.js';
import { BUSYBOX_BANNER } from './commands/busybox.js';

test("the busybox image's toolbox applets and devices as busybox 1.36.1 answers them, in a busybox pod's sh", async () => {
  assert.deepEqual(await replayInBusyboxPod(new URL('./testdata/busybox-toolbox.txt', import.meta.url), '/tmp/bb', 135, BUSYBOX_BANNER), []);
});
