/**
 * The interface follows the language: whole practice, exam, self-check and history runs with
 * `--lang ja` and with `LANG=zh_CN.UTF-8` (no flag) speak that language in their own words, while
 * commands, ids and the `[y/N]` stay as typed. `--lang` wins over the environment and LC_ALL over
 * LANG, as for task texts (scenario/lang.ts resolveLang).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { harness } from '../cli/testing/harness.js';

const SCENARIOS = fileURLToPath(new URL('./testdata/scenarios', import.meta.url));

const PRACTICE_INPUT = ['hint', 'hint', 'hint', 'check', 'answer', 'answer 10.0.0.0/8', 'solution', 'y', 'reset', 'next'].join('\n') + '\n';

/** Each expected line (or part of one) appears in `text`, in order. */
function inOrder(text: string, parts: readonly string[], what: string): void {
  let at = 0;
  for (const p of parts) {
    const i = text.indexOf(p, at);
    assert.ok(i >= 0, `${what}: missing (in order) ${JSON.stringify(p)} in:\n${text}`);
    at = i + p.length;
  }
}

test('practice in Japanese (--lang ja) and Chinese (LANG=zh_CN.UTF-8)', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const ja = await h.run(['practice', '--seed', '3', '--lang', 'ja', 't-namespace'], PRACTICE_INPUT);
  assert.equal(ja.stderr, '使い方: answer TEXT\n');
  inOrder(
    ja.stdout,
    [
      'workloads-scheduling · easy · 4 点 · 目安 3 分\n',
      'ヒント 1/2: Namespaces are cluster-scoped.\n',
      'ヒント 2/2: ',
      'ヒントはもうありません（2 個中 2 個表示済み）。`solution` で参考解答を表示できます。\n',
      '得点: 0/4 (0%)\n',
      '回答を記録しました: 10.0.0.0/8\n',
      '参考解答を表示しますか？ この取り組みは「解答参照」として記録されます。[y/N] 参考解答:\n  kubectl create namespace team-a\n',
      '各チェックが期待する内容:\n',
      'タスクを最初からセットアップし直しました。\n',
      'これ以上タスクはありません。\n',
    ],
    'ja',
  );

  const zh = await h.run(['practice', '--seed', '3', 't-namespace'], PRACTICE_INPUT, { LANG: 'zh_CN.UTF-8' });
  assert.equal(zh.stderr, '用法：answer TEXT\n');
  inOrder(
    zh.stdout,
    [
      'workloads-scheduling · easy · 4 分 · 建议用时 3 分钟\n',
      '提示 1/2：Namespaces are cluster-scoped.\n',
      '没有更多提示了（已显示 2 条中的 2 条）。`solution` 显示参考答案。\n',
      '得分: 0/4 (0%)\n',
      '已记录回答：10.0.0.0/8\n',
      '显示参考答案吗？本次作答将记为“看过答案”。[y/N] 参考答案：\n',
      '各项检查的期望：\n',
      '任务已从头重新设置。\n',
      '这里没有更多任务了。\n',
    ],
    'zh-CN',
  );

  // the flag wins over the environment, and LC_ALL over LANG: English, word for word as before
  const en = await h.run(['practice', '--seed', '3', '--lang', 'en', 't-namespace'], 'next\n', { LANG: 'ja_JP.UTF-8' });
  const c = await h.run(['practice', '--seed', '3', 't-namespace'], 'next\n', { LANG: 'zh_CN.UTF-8', LC_ALL: 'C' });
  for (const r of [en, c]) assert.equal(r.stdout, 'Create a labelled namespace  [t-namespace]\nworkloads-scheduling · easy · 4 points · target 3 min\n\nCreate namespace team-a with the label tier=web.\n\nNo more tasks here.\n');
});

test('exam in Japanese (--lang ja), resumed and submitted in Chinese (LANG=zh_CN.UTF-8)', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const ja = await h.run(['exam', '--tasks', '3', '--seed', '5', '--lang', 'ja'], 'task 9\nflag\nflag\nanswer 10.96.0.0/12\nsubmit\nn\nquit\n');
  assert.equal(ja.stderr, 'task: 1 から 3 までのタスク番号を指定してください\n');
  inOrder(
    ja.stdout,
    [
      '試験: 3 タスク、21 分、合格ライン 66%。コマンド: tasks, task N, flag, answer TEXT, submit, quit\n',
      'タスク 1/3: ',
      'タスク 1 にフラグを付けました。\n',
      'タスク 1 のフラグを外しました。\n',
      'タスク 1 の回答を記録しました: 10.96.0.0/12\n',
      '試験を提出して今すぐ採点しますか？ [y/N] ',
      '試験は続いています。残り 21:00。`cka-lab exam` で再開できます。\n',
    ],
    'ja',
  );

  h.clock.now += 7 * 60_000; // 14 minutes left: the 15-minute alert is due
  const zh = await h.run(['exam'], 'tasks\nsubmit\ny\n', { LANG: 'zh_CN.UTF-8' });
  assert.equal(zh.stderr, '');
  inOrder(
    zh.stdout,
    [
      '继续 2026-12-01T09:00:00.000Z 开始的考试：剩余 14:00。\n',
      '任务 1/3：',
      '*** 剩余 15 分钟 ***\n',
      '*  1   ',
      '现在提交考试并评分吗？[y/N] 考试已提交。\n',
      '│ 任务 ',
      '│ 建议用时 │',
      '未作答',
      '任务 1：',
      '总分：',
      '未通过（及格线 66%）\n',
      '回顾（失分的任务）：\n',
      '参考答案：\n',
    ],
    'zh-CN',
  );
  assert.ok(!/Task|Total|Review|points|PASS|FAIL/.test(zh.stdout), zh.stdout);
});

test('self-check and history in Chinese (LANG) and Japanese (--lang)', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const zh = await h.run(['check', 'kubelet', '--seed', '3'], 'check\nnext\n', { LANG: 'zh_CN.UTF-8' });
  assert.equal(zh.code, 1);
  inOrder(
    zh.stdout,
    [
      'kubelet 自测：1 个任务，用时短的在前。`check` 评分，`next` 记录结果并进入下一个。\n',
      '请在 cka-w1 上完成此任务（你现在就在 cka-w1 上；`exit` 返回 cka-ws）。\n',
      'kubelet 自测：1 个任务中已评分 1 个\n',
      "  ✗ Write the kubelet's node name to a file [t-file] 0%\n",
      '得分: 0/6 (0%)\n',
      '接下来练习：cka-lab practice --topic kubelet\n',
    ],
    'zh-CN',
  );

  const ja = await h.run(['history', '--lang', 'ja'], '', { LANG: 'zh_CN.UTF-8' });
  inOrder(ja.stdout, ['取り組み\n', '│ 日時 ', '│ モード ', '│ check ', '│ t-file ', 'ドメイン別の習熟度（低い順）\n', 'トピック（習熟度の低い順）\n', 'タスクごとの所要時間（目安に比べて遅い順）\n', '次に練習: kubelet\n'], 'ja');
  const zhh = await h.run(['history'], '', { LANG: 'zh_CN.UTF-8' });
  inOrder(zhh.stdout, ['作答记录\n', '│ 日期 ', '各领域掌握程度（由弱到强）\n', '接下来练习：kubelet\n'], 'zh-CN');
  const empty = await harness().run(['history'], '', { LANG: 'ja_JP.UTF-8' });
  assert.equal(empty.stdout, 'まだ記録がありません。`cka-lab practice` から始めましょう。\n');
});

test('list, show, refusals and the shell\'s notices follow the environment', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const list = await h.run(['list'], '', { LANG: 'ja_JP.UTF-8' });
  assert.ok(list.stdout.includes('  t-file       easy     2 分  Write the kubelet'), list.stdout);
  const show = await h.run(['show', 't-file'], '', { LANG: 'zh_CN.UTF-8' });
  inOrder(show.stdout, ['领域：troubleshooting   主题：kubelet   难度：easy   分值：6   建议用时：2 分钟\n', '基线集群：kubeadm-calico   主机：cka-w1\n', '1 条提示；检查：\n', '(6 分)\n'], 'show');
  // a check's points are its share of the task's weight, as practice grades it
  const en = await h.run(['show', 't-file'], '', { LANG: 'C' });
  assert.ok(en.stdout.endsWith(' (6 points)\n'), en.stdout);
  const bad = await h.run(['practice', 'nope'], '', { LANG: 'ja_JP.UTF-8' });
  assert.deepEqual([bad.code, bad.stderr], [2, 'cka-lab: シナリオ "nope" はありません（`cka-lab list` を参照）\n']);
  const lang = await h.run(['practice', '--lang', 'de', 't-file'], '', { LANG: 'zh_CN.UTF-8' });
  assert.deepEqual([lang.code, lang.stderr], [2, 'cka-lab: 未知的语言 "de"（可选 en, ja, zh-CN）\n']);

  const s = harness();
  await s.run(['shell'], 'true\n');
  writeFileSync(join(s.data, 'xdg', 'cka-lab', 'sessions', 'default.json'), '{"schema":1,"name":');
  const r = await s.run(['shell'], 'hostname\n', { LANG: 'ja_JP.UTF-8' });
  assert.match(r.stderr, /^cka-lab: セッション "default" を読み込めませんでした（not valid JSON .*）。ファイルを .*default\.json\.corrupt-\S+ に移動し、新しいセッションを開始します\n$/);
  assert.equal(r.stdout, 'cka-ws\n');
});
