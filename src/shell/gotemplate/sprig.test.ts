/** Sprig functions as charts call them, with the results Sprig v3 gives. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GoTemplate } from './index.js';
import { fromPlain, semverSatisfies, sprigFuncs } from './sprig.js';

const run = (text: string, data: unknown = {}): string => GoTemplate.parse('t', text, sprigFuncs(() => 0.5, () => Date.UTC(2026, 0, 15, 10, 0, 0))).execute(fromPlain(data));

test('strings', () => {
  assert.equal(run('{{ "abc-" | trimSuffix "-" | upper }}'), 'ABC');
  assert.equal(run('{{ "hello world" | title }} {{ "  x " | trim | quote }} {{ "a" | squote }}'), "Hello World \"x\" 'a'");
  assert.equal(run('{{ "a\\nb" | nindent 2 }}|{{ "a\\nb" | indent 1 }}'), '\n  a\n  b| a\n b');
  assert.equal(run('{{ "abcdef" | trunc 3 }} {{ "abcdef" | trunc -2 }} {{ substr 1 3 "abcdef" }} {{ "ab" | repeat 2 }}'), 'abc ef bc abab');
  assert.equal(run('{{ replace "+" "_" "1.0+b" }} {{ contains "b" "abc" }} {{ hasPrefix "a" "abc" }} {{ hasSuffix "z" "abc" }}'), '1.0_b true true false');
});

test('defaults, lists and dicts', () => {
  assert.equal(run('{{ .x | default "d" }} {{ .y | default "d" }} {{ empty .z }} {{ coalesce .x .y "c" }}', { y: 'set', z: 0 }), 'd set true set');
  assert.equal(run('{{ ternary "yes" "no" true }} {{ list 1 2 3 | last }} {{ list 1 1 2 | uniq | len }} {{ without (list 1 2 3) 2 | len }}'), 'yes 3 2 2');
  assert.equal(run('{{ $d := dict "a" 1 "b" 2 }}{{ keys $d | sortAlpha | join "," }} {{ get $d "a" }} {{ hasKey $d "c" }} {{ $_ := set $d "c" 3 }}{{ len $d }}'), 'a,b 1 false 3');
  assert.equal(run('{{ merge (dict "a" 1) (dict "a" 2 "b" 3) | toJson }} {{ mergeOverwrite (dict "a" 1) (dict "a" 2) | toJson }}'), '{"a":1,"b":3} {"a":2}');
  assert.equal(run('{{ until 3 | toJson }} {{ seq 3 }} {{ has 2 (list 1 2) }} {{ pluck "a" (dict "a" 1) (dict "b" 2) | toJson }}'), '[0,1,2] 1 2 3 true [1]');
});

test('encoding, hashes, regex, semver', () => {
  assert.equal(run('{{ "hi" | b64enc }} {{ "aGk=" | b64dec }} {{ "hi" | sha256sum | trunc 8 }} {{ "hi" | sha1sum | trunc 8 }}'), 'aGk= hi 8f434346 c22b5f91');
  assert.equal(run('{{ .m | toYaml }}', { m: { b: [1, 'x'], a: { c: true } } }), 'a:\n  c: true\nb:\n- 1\n- x');
  assert.equal(run('{{ (fromYaml "a: 1").a }} {{ "42" | atoi | add1 }} {{ int "7" }} {{ 3.9 | int64 }}'), '1 43 7 3');
  assert.equal(run('{{ regexMatch "^v[0-9]+" "v12" }} {{ regexReplaceAll "a(x*)b" "-ab-axxb-" "${1}W" }}'), 'true -W-xxW-');
  assert.equal(run('{{ semverCompare ">=1.20-0" "v1.35.0" }} {{ semverCompare "~1.1" "1.2.0" }}'), 'true false');
  assert.ok(semverSatisfies('^1.1', '1.9.0') && !semverSatisfies('^1.1', '2.0.0') && semverSatisfies('1.0.0 - 1.2.0', '1.1.5'));
  assert.equal(run('{{ randAlphaNum 5 | len }}'), '5');
});

test('required and fail are errors', () => {
  assert.throws(() => run('{{ required "need x" .x }}'), /error calling required: need x/);
  assert.throws(() => run('{{ fail "stop" }}'), /error calling fail: stop/);
});
