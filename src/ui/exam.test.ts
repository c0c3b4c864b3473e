/**
 * A 3-task exam through stdin with a pinned real clock: draw, per-task clusters, `tasks`,
 * `task N`, `flag`, `answer`, quit and resume (the timer kept running), the 15-minute alert, and
 * time-out grading every task on its own state with partial credit and pass/fail at 66 %.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { harness, until } from '../cli/testing/harness.js';
import { dueAlert, timeLeft, totals, type TaskResult } from './exam.js';
import type { ExamState } from '../app/exam-store.js';
import { examMinutes } from '../cli/exam.js';

const SCENARIOS = fileURLToPath(new URL('./testdata/scenarios', import.meta.url));

test('exam: alerts and time left', () => {
  const st = { minutes: 30, startedAt: 0, alerts: [] as number[] } as unknown as ExamState;
  const cases = [
    { name: 'start', now: 0, left: 1_800_000, alert: undefined },
    { name: '14 min left', now: 16 * 60_000, left: 14 * 60_000, alert: 15 },
    { name: '4 min left jumps to 5', now: 26 * 60_000, left: 4 * 60_000, alert: 5 },
    { name: 'over', now: 31 * 60_000, left: -60_000, alert: undefined },
  ];
  for (const c of cases) {
    assert.equal(timeLeft(st, c.now), c.left, c.name);
    assert.equal(dueAlert(st, c.now), c.alert, c.name);
  }
  assert.equal(dueAlert({ ...st, alerts: [15] }, 16 * 60_000), undefined, 'shown once');
});

test('exam: minutes follow the real exam\'s pace, 120 for 17 tasks', () => {
  const cases = [
    { tasks: 17, minutes: 120 },
    { tasks: 3, minutes: 21 },
    { tasks: 1, minutes: 7 },
    { tasks: 10, minutes: 71 },
    { tasks: 34, minutes: 240 },
  ];
  for (const c of cases) assert.equal(examMinutes(c.tasks), c.minutes, `${c.tasks} tasks`);
});

test('exam: without --minutes the limit scales with the tasks drawn; --minutes wins', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const paced = await h.run(['exam', '--tasks', '3', '--seed', '5'], 'quit\n');
  assert.match(paced.stdout, /^Exam: 3 tasks, 21 minutes, pass mark 66%\./);
  assert.match(paced.stdout, /The exam goes on: 21:00 left\./);
  const h2 = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const short = await h2.run(['exam', '--tasks', '17', '--seed', '5'], 'quit\n');
  assert.match(short.stdout, /^Exam: 3 tasks \(the library has only 3\), 21 minutes,/, 'the pace follows the tasks drawn');
  const h3 = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const set = await h3.run(['exam', '--tasks', '3', '--minutes', '45', '--seed', '5'], 'quit\n');
  assert.match(set.stdout, /^Exam: 3 tasks, 45 minutes,/);
});

test('exam: totals give partial credit and pass at 66 %', () => {
  const r = (points: number, weight: number) => ({ points, weight }) as TaskResult;
  const cases = [
    { name: 'pass at exactly 66', results: [r(6.6, 10)], want: { points: 6.6, max: 10, percent: 66, passed: true } },
    { name: 'fail below', results: [r(4, 4), r(0, 6), r(5, 5)], want: { points: 9, max: 15, percent: 60, passed: false } },
  ];
  for (const c of cases) assert.deepEqual(totals(c.results), c.want, c.name);
});

test('exam: three tasks through stdin, quit and resume, alert, time-out grading', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const first = await h.run(['exam', '--tasks', '3', '--minutes', '30', '--seed', '5'], 'tasks\nquit\n');
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^Exam: 3 tasks, 30 minutes, pass mark 66%\./);
  const list = first.stdout.split('\n').filter((l) => /^[* ] +\d /.test(l));
  assert.equal(list.length, 3, first.stdout);
  const indexOf = (id: string): number => list.findIndex((l) => l.includes(id === 't-namespace' ? 'labelled namespace' : id === 't-file' ? 'node name' : 'service CIDR')) + 1;
  assert.match(first.stdout, /The exam goes on: 30:00 left\. Resume with `cka-lab exam`\.\n$/);
  const examFile = join(h.data, 'xdg', 'cka-lab', 'exam.json');
  assert.ok(existsSync(examFile));

  // resume ten minutes later: the timer kept wall time
  h.clock.now += 10 * 60_000;
  const stdin = new PassThrough();
  const run = h.run(['exam'], stdin);
  await until(() => h.live.stdout.includes('Resuming the exam'), 'resume');
  assert.match(h.live.stdout, /20:00 left/);
  const send = async (line: string, expect: string): Promise<void> => {
    const before = h.live.stdout.length;
    stdin.write(`${line}\n`);
    await until(() => h.live.stdout.slice(before).includes(expect), `${line} → ${expect}`);
  };
  await send(`task ${indexOf('t-namespace')}`, 'Create namespace team-a');
  await send('kubectl create ns team-a', 'namespace/team-a created');
  await send('kubectl label ns team-a tier=web', 'namespace/team-a labeled');
  await send('flag', `Task ${indexOf('t-namespace')} flagged.`);
  await send(`task ${indexOf('t-answer')}`, 'Answer with the service CIDR');
  await send('answer 10.96.0.0/12', 'Answer recorded');
  h.clock.now += 6 * 60_000; // 14 minutes left
  await send('echo tick', '*** 15 minutes left ***\ntick\n');
  await send('echo tock', 'tock');
  assert.equal(h.live.stdout.split('minutes left ***').length, 2, 'the alert is shown once');
  h.clock.now += 15 * 60_000; // past the end
  stdin.write('kubectl create ns too-late\n');
  stdin.end();
  const r = await run;
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stdout.includes('namespace/too-late created'), 'the line after time-out does not run');
  assert.match(r.stdout, /Time is up\. Stop working: the exam is graded on the state you've left\.\n/);
  assert.match(r.stdout, /Total: 9\/15 points \(60%\)\. FAIL \(pass mark 66%\)/);
  assert.match(r.stdout, new RegExp(`│ ${indexOf('t-namespace')} ⚑ +│ Create a labelled namespace +│ workloads-scheduling +│ 4/4 +│ 2/2 +│ 0:00 +│ 3:00 +│`));
  assert.match(r.stdout, new RegExp(`│ ${indexOf('t-answer')} +│ Name the service CIDR +│ cluster-architecture +│ 5/5 +│ 1/1 +│ 21:00 +│ 4:00 +│`));
  assert.match(r.stdout, /✗ \/root\/node\.txt on cka-w1 names the node \(0\/6\)/);
  assert.match(r.stdout, /Review \(tasks with points lost\):\n\nTask \d: Write the kubelet's node name to a file \[t-file\]\nReference solution:\n {2}hostname > \/root\/node\.txt/);
  assert.ok(!existsSync(examFile), 'the finished exam is no longer in progress');
  const hist = JSON.parse((await h.run(['history', '--json'])).stdout) as {
    exams: { percent: number; passed: boolean; tasks: { scenario: string; attempted?: boolean }[] }[];
    attempts: { mode: string; scenario: string; attempted?: boolean }[];
  };
  assert.deepEqual(hist.exams.map((e) => [e.percent, e.passed, e.tasks.length]), [[60, false, 3]]);
  assert.deepEqual(hist.attempts.map((a) => a.mode), ['exam', 'exam', 'exam']);
  // t-file was never opened: not attempted, in the report, the records and history (localized)
  assert.match(r.stdout, new RegExp(`│ ${indexOf('t-file')} +│ Write the kubelet's node name to a file +│ troubleshooting +│ 0/6 +│ 0/1 +│ not attempted +│`));
  assert.deepEqual(hist.attempts.map((a) => [a.scenario, a.attempted ?? true]).sort(), [['t-answer', true], ['t-file', false], ['t-namespace', true]]);
  assert.deepEqual(hist.exams[0]!.tasks.filter((t) => t.attempted === false).map((t) => t.scenario), ['t-file']);
  const text = await h.run(['history']);
  const row = text.stdout.split('\n').find((l) => l.includes('t-file'));
  assert.match(row ?? '', /│ exam +│ t-file +│ not attempted +│ - +│ 2:00 +│/, text.stdout);
  assert.ok(!text.stdout.includes('0/6'), 'no score for an untouched task');
  const ja = await h.run(['history', '--lang', 'ja']);
  assert.match(ja.stdout, /t-file +│ 未着手/);
  const zh = await h.run(['history', '--lang', 'zh-CN']);
  assert.match(zh.stdout, /t-file +│ 未作答/);
});

test('exam on a terminal: time running out while a job holds the terminal ends the job (SIGHUP) and the exam the time-up way', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const stdin = new PassThrough();
  const run = h.run(['exam', '--tasks', '3', '--minutes', '30', '--seed', '5'], stdin, {}, { tty: true });
  await until(() => h.live.stdout.includes('pass mark 66%'), 'the exam');
  // a sleep the pinned clock never ends holds the terminal (the REPL ticks every 250 ms)
  stdin.write('sleep 100000\r');
  await new Promise((r) => setTimeout(r, 600));
  assert.doesNotMatch(h.live.stdout, /Time is up/);
  h.clock.now += 31 * 60_000;
  try {
    await until(() => /Total: \d+\/15 points/.test(h.live.stdout), 'the time-up report', 10_000);
  } catch (e) {
    stdin.write('\x03');
    stdin.end();
    await run;
    throw e;
  }
  stdin.end();
  const r = await run;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Time is up\. Stop working: the exam is graded on the state you've left\./);
  assert.ok(!existsSync(join(h.data, 'xdg', 'cka-lab', 'exam.json')), 'the exam is finished');
});
