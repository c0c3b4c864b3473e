/** parseNginxConfCached: the same files give the same (shared) parse; any changed read misses. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseNginxConfCached, type ParseResult, type ReadConf } from './conf.js';

function reader(files: Record<string, string>): ReadConf {
  return {
    read: (p) => files[p] ?? 'ENOENT',
    glob: (pattern) => {
      const dir = pattern.slice(0, pattern.lastIndexOf('/'));
      return Object.keys(files).filter((f) => f.startsWith(`${dir}/`) && f.endsWith('.conf')).sort();
    },
  };
}

const MAIN = '/tmp/cache-test/nginx.conf';

test('nginx conf cache: same reads hit, an edited include or a new one misses', () => {
  const files: Record<string, string> = {
    [MAIN]: 'events {}\nhttp {\n  include /tmp/cache-test/conf.d/*.conf;\n}\n',
    '/tmp/cache-test/conf.d/a.conf': 'server { listen 80; server_name a; }\n',
  };
  const first = parseNginxConfCached(reader(files), MAIN);
  assert.equal(first.ok, true);
  assert.equal(parseNginxConfCached(reader({ ...files }), MAIN), first, 'same reads: the remembered result');
  const edited = parseNginxConfCached(reader({ ...files, '/tmp/cache-test/conf.d/a.conf': 'server { listen 8080; server_name a; }\n' }), MAIN);
  assert.notEqual(edited, first);
  const listens = (r: ParseResult): number[] => (r.ok ? (r.conf.http?.servers ?? []).flatMap((s) => s.listens.map((l) => l.port)) : []);
  assert.deepEqual(listens(edited), [8080]);
  const added = parseNginxConfCached(reader({ ...files, '/tmp/cache-test/conf.d/b.conf': 'server { listen 81; server_name b; }\n' }), MAIN);
  assert.deepEqual(listens(added), [80, 81]);
  const broken = parseNginxConfCached(reader({ ...files, '/tmp/cache-test/conf.d/a.conf': 'server { listen 80 }\n' }), MAIN);
  assert.equal(broken.ok, false);
  assert.deepEqual(listens(parseNginxConfCached(reader(files), MAIN)), [80]);
});

test('nginx conf cache: checking the remembered parses reads each file once', () => {
  const MAIN2 = '/tmp/cache-test-2/nginx.conf';
  const base: Record<string, string> = {
    [MAIN2]: 'events {}\nhttp {\n  include /tmp/cache-test-2/conf.d/*.conf;\n}\n',
    '/tmp/cache-test-2/conf.d/a.conf': 'server { listen 80; server_name a; }\n',
  };
  const other = { ...base, '/tmp/cache-test-2/conf.d/a.conf': 'server { listen 81; server_name a; }\n' };
  parseNginxConfCached(reader(base), MAIN2);
  const second = parseNginxConfCached(reader(other), MAIN2);
  // the second configuration again: the first remembered parse reads the files and misses on
  // a.conf, the second hits; nginx.conf, the include's listing and a.conf are each read once
  const counts = new Map<string, number>();
  const files = reader(other);
  const counting: ReadConf = {
    read: (p) => (counts.set(p, (counts.get(p) ?? 0) + 1), files.read(p)),
    glob: (pattern) => (counts.set(pattern, (counts.get(pattern) ?? 0) + 1), files.glob(pattern)),
  };
  assert.equal(parseNginxConfCached(counting, MAIN2), second);
  assert.deepEqual([...counts.values()], [1, 1, 1], JSON.stringify([...counts]));
});
