/** LinearRegExp compiles a text once per dialect and flags (index.ts COMPILED); each instance keeps its own state. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LinearRegExp, regexCompilations, RegexSyntaxError } from './index.js';

test('one compilation per text, dialect and flags; instances share it and keep their own lastIndex', () => {
  // texts of their own, so that no other test compiled them first
  const src = '(memo-[a-c]+)(\\d*)';
  const before = regexCompilations();
  const a = new LinearRegExp(src, 'g');
  const b = new LinearRegExp(src, 'g');
  assert.equal(regexCompilations() - before, 1, 'the second instance reads the memo');
  assert.deepEqual('memo-ab1 memo-c memo-x'.match(a), ['memo-ab1', 'memo-c']);
  a.lastIndex = 0;
  assert.deepEqual([...(a.exec('x memo-bb22') ?? [])], ['memo-bb22', 'memo-bb', '22']);
  assert.equal(a.lastIndex, 11);
  assert.equal(b.lastIndex, 0, 'a shared program, not a shared lastIndex');
  assert.equal(b.groupCount, 2);
  assert.equal(b.source, a.source);
  // other flags and another dialect compile apart (the same text may mean another thing)
  const i = new LinearRegExp(src, 'i');
  assert.ok(i.test('MEMO-A'));
  assert.ok(!a.ignoreCase && i.ignoreCase);
  new LinearRegExp(src, 'g', 're2');
  assert.equal(regexCompilations() - before, 3);
  // flags that come to the same kept flags share one: 'gg' is 'g'
  new LinearRegExp(src, 'gg');
  assert.equal(regexCompilations() - before, 3);
});

test('a text that does not compile throws every time (never kept)', () => {
  const before = regexCompilations();
  for (let n = 0; n < 2; n++) assert.throws(() => new LinearRegExp('(memo-unclosed', ''), RegexSyntaxError);
  assert.equal(regexCompilations(), before);
});
