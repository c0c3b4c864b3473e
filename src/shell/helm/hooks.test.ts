/** Hooks as helm v4.1.4 records, orders, filters and waits on them (hooks.ts), table by table. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KObject } from '../../sim/api/types.js';
import { byWeight, deletePolicies, filterHooks, hookRecord, hookStatus, parseFilters } from './hooks.js';
import { notReadyText } from './kstatus.js';
import { parseValuesYaml } from './chart.js';
import { sortManifests, splitManifests } from './manifests.js';
import { memoisedYaml } from '../../util/yaml-memo.js';
import type { ReleaseHook } from './release.js';

const doc = (annotations: Record<string, string>): string =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: t\n  annotations:\n${Object.entries(annotations)
    .map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join('\n')}\n`;

test('hookRecord: events, weight and delete policies from the annotations (manifest_sorter.go)', () => {
  const cases: { name: string; ann: Record<string, string>; want: Partial<ReleaseHook> | undefined }[] = [
    { name: 'a test hook', ann: { 'helm.sh/hook': 'test' }, want: { events: ['test'] } },
    { name: "Helm 2's test-success is test", ann: { 'helm.sh/hook': 'test-success' }, want: { events: ['test'] } },
    { name: 'several events, spaces and case', ann: { 'helm.sh/hook': ' Pre-Install, post-upgrade ' }, want: { events: ['pre-install', 'post-upgrade'] } },
    { name: 'an unknown event drops the hook', ann: { 'helm.sh/hook': 'test,nope' }, want: undefined },
    { name: 'weight', ann: { 'helm.sh/hook': 'test', 'helm.sh/hook-weight': '-5' }, want: { events: ['test'], weight: -5 } },
    { name: 'a weight that is not a number is 0', ann: { 'helm.sh/hook': 'test', 'helm.sh/hook-weight': '1.5' }, want: { events: ['test'] } },
    {
      name: 'delete policies',
      ann: { 'helm.sh/hook': 'test', 'helm.sh/hook-delete-policy': 'Hook-Succeeded, before-hook-creation' },
      want: { events: ['test'], delete_policies: ['hook-succeeded', 'before-hook-creation'] },
    },
  ];
  for (const c of cases) {
    const content = doc(c.ann);
    const got = hookRecord({ path: 'c/templates/tests/t.yaml', content, kind: 'Pod', name: 't' });
    assert.deepEqual(got, c.want && { name: 't', kind: 'Pod', path: 'c/templates/tests/t.yaml', manifest: content, ...c.want }, c.name);
  }
});

const hook = (name: string, weight?: number, extra: Partial<ReleaseHook> = {}): ReleaseHook => ({ name, kind: 'Pod', path: `c/templates/${name}.yaml`, manifest: '', events: ['test'], ...(weight !== undefined ? { weight } : {}), ...extra });

test('byWeight: by weight, then name (hookByWeight); default delete policy before-hook-creation', () => {
  assert.deepEqual(byWeight([hook('b', 1), hook('c'), hook('a', 1), hook('z', -1)]).map((h) => h.name), ['z', 'c', 'a', 'b']);
  assert.deepEqual(deletePolicies(hook('a')), ['before-hook-creation']);
  assert.deepEqual(deletePolicies(hook('a', 0, { delete_policies: ['hook-failed'] })), ['hook-failed']);
});

test('--filter: name= includes, !name= and "! name=" exclude, commas split (release_testing.go)', () => {
  const hooks = [hook('a'), hook('b'), hook('c')];
  const cases: { filter: string[]; run: string[]; skipped: string[] }[] = [
    { filter: [], run: ['a', 'b', 'c'], skipped: [] },
    { filter: ['name=b'], run: ['b'], skipped: ['a', 'c'] },
    { filter: ['name=a,name=c'], run: ['a', 'c'], skipped: ['b'] },
    { filter: ['!name=a'], run: ['b', 'c'], skipped: ['a'] },
    { filter: ['! name=a', 'name=a'], run: [], skipped: ['a', 'b', 'c'] },
    { filter: ['other=x'], run: ['a', 'b', 'c'], skipped: [] },
  ];
  for (const c of cases) {
    const got = filterHooks(hooks, parseFilters(c.filter));
    assert.deepEqual({ run: got.run.map((h) => h.name), skipped: got.skipped.map((h) => h.name) }, { run: c.run, skipped: c.skipped }, c.filter.join(' '));
  }
});

test('hookStatus: what the hook waiter reads (statusreaders pod and job readers, else current)', () => {
  const obj = (kind: string, status: unknown, spec: unknown = {}): KObject => ({ apiVersion: 'v1', kind, metadata: { name: 'x', namespace: 'ns' }, spec, status }) as unknown as KObject;
  const cases: { o: KObject; want: ReturnType<typeof hookStatus> }[] = [
    { o: obj('Pod', { phase: 'Succeeded' }), want: { status: 'Current', message: 'pod x succeeded' } },
    { o: obj('Pod', { phase: 'Failed' }), want: { status: 'Failed', message: 'pod x failed' } },
    { o: obj('Pod', { phase: 'Running' }), want: { status: 'InProgress', message: 'Pod in progress' } },
    { o: obj('Job', { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] }), want: { status: 'Current', message: 'Job Completed. succeeded: 1/1' } },
    { o: obj('Job', { failed: 7, conditions: [{ type: 'Failed', status: 'True' }] }, { completions: 2 }), want: { status: 'Failed', message: 'Job Failed. failed: 7/2' } },
    { o: obj('Job', {}), want: { status: 'InProgress', message: 'Job in progress' } },
    { o: obj('ConfigMap', undefined), want: { status: 'Current', message: 'Resource is current' } },
  ];
  for (const c of cases) assert.deepEqual(hookStatus(c.o), c.want, `${c.o.kind} ${JSON.stringify((c.o as { status?: unknown }).status)}`);
  assert.equal(notReadyText(obj('Pod', {}), { status: 'Failed', message: 'pod x failed' }), 'resource Pod/ns/x not ready. status: Failed, message: pod x failed');
});

test('helm reads a rendered document through the YAML memo: sorting, hook records and values files parse each text once', () => {
  const content = doc({ 'helm.sh/hook': 'post-install', 'helm.sh/hook-weight': '3' });
  const text = splitManifests(content)[0]!;
  assert.equal(memoisedYaml(text), undefined);
  const { hooks } = sortManifests(new Map([['c/templates/job.yaml', content]]));
  assert.ok(memoisedYaml(text), 'sortManifests parsed the document through the memo');
  const rec = hookRecord(hooks[0]!);
  assert.equal(rec?.weight, 3);
  const values = 'replicas: 1\nreplicas: 2\n';
  const first = parseValuesYaml(values, 'values.yaml');
  (parseValuesYaml(values, 'values.yaml') as Record<string, unknown>).replicas = 7;
  assert.deepEqual(parseValuesYaml(values, 'values.yaml'), first, 'each call has its own copy');
});
