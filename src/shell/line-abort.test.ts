/**
 * An error that abandons the rest of the line (Interpreter LineAbort), against the recordings in
 * testdata/line-abort.txt: at an interactive dash prompt a special builtin's error or a refused
 * read-only assignment skips what is left of the line (status 2); BusyBox ash does so for the
 * read-only refusals only (1.35.0: `shift 5` is a silent 1, a bad `set -o` goes on); bash skips
 * the rest of the line after a refused assignment, at the prompt and in a script file, where the
 * script goes on with its next line. The simulated dash counts its lines from the first one typed
 * (the recording's line 1 was its `PS1=` line, so its numbers are one more).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Session } from './session.js';
import { loadFixture } from '../testing/fixtures.js';
import { typedLines } from '../testing/shell-recordings.js';

const SH_LINES = ['readonly x=1', 'x=2; echo same $?', 'echo next $?', 'shift 5; echo same $?', 'echo next $?', 'set -o nosuch; echo same $?', 'echo next $?', 'x=3 true; echo same $?', 'export x=4; echo same $?', 'unset x; echo same $?'];

test("dash's prompt abandons the line after a special builtin's error or a read-only refusal", async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  for (const l of ['kubectl run web --image=nginx', 'sleep 20']) await s.exec(l);
  assert.equal((await s.exec('kubectl exec -it web -- sh')).exitCode, 0);
  const got: string[] = [];
  for (const l of SH_LINES) got.push((await s.exec(l)).output.map((o) => o.text).join(''));
  assert.deepEqual(got, [
    '',
    'sh: 2: x: is read only\n',
    'next 2\n',
    "sh: 4: shift: can't shift that many\n",
    'next 2\n',
    'sh: 6: set: Illegal option -o nosuch\n',
    'next 2\n',
    'sh: 8: x: is read only\n',
    'sh: 9: export: x: is read only\n',
    'sh: 10: unset: x: is read only\n',
  ]);
});

test("BusyBox ash's prompt abandons the line after a read-only refusal, not after shift or set -o", async () => {
  const want: Array<[string, string]> = [
    ['readonly x=1', ''],
    ['x=2; echo same $?', 'sh: x: is read only\n'],
    ['echo next $?', 'next 2\n'],
    ['shift 5; echo same $?', 'same 1\n'],
    ['echo next $?', 'next 0\n'],
    ['set -o nosuch; echo same $?', 'sh: set: illegal option -o nosuch\nsame 1\n'],
    ['echo next $?', 'next 0\n'],
    ['x=3 true; echo same $?', 'sh: x: is read only\n'],
    ['export x=4; echo same $?', 'sh: export: x: is read only\n'],
    ['unset x; echo same $?', 'sh: unset: x: is read only\n'],
  ];
  assert.deepEqual(await typedLines(want, 'busybox'), want);
});

test('bash abandons the rest of a script line after a refused assignment and goes on with the next line', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const script = ['readonly x=1', 'x=2; echo same-line', 'echo next-line', 'x=3 && echo and', 'if true; then x=4; echo inif; fi; echo afterif', 'f() { x=5; echo infn; }; f; echo afterf', 'echo $?', '{ x=6; echo brace; }; echo afterbrace', 'EUID=2', 'echo end $?'];
  await s.exec(`printf '%s\\n' ${script.map((l) => `'${l}'`).join(' ')} > /tmp/j15-ro.sh`);
  const r = await s.exec('bash /tmp/j15-ro.sh; echo rc=$?');
  assert.equal(r.stdout, 'next-line\n1\nend 1\nrc=0\n');
  assert.equal(
    r.stderr,
    ['/tmp/j15-ro.sh: line 2: x: readonly variable', '/tmp/j15-ro.sh: line 4: x: readonly variable', '/tmp/j15-ro.sh: line 5: x: readonly variable', '/tmp/j15-ro.sh: line 6: x: readonly variable', '/tmp/j15-ro.sh: line 8: x: readonly variable', '/tmp/j15-ro.sh: line 9: EUID: readonly variable', ''].join('\n'),
  );
});
