/**
 * A whole practice attempt driven through stdin (`cka-lab practice ID`, no terminal): task panel,
 * hints in tiers, a failing then passing `check` (saying what is wrong, not what is expected),
 * `solution` asking first, marking the attempt assisted and showing what each check expects, `next` at the end of the list; then the attempt shows in `history`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { harness } from '../cli/testing/harness.js';

const SCENARIOS = fileURLToPath(new URL('./testdata/scenarios', import.meta.url));

const PANEL = `Create a labelled namespace  [t-namespace]
workloads-scheduling · easy · 4 points · target 3 min

Create namespace team-a with the label tier=web.

`;

test('practice: a whole attempt through stdin', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const input = ['hint', 'hint', 'hint', 'check', 'kubectl create ns team-a', 'check', 'solution', 'y', 'kubectl label ns team-a tier=web', 'check', 'next'].join('\n');
  const r = await h.run(['practice', '--seed', '3', 't-namespace'], `${input}\n`);
  const expected =
    PANEL +
    `Hint 1/2: Namespaces are cluster-scoped.
Hint 2/2: kubectl label adds labels to an existing object.
No more hints (2 of 2 shown). \`solution\` shows the reference solution.
✗ Namespace team-a exists (0/1)
    Namespace team-a was not found.
✗ Namespace team-a has tier=web (0/3)
    Namespace team-a was not found.
Score: 0/4 (0%)
namespace/team-a created
✓ Namespace team-a exists (1/1)
✗ Namespace team-a has tier=web (0/3)
    Namespace team-a {.metadata.labels.tier} is (empty), which is not what the task asks for.
Score: 1/4 (25%)
Show the reference solution? The attempt will count as assisted. [y/N] Reference solution:
  kubectl create namespace team-a
  kubectl label namespace team-a tier=web

kubectl create namespace, then kubectl label.

What each check expects:
✓ Namespace team-a exists (1/1)
✗ Namespace team-a has tier=web (0/3)
    expected Namespace team-a: {.metadata.labels.tier} equals "web"; got 
Score: 1/4 (25%)
namespace/team-a labeled
✓ Namespace team-a exists (1/1)
✓ Namespace team-a has tier=web (3/3)
Score: 4/4 (100%)
No more tasks here.
`;
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, expected);
  const hist = await h.run(['history', '--json']);
  const j = JSON.parse(hist.stdout) as { attempts: { scenario: string; score: number; max: number; assisted: boolean; mode: string }[] };
  assert.deepEqual(
    j.attempts.map((a) => ({ scenario: a.scenario, score: a.score, max: a.max, assisted: a.assisted, mode: a.mode })),
    [{ scenario: 't-namespace', score: 4, max: 4, assisted: true, mode: 'practice' }],
  );
});

test('practice: declining the solution, skip records nothing, unknown id', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const r = await h.run(['practice', '--seed', '3', '--domain', 'troubleshooting'], 'pwd\nsolution\nn\nskip\n');
  assert.ok(r.stdout.startsWith("Write the kubelet's node name to a file  [t-file]\n"), r.stdout);
  assert.ok(r.stdout.includes('Solve this on cka-w1'));
  assert.ok(r.stdout.includes('/root\nShow the reference solution? The attempt will count as assisted. [y/N] No more tasks here.\n'), r.stdout);
  const hist = await h.run(['history', '--json']);
  assert.deepEqual((JSON.parse(hist.stdout) as { attempts: unknown[] }).attempts, []);
  const bad = await h.run(['practice', 'nope']);
  assert.deepEqual([bad.code, bad.stderr], [2, 'cka-lab: no scenario "nope" (see `cka-lab list`)\n']);
});

test('practice: a failing check does not give the answer away until `solution`, and the points agree with the header (pending-node-selector, every language)', async () => {
  const h = harness();
  // the grader's words, and the interface's: the solution question and the header's points
  const words = {
    en: { said: 'which is not what the task asks for', ask: 'Show the reference solution?', points: ' · 4 points · ', waits: 'counts once one of the task\'s other checks passes' },
    ja: { said: 'タスクが求める値ではありません', ask: '参考解答を表示しますか？', points: ' · 4 点 · ', waits: 'このタスクのほかのチェックが 1 つ合格すると加点されます' },
    'zh-CN': { said: '不是任务要求的值', ask: '显示参考答案吗？', points: ' · 4 分 · ', waits: '本任务的其他检查有一项通过后才计分' },
  };
  for (const [lang, { said, ask, points, waits }] of Object.entries(words)) {
    const r = await h.run(['practice', '--seed', '1', '--lang', lang, 'pending-node-selector'], 'check\nsolution\ny\nskip\n');
    assert.equal(r.stderr, '');
    const [before, after] = r.stdout.split(ask);
    assert.ok(before !== undefined && after !== undefined, r.stdout);
    // seed 1: the pods belong on cka-w2 and the template asks for disktype=ssd1
    assert.ok(before.includes('{.spec.template.spec.nodeSelector.disktype}|{.spec.template.spec.nodeName}') && before.includes('"ssd1|"'), before);
    assert.ok(before.includes(said), `${lang}: ${before}`);
    for (const secret of ['"ssd|"', 'Running cka-w2', 'equals', 'expected', '期待', '期望']) assert.ok(!before.includes(secret), `${lang}: check shows ${secret}:\n${before}`);
    // the header's points are the grade's: the checks share the task's 4 points; the guard that
    // passes untouched (0.6 of them) earns nothing until one of the task's own checks passes
    assert.ok(before.includes(points), before);
    assert.ok(before.includes('(0/1.2)') && before.includes('(0/0.6)') && before.includes(`    ${waits}\n`) && before.includes(': 0/4 (0%)'), before);
    // asked for, the solution comes with what each check expects
    assert.ok(after.includes('"ssd|"') && after.includes('"Running cka-w2"'), `${lang}: ${after}`);
  }
});

test('practice: reset and retry is a new attempt; an attempt after the solution is marked assisted', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const input = ['kubectl create ns team-a', 'check', 'reset', 'check', 'solution', 'y', 'reset', 'kubectl create ns team-a', 'kubectl label ns team-a tier=web', 'check', 'quit'].join('\n');
  const r = await h.run(['practice', '--seed', '3', 't-namespace'], `${input}\n`);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout.split('The task is set up again from scratch.').length, 3, r.stdout);
  const hist = JSON.parse((await h.run(['history', '--json'])).stdout) as { attempts: { score: number; max: number; assisted: boolean }[] };
  // one row per attempt: created the namespace (1 of 4 points), then nothing (0), then solved after the solution
  assert.deepEqual(hist.attempts.map((a) => [a.score, a.max, a.assisted]), [[1, 4, false], [0, 4, true], [4, 4, true]]);
  const text = await h.run(['history']);
  assert.equal(text.stdout.split('practice (assisted)').length - 1, 2, text.stdout);
  const ja = await h.run(['history', '--lang', 'ja']);
  assert.equal(ja.stdout.split('practice (解答参照)').length - 1, 2, ja.stdout);
});
