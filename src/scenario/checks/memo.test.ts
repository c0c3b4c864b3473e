/** The checks' memo of compiled regexes and the parsed jsonpath templates they share with kubectl's printers: shared, and answering as new ones. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compiledRegex, match } from './matchers.js';
import { JsonPath, parsedJsonPath } from '../../shell/printers/jsonpath.js';

test('a regex matcher is compiled once per pattern and flags, and a shared one matches as a new one', () => {
  const re = compiledRegex('^b+$', 'm');
  assert.equal(compiledRegex('^b+$', 'm'), re);
  assert.notEqual(compiledRegex('^b+$', 'mi'), re);
  // no state between matches (no g or y flag): the same answers in any order
  for (const [text, want] of [['a\nbb', true], ['a', false], ['bbb', true], ['B', false]] as const) {
    assert.equal(match(text, { regex: '^b+$' }).ok, want, text);
    assert.equal(match(text, { regex: '^b+$' }).ok, new RegExp('^b+$', 'm').test(text.trim()), text);
  }
  assert.equal(match('B', { regex: '^b+$', normalize: ['ignore-case'] }).ok, true);
});

test('a jsonpath template is parsed once, and a shared one prints what a new one does', () => {
  const t = '{range .items[1:]}{.metadata.name}{" "}{end}';
  const jp = parsedJsonPath(t);
  assert.equal(parsedJsonPath(t), jp);
  const a = { items: [{ metadata: { name: 'x' } }, { metadata: { name: 'y' } }, { metadata: { name: 'z' } }] };
  const b = { items: [{ metadata: { name: 'p' } }, { metadata: { name: 'q' } }] };
  for (const data of [a, b, a]) assert.equal(jp.execute(data), new JsonPath(t).execute(data));
  assert.equal(jp.execute(b), 'q ');
  assert.throws(() => parsedJsonPath('{.items['));
});
