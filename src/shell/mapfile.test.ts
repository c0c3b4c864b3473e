/**
 * bash's mapfile/readarray, replayed against testdata/mapfile.txt: the cases of
 * testdata/mapfile-cases.txt recorded from bash 5.2.15 (and dash 0.5.12 as `sh`, which has no
 * mapfile) by testdata/record-child-shells.sh.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayRecordingFile } from '../testing/shell-recordings.js';

test('mapfile and readarray as the recorded bash runs them', async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/mapfile.txt', import.meta.url), '/tmp/mapfile', 15), []);
});
