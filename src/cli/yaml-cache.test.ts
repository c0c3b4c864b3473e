/**
 * The one-shot command's kubeconfig parse cache (yaml-cache.ts): written after a run that parsed
 * the session's kubeconfig, read by the next run, ignored when damaged or when the kubeconfig
 * changed, and kept only for values JSON gives back unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harness } from './testing/harness.js';
import { jsonExact, yamlCacheDir } from './yaml-cache.js';
import { clearYamlMemo } from '../util/yaml-memo.js';

test('yaml-cache: only JSON-exact values are kept', () => {
  const cases: { name: string; value: unknown; exact: boolean }[] = [
    { name: 'plain tree', value: { a: [1, 'x', true, null, { b: 2.5 }] }, exact: true },
    { name: 'infinity (.inf)', value: { a: Infinity }, exact: false },
    { name: 'NaN (.nan)', value: [NaN], exact: false },
    { name: 'negative zero', value: -0, exact: false },
    { name: 'a Date', value: { d: new Date(0) }, exact: false },
    { name: 'a Map', value: new Map(), exact: false },
    { name: 'a bigint', value: 1n, exact: false },
    { name: 'undefined member', value: { a: undefined }, exact: false },
  ];
  for (const c of cases) assert.equal(jsonExact(c.value), c.exact, c.name);
});

test('yaml-cache: XDG_CACHE_HOME when absolute, else ~/.cache', () => {
  assert.equal(yamlCacheDir({ XDG_CACHE_HOME: '/c', HOME: '/h' }), '/c/cka-lab/yaml');
  assert.equal(yamlCacheDir({ XDG_CACHE_HOME: 'rel', HOME: '/h' }), '/h/.cache/cka-lab/yaml');
});

test('yaml-cache: a one-shot run reuses the kubeconfig parsed by the run before, and misses once it changes', async () => {
  // a fresh process parses the kubeconfig: nothing another test parsed in this process may hit
  clearYamlMemo();
  const h = harness();
  const dir = join(h.data, '.cache', 'cka-lab', 'yaml');
  assert.equal((await h.run(['kubectl', 'get', 'ns', 'default', '-o', 'name'])).stdout, 'namespace/default\n');
  const [file, ...more] = readdirSync(dir);
  assert.ok(file && more.length === 0, 'one cache file');
  const cached = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { text: string; value: { contexts: { context: { namespace?: string } }[] } };
  // a hit is what the next run uses: a (hand-made) namespace in the cached value shows through
  cached.value.contexts[0]!.context.namespace = 'kube-system';
  writeFileSync(join(dir, file), JSON.stringify(cached));
  clearYamlMemo(); // each run below stands for a new process
  assert.match((await h.run(['kubectl', 'get', 'deploy', '-o', 'name'])).stdout, /deployment\.apps\/coredns/);
  // damaged: ignored and written anew
  writeFileSync(join(dir, file), '{"text":');
  clearYamlMemo();
  assert.equal((await h.run(['kubectl', 'get', 'deploy', '-o', 'name'])).stdout, '');
  assert.equal((JSON.parse(readFileSync(join(dir, file), 'utf8')) as { text: string }).text, cached.text);
  // the kubeconfig changes: its new text has its own entry
  await h.run(['kubectl', 'config', 'set-context', '--current', '--namespace=kube-system']);
  clearYamlMemo();
  assert.match((await h.run(['kubectl', 'get', 'deploy', '-o', 'name'])).stdout, /deployment\.apps\/coredns/);
  assert.equal(readdirSync(dir).filter((f) => f.endsWith('.json')).length, 2);
});
