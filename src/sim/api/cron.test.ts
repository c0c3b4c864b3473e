import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { cronScheduleError } from './cron.js';

test('valid schedules parse', () => {
  for (const s of ['*/5 * * * *', '0 0 * * 0', '30 2 1-15 jan,feb mon-fri', '@hourly', '0 */2 * * ?']) assert.equal(cronScheduleError(s), undefined, s);
});

test("robfig/cron's errors", () => {
  assert.equal(cronScheduleError('abc'), 'expected exactly 5 fields, found 1: [abc]');
  assert.equal(cronScheduleError('* * * *'), 'expected exactly 5 fields, found 4: [* * * *]');
  assert.equal(cronScheduleError('60 * * * *'), 'end of range (60) above maximum (59): 60');
  assert.equal(cronScheduleError('x * * * *'), 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
  assert.equal(cronScheduleError('* * 0 * *'), 'beginning of range (0) below minimum (1): 0');
  assert.equal(cronScheduleError('@fortnightly'), 'unrecognized descriptor: @fortnightly');
  assert.equal(cronScheduleError('*/0 * * * *'), 'step of range should be a positive number: */0');
});
