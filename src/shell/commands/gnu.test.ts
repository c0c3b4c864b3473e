/**
 * Every case in testdata/gnu.txt was recorded from the real bash 5.2 and GNU tools (coreutils,
 * grep 3.8, sed 4.9, mawk 1.3.4) by testdata/record.sh. Each is replayed here through the
 * Interpreter and these commands on a Vfs holding the same files, and must match byte for byte
 * (stdout and stderr merged in order, then the exit status).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Vfs } from '../../sim/node/vfs.js';
import { Interpreter } from '../interpreter.js';
import { textCommands } from './index.js';

const ROOT = '/tmp/cka-gnu/w';

/** The files of testdata/fixture.sh. */
export function fixtureVfs(): Vfs {
  const fs = new Vfs({ files: {}, dirs: ['/'] }, () => Date.UTC(2026, 11, 2, 10, 0, 0));
  const w = (p: string, c: string): void => fs.write(`${ROOT}/${p}`, c);
  fs.mkdir('/root');
  fs.mkdir(`${ROOT}/d/sub`);
  w('n.txt', 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n');
  w('m.txt', 'alpha\nbeta two\n');
  w('s.txt', 'b 2\na 10\nc 1\nb 2\n');
  w('passwd', 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n');
  w('pods.txt', 'NAME READY STATUS RESTARTS AGE\nweb-1 1/1 Running 0 5m\nweb-2 0/1 CrashLoopBackOff 7 5m\ndb-0 1/1 Running 2 1h\n');
  w('d/x', 'x\n');
  w('d/sub/y', 'hello world\n');
  w('nonl.txt', 'no newline');
  w('p.json', '{"items":[{"metadata":{"name":"a","labels":{"app":"web"}},"status":{"phase":"Running"}},{"metadata":{"name":"b"},"status":{"phase":"Pending"}}]}\n');
  return fs;
}

interface Case {
  cmd: string;
  expected: string;
}

function parseTranscript(text: string): Case[] {
  const cases: Case[] = [];
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    const l = lines[i]!;
    if (!l.startsWith('$ ')) {
      i++;
      continue;
    }
    const cmd = [l.slice(2)];
    i++;
    while (i < lines.length && lines[i]!.startsWith('> ')) cmd.push(lines[i++]!.slice(2));
    const out: string[] = [];
    while (i < lines.length && !/\[exit \d+\]$/.test(lines[i]!)) out.push(lines[i++]!);
    out.push(lines[i++] ?? '');
    cases.push({ cmd: cmd.join('\n'), expected: `${out.join('\n')}\n` });
  }
  return cases;
}

const cases = parseTranscript(readFileSync(new URL('./testdata/gnu.txt', import.meta.url), 'utf8'));

for (const c of cases) {
  test(`gnu: ${c.cmd}`, async () => {
    const fs = fixtureVfs();
    const sh = new Interpreter({
      lookup: (n) => textCommands[n],
      fs,
      env: { HOME: '/root', PATH: '/usr/bin:/bin', LC_ALL: 'C.UTF-8', PWD: ROOT },
      cwd: ROOT,
      user: 'root',
      location: { kind: 'workstation', host: 'gnu' },
      now: () => Date.UTC(2026, 11, 2, 10, 0, 0),
      tty: false,
    });
    const r = await sh.run(c.cmd);
    const text = r.output.map((o) => o.text).join('');
    // record.sh captures `cmd; echo "[exit $?]"`, so output without a final newline runs into it.
    const actual = `${text}[exit ${r.exitCode}]\n`;
    assert.equal(actual, c.expected);
  });
}
