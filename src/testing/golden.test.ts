/** The golden helper itself: under CI a missing golden fails instead of being written. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertGolden } from './golden.js';

const cases = [
  { name: 'missing under CI fails and writes nothing', env: { CI: 'true' }, exists: false, throws: /golden file missing/, written: false },
  { name: 'UPDATE_GOLDEN under CI fails', env: { CI: 'true', UPDATE_GOLDEN: '1' }, exists: true, throws: /not allowed under CI/, written: false },
  { name: 'missing locally is recorded', env: {}, exists: false, throws: undefined, written: true },
];

for (const c of cases) {
  test(`golden: ${c.name}`, () => {
    const path = join(mkdtempSync(join(tmpdir(), 'golden-')), 'testdata', 'x.txt');
    if (c.exists) assertGolden(path, 'old', {});
    const run = (): void => assertGolden(path, 'new', c.env);
    if (c.throws) assert.throws(run, c.throws);
    else run();
    assert.equal(existsSync(path) && readFileSync(path, 'utf8') === 'new', c.written);
  });
}
