/**
 * BusyBox ash's run-time error prefixes, replayed against testdata/ash-errors.txt: the cases of
 * testdata/ash-errors-cases.txt recorded from the real BusyBox ash (Debian's busybox 1.35.0, every
 * applet on PATH as in a busybox image) by testdata/record-ash.sh, typed at the interactive `sh`
 * of a busybox pod. ash's ash_vmsg (shell/ash.c) prints `sh: `, then the running builtin's name
 * (commandname) unless it is the script's own name, then `line N: ` unless the shell is
 * interactive: a `-c` string has no commandname outside a builtin and counts its lines from 0
 * (`sh: nosuch: not found`, `sh: cd: line 0: can't cd to /x: No such file or directory`), a
 * script counts from 1 (`s.sh: line 2: nosuch: not found`, `s.sh: cd: line 3: …`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayInBusyboxPod, replayRecordingFile, typedLines } from '../testing/shell-recordings.js';

test("BusyBox ash's error prefixes as the recorded ash prints them, in a busybox pod's sh", async () => {
  assert.deepEqual(await replayInBusyboxPod(new URL('./testdata/ash-errors.txt', import.meta.url), '/tmp/ash', 25), []);
});

/**
 * Lines typed at the interactive ash, as busybox 1.35.0 answered them (recorded with
 * `printf 'nosuch\ncd /nonexistent\n…' | env -i PATH=BIN PS1='$ ' sh -i`, BIN holding busybox's
 * applets): an interactive shell prints no line number.
 */
const INTERACTIVE: ReadonlyArray<[string, string]> = [
  ['nosuch', 'sh: nosuch: not found\n'],
  ['cd /nonexistent', "sh: cd: can't cd to /nonexistent: No such file or directory\n"],
  ['echo $?', '2\n'],
  ['exit foo', 'sh: exit: Illegal number: foo\n'],
  ['echo $?', '2\n'],
  ['set -Q', 'sh: set: illegal option -Q\n'],
  ['echo $?', '2\n'],
  ["echo $'a\\tb'", 'a\tb\n'],
];

test("the interactive ash of a busybox pod prefixes a builtin's error as ash does, without a line", async () => {
  assert.deepEqual(await typedLines(INTERACTIVE, 'busybox'), INTERACTIVE);
});

/**
 * The same refusals in dash (testdata/dash-options.txt, recorded from dash 0.5.12 as `sh` by
 * testdata/record-child-shells.sh): `set: Illegal option -Q` (for `+Q` too), `local: not in a
 * function`, status 2, ending the shell after a special builtin and not after `cd`.
 */
test("dash refuses a builtin's unknown option and a local outside a function as the recorded dash does", async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/dash-options.txt', import.meta.url), '/tmp/dash-options', 13), []);
});
