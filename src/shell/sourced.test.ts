/**
 * Errors in a sourced file (`source FILE`, `. FILE`), replayed against testdata/sourced.txt: the
 * cases of testdata/sourced-cases.txt recorded from the real bash 5.2.15 and dash 0.5.12 (as `sh`)
 * by `record-child-shells.sh sourced-cases.txt`, stdout and stderr merged in order. A
 * non-interactive bash names the sourced file and the line in it (`s10.sh: line 2: nope: command
 * not found`), also in a function defined there; dash writes `sh: 2: ./s10.sh: nope: not found`
 * and ends on a syntax error in the file or a file it cannot open; the commands before a syntax
 * error have run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFixture } from '../testing/fixtures.js';
import { replayRecordingFile, replayShellCases } from '../testing/shell-recordings.js';
import { Session } from './session.js';

test('errors in a sourced file name it as the recorded bash and dash do', async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/sourced.txt', import.meta.url), '/tmp/src', 30), []);
});

test('the interactive bash names a sourced file only in its syntax errors', async () => {
  // recorded from bash 5.2.15 read interactively: `printf '…' | PS1= bash --norc -i 2>&1` in a
  // directory holding these files (error.c error_prolog prints no line number when interactive;
  // parse.y parser_error names the file being read)
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('mkdir -p /tmp/src && cd /tmp/src');
  const files: Array<[string, string]> = [
    ['s10.sh', 'echo a\nnope\n'],
    ['s14.sh', 'echo a\nif then\n'],
    ['s12.sh', 'f() {\n  nope\n}\n'],
    ['s15.sh', 'echo a\necho ${y:?unset}\necho b\n'],
    ['s16.sh', 'echo a\nif true\n'],
  ];
  for (const [name, text] of files) await s.exec(`printf '%s' '${text}' > ${name}`);
  const cases = [
    { cmd: 'source s10.sh', expected: 'a\nbash: nope: command not found\n[exit 127]\n' },
    { cmd: '. ./s14.sh', expected: "a\nbash: ./s14.sh: line 2: syntax error near unexpected token `then'\nbash: ./s14.sh: line 2: `if then'\n[exit 2]\n" },
    { cmd: 'source s12.sh; f', expected: 'bash: nope: command not found\n[exit 127]\n' },
    { cmd: 'source s15.sh', expected: 'a\nbash: y: unset\nb\n[exit 0]\n' },
    { cmd: '. ./s16.sh', expected: 'a\nbash: ./s16.sh: line 3: syntax error: unexpected end of file\n[exit 2]\n' },
  ];
  assert.deepEqual(await replayShellCases(s, cases), []);
});
