/**
 * Quoting against expansion, replayed against testdata/quoting.txt: the cases of
 * testdata/quoting-cases.txt recorded from the real bash 5.2.15 and dash 0.5.12 (as `sh`) by
 * `record-child-shells.sh quoting-cases.txt`, stdout and stderr merged in order.
 * - The word of an unquoted `${u:-WORD}` / `${u+WORD}` is expanded in place: its quoted pieces are
 *   neither split nor globbed (`${u:-'a  b'}` is one word), its unquoted ones are; the `=` forms
 *   split the assigned value (bash/subst.c parameter_brace_expand_rhs, dash expand.c subevalvar).
 * - Brace expansion skips quoted text (`{a,'b c'}`, `{a,"b,c"}`, `'{a,b}'`, `\{a,b}`:
 *   bash/braces.c brace_expand); dash has none.
 * - dash has no `[[`, `function`, arrays, here-strings, `|&` or process substitution: it runs `[[` as
 *   a command and rejects the rest as its parser.c does; bash's own builtins (`let`, `declare`,
 *   `shopt`) are not found there, and bash's `${x:1}`, `${x/a/b}`, `${x^^}`, `${!x}` are a Bad
 *   substitution that ends it.
 * - `declare -f` prints a function's here-documents after their command (print_cmd.c).
 * - `echo -e`, `printf %b` and dash's echo read escapes by their own rules (commands/echo.ts).
 * - `eval` runs its words as commands of the shell, its errors worded as bash's and dash's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFixture } from '../testing/fixtures.js';
import { replayRecordingFile } from '../testing/shell-recordings.js';
import { Session } from './session.js';

test('quoted text in ${…} words and brace expressions reads as the recorded bash and dash read it', async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/quoting.txt', import.meta.url), '/tmp/qt', 50), []);
});

test('the interactive bash words an eval error as one it read itself', async () => {
  // recorded from bash 5.2.15 read interactively (`printf … | PS1= bash --norc -i 2>&1`)
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const got: string[] = [];
  for (const line of ["eval 'if then'", 'echo $?', 'eval nope']) got.push((await s.exec(line)).output.map((o) => o.text).join(''));
  assert.deepEqual(got, ["bash: syntax error near unexpected token `then'\n", '2\n', 'bash: nope: command not found\n']);
});
