import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evalArith, formatDate, runScript, type NetCall, type NetResult, type ScriptHost } from './script.js';

const T0 = Date.parse('2026-01-05T10:00:00Z');
const host = (files: Record<string, string> = {}, extra: Partial<ScriptHost> = {}): ScriptHost => ({
  env: { HOSTNAME: 'web', GREETING: 'hello world' },
  readFile: (p) => files[p],
  hasTool: (n) => ['sh', 'cat', 'ls', 'sleep', 'date', 'echo', 'tail'].includes(n),
  daemons: ['nginx'],
  hostname: 'web',
  ...extra,
});
const stdout = (r: ReturnType<typeof runScript>): string => r.events.filter((e) => e.kind === 'out' && e.stream === 'stdout').map((e) => (e as { text: string }).text).join('');

test('script: a date loop prints once per period up to the time asked', () => {
  const r = runScript({ sh: 'while true; do date; sleep 5; done' }, host(), T0, T0 + 12_000);
  assert.equal(stdout(r), 'Mon Jan  5 10:00:00 UTC 2026\nMon Jan  5 10:00:05 UTC 2026\nMon Jan  5 10:00:10 UTC 2026\n');
  assert.deepEqual(r.end, { kind: 'running', horizon: true });
});

test('script: appends to a file carry their times', () => {
  const r = runScript({ sh: 'i=0; while true; do echo "line $i" >> /var/log/app.log; i=$((i+1)); sleep 1; done' }, host(), T0, T0 + 2_000);
  assert.deepEqual(
    r.events.map((e) => [e.t - T0, e.kind, 'text' in e ? e.text : '']),
    [[0, 'write', 'line 0\n'], [1000, 'write', 'line 1\n'], [2000, 'write', 'line 2\n']],
  );
});

test('script: exit codes, && and ||, variables from the environment', () => {
  const r = runScript({ sh: 'echo $GREETING; false || echo recovered; sleep 2 && exit 3' }, host(), T0, T0 + 60_000);
  assert.equal(stdout(r), 'hello world\nrecovered\n');
  assert.deepEqual(r.end, { kind: 'exit', code: 3, at: T0 + 2000 });
});

test('script: for loops, if, test and command substitution', () => {
  const r = runScript({ sh: 'for n in 1 2 3; do if [ $n -ge 2 ]; then echo "n=$n at $(date +%T)"; fi; done' }, host(), T0, T0);
  assert.equal(stdout(r), 'n=2 at 10:00:00\nn=3 at 10:00:00\n');
});

test('script: tail -f prints the last lines then follows the file', () => {
  const lines = Array.from({ length: 12 }, (_, i) => `l${i}\n`).join('');
  const r = runScript({ sh: 'tail -f /var/log/app.log' }, host({ '/var/log/app.log': lines }), T0, T0 + 1000);
  assert.equal(stdout(r), Array.from({ length: 10 }, (_, i) => `l${i + 2}\n`).join(''));
  assert.deepEqual(r.end, { kind: 'blocked', at: T0, follow: '/var/log/app.log' });
});

test('script: a command the image lacks is "not found" (127); a daemon serves', () => {
  const r = runScript({ sh: 'slep 10' }, host(), T0, T0 + 1000);
  assert.equal(r.events[0] && 'text' in r.events[0] ? r.events[0].text : '', 'sh: slep: not found\n');
  assert.deepEqual(r.end, { kind: 'exit', code: 127, at: T0 });
  assert.deepEqual(runScript({ argv: ['nginx', '-g', 'daemon off;'] }, host(), T0, T0 + 1).end, { kind: 'blocked', at: T0 });
});

test('script: stress beyond the memory limit is OOM-killed, within it runs', () => {
  const mem = 100 * 1024 * 1024;
  const argv = ['stress', '--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1'];
  const over = runScript({ argv }, host({}, { memoryLimit: mem }), T0, T0 + 60_000);
  assert.equal(stdout(over), 'stress: info: [1] dispatching hogs: 0 cpu, 0 io, 1 vm, 0 hdd\n');
  assert.deepEqual(over.end, { kind: 'oom', at: T0 + 1000 });
  const under = runScript({ argv: ['stress', '--vm', '1', '--vm-bytes', '50M'] }, host({}, { memoryLimit: mem }), T0, T0 + 60_000);
  assert.equal(under.end.kind, 'blocked');
});

test('script: syntax errors exit 2', () => {
  const r = runScript({ sh: 'while true; do echo' }, host(), T0, T0);
  assert.equal(r.end.kind, 'exit');
  assert.equal((r.end as { code: number }).code, 2);
});

test('script: arithmetic and date formats', () => {
  assert.equal(evalArith('(i + 2) * 3 % 5', () => 4), 3);
  assert.equal(evalArith('n >= 3 && n != 4', () => 3), 1);
  assert.equal(formatDate(T0 + 1234, '%F %T.%N'), '2026-01-05 10:00:01.234000000');
});

test('script: tail -f /dev/null runs until stopped', () => {
  assert.deepEqual(runScript({ sh: 'tail -f /dev/null' }, host(), T0, T0 + 60_000).end, { kind: 'blocked', at: T0, follow: '/dev/null' });
});

test('script: a loop that only sleeps is still running a year on, without running every iteration', () => {
  const YEAR = 365 * 86_400_000;
  for (const sh of ['while true; do sleep 30; done', 'until false; do sleep 1; :; done', 'while :; do x=1; sleep 5 >/dev/null; done']) {
    const r = runScript({ sh }, host(), T0, T0 + YEAR);
    assert.deepEqual(r.end, { kind: 'running' }, sh);
    assert.deepEqual(r.events, [], sh);
  }
});

test('script: a loop that reads the clock is run out, iteration by iteration', () => {
  // no output, no variable change: only the clock decides when it ends
  const until = Math.floor(T0 / 1000) + 95;
  const r = runScript({ sh: `while true; do if [ $(date +%s) -ge ${until} ]; then exit 3; fi; sleep 10; done` }, host(), T0, T0 + 3_600_000);
  assert.deepEqual(r.end, { kind: 'exit', code: 3, at: T0 + 100_000 });
});

test('script: a counting loop is not mistaken for a steady one', () => {
  const r = runScript({ sh: 'i=0; while [ $i -lt 5 ]; do i=$((i+1)); sleep 1; done; echo "done $i"' }, host(), T0, T0 + 60_000);
  assert.equal(stdout(r), 'done 5\n');
  assert.deepEqual(r.end, { kind: 'exit', code: 0, at: T0 + 5000 });
});

/** A network whose answers are scripted per call (numbered from 0): `now` is the present (later calls wait for it). */
function netHost(answers: (call: NetCall, n: number) => NetResult, now = Infinity, seen: NetCall[] = []): ScriptHost {
  return host({}, {
    hasTool: (n) => ['sh', 'wget', 'nc', 'sleep', 'echo'].includes(n),
    net: (call) => {
      if (call.t > now) return 'later';
      seen.push(call);
      return { result: answers(call, seen.length - 1), key: String(seen.length - 1) };
    },
  });
}
const ok = (stderr = ''): NetResult => ({ stdout: '', stderr, exitCode: 0, elapsedMs: 0, files: [] });
const refused: NetResult = { stdout: '', stderr: "wget: can't connect to remote host (10.96.0.10): Connection refused\n", exitCode: 1, elapsedMs: 0, files: [] };

test('script: network tools take their status, output, time and files from the network', () => {
  const cases: { name: string; sh: string; answer: NetResult; out: string; end: unknown }[] = [
    { name: 'success decides &&', sh: 'wget web && echo up || echo down', answer: ok(), out: 'up\n', end: { kind: 'exit', code: 0, at: T0 } },
    { name: 'failure decides ||', sh: 'wget web && echo up || echo down', answer: refused, out: 'down\n', end: { kind: 'exit', code: 0, at: T0 } },
    { name: 'a failing last command is the exit code', sh: 'wget web', answer: refused, out: '', end: { kind: 'exit', code: 1, at: T0 } },
    { name: 'a connect timeout takes its time', sh: 'wget web; echo after', answer: { ...refused, elapsedMs: 127_000 }, out: 'after\n', end: { kind: 'exit', code: 0, at: T0 + 127_000 } },
    { name: 'stdout is captured by $(…)', sh: 'x=$(wget -qO- web); echo "got $x"', answer: { ...ok(), stdout: 'hello\n' }, out: 'got hello\n', end: { kind: 'exit', code: 0, at: T0 } },
    { name: 'files it wrote are seen by later commands', sh: 'wget web; cat /index.html', answer: { ...ok(), files: [['/index.html', 'page\n']] }, out: 'page\n', end: { kind: 'exit', code: 0, at: T0 } },
  ];
  for (const c of cases) {
    const r = runScript({ sh: c.sh }, netHost(() => c.answer), T0, T0 + 3_600_000);
    assert.equal(stdout(r), c.out, c.name);
    assert.deepEqual(r.end, c.end, c.name);
  }
});

test('script: a network call in the future ends the look-ahead there, numbered in call order', () => {
  const seen: NetCall[] = [];
  const r = runScript({ sh: 'wget a; sleep 5; wget b; echo done' }, netHost(() => ok(), T0 + 1000, seen), T0, T0 + 3_600_000);
  assert.deepEqual(r.end, { kind: 'running', horizon: true, at: T0 + 5000 });
  assert.deepEqual(seen.map((c) => [c.argv.join(' '), c.t - T0]), [['wget a', 0]]);
  const later = runScript({ sh: 'wget a; sleep 5; wget b; echo done' }, netHost(() => ok(), T0 + 5000, []), T0, T0 + 3_600_000);
  assert.deepEqual(later.end, { kind: 'exit', code: 0, at: T0 + 5000 });
});

test('script: a retry loop around a network tool is not a steady loop', () => {
  // the Service answers from the third try on: the loop ends then, not "running for ever"
  const r = runScript({ sh: 'until wget -q web 2>/dev/null; do sleep 2; done; echo up' }, netHost((_c, n) => (n >= 2 ? ok() : refused)), T0, T0 + 3_600_000);
  assert.equal(stdout(r), 'up\n');
  assert.deepEqual(r.end, { kind: 'exit', code: 0, at: T0 + 4000 });
});

test('script: a tight loop around a tool that keeps its answer is steady; one whose answer may change is not', () => {
  const same = runScript({ sh: 'while true; do wget -q web; done' }, host({}, { hasTool: (n) => n === 'wget' || n === 'sh', net: () => ({ result: ok(), key: 'k' }) }), T0, T0 + 3_600_000);
  assert.deepEqual(same.end, { kind: 'running' });
  let n = 0;
  const counting = runScript({ sh: 'while wget -q web; do :; done; echo stopped' }, host({}, { hasTool: (x) => x === 'wget' || x === 'sh', net: () => ({ result: n++ < 3 ? ok() : refused, key: String(Math.min(n, 3)) }) }), T0, T0 + 3_600_000);
  assert.equal(stdout(counting), 'stopped\n');
  assert.equal(n, 4);
});

test('script: without a network the tools print nothing and succeed (a cluster without a session)', () => {
  const r = runScript({ sh: 'wget web && echo up' }, host({}, { hasTool: (n) => n === 'wget' || n === 'sh', net: () => undefined }), T0, T0 + 1000);
  assert.equal(stdout(r), 'up\n');
});

test('script: touch and >> create the file the same script then follows (the native-sidecar pattern)', () => {
  const touched = runScript({ sh: 'touch /var/log/app.log; tail -f /var/log/app.log' }, host(), T0, T0 + 1000);
  assert.deepEqual(touched.events.filter((e) => e.kind === 'out'), []);
  assert.deepEqual(touched.end, { kind: 'blocked', at: T0, follow: '/var/log/app.log' });
  assert.deepEqual(touched.events.map((e) => [e.kind, 'path' in e ? e.path : '']), [['write', '/var/log/app.log']]);
  const appended = runScript({ sh: 'echo first >> /f.log; echo second >> /f.log; tail -f /f.log' }, host(), T0, T0 + 1000);
  assert.equal(stdout(appended), 'first\nsecond\n');
  assert.deepEqual(appended.end, { kind: 'blocked', at: T0, follow: '/f.log' });
  // touch leaves a file that exists as it is
  const kept = runScript({ sh: 'touch /data.txt; cat /data.txt' }, host({ '/data.txt': 'kept\n' }), T0, T0 + 1000);
  assert.equal(stdout(kept), 'kept\n');
});
