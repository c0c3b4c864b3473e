/**
 * bash's words for two unfinished constructs, replayed against testdata/bash-unfinished.txt
 * (testdata/bash-unfinished-cases.txt recorded from bash 5.2.15 by testdata/record-child-shells.sh):
 * `(( (1 + 2 ))` whose `((` bash reads as arithmetic up to a `))` that leaves a `(` open, then
 * falls back to two nested subshells (parse.y parse_dparen: parse_arith_cmd fails, the text is
 * pushed back as `(` `(`), which meet `))` where a command was expected (`syntax error near `))'`)
 * or run out of text (`unexpected end of file`); and a `case` line that ends before its `in` word
 * or inside a pattern, where bash wants a word and finds the newline (``syntax error near
 * unexpected token `newline'``) instead of reading more.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayRecordingFile, typedLines } from '../testing/shell-recordings.js';

test("bash's errors for an unbalanced (( and an unfinished case line, as the recorded bash words them", async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/bash-unfinished.txt', import.meta.url), '/tmp/unfinished', 13), []);
});

/**
 * The same `case` lines typed at the prompt, as an interactive bash 5.2.15 answered them (recorded
 * with `printf 'case\necho $?\n…' | env -i PATH=/usr/bin:/bin PS1='$ ' bash --norc -i`): an error,
 * not a continuation prompt, and no quoted line.
 */
const INTERACTIVE: ReadonlyArray<[string, string]> = [
  ['case', "bash: syntax error near unexpected token `newline'\n"],
  ['echo $?', '2\n'],
  ['case x in a|', "bash: syntax error near unexpected token `newline'\n"],
  ['echo $?', '2\n'],
];

test('a case line typed at the prompt that ends before its word or inside a pattern list is an error', async () => {
  assert.deepEqual(await typedLines(INTERACTIVE), INTERACTIVE);
});
