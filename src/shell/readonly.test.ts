/**
 * `readonly` in dash and bash, replayed against testdata/readonly.txt: the cases of
 * testdata/readonly-cases.txt recorded from dash 0.5.12 (as `sh`) and bash 5.2 by
 * testdata/record-child-shells.sh. dash refuses a read-only variable as `x: is read only`
 * (status 2, ending a non-interactive shell), bash as `x: readonly variable` (status 1), and
 * `unset`, `local`, `declare`, `read`, `for` and `export` each in their own words.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayRecordingFile, typedLines } from '../testing/shell-recordings.js';

test('dash and bash refuse a read-only variable as the recorded shells do', async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/readonly.txt', import.meta.url), '/tmp/readonly', 30), []);
});

/**
 * At bash's prompt (bash 5.2, `bash -i` reading the lines): no line number; a refused `x=2 cmd`
 * still runs cmd, and the variable keeps its value in a saved session.
 */
const INTERACTIVE: ReadonlyArray<[string, string]> = [
  ['readonly x=1', ''],
  ['x=3 true; echo $?', 'bash: x: readonly variable\n0\n'],
  ['export x=4; echo $?', 'bash: x: readonly variable\n1\n'],
  ['unset x; echo $?', 'bash: unset: x: cannot unset: readonly variable\n1\n'],
  ['f() { local x=2; echo in; }; f; echo $?', 'bash: local: x: readonly variable\nin\n0\n'],
  ['readonly -Q; echo $?', 'bash: readonly: -Q: invalid option\nreadonly: usage: readonly [-aAf] [name[=value] ...] or readonly -p\n2\n'],
  ['declare -p x', 'declare -rx x="1"\n'],
];

test("bash's prompt refuses a read-only variable without a line number", async () => {
  assert.deepEqual(await typedLines(INTERACTIVE), INTERACTIVE);
});
