/**
 * bash's arithmetic errors word the expression without its leading blanks and quote the text from
 * the token it read last (expr.c evalerror's lasttp; a zero divisor from where the divisor
 * starts), with expr.c's own complaints: `**=` is no operator (operand expected at `=`),
 * `attempted assignment to non-variable`, `expression expected` for an empty `?:` branch,
 * `value too great for base` for 08. Recorded from bash 5.2.15 (testdata/arith-errors.txt: each
 * case run as `bash -c`, so the line prefix is a script's).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayRecordingFile } from '../testing/shell-recordings.js';

test('arithmetic errors are worded and located as the recorded bash words them', async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/arith-errors.txt', import.meta.url), '/tmp/ar', 20), []);
});
