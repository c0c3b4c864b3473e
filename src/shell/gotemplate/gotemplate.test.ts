/**
 * The Go template engine on its own. Behaviour shown by real kubectl lives in the conformance
 * goldens (src/shell/kubectl/verbs/testdata/conformance/gotemplate-*.txt); these cases pin what a
 * one-line case cannot: line numbers across newlines, fmt's float forms, Go's value types.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GoTemplate, TemplateExecError, TemplateParseError, fromJson, sprintf } from './index.js';
import { GoNum } from './value.js';

const data = fromJson({ a: { b: 'x', n: 3, f: 1.5, list: [1, 'two', null], m: { z: 1, a: 2 } } });
const run = (t: string, missing: 'default' | 'error' = 'default'): string => GoTemplate.parse('output', t).execute(data, missing);

test('line and column of errors count newlines', () => {
  assert.throws(() => run('line1\n{{.a.b}}\n  {{.a.b.c}}'), (e: Error) => e instanceof TemplateExecError && e.message === 'template: output:3:6: executing "output" at <.a.b.c>: can\'t evaluate field c in type interface {}');
  assert.throws(() => run('a\nb {{if .x}}\n{{else}}{{else}}{{end}}'), (e: Error) => e instanceof TemplateParseError && e.message === 'template: output:3: expected end; found {{else}}');
  assert.throws(() => run('{{.a.b\n}}x{{'), (e: Error) => e.message === 'template: output:2: unclosed action');
});

test('missing keys print <no value> or fail under missingkey=error', () => {
  assert.equal(run('{{.a.nope}} {{.a.nope.deeper}}'), '<no value> <no value>');
  assert.throws(() => run('{{.a.nope}}', 'error'), /map has no entry for key "nope"/);
});

test('values keep their Go types and fmt forms', () => {
  assert.equal(run('{{.a.n}} {{.a.f}} {{printf "%T %T %T" .a.n .a.f 1}} {{.a.list}} {{.a.m}}'), '3 1.5 int64 float64 int [1 two <nil>] map[a:2 z:1]');
  assert.equal(sprintf('%v %v %v %v', [new GoNum('float64', 1e6), new GoNum('float64', 123456), new GoNum('float64', 1e-5), new GoNum('float64', 0.0001)]), '1e+06 123456 1e-05 0.0001');
  assert.equal(sprintf('%5.2f|%-5d|%+d|%x|%X|%o|%b|%c|%q|%8.3e', [new GoNum('float64', 3.14159), new GoNum('int', 7), new GoNum('int', 7), new GoNum('int', 255), new GoNum('int', 255), new GoNum('int', 8), new GoNum('int', 5), new GoNum('int', 65), 'a"b', new GoNum('float64', 1234.5)]), ' 3.14|7    |+7|ff|FF|10|101|A|"a\\"b"|1.234e+03');
});

test('else if, with-else and range-else chains', () => {
  assert.equal(run('{{if .a.none}}1{{else if .a.n}}2{{else}}3{{end}}'), '2');
  assert.equal(run('{{range $i, $e := .a.list}}{{$i}}{{if eq $i 1}}{{continue}}{{end}}{{$e}};{{end}}'), '01;12<no value>;');
  assert.equal(run('{{range $k, $v := .a.m}}{{$k}}{{$v}}{{end}}'), 'a2z1');
});

test('define, template and block share one set', () => {
  assert.equal(run('{{define "t"}}<{{.}}>{{end}}{{template "t" .a.b}}{{block "u" 5}}[{{.}}]{{end}}{{template "u" 6}}'), '<x>[5][6]');
  assert.throws(() => run('{{define "t"}}a{{end}}{{define "t"}}b{{end}}'), /template: multiple definition of template "t"/);
});
