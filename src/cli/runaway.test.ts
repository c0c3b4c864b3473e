/**
 * Issue 18, bounded work: every line typed into the shell ends within its budget
 * (shell/budget.ts) with bash-like results, and never poisons the saved session. Each runaway line
 * runs through `cka-lab shell` as a learner would type it, followed by `echo status=$?`; then the
 * session is resumed from its file and `date` and `kubectl get ns` must still work. Seeded: the
 * fixture's seed is fixed, so the cluster and every output are the same on every run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { harness } from './testing/harness.js';
import { budgetMessage, LINE_SIM_MS } from '../shell/budget.js';
import { StreamLines } from '../ui/input.js';

const STEPS = budgetMessage('steps');
const OUTPUT = budgetMessage('output');
const TIME = budgetMessage('time');

/** A line, what it must print on stdout and stderr, and its status (`$?` on the next line). */
const LINES: Array<{ line: string; stdout: string; stderr: string; status: number }> = [
  // catastrophic backtracking in V8; linear on the simulator's engine
  { line: 'echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab | grep -E "(a+)+$"', stdout: '', stderr: '', status: 1 },
  { line: 'echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | grep -cE "(a+)+$"', stdout: '1\n', stderr: '', status: 0 },
  { line: "echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab | sed -E 's/(a|aa)+$/X/'", stdout: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n', stderr: '', status: 0 },
  { line: "echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab | awk '/(a*)*$/ { print \"m\" }'", stdout: 'm\n', stderr: '', status: 0 },
  // sed's branch loop, and one that doubles the pattern space
  { line: "echo x | sed ':a;ba'", stdout: '', stderr: STEPS, status: 130 },
  { line: "echo x | sed ':a;s/.*/&&/;ba'", stdout: '', stderr: STEPS, status: 130 },
  // awk loops
  { line: "awk 'BEGIN { while (1) {} }'", stdout: '', stderr: STEPS, status: 130 },
  // sleep past the line's simulated time: the clock does not move
  { line: 'sleep 99999999999999999999', stdout: '', stderr: TIME, status: 130 },
  { line: 'sleep inf', stdout: '', stderr: TIME, status: 130 },
  { line: 'timeout 2 sleep inf', stdout: '', stderr: '', status: 124 },
  { line: "kubectl wait --for=condition=Ready pod/none --timeout=9999999h", stdout: '', stderr: 'error: invalid argument "9999999h" for "--timeout" flag: time: invalid duration "9999999h"\nSee \'kubectl wait --help\' for usage.\n', status: 1 },
  // huge precision and output: a clear limit, never JavaScript's error text or a short answer
  { line: 'printf "%.999999999f\\n" 1', stdout: '', stderr: OUTPUT, status: 130 },
  { line: 'printf "%.3f|%.102f\\n" 2.5 1', stdout: `2.500|1.${'0'.repeat(102)}\n`, stderr: '', status: 0 },
  { line: 'seq 1 100000000000 | tail -1', stdout: '', stderr: OUTPUT, status: 130 },
  { line: 'seq 1 100000 | tail -1', stdout: '100000\n', stderr: '', status: 0 },
  // nested loops share one step budget: one message, not one per inner loop
  { line: 'while true; do while true; do :; done; done; echo after', stdout: '', stderr: STEPS, status: 130 },
  { line: "ssh cka-w1 'while true; do :; done'; echo after", stdout: '', stderr: STEPS, status: 130 },
  { line: 'f() { f; }; f', stdout: '', stderr: 'bash: f: maximum function nesting level exceeded (100)\n', status: 1 },
  { line: 'for i in 1 2 3; do echo $i; done', stdout: '1\n2\n3\n', stderr: '', status: 0 },
  // extreme numbers: the real tools' words, never a JavaScript exception's
  { line: 'date -d @99999999999999999', stdout: '', stderr: 'date: time ‘99999999999999999’ is out of range\n', status: 1 },
  { line: 'printf "%d\n" 99999999999999999999999', stdout: '9223372036854775807\n', stderr: 'bash: printf: warning: 99999999999999999999999: Numerical result out of range\n', status: 0 },
  { line: 'printf "%*d|\n" 99999999999 1', stdout: '', stderr: OUTPUT, status: 130 },
  { line: 'cut -c 99999999999999999999- /etc/hostname', stdout: '', stderr: "cut: byte/character offset ‘99999999999999999999’ is too large\nTry 'cut --help' for more information.\n", status: 1 },
  // past 2^64 - 1: GNU head 9.1 refuses the count (xdectoumax), checked against the real one
  { line: 'head -c 99999999999999999999 /etc/hostname', stdout: '', stderr: 'head: invalid number of bytes: ‘99999999999999999999’: Value too large for defined data type\n', status: 1 },
];

test('runaway lines end within the line budget with bash-like results; the session saves, reloads and works', async () => {
  const h = harness();
  const before = await h.run(['shell'], 'date +%s\n');
  const t0 = Number(before.stdout.trim());
  for (const c of LINES) {
    // CPU time, not wall time: on a loaded machine a line's wall time says nothing of its budget
    const started = process.cpuUsage();
    const r = await h.run(['shell'], `${c.line}\necho status=$?\n`);
    const used = process.cpuUsage(started);
    const ms = (used.user + used.system) / 1000;
    assert.equal(r.stdout, `${c.stdout}status=${c.status}\n`, c.line);
    assert.equal(r.stderr, c.stderr === '' ? '' : c.stderr.endsWith('\n') ? c.stderr : `${c.stderr}\n`, c.line);
    // about a second of CPU; generous for a slow CI host
    assert.ok(ms < 30_000, `${c.line} took ${Math.round(ms)} ms of CPU`);
  }
  const after = await h.run(['shell'], 'date +%s\nkubectl get ns --no-headers | wc -l\ndate\n');
  assert.equal(after.stderr, '');
  const [t1, namespaces, date] = after.stdout.trim().split('\n');
  // `timeout 2` let two seconds pass; nothing else moved the clock far (real time passes with the harness clock only)
  assert.ok(Number(t1) - t0 >= 0 && Number(t1) - t0 < LINE_SIM_MS / 1000, `clock moved ${Number(t1) - t0} s`);
  assert.equal(namespaces, '4');
  assert.match(date ?? '', /^\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d UTC 2026$/);
  const file = JSON.parse(readFileSync(join(h.data, 'xdg', 'cka-lab', 'sessions', 'default.json'), 'utf8')) as { session: { cluster: { now: number } } };
  assert.ok(Number.isFinite(file.session.cluster.now) && file.session.cluster.now < Date.parse('2027-01-01T00:00:00Z'));
});

test('a session saved with an impossible clock (1e23 ms) is set aside and a new one starts', async () => {
  const h = harness();
  await h.run(['shell'], 'kubectl create ns keep\n');
  const dir = join(h.data, 'xdg', 'cka-lab', 'sessions');
  const file = join(dir, 'default.json');
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { session: { cluster: { now: number } } };
  saved.session.cluster.now = 1e23;
  writeFileSync(file, JSON.stringify(saved));
  const r = await h.run(['shell'], 'date\nkubectl get ns --no-headers | wc -l\n');
  assert.match(r.stderr, /^cka-lab: session "default" could not be (read|resumed) \(.*clock is not a valid time.*\); it was moved to .*default\.json\.corrupt-\S+ and a new session starts\n$/);
  assert.match(r.stdout, /^\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d UTC 2026\n4\n$/);
  assert.ok(readdirSync(dir).some((n) => n.startsWith('default.json.corrupt-')));
});

test('SIGINT while a line runs stops it like Ctrl-C: status 130, no limit message, the shell goes on', async () => {
  const h = harness();
  // a SIGINT emitted while no line runs must not end the test process: keep a listener of our own
  const keep = (): void => undefined;
  process.on('SIGINT', keep);
  // interrupt once, as soon as the running line listens (the first line loops until then)
  const timer = setInterval(() => {
    if (process.listenerCount('SIGINT') < 2) return;
    clearInterval(timer);
    process.emit('SIGINT');
  }, 5);
  try {
    const r = await h.run(['shell'], 'while true; do :; done\necho status=$?\nkubectl get ns --no-headers | wc -l\n');
    assert.equal(r.stderr, '', 'an interrupt is not the simulator limit');
    assert.equal(r.stdout, 'status=130\n4\n');
  } finally {
    clearInterval(timer);
    process.off('SIGINT', keep);
  }
});

test('StreamLines.onInterrupt: SIGINT calls the handler until it is removed', () => {
  const lines = new StreamLines(new PassThrough());
  let n = 0;
  const off = lines.onInterrupt(() => n++);
  process.emit('SIGINT');
  off();
  const keep = (): void => undefined;
  process.on('SIGINT', keep);
  process.emit('SIGINT');
  process.off('SIGINT', keep);
  lines.close();
  assert.equal(n, 1);
});
