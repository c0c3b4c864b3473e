/**
 * BusyBox ash's `readonly`, `local`'s refusals, `set -o`, `cd` through a regular file and the `seq`,
 * `basename`, `dirname` and `tac` applets,
 * replayed against testdata/busybox-builtins.txt: the cases of testdata/busybox-builtins-cases.txt
 * recorded by testdata/record-ash.sh from Ubuntu 24.04's busybox-static 1:1.36.1-6ubuntu3.1 (the
 * version the simulated busybox image claims; 1.37.0 from Debian prints the same except seq's
 * `-w` line, "Pad with leading zeros"), typed at the interactive sh of a busybox pod. The usage
 * banner names the recording's build; the image's own banner (busybox.ts BUSYBOX_BANNER) stands
 * in for it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayInBusyboxPod, typedLines } from '../testing/shell-recordings.js';
import { BUSYBOX_BANNER } from './commands/busybox.js';

test("BusyBox ash's readonly, local, set -o, cd and the seq, basename, dirname and tac applets as busybox 1.36.1 answers them, in a busybox pod's sh", async () => {
  assert.deepEqual(await replayInBusyboxPod(new URL('./testdata/busybox-builtins.txt', import.meta.url), '/tmp/bb', 55, BUSYBOX_BANNER), []);
});

/**
 * The same at the interactive ash (recorded with `printf 'readonly x=1\n…' | env -i
 * PATH=BIN PS1='$ ' sh -i`, BIN holding busybox 1.36.1's applets): no line number, and the
 * shell goes on.
 */
const INTERACTIVE: ReadonlyArray<[string, string]> = [
  ['readonly x=1', ''],
  ['x=2', 'sh: x: is read only\n'],
  ['echo $? $x', '2 1\n'],
  ['unset x', 'sh: unset: x: is read only\n'],
  ['readonly x=5', 'sh: readonly: x: is read only\n'],
  ['f() { local -Q; }', ''],
  ['f', 'sh: local: -Q: bad variable name\n'],
  ['readonly', "readonly x='1'\n"],
  ['touch /tmp/f; cd /tmp/f/x', "sh: cd: can't cd to /tmp/f/x: Not a directory\n"],
];

test('the interactive ash of a busybox pod refuses a read-only variable without a line number', async () => {
  assert.deepEqual(await typedLines(INTERACTIVE, 'busybox'), INTERACTIVE);
});
