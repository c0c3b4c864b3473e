/**
 * writeJsonAtomic writes ASCII bytes alone (characters past ASCII as `\uXXXX` escapes), so that
 * readJsonText decodes a saved session to a one-byte string; what a reader parses is the same value
 * either way, and a file that is not ASCII (written by hand or by an older version) still decodes
 * as UTF-8.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asciiJson, readJsonText, readJsonVersioned, writeJsonAtomic } from './jsonfile.js';

const VALUE = {
  schema: 1,
  text: 'don\u2019t \u00e9t\u00e9 \u65e5\u672c \u{1F600} tab\t quote" back\\ nul\u0000 del\u007f',
  lone: '\ud800 x \udfff',
  keys: { '\u00fc\u00e8': ['\u2026', 1, null, true] },
};

function withDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'cka-lab-jsonfile-'));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('writeJsonAtomic: the file is ASCII bytes and parses back to the same value', () => {
  withDir((dir) => {
    const path = join(dir, 'f.json');
    const bytes = writeJsonAtomic(path, VALUE);
    const raw = readFileSync(path);
    assert.equal(raw.length, bytes);
    assert.ok(raw.every((b) => b < 0x80), 'no byte past ASCII');
    assert.deepEqual(JSON.parse(raw.toString('utf8')), VALUE);
    assert.equal(readJsonText(path), raw.toString('utf8'));
    const r = readJsonVersioned<typeof VALUE>(path, 1, () => undefined, 0);
    assert.equal(r.status, 'ok');
    assert.deepEqual(r.status === 'ok' && r.data, VALUE);
  });
});

test('asciiJson: the same JSON value, and ASCII text is returned as it is', () => {
  const text = JSON.stringify(VALUE);
  assert.deepEqual(JSON.parse(asciiJson(text)), VALUE);
  assert.match(asciiJson(text), /^[\x00-\x7f]*$/);
  const plain = JSON.stringify({ a: 'b', c: [1, 2] });
  assert.equal(asciiJson(plain), plain);
});

test('readJsonText: a file with UTF-8 bytes decodes as readFileSync(path, "utf8") does', () => {
  withDir((dir) => {
    const path = join(dir, 'f.json');
    for (const content of [Buffer.from(`${JSON.stringify(VALUE)}\n`, 'utf8'), Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]), Buffer.from('{"a":"plain"}\n')]) {
      writeFileSync(path, content);
      assert.equal(readJsonText(path), readFileSync(path, 'utf8'));
    }
  });
});
