import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Vfs } from '../sim/node/vfs.js';
import { Random } from '../util/random.js';
import { textCommands } from './commands/index.js';
import { Interpreter, type InterpreterOptions } from './interpreter.js';
import type { CommandFn } from './types.js';
import { budgetMessage } from './budget.js';

const NOW = Date.UTC(2026, 11, 2, 10, 0, 0);

function shell(over: Partial<InterpreterOptions> = {}, files: Record<string, string> = {}): { sh: Interpreter; fs: Vfs } {
  const fs = new Vfs({ files: {}, dirs: ['/', '/root', '/tmp'] }, () => NOW);
  for (const [p, c] of Object.entries(files)) fs.write(p, c);
  const boom: CommandFn = () => {
    throw new Error('kaboom');
  };
  const sh = new Interpreter({
    lookup: (n) => (n === 'boom' ? boom : textCommands[n]),
    fs,
    env: { HOME: '/root', PATH: '/usr/bin:/bin', USER: 'root' },
    cwd: '/root',
    user: 'root',
    location: { kind: 'workstation', host: 'ws' },
    now: () => NOW,
    ...over,
  });
  return { sh, fs };
}

const cases: Array<{ name: string; lines: string[]; files?: Record<string, string>; stdout: string; stderr?: string; exit?: number; check?: (fs: Vfs) => void }> = [
  { name: 'pipe feeds stdin', lines: ["printf 'b\\na\\nb\\n' | sort | uniq -c"], stdout: '      1 a\n      2 b\n' },
  { name: 'pipeline status is the last command', lines: ['false | true; echo $?'], stdout: '0\n' },
  { name: 'negated pipeline', lines: ['! false; echo $?'], stdout: '0\n' },
  { name: 'and runs on success', lines: ['true && echo yes'], stdout: 'yes\n' },
  { name: 'and skips on failure', lines: ['false && echo yes; echo $?'], stdout: '1\n' },
  { name: 'or runs on failure', lines: ['false || echo fallback'], stdout: 'fallback\n' },
  { name: 'mixed chain', lines: ['false && echo a || echo b && echo c'], stdout: 'b\nc\n' },
  { name: 'redirect creates a file', lines: ['echo hi > /tmp/o.txt', 'cat /tmp/o.txt'], stdout: 'hi\n', check: (fs) => assert.equal(fs.read('/tmp/o.txt'), 'hi\n') },
  { name: 'redirect truncates', lines: ['echo one > f', 'echo two > f', 'cat f'], stdout: 'two\n' },
  { name: 'append', lines: ['echo one > f', 'echo two >> f', 'cat f'], stdout: 'one\ntwo\n' },
  { name: 'truncation happens before the command runs', lines: ['echo data > f', 'cat f > f', 'wc -c f'], stdout: '0 f\n' },
  { name: 'stderr to stdout into a pipe', lines: ['cat nope 2>&1 | tr a-z A-Z'], stdout: 'CAT: NOPE: NO SUCH FILE OR DIRECTORY\n' },
  { name: 'stderr not piped without 2>&1', lines: ['cat nope | wc -l'], stdout: '0\n', stderr: 'cat: nope: No such file or directory\n' },
  { name: '|& pipes stderr', lines: ['cat nope |& wc -l'], stdout: '1\n' },
  { name: 'order of redirections matters', lines: ['cat f nope 2>&1 > out; echo "[$(cat out)]"'], files: { '/root/f': 'x\n' }, stdout: 'cat: nope: No such file or directory\n[x]\n' },
  { name: 'both into a file', lines: ['cat f nope > out 2>&1', 'cat out'], files: { '/root/f': 'x\n' }, stdout: 'x\ncat: nope: No such file or directory\n' },
  { name: '&> both into a file', lines: ['cat f nope &> out', 'wc -l out'], files: { '/root/f': 'x\n' }, stdout: '2 out\n' },
  { name: 'stderr to a file', lines: ['cat nope 2> err', 'cat err'], stdout: 'cat: nope: No such file or directory\n' },
  { name: '/dev/null', lines: ['cat nope 2>/dev/null; echo $?'], stdout: '1\n' },
  {
    name: 'missing directory for redirect',
    lines: ['echo x > /root/CKA/x.out; echo $?'],
    stdout: '1\n',
    stderr: 'bash: /root/CKA/x.out: No such file or directory\n',
    check: (fs) => assert.equal(fs.exists('/root/CKA'), false),
  },
  { name: 'redirect onto a directory', lines: ['echo x > /tmp'], stdout: '', stderr: 'bash: /tmp: Is a directory\n', exit: 1 },
  { name: 'redirect below a file', lines: ['echo x > f/y'], files: { '/root/f': '' }, stdout: '', stderr: 'bash: f/y: Not a directory\n', exit: 1 },
  { name: 'input redirect', lines: ['wc -l < f'], files: { '/root/f': 'a\nb\n' }, stdout: '2\n' },
  { name: 'missing input redirect', lines: ['wc -l < nope'], stdout: '', stderr: 'bash: nope: No such file or directory\n', exit: 1 },
  { name: 'ambiguous redirect', lines: ['echo x > $NOPE'], stdout: '', stderr: 'bash: $NOPE: ambiguous redirect\n', exit: 1 },
  { name: 'command not found', lines: ['kubeclt get po'], stdout: '', stderr: 'bash: kubeclt: command not found\n', exit: 127 },
  { name: 'not found status', lines: ['nope 2>/dev/null; echo $?'], stdout: '127\n' },
  { name: 'path not found', lines: ['./run.sh'], stdout: '', stderr: 'bash: ./run.sh: No such file or directory\n', exit: 127 },
  { name: 'throwing command is contained', lines: ['boom'], stdout: '', stderr: 'boom: kaboom\n', exit: 1 },
  { name: 'export then use on the same line', lines: ['export NS=dev; echo $NS; printenv NS'], stdout: 'dev\ndev\n' },
  { name: 'unexported variable hidden from commands', lines: ['X=1', 'echo $X; printenv X; echo $?'], stdout: '1\n1\n' },
  { name: 'prefix assignment only for the command', lines: ['A=1 printenv A; echo "[$A]"'], stdout: '1\n[]\n' },
  { name: 'word splitting of unquoted variables', lines: ['F="a b"', 'printf "<%s>" $F "$F"; echo'], stdout: '<a><b><a b>\n' },
  { name: 'empty unquoted variable vanishes', lines: ['printf "<%s>" $EMPTY "$EMPTY"; echo'], stdout: '<>\n' },
  { name: 'command substitution', lines: ['echo "n=$(printf \'a\\nb\\n\' | wc -l)"'], stdout: 'n=2\n' },
  { name: 'arithmetic', lines: ['i=4; echo $((i * 2 + 1)) $((7 / 2)) $((2 ** 10))'], stdout: '9 3 1024\n' },
  { name: 'division by zero', lines: ['echo $((1/0))'], stdout: '', stderr: 'bash: 1/0: division by 0 (error token is "0")\n', exit: 1 },
  { name: 'bad substitution', lines: ['echo ${A.b}'], stdout: '', stderr: 'bash: ${A.b}: bad substitution\n', exit: 1 },
  { name: 'cd and pwd', lines: ['mkdir -p /root/a/b && cd a/b && pwd', 'cd ..; pwd; cd -'], stdout: '/root/a/b\n/root/a\n/root/a/b\n' },
  { name: 'cd errors', lines: ['cd /nope'], stdout: '', stderr: 'bash: cd: /nope: No such file or directory\n', exit: 1 },
  { name: 'cd home', lines: ['cd /tmp; cd; pwd'], stdout: '/root\n' },
  { name: 'glob expansion', lines: ['echo /etc/k/*.yaml'], files: { '/etc/k/b.yaml': '', '/etc/k/a.yaml': '', '/etc/k/c.conf': '' }, stdout: '/etc/k/a.yaml /etc/k/b.yaml\n' },
  { name: 'relative glob', lines: ['cd /etc/k; ls *.yaml'], files: { '/etc/k/b.yaml': '', '/etc/k/a.yaml': '' }, stdout: 'a.yaml\tb.yaml\n' },
  { name: 'quoted glob stays literal', lines: ['echo "/etc/*" /nomatch*'], stdout: '/etc/* /nomatch*\n' },
  { name: 'heredoc expands', lines: ['N=web; cat <<EOF\nname: $N\nEOF'], stdout: 'name: web\n' },
  { name: 'quoted heredoc does not', lines: ["cat <<'EOF' > /tmp/p.yaml\nname: $N\nEOF", 'cat /tmp/p.yaml'], stdout: 'name: $N\n' },
  { name: 'subshell keeps cwd', lines: ['(cd /tmp; pwd); pwd'], stdout: '/tmp\n/root\n' },
  { name: 'pipeline elements are subshells', lines: ['cd /tmp | true; pwd'], stdout: '/root\n' },
  { name: 'alias defined then used', lines: ["alias k='echo kubectl'", 'k get po', 'alias'], stdout: "kubectl get po\nalias k='echo kubectl'\n" },
  { name: 'unalias', lines: ['alias k=echo', 'unalias k', 'k'], stdout: '', stderr: 'bash: k: command not found\n', exit: 127 },
  { name: 'syntax error status', lines: ['echo a | | b', 'echo $?'], stdout: '2\n', stderr: "bash: syntax error near unexpected token `|'\n" },
  { name: 'which', lines: ['which grep cd nope; echo $?'], stdout: '/usr/bin/grep\n1\n' },
  { name: 'xargs runs commands', lines: ["printf 'f\\ng\\n' | xargs touch", 'ls'], stdout: 'f  g\n' },
  { name: 'env runs a command', lines: ['env A=1 printenv A'], stdout: '1\n' },
  { name: 'env unknown command', lines: ['env nope'], stdout: '', stderr: 'env: ‘nope’: No such file or directory\n', exit: 127 },
  { name: 'tee writes a file mid-pipe', lines: ['echo hi | tee /tmp/t | wc -c', 'cat /tmp/t'], stdout: '3\nhi\n' },
  { name: 'hostname and whoami', lines: ['hostname; whoami'], stdout: 'ws\nroot\n' },
  { name: 'date on the simulated clock', lines: ['date; date +%s'], stdout: 'Wed Dec  2 10:00:00 UTC 2026\n1796205600\n' },
  { name: 'for loop', lines: ['for i in $(seq 3); do echo "n$i"; done'], stdout: 'n1\nn2\nn3\n' },
  { name: 'for loop output redirected', lines: ['for f in a b; do echo $f; done > /tmp/l', 'cat /tmp/l'], stdout: 'a\nb\n' },
  { name: 'while with counter and break', lines: ['i=0; while true; do i=$((i+1)); [ $i -ge 3 ] && break; done; echo $i'], stdout: '3\n' },
  { name: 'until loop', lines: ['i=0; until [ $i -eq 2 ]; do echo $i; i=$((i+1)); done'], stdout: '0\n1\n' },
  { name: 'continue', lines: ['for i in 1 2 3; do [ $i = 2 ] && continue; echo $i; done'], stdout: '1\n3\n' },
  { name: 'if else', lines: ['if grep -q a f; then echo has; else echo not; fi'], files: { '/root/f': 'b\n' }, stdout: 'not\n' },
  { name: 'runaway loop ends the line at the step budget, as Ctrl-C would', lines: ['while true; do :; done; echo after'], stdout: '', stderr: `${budgetMessage('steps')}\n`, exit: 130 },
  { name: 'tail -f prints what exists and returns', lines: ['tail -f f'], files: { '/root/f': '1\n2\n' }, stdout: '1\n2\n' },
  { name: 'sleep moves date', lines: ['sleep 2; date +%T'], stdout: '10:00:02\n' },
];

for (const c of cases) {
  test(`interpreter: ${c.name}`, async () => {
    const { sh, fs } = shell({}, c.files ?? {});
    // stdout/stderr accumulate over the lines; the exit status is the last line's.
    let stdout = '';
    let stderr = '';
    let exitCode = 0;
    for (const l of c.lines) {
      const r = await sh.run(l);
      stdout += r.stdout;
      stderr += r.stderr;
      exitCode = r.exitCode;
    }
    assert.equal(stdout, c.stdout);
    assert.equal(stderr, c.stderr ?? '');
    assert.equal(exitCode, c.exit ?? 0);
    c.check?.(fs);
  });
}

test('terminal output keeps stdout/stderr order', async () => {
  const { sh } = shell({}, { '/root/a': 'A\n', '/root/b': 'B\n' });
  const r = await sh.run('cat a nope b; echo done');
  assert.deepEqual(r.output, [
    { stream: 'stdout', text: 'A\n' },
    { stream: 'stderr', text: 'cat: nope: No such file or directory\n' },
    { stream: 'stdout', text: 'B\ndone\n' },
  ]);
});

test('exit returns a sentinel and stops the line', async () => {
  const { sh } = shell();
  const r = await sh.run('echo a; exit 3; echo b');
  assert.equal(r.stdout, 'a\n');
  assert.equal(r.exit, 3);
  const r2 = await sh.run('false; exit');
  assert.equal(r2.exit, 1);
  const r3 = await sh.run('(exit 4); echo $?');
  assert.equal(r3.exit, undefined);
  assert.equal(r3.stdout, '4\n');
});

test('alias writes through to the shared table', async () => {
  const table: Record<string, string> = { k: 'kubectl' };
  const { sh } = shell({ aliases: table });
  await sh.run("alias kgp='kubectl get pods'; unalias k");
  assert.deepEqual(table, { kgp: 'kubectl get pods' });
});

test('sleep reports simulated time', async () => {
  const { sh } = shell();
  const r = await sh.run('sleep 1.5; sleep 1m');
  assert.equal(r.advanceMs, 61_500);
});

test('history comes from the injected list', async () => {
  const { sh } = shell({ history: () => ['k get po', 'history'] });
  const r = await sh.run('history');
  assert.equal(r.stdout, '    1  k get po\n    2  history\n');
});

test('cwd and env are visible to the REPL', async () => {
  const { sh } = shell();
  await sh.run('cd /tmp; export KUBECONFIG=/root/.kube/config');
  assert.equal(sh.cwd, '/tmp');
  assert.equal(sh.env['KUBECONFIG'], '/root/.kube/config');
  assert.equal(sh.env['PWD'], '/tmp');
});

test('ls lays out columns on a terminal and lines in a pipe', async () => {
  const files: Record<string, string> = {};
  for (const n of ['alpha', 'beta', 'gamma', 'delta', 'epsilon']) files[`/d/${n}`] = '';
  const { sh } = shell({}, files);
  assert.equal((await sh.run('ls /d')).stdout, 'alpha  beta  delta  epsilon  gamma\n');
  // Recorded from GNU ls --width=20 and --width=22 (note the tab before gamma).
  assert.equal((await sh.run('COLUMNS=20 ls /d')).stdout, 'alpha  epsilon\nbeta   gamma\ndelta\n');
  assert.equal((await sh.run('COLUMNS=22 ls /d')).stdout, 'alpha  delta\tgamma\nbeta   epsilon\n');
  assert.equal((await sh.run('ls /d | cat')).stdout, 'alpha\nbeta\ndelta\nepsilon\ngamma\n');
});

test('ls -l shows mode, size, time and total', async () => {
  const { sh, fs } = shell({}, { '/m/kube-apiserver.yaml': 'x'.repeat(3900), '/m/etcd.yaml': 'y'.repeat(2400) });
  fs.mkdir('/m/sub');
  // entries are frozen (vfs.ts write): replaced, not changed
  fs.data.files['/m/etcd.yaml'] = { ...fs.data.files['/m/etcd.yaml']!, mode: 0o600 };
  const r = await sh.run('ls -l /m');
  assert.equal(
    r.stdout,
    'total 12\n' +
      '-rw------- 1 root root 2400 Dec  2 10:00 etcd.yaml\n' +
      '-rw-r--r-- 1 root root 3900 Dec  2 10:00 kube-apiserver.yaml\n' +
      // an empty directory dates from the node's install (its oldest file), never the epoch
      'drwxr-xr-x 2 root root 4096 Dec  2 10:00 sub\n',
  );
});

/** Deterministic fuzzing: random and mutated command lines never throw and parse failures change nothing. */
test('fuzz: 2000 random and mutated lines', async () => {
  const rnd = new Random(42);
  const seeds = [
    'kubectl get pods -A | grep -v Running | awk \'{print $2}\' > /root/CKA/out.txt',
    'echo "a b" \'c\' $HOME ${X} $(date) `hostname` > f 2>&1 && cat f || echo no',
    "cat <<EOF | sed -n '2,4p'\nx\ny\nEOF",
    'for i in 1 2 3; do echo $i; done',
    'ls -la /etc /nope | sort -k5 -n | head -3; wc -l < f >> g',
    "awk -F: 'BEGIN{OFS=\"-\"} $3 > 0 {print $1, NF; n++} END {print n}' /etc/passwd",
    'grep -E "a|b" -c * | cut -d: -f2 | tr -d 0 | xargs -n1 echo',
    '(cd /tmp && mkdir -p a/b) ; rm -rf a ; cp -r /root /tmp/x; mv f g',
    "sed -i 's/a/b/g;/^#/d' f; printf '%s %d\\n' x 3; base64 -w0 f | base64 -d",
    'X=1 Y="$X 2" env | sort | uniq -c | column -t; test -f f && [ -d /tmp ]',
  ];
  const alphabet = ['|', '||', '&&', ';', '>', '>>', '<', '2>&1', '<<', "'", '"', '\\', '$', '$(', '`', '(', ')', '{', '}', '*', '?', '[', '~', '#', '\n', ' ', 'a', '=', '-n', '&', '!'];
  const cmds = Object.keys(textCommands).concat(['cd', 'export', 'alias', 'unset', 'exit']);
  const lines: string[] = [];
  for (let i = 0; i < 2000; i++) {
    if (i % 2 === 0) {
      // Mutate a seed: insert, delete or replace a few characters.
      let s = seeds[rnd.int(seeds.length)]!;
      const n = 1 + rnd.int(4);
      for (let k = 0; k < n; k++) {
        const pos = rnd.int(s.length + 1);
        const op = rnd.int(3);
        const tok = alphabet[rnd.int(alphabet.length)]!;
        if (op === 0) s = s.slice(0, pos) + tok + s.slice(pos);
        else if (op === 1) s = s.slice(0, pos) + s.slice(pos + 1 + rnd.int(3));
        else s = s.slice(0, pos) + tok + s.slice(pos + tok.length);
      }
      lines.push(s);
    } else {
      const words = [cmds[rnd.int(cmds.length)]!];
      const n = rnd.int(8);
      for (let k = 0; k < n; k++) words.push(rnd.int(3) === 0 ? alphabet[rnd.int(alphabet.length)]! : ['-l', '-n', '2', 'f', '/tmp', 'x y', '{print $1}', 's/a/b/', '-F:', '.*'][rnd.int(10)]!);
      lines.push(words.join(' '));
    }
  }
  for (const line of lines) {
    const { sh, fs } = shell({}, { '/root/f': 'a\nb\n# c\n', '/etc/passwd': 'root:x:0:0\n' });
    const before = JSON.stringify(fs.data);
    const { parseScript } = await import('./parse/ast.js');
    const parsed = parseScript(line);
    let r;
    try {
      r = await sh.run(line);
    } catch (e) {
      assert.fail(`threw on ${JSON.stringify(line)}: ${String(e)}`);
    }
    assert.equal(typeof r.exitCode, 'number');
    if (!parsed.ok) {
      assert.equal(JSON.stringify(fs.data), before, `Vfs changed by unparsable ${JSON.stringify(line)}`);
      assert.equal(r.exitCode, 2);
    }
  }
});
