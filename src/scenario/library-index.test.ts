import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadLibrary } from './loader.js';
import { buildIndex, knownFrom, readIndex, textKey } from './library-index.js';
import { packageRoot } from '../app/paths.js';

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
  const tmp = mkdtempSync(join(tmpdir(), 'cka-index-'));
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
    const p = join(mkdtempSync(join(tmpdir(), 'cka-index-')), 'scenario-index.json');
    if (c.content !== undefined) writeFileSync(p, c.content);
    assert.equal(readIndex(p), undefined);
  });
