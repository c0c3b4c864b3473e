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

/**
 * bash's own read-only variables at its prompt, recorded from bash 5.2.15 (`bash --norc -i` on a
 * pty, as root): EUID, UID, PPID, SHELLOPTS, BASHOPTS, BASH_VERSINFO exist, `readonly -p` lists
 * them, and an assignment is refused (a bare one ends the line, as bash's variable assignment
 * error does at the prompt). PPID is the simulated shell's parent (recorded: the pty's process).
 */
const OWN: ReadonlyArray<[string, string]> = [
  ['echo $SHELLOPTS; echo $BASHOPTS', 'braceexpand:emacs:hashall:histexpand:history:interactive-comments:monitor\ncheckwinsize:cmdhist:complete_fullquote:expand_aliases:extquote:force_fignore:globasciiranges:globskipdots:hostcomplete:interactive_comments:patsub_replacement:progcomp:promptvars:sourcepath\n'],
  [
    'readonly -p',
    'declare -r BASHOPTS="checkwinsize:cmdhist:complete_fullquote:expand_aliases:extquote:force_fignore:globasciiranges:globskipdots:hostcomplete:interactive_comments:patsub_replacement:progcomp:promptvars:sourcepath"\n' +
      'declare -ar BASH_VERSINFO=([0]="5" [1]="2" [2]="15" [3]="1" [4]="release" [5]="x86_64-pc-linux-gnu")\n' +
      'declare -ir EUID="0"\n' +
      'declare -ir PPID="4241"\n' +
      'declare -r SHELLOPTS="braceexpand:emacs:hashall:histexpand:history:interactive-comments:monitor"\n' +
      'declare -ir UID="0"\n',
  ],
  ['EUID=1; echo $?', 'bash: EUID: readonly variable\n'],
  ['unset UID; echo $?', 'bash: unset: UID: cannot unset: readonly variable\n1\n'],
  ['echo ${BASH_VERSINFO[@]} $BASH_VERSINFO ${#BASH_VERSINFO[@]}', '5 2 15 1 release x86_64-pc-linux-gnu 5 6\n'],
  ['BASH_VERSINFO[0]=6; echo $?', 'bash: BASH_VERSINFO: readonly variable\n'],
  ['PPID=3 true; echo $?', 'bash: PPID: readonly variable\n0\n'],
  ['echo $EUID $UID $PPID', '0 0 4241\n'],
];

test("bash's own read-only variables exist with a root shell's values and refuse a value", async () => {
  assert.deepEqual(await typedLines(OWN), OWN);
});
