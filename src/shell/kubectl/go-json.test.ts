import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goJsonSyntaxError } from './go-json.js';

test('goJsonSyntaxError words errors as encoding/json does', () => {
  const cases: Array<[string, string | undefined]> = [
    ['{"a":[1,2,{"b":null}],"c":true}', undefined],
    ['{bad', `invalid character 'b' looking for beginning of object key string`],
    ['{"spec":', 'unexpected end of JSON input'],
    ['', 'unexpected end of JSON input'],
    ['{"a" 1}', `invalid character '1' after object key`],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['[1 2]', `invalid character '2' after array element`],
    ["{'a':1}", `invalid character '\\'' looking for beginning of object key string`],
    ['[tru]', `invalid character ']' in literal true (expecting 'e')`],
    ['{} x', `invalid character 'x' after top-level value`],
    ['[-a]', `invalid character 'a' in numeric literal`],
    ['x', `invalid character 'x' looking for beginning of value`],
  ];
  for (const [text, want] of cases) assert.equal(goJsonSyntaxError(text), want, text);
});
