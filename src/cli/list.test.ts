import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness } from './testing/harness.js';
import { CURRICULUM } from '../scenario/index.js';
import { join } from 'node:path';
import { loadLibrary } from '../scenario/loader.js';
import { summaryOf } from '../scenario/library-index.js';
import { packageRoot } from '../app/paths.js';
import { listRow } from './list.js';

test('list --json: the library has at least 30 tasks, each in en, ja and zh-CN, across the domains', async () => {
  const h = harness();
  const r = await h.run(['list', '--json'], '');
  assert.equal(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout) as { id: string; domain: string; competency: string; competencyId: string | null; topics: string[]; languages: string[]; titles: Record<string, string> }[];
  assert.ok(rows.length >= 30, `${rows.length} tasks`);
  for (const row of rows) {
    assert.deepEqual(row.languages, ['en', 'ja', 'zh-CN'], row.id);
    assert.equal(CURRICULUM.find((c) => c.id === row.competencyId)?.line, row.competency, `${row.id}: the competency is a curriculum line, with its id`);
    assert.ok(row.topics.length > 0, row.id);
  }
  assert.equal(new Set(rows.map((x) => x.id)).size, rows.length, 'ids are unique');
  assert.deepEqual([...new Set(rows.map((x) => x.domain))].sort(), ['cluster-architecture', 'services-networking', 'storage', 'troubleshooting', 'workloads-scheduling']);
});

test('list reads only what the build-time summaries keep: every row equals the full scenario\'s', () => {
  const all = loadLibrary(join(packageRoot(), 'scenarios')).scenarios;
  assert.ok(all.length > 100);
  for (const s of all) for (const lang of ['en', 'ja', 'zh-CN'] as const) assert.deepEqual(listRow(summaryOf(s), lang), listRow(s, lang), s.id);
  // the summary leaves the heavy parts out
  assert.ok(JSON.stringify(all.map(summaryOf)).length * 5 < JSON.stringify(all).length);
});
