/** Unit tests of the explain template pieces: word wrap, type names, field-path walking. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { wrapString } from './wordwrap.js';
import { renderExplain, typeGuess } from './render.js';
import type { Schema } from './schema.js';

describe('wrapString (go-wordwrap)', () => {
  const cases = [
    { name: 'short line untouched', input: 'a b c', limit: 10, want: 'a b c' },
    { name: 'breaks at the last space that fits', input: 'aaa bbb ccc', limit: 7, want: 'aaa bbb\nccc' },
    { name: 'keeps existing newlines', input: 'aaa\n\nbbb', limit: 76, want: 'aaa\n\nbbb' },
    { name: 'long word gets its own line, unsplit', input: 'a xxxxxxxxxxxx b', limit: 5, want: 'a\nxxxxxxxxxxxx\nb' },
    { name: 'line exactly at the limit', input: 'abcd efgh', limit: 9, want: 'abcd efgh' },
    { name: 'double space kept inside a line', input: 'a  b', limit: 10, want: 'a  b' },
    { name: 'trailing newline kept', input: 'abc\n', limit: 76, want: 'abc\n' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(wrapString(c.input, c.limit), c.want));
});

describe('typeGuess', () => {
  const cases: { name: string; schema: Schema; want: string }[] = [
    { name: 'scalar', schema: { type: 'string' }, want: 'string' },
    { name: 'object', schema: { type: 'object' }, want: 'Object' },
    { name: 'no type', schema: {}, want: 'Object' },
    { name: 'array of scalars', schema: { type: 'array', items: { type: 'integer' } }, want: '[]integer' },
    { name: 'map of strings', schema: { type: 'object', additionalProperties: { type: 'string' } }, want: 'map[string]string' },
    { name: 'allOf ref to object schema', schema: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodSpec' }] }, want: 'PodSpec' },
    { name: 'ref to int-or-string (no type)', schema: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString' }] }, want: 'IntOrString' },
    { name: 'ref to string-typed Time', schema: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time' }] }, want: 'string' },
    { name: 'ref to a schema not served', schema: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodStatus' }] }, want: 'PodStatus' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(typeGuess(c.schema), c.want));
});

describe('renderExplain', () => {
  const selfRef: Schema = {
    description: 'Node of a tree.',
    type: 'object',
    properties: {
      child: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodDNSConfig' }], description: 'child' },
      name: { type: 'string', enum: ['a', 'b', 'c', 'd', 'e', ''] },
    },
    required: ['name'],
  };
  it('prints the enum line truncated after four values', () => {
    const r = renderExplain({ group: '', version: 'v1', kind: 'X', schema: selfRef, fieldPath: [], recursive: false });
    assert.match(r.stdout, /\n {2}name\t<string> -required-\n {2}enum: a, b, c, d, \.\.\.\.\n {4}<no description>\n/);
  });
  it('prints every enum value, "" quoted, in the FIELD view', () => {
    const r = renderExplain({ group: '', version: 'v1', kind: 'X', schema: selfRef, fieldPath: ['name'], recursive: false });
    assert.equal(r.stdout, 'KIND:       X\nVERSION:    v1\n\nFIELD: name <string>\nENUM:\n    a\n    b\n    c\n    d\n    e\n    ""\n\nDESCRIPTION:\n    <empty>\n\n');
  });
  it('reports the last path segment when a field is missing', () => {
    const r = renderExplain({ group: 'g', version: 'v1', kind: 'X', schema: selfRef, fieldPath: ['child', 'nope'], recursive: false });
    assert.deepEqual(r, { stdout: 'GROUP:      g\nKIND:       X\nVERSION:    v1\n\n', error: 'error: field "nope" does not exist' });
  });
});
