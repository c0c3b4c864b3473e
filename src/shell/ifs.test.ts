/**
 * Field splitting by IFS (POSIX 2.6.5; bash subst.c list_string, dash expand.c ifsbreakup), `"$*"`
 * joined by IFS's first character, and `read` splitting by IFS (bash read.def), replayed against
 * testdata/ifs.txt: the cases of testdata/ifs-cases.txt recorded from the real bash 5.2.15 and
 * dash 0.5.12 (as `sh`) by `record-child-shells.sh ifs-cases.txt`. Only the results of unquoted
 * expansions split; IFS white space collapses and is trimmed at the ends, each other IFS character
 * ends a field (a leading one makes an empty field, a trailing one none), an empty IFS splits
 * nothing and an unset IFS is space, tab and newline.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayRecordingFile } from '../testing/shell-recordings.js';

test('IFS splits fields, joins "$*" and splits read lines as the recorded bash and dash do', async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/ifs.txt', import.meta.url), '/tmp/ifs', 40), []);
});
