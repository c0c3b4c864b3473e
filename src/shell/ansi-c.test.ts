/**
 * ANSI-C quoting, `$'…'` (bash manual 3.1.2.4; lib/sh/strtrans.c ansicstr), replayed against
 * testdata/ansi-c.txt: the cases of testdata/ansi-c-cases.txt recorded from the real bash 5.2.15
 * and dash 0.5.12 (as `sh`) by `record-child-shells.sh ansi-c-cases.txt`. bash translates the
 * escapes in words, assignments, case patterns, here-strings, `[[ ]]`, `${…}` words (in double
 * quotes too) and here-document delimiters, never inside double quotes or here-document bodies;
 * dash has no `$'…'`: the `$` is a literal and the rest an ordinary single-quoted string.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadFixture } from '../testing/fixtures.js';
import { recordedShellCases, replayShellCases } from '../testing/shell-recordings.js';
import { ansiC } from './parse/ansi-c.js';
import { Session } from './session.js';

const transcript = readFileSync(new URL('./testdata/ansi-c.txt', import.meta.url), 'utf8');

test("$'…' reads as the recorded bash and dash read it", async () => {
  const all = recordedShellCases(transcript);
  assert.ok(all.length >= 50, `only ${all.length} cases`);
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('mkdir -p /tmp/ac && cd /tmp/ac');
  assert.deepEqual(await replayShellCases(s, all, 'stdout-then-stderr'), []);
});

test('ansiC translates each escape as bash 5.2 does', () => {
  // [inside the quotes, result]: the byte values od -c shows in testdata/ansi-c.txt
  const table: Array<[string, string]> = [
    ['a\\nb', 'a\nb'],
    ['\\a\\b\\e\\E\\f\\r\\v', '\x07\b\x1b\x1b\f\r\v'],
    ["\\\\\\'\\\"\\?", '\\\'"?'],
    ['\\101\\1010\\0101', 'AA0\b1'],
    ['a\\0b', 'a'],
    ['\\x41\\x4a\\x4', 'AJ\x04'],
    ['\\xg', '\\xg'],
    ['\\x{4142}z', 'Bz'],
    ['\\x{}z', ''],
    ['\\777\\400', '\udcff'],
    ['\\u00e9\\u263a\\U0001F600\\u00411', 'é☺😀A1'],
    ['\\u', '\\u'],
    ['\\U110000', '\udcf4\udc90\udc80\udc80'],
    ['\\ca\\c[\\c?\\c1', '\x01\x1b\x7f\x11'],
    ['\\c', '\\c'],
    ['\\c\\\\', '\x1c'],
    ['\\c@x', ''],
    ['\\z\\q\\8', '\\z\\q\\8'],
  ];
  for (const [body, want] of table) assert.equal(ansiC(body), want, body);
});
