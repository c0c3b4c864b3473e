/**
 * A file operand that names the command's own standard input (/dev/stdin, /dev/fd/0,
 * /proc/self/fd/0: the kernel's links to fd 0) reads what the pipe or here-string feeds it, and
 * `tee /dev/stderr` writes its copy to the terminal's stderr. Recorded with bash 5.2.15 and GNU
 * coreutils 9.1, grep 3.8, sed 4.9 (`bash -c LINE 2>&1`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { typedLines } from '../../testing/shell-recordings.js';

const LINES: ReadonlyArray<[string, string]> = [
  ['echo x | cat /dev/stdin', 'x\n'],
  ['echo x | wc -c /dev/stdin', '2 /dev/stdin\n'],
  ['echo x | grep -c x /dev/stdin', '1\n'],
  ['echo x | cat /proc/self/fd/0', 'x\n'],
  ['echo x | head -1 /dev/fd/0', 'x\n'],
  ['cat /dev/stdin <<< hey', 'hey\n'],
  ['printf "b\\na\\n" | sort /dev/stdin', 'a\nb\n'],
  ['echo x | sed p /dev/stdin', 'x\nx\n'],
  ['echo x | tee /dev/stderr', 'x\nx\n'],
  ['echo x | tee /dev/stdout', 'x\nx\n'],
  ['echo x | tee /dev/fd/2 >/dev/null', 'x\n'],
];

test('commands read /dev/stdin and its aliases as their standard input, and tee writes to /dev/stderr', async () => {
  assert.deepEqual(await typedLines(LINES), LINES);
});
