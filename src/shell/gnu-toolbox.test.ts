/**
 * expr, nproc's errors, xargs and find running `false`, and the device files on a host, replayed
 * against testdata/gnu-toolbox.txt: the cases of testdata/gnu-toolbox-cases.txt recorded by
 * testdata/record-child-shells.sh from bash 5.2 and GNU coreutils 9.1 / findutils 4.9 on Debian 12
 * (the hosts' Ubuntu 24.04 coreutils 9.4 words these the same), typed at the workstation's prompt.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayRecordingFile } from '../testing/shell-recordings.js';

test('GNU expr, nproc, xargs/find running false and /dev on a host, as recorded', async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/gnu-toolbox.txt', import.meta.url), '/tmp/gt', 50), []);
});
