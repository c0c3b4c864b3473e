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
