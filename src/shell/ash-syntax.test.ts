/**
 * BusyBox ash's syntax errors, replayed against testdata/ash-syntax.txt: the cases of
 * testdata/ash-syntax-cases.txt recorded from the real BusyBox ash (Debian's busybox 1.35.0, every
 * applet on PATH as in a busybox image) by testdata/record-ash.sh, and typed here at the
 * interactive `sh` of a busybox pod. ash words a syntax error `sh: syntax error: unexpected "then"`
 * (shell/ash.c raise_error_unexpected_syntax, tokname), `(expecting "fi")` where one word was
 * wanted, `unterminated quoted string`, `missing '))'` and `bad for loop variable` (ash has no
 * `for ((…))`), status 2; a script names its file and line (`s.sh: line 2: `, ash_vmsg).
 * The interactive shell and `kubectl exec … sh -c` word them alike (testdata/container-shells.txt).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadFixture } from '../testing/fixtures.js';
import { recordedShellCases, replayShellCases, typedLines } from '../testing/shell-recordings.js';
import { Session } from './session.js';

test("BusyBox ash's syntax errors as the recorded ash words them, in a busybox pod's sh", async () => {
  const cases = recordedShellCases(readFileSync(new URL('./testdata/ash-syntax.txt', import.meta.url), 'utf8'));
  assert.ok(cases.length >= 40, `only ${cases.length} cases recorded`);
  const s = new Session(loadFixture('kubeadm-calico', 1));
  for (const l of ['kubectl run bb --image=busybox -- sleep 3600', 'sleep 20']) await s.exec(l);
  const enter = await s.exec('kubectl exec -it bb -- sh');
  assert.equal(enter.exitCode, 0, enter.stderr);
  await s.exec('mkdir -p /tmp/ash && cd /tmp/ash');
  assert.equal(s.prompt(), '/tmp/ash # ');
  assert.deepEqual(await replayShellCases(s, cases), []);
});

/**
 * Lines typed at the interactive ash, as busybox 1.35.0 answered them (recorded with
 * `printf 'if then\necho $?\n…' | env -i PATH=BIN PS1='$ ' sh -i`, BIN holding busybox's applets):
 * a typed line ends in a newline, so a missing word is `unexpected newline`.
 */
const INTERACTIVE: ReadonlyArray<[string, string]> = [
  ['if then', 'sh: syntax error: unexpected "then"\n'],
  ['echo $?', '2\n'],
  ['echo >', 'sh: syntax error: unexpected newline\n'],
  ['for ((i=0;i<2;i++)); do echo $i; done', 'sh: syntax error: bad for loop variable\n'],
  ['x=(1 2)', 'sh: syntax error: unexpected "("\n'],
];

test("the interactive ash of a busybox pod words a typed line's syntax error as ash does", async () => {
  assert.deepEqual(await typedLines(INTERACTIVE, 'busybox'), INTERACTIVE);
});
