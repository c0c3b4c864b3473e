/**
 * bash's extensions in dash (Debian's /bin/sh), replayed against testdata/dash-bashisms.txt: the
 * cases of testdata/dash-bashisms-cases.txt recorded from the real dash 0.5.12 (as `sh`) and
 * bash 5.2.15 by `record-child-shells.sh dash-bashisms-cases.txt`. dash's test has no `==`
 * (bltin/test.c: `[: a: unexpected operator`, status 2), its grammar no `for ((…))` (parser.c:
 * `Syntax error: Bad for loop variable`), its arithmetic no `**` (arith_yacc.c: `arithmetic
 * expression: expecting primary: "2**3"`, which ends the shell), and its expansions no
 * `${@:1}` (expand.c: `Bad substitution`); bash runs all of them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayRecordingFile } from '../testing/shell-recordings.js';

test("bash's extensions fail in dash as the recorded dash fails them, and run in bash", async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/dash-bashisms.txt', import.meta.url), '/tmp/db', 25), []);
});
