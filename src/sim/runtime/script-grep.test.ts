import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grepRun } from './script-grep.js';

const FILES: Record<string, string> = { '/log': 'ok one\nERROR two\nok three\nerror four\n' };
const read = (p: string): string | undefined => FILES[p];

const CASES: { name: string; args: string[]; stdin?: string; out: string; err?: string; code: number }[] = [
  { name: 'stdin, BRE, match', args: ['nginx'], stdin: '<h1>Welcome to nginx!</h1>\n', out: '<h1>Welcome to nginx!</h1>\n', code: 0 },
  { name: 'no match is status 1', args: ['apache'], stdin: 'nginx\n', out: '', code: 1 },
  { name: '-q prints nothing', args: ['-q', 'nginx'], stdin: 'nginx\n', out: '', code: 0 },
  { name: '-o prints the match only', args: ['-o', 'Welcome to [a-z]*'], stdin: '<h1>Welcome to nginx!</h1>\n', out: 'Welcome to nginx\n', code: 0 },
  { name: '-c counts per file', args: ['-c', 'ok', '/log'], out: '2\n', code: 0 },
  { name: '-ic ignores case', args: ['-ic', 'error', '/log'], out: '2\n', code: 0 },
  { name: '-v inverts', args: ['-v', 'ok', '/log'], out: 'ERROR two\nerror four\n', code: 0 },
  { name: '-n numbers lines', args: ['-n', 'three', '/log'], out: '3:ok three\n', code: 0 },
  { name: '-E alternation', args: ['-E', 'two|four', '/log'], out: 'ERROR two\nerror four\n', code: 0 },
  { name: 'BRE | is literal', args: ['two|four', '/log'], out: '', code: 1 },
  { name: '-F fixed string', args: ['-F', '.', '/log'], out: '', code: 1 },
  { name: '-w whole words', args: ['-w', 'on', '/log'], out: '', code: 1 },
  { name: '-e patterns', args: ['-e', 'one', '-e', 'four', '/log'], out: 'ok one\nerror four\n', code: 0 },
  { name: 'two files get prefixes', args: ['one', '/log', '-'], stdin: 'one\n', out: '/log:ok one\n(standard input):one\n', code: 0 },
  { name: 'missing file', args: ['x', '/nope'], out: '', err: 'grep: /nope: No such file or directory\n', code: 2 },
  { name: '-s silences it', args: ['-s', 'x', '/nope'], out: '', code: 2 },
  { name: 'unknown option', args: ['-Z', 'x'], out: '', err: "grep: invalid option -- 'Z'\n", code: 2 },
];

for (const c of CASES) {
  test(`script grep: ${c.name}`, () => {
    const r = grepRun(c.args, c.stdin ?? '', read);
    assert.deepEqual({ out: r.out, err: r.err, code: r.code }, { out: c.out, err: c.err ?? '', code: c.code });
  });
}
