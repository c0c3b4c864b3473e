import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goTimeString, humanDuration, rfc1123z, translateTimestampSince } from './duration.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

const cases: { d: number; want: string }[] = [
  { d: -2 * S, want: '<invalid>' },
  { d: -1999, want: '0s' },
  { d: -1 * S, want: '0s' },
  { d: -1, want: '0s' },
  { d: 0, want: '0s' },
  { d: 59 * S, want: '59s' },
  { d: 119 * S, want: '119s' },
  { d: 120 * S, want: '2m' },
  { d: 121 * S, want: '2m1s' },
  { d: 9 * M + 59 * S, want: '9m59s' },
  { d: 10 * M, want: '10m' },
  { d: 10 * M + 59 * S, want: '10m' },
  { d: 47 * M, want: '47m' },
  { d: 125 * M, want: '125m' },
  { d: 179 * M + 59 * S, want: '179m' },
  { d: 3 * H, want: '3h' },
  { d: 3 * H + 5 * M, want: '3h5m' },
  { d: 7 * H + 59 * M, want: '7h59m' },
  { d: 8 * H, want: '8h' },
  { d: 47 * H + 59 * M, want: '47h' },
  { d: 48 * H, want: '2d' },
  { d: 50 * H, want: '2d2h' },
  { d: 5 * D + 4 * H, want: '5d4h' },
  { d: 7 * D + 23 * H, want: '7d23h' },
  { d: 8 * D, want: '8d' },
  { d: 400 * D, want: '400d' },
  { d: 2 * Y - H, want: '729d' },
  { d: 2 * Y, want: '2y' },
  { d: 3 * Y + 45 * D, want: '3y45d' },
  { d: 8 * Y - D, want: '7y364d' },
  { d: 8 * Y, want: '8y' },
  { d: 20 * Y + 100 * D, want: '20y' },
];

for (const c of cases) {
  test(`humanDuration(${c.d}ms) = ${c.want}`, () => {
    assert.equal(humanDuration(c.d), c.want);
  });
}

test('translateTimestampSince', () => {
  const now = Date.parse('2026-01-15T12:00:00Z');
  assert.equal(translateTimestampSince(undefined, now), '<unknown>');
  assert.equal(translateTimestampSince(null, now), '<unknown>');
  assert.equal(translateTimestampSince('0001-01-01T00:00:00Z', now), '<unknown>');
  assert.equal(translateTimestampSince('2026-01-15T11:13:00Z', now), '47m');
  assert.equal(translateTimestampSince('2026-01-15T12:00:05Z', now), '<invalid>');
});

test('absolute time formats used by describe', () => {
  assert.equal(rfc1123z('2026-01-15T11:13:08Z'), 'Thu, 15 Jan 2026 11:13:08 +0000');
  assert.equal(goTimeString('2026-01-15T10:00:00Z'), '2026-01-15 10:00:00 +0000 UTC');
});
