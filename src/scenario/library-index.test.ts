import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadLibrary } from './loader.js';
import { buildIndex, knownFrom, readIndex, textKey } from './library-index.js';
import { packageRoot } from '../app/paths.js';

/** A temporary directory removed when the file's tests end. */
const made: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cka-index-'));
  made.push(d);
  return d;
}
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const dir = join(packageRoot(), 'scenarios');

test('a library loaded through the build-time index equals one parsed from the files', () => {
  const index = buildIndex(dir);
  const fresh = loadLibrary(dir);
  const indexed = loadLibrary(dir, knownFrom(index));
  assert.equal(Object.keys(index.entries).length, fresh.scenarios.length);
  assert.deepEqual(indexed.errors, fresh.errors);
  assert.equal(JSON.stringify(indexed.scenarios), JSON.stringify(fresh.scenarios));
});

test('a file whose text the index does not know is parsed, so an edit is never served stale', () => {
  const index = buildIndex(dir);
  const known = knownFrom(index)!;
  const s = loadLibrary(dir).scenarios[0]!;
  const text = readFileSync(s.source, 'utf8').replace(/^minutes: \d+$/m, 'minutes: 59');
  assert.equal(known(text), undefined);
  const tmp = tempDir();
  mkdirSync(join(tmp, s.domain));
  writeFileSync(join(tmp, s.domain, 'edited.yaml'), text);
  const loaded = loadLibrary(tmp, known).scenarios;
  assert.equal(loaded.length, 1);
  assert.equal(loaded[0]!.minutes, 59);
  assert.ok(index.entries[textKey(readFileSync(s.source, 'utf8'))]);
});

const BAD: { name: string; content: string | undefined }[] = [
  { name: 'missing file', content: undefined },
  { name: 'not JSON', content: '{"version": 1, "entries": ' },
  { name: 'another version', content: '{"version": 0, "entries": {}}' },
  { name: 'entries not an object', content: '{"version": 1, "entries": null}' },
];
for (const c of BAD)
  test(`readIndex ignores a bad index: ${c.name}`, () => {
    const p = join(tempDir(), 'scenario-index.json');
    if (c.content !== undefined) writeFileSync(p, c.content);
    assert.equal(readIndex(p), undefined);
  });

test('the async indexed loader (list, show) equals the parser, and parses a file the index does not know', async () => {
  const { loadLibraryIndexed } = await import('./library-files.js');
  const index = buildIndex(dir);
  const fresh = loadLibrary(dir);
  const indexed = await loadLibraryIndexed(dir, index);
  assert.deepEqual(indexed.errors, fresh.errors);
  assert.equal(JSON.stringify(indexed.scenarios), JSON.stringify(fresh.scenarios));
  const none = await loadLibraryIndexed(dir, undefined);
  assert.equal(JSON.stringify(none.scenarios), JSON.stringify(fresh.scenarios));

  const s = fresh.scenarios[0]!;
  const tmp = tempDir();
  mkdirSync(join(tmp, s.domain));
  const text = readFileSync(s.source, 'utf8');
  writeFileSync(join(tmp, s.domain, 'a.yaml'), text);
  writeFileSync(join(tmp, s.domain, 'b.yaml'), text.replace(/^minutes: \d+$/m, 'minutes: 59').replace(/^id: .*$/m, 'id: edited-copy'));
  writeFileSync(join(tmp, s.domain, 'c.yaml'), 'id: [unclosed');
  const got = await loadLibraryIndexed(tmp, index);
  assert.deepEqual(got.scenarios.map((x) => [x.id, x.minutes]), [[s.id, s.minutes], ['edited-copy', 59]]);
  assert.equal(got.errors.length, 1);
  assert.equal(got.errors[0]!.file, join(tmp, s.domain, 'c.yaml'));
  assert.deepEqual(got.errors, loadLibrary(tmp, knownFrom(index)).errors);
});
