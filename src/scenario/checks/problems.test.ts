/** The learner's wording of a failed check: per problem and language, with and without an author's message. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detailLine, learnerMessage, sayProblem, type Problem } from './problems.js';
import { LANGS } from '../lang.js';

test('problems: every code is worded in every language', () => {
  const all: Problem[] = [
    { code: 'missing', what: 'Deployment ns/web' },
    { code: 'still-there', what: 'Service default/old' },
    { code: 'held', what: 'Namespace gone' },
    { code: 'value', what: 'Deployment ns/web {.spec.replicas}', actual: '2' },
    { code: 'no-selector', what: 'NetworkPolicy ns/deny', path: 'spec.ingress[*].from[*]', candidates: 2 },
    { code: 'endpoints', service: 'ns/web', ready: 0 },
    { code: 'unreachable', url: 'http://web/', from: { pod: 'client', namespace: 'ns' }, error: 'wget: download timed out' },
    { code: 'reachable', url: 'http://db:5432/' },
    { code: 'body', url: 'http://web/', from: { host: 'cka-w1' }, actual: 'hello' },
    { code: 'lookup', name: 'web.ns', type: 'A', actual: 'NXDOMAIN' },
    { code: 'exit', on: { host: 'cka-cp1' }, reboot: true, exitCode: 1, output: '' },
    { code: 'output', actual: 'Pending' },
    { code: 'no-answer', file: 'cka-ws:/opt/course/1/answer' },
    { code: 'answer', actual: '10.244.0.0/24' },
    { code: 'unreadable', what: 'cka-w1: systemctl is-active foo', error: 'Unit foo.service could not be found.' },
    { code: 'no-tool', where: { pod: 'nginx', namespace: 'default' }, tools: 'wget, curl' },
    { code: 'broken', error: 'unknown kind Widget' },
  ];
  const codes = new Set(all.map((p) => p.code));
  assert.equal(codes.size, all.length, 'one case per code');
  for (const p of all) {
    const said = LANGS.map((l) => sayProblem(p, l));
    assert.equal(new Set(said).size, 3, `${p.code}: ${said.join(' | ')}`);
    for (const s of said) assert.ok(s.length > 10 && !s.includes('undefined'), `${p.code}: ${s}`);
  }
});

test('problems: values are quoted, empty and multi-line values stay on one line', () => {
  const cases: { name: string; p: Problem; lang: (typeof LANGS)[number]; want: string }[] = [
    { name: 'empty', p: { code: 'value', what: 'Namespace team-a {.metadata.labels.tier}', actual: '' }, lang: 'en', want: 'Namespace team-a {.metadata.labels.tier} is (empty), which is not what the task asks for.' },
    { name: 'lines', p: { code: 'output', on: { host: 'cka-w1' }, actual: 'a\nb' }, lang: 'en', want: 'The check\'s command on cka-w1 printed "a\\nb", which is not what the task asks for.' },
    { name: 'clipped', p: { code: 'answer', actual: '1\n2\n3\n4\n5' }, lang: 'en', want: 'The answer "1\\n2\\n3" (+2) is not the one the task asks for.' },
    { name: 'ja place', p: { code: 'reachable', url: 'http://db/', from: { pod: 'web', namespace: 'shop' } }, lang: 'ja', want: 'Pod shop/web から http://db/ へのリクエストに応答がありました。タスクはこれを拒否または遮断するよう求めています。' },
    { name: 'zh exit', p: { code: 'exit', exitCode: 1, output: '' }, lang: 'zh-CN', want: '检查命令（在工作站上）以退出状态 1 结束。' },
  ];
  for (const c of cases) assert.equal(sayProblem(c.p, c.lang), c.want, c.name);
});

test('problems: an author message leads; ending in a colon it introduces the value found', () => {
  const out: Problem = { code: 'output', on: { host: 'cka-cp1' }, actual: '2' };
  const cases = [
    { name: 'none', custom: undefined, lang: 'en' as const, want: 'The check\'s command on cka-cp1 printed "2", which is not what the task asks for.' },
    { name: 'colon', custom: 'Number of tokens that never expire:', lang: 'en' as const, want: 'Number of tokens that never expire: "2"' },
    { name: 'full-width colon', custom: '永不过期的令牌数量：', lang: 'zh-CN' as const, want: '永不过期的令牌数量： "2"' },
    { name: 'sentence', custom: 'The file does not hold the revision number.', lang: 'en' as const, want: 'The file does not hold the revision number. Found: "2"' },
    { name: 'sentence ja', custom: 'ファイルが違います。', lang: 'ja' as const, want: 'ファイルが違います。 実際の値: "2"' },
  ];
  for (const c of cases) assert.equal(learnerMessage(out, c.lang, c.custom), c.want, c.name);
  const missing: Problem = { code: 'missing', what: 'Job ns/x-test' };
  assert.equal(learnerMessage(missing, 'en', 'The Job is missing or was not instantiated from the CronJob.'), 'The Job is missing or was not instantiated from the CronJob. Job ns/x-test was not found.');
});

test('problems: the detail keeps expected and actual, framed per language', () => {
  assert.equal(detailLine('answer equals "x"', 'y', 'en'), 'expected answer equals "x"; got y');
  assert.equal(detailLine('answer equals "x"', 'y', 'ja'), '期待: answer equals "x"; 実際: y');
  assert.equal(detailLine('answer equals "x"', 'y', 'zh-CN'), '期望：answer equals "x"；实际：y');
});
