import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { canonicalQuantity, ERR_FORMAT_WRONG, ERR_SUFFIX } from './quantity.js';

test('canonical forms as the server stores them (quantity_test.go cases)', () => {
  const cases: [string, string][] = [
    ['0.1875Gi', '192Mi'],
    ['0.5', '500m'],
    ['1', '1'],
    ['1000', '1k'],
    ['1500m', '1500m'],
    ['1.5', '1500m'],
    ['128Mi', '128Mi'],
    ['1024Mi', '1Gi'],
    ['1.5Mi', '1536Ki'],
    ['100Ki', '100Ki'],
    ['512', '512'],
    ['1000Mi', '1000Mi'],
    ['2G', '2G'],
    ['0.1', '100m'],
    ['1e3', '1e3'],
    ['1.5e3', '1500'],
    ['0', '0'],
    ['0Mi', '0'],
    ['-1', '-1'],
    ['0.1n', '1n'],
    ['250m', '250m'],
    ['1024', '1024'],
  ];
  for (const [input, want] of cases) assert.equal(canonicalQuantity(input), want, input);
});

test('malformed quantities give the package errors', () => {
  for (const bad of ['abc', '', '1Gb', '1.2.3', 'Mi', '1 Gi']) assert.throws(() => canonicalQuantity(bad), { message: ERR_FORMAT_WRONG }, bad);
  assert.throws(() => canonicalQuantity('1KK'), { message: ERR_SUFFIX });
});
