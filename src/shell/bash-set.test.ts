/**
 * bash's `set -o`/`set +o` listings and option words, replayed against testdata/bash-set.txt: the
 * cases of testdata/bash-set-cases.txt recorded from bash 5.2.15 by testdata/record-child-shells.sh.
 * `set -euo pipefail` (letters in one word, each `o` taking the next word as its name) turns
 * pipefail on; `set -o` prints a `%-15s\t%s` row per option (builtins/set.def), `set +o` the
 * commands that restore them; vi and emacs exclude each other.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayRecordingFile, typedLines } from '../testing/shell-recordings.js';

test('set -o, set +o and set -euo pipefail as the recorded bash runs them', async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/bash-set.txt', import.meta.url), '/tmp/bset', 10), []);
});

/**
 * At the interactive prompt emacs, histexpand, history and monitor are on (bash 5.2.15
 * `bash --norc -i` in a pseudo-terminal, `script -qc`; the other rows as in bash -c).
 */
const INTERACTIVE: ReadonlyArray<[string, string]> = [
  ['set -o | grep -E "^(emacs|histexpand|history|monitor|vi) "', 'emacs          \ton\nhistexpand     \ton\nhistory        \ton\nmonitor        \ton\nvi             \toff\n'],
  ['set -o vi; set -o | grep -E "^(emacs|vi) "', 'emacs          \toff\nvi             \ton\n'],
];

test('set -o at the bash prompt shows the interactive defaults and set -o vi', async () => {
  assert.deepEqual(await typedLines(INTERACTIVE), INTERACTIVE);
});
