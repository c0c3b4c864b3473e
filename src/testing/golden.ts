/**
 * Golden-file assertions for tests. `UPDATE_GOLDEN=1 npm test` rewrites the files; otherwise the
 * actual text must equal the stored file byte for byte. Goldens live beside the test that owns
 * them in a `testdata/` folder.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function assertGolden(path: string, actual: string, env: Record<string, string | undefined> = process.env): void {
  if (env['UPDATE_GOLDEN'] === '1' || !existsSync(path)) {
    // under CI a golden is never written: a missing one is a failure, not a new truth
    if (env['CI'] === 'true') assert.fail(existsSync(path) ? `UPDATE_GOLDEN is not allowed under CI: ${path}` : `golden file missing: ${path}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  assert.equal(actual, readFileSync(path, 'utf8'), `golden mismatch: ${path} (UPDATE_GOLDEN=1 to accept)`);
}

/** Path of a golden file next to the calling test: golden(import.meta.url, 'name.txt'). */
export function goldenPath(testUrl: string, name: string): string {
  return new URL(`./testdata/${name}`, testUrl).pathname;
}
