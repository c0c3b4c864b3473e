/**
 * bash's `(( expr ))` command, replayed against testdata/arith-commands.txt: the cases of
 * testdata/arith-commands-cases.txt recorded from bash 5.2.15 by testdata/record-child-shells.sh
 * (each a `bash -c` string or a script file run by bash). Status 1 when the value is 0 and when
 * the expression is refused, 0 otherwise (execute_cmd.c execute_arith_command); the error names
 * `((` and the expression as written (`((: 1 + : syntax error: operand expected (error token is
 * "+ ")`), and a script goes on after it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayRecordingFile, typedLines } from '../testing/shell-recordings.js';

test('(( expr )) commands in bash -c strings and script files as the recorded bash runs them', async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/arith-commands.txt', import.meta.url), '/tmp/arc', 35), []);
});

/** At bash's prompt (bash 5.2.15 `bash --norc -i` reading the lines): the error without a line number. */
const INTERACTIVE: ReadonlyArray<[string, string]> = [
  ['i=0', ''],
  ['((i++))', ''],
  ['echo $? $i', '1 1\n'],
  ['(( i > 3 )) && echo y', ''],
  ['(( 1 + ))', 'bash: ((: 1 + : syntax error: operand expected (error token is "+ ")\n'],
  ['(( 1/0 ))', 'bash: ((: 1/0 : division by 0 (error token is "0 ")\n'],
  ['((0))', ''],
  ['echo $?', '1\n'],
  ['a=(1 2); (( a[1] += 5, n = 16#1f )); echo ${a[1]} $n', '7 31\n'],
];

test('(( expr )) at the bash prompt as bash 5.2 answers it', async () => {
  assert.deepEqual(await typedLines(INTERACTIVE), INTERACTIVE);
});
