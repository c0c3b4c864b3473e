/**
 * Discovery from CustomResourceDefinitions (apiextensions-apiserver customresource_discovery_controller.go,
 * naming_controller.go) and kubectl's resolution of what a user types against it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calculateNames, compareKubeAwareVersions, discoveryOf, discoveryWithCrds, type CustomResourceDefinition } from './crd.js';
import { Store } from './store.js';
import { BUILTIN } from './registry.js';

function crd(plural: string, group: string, kind: string, opts: { scope?: 'Namespaced' | 'Cluster'; shortNames?: string[]; versions?: [string, boolean][]; established?: boolean; categories?: string[] } = {}): CustomResourceDefinition {
  const names = { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase(), ...(opts.shortNames ? { shortNames: opts.shortNames } : {}), ...(opts.categories ? { categories: opts.categories } : {}) };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: { group, names, scope: opts.scope ?? 'Namespaced', versions: (opts.versions ?? [['v1', true]]).map(([name, served], i) => ({ name, served, storage: i === 0 })) },
    status: {
      acceptedNames: names,
      conditions: [{ type: 'Established', status: opts.established === false ? 'False' : 'True' }],
    },
  };
}

function withSingular(c: CustomResourceDefinition, singular: string): CustomResourceDefinition {
  c.spec.names = { ...c.spec.names, singular };
  c.status!.acceptedNames = c.spec.names;
  return c;
}

const d = discoveryWithCrds([
  crd('crontabs', 'stable.example.com', 'CronTab', { shortNames: ['ct'], versions: [['v1beta1', true], ['v1', true], ['v2alpha1', true]] }),
  crd('gateways', 'gateway.networking.k8s.io', 'Gateway', { shortNames: ['gtw'], categories: ['gateway-api'] }),
  crd('gatewayclasses', 'gateway.networking.k8s.io', 'GatewayClass', { scope: 'Cluster', shortNames: ['gc'] }),
  crd('pending', 'example.com', 'Pending', { established: false }),
  crd('offs', 'example.com', 'Off', { versions: [['v1', false]] }),
]);

const resolutions: [string, string | undefined][] = [
  ['crontabs', 'CronTab'],
  ['crontab', 'CronTab'],
  ['ct', 'CronTab'],
  ['CronTab', 'CronTab'],
  ['crontabs.stable.example.com', 'CronTab'],
  ['crontab.stable.example.com', 'CronTab'],
  ['crontabs.v1beta1.stable.example.com', 'CronTab'],
  ['crontabs.other.example.com', undefined],
  ['gtw', 'Gateway'],
  ['gatewayclasses.gateway.networking.k8s.io', 'GatewayClass'],
  ['pending', undefined],
  ['offs', undefined],
  ['pods', 'Pod'],
  ['deploy', 'Deployment'],
];
for (const [arg, kind] of resolutions) test(`discovery resolves ${arg} → ${kind ?? 'nothing'}`, () => assert.equal(d.resolve(arg)?.kind, kind));

test('custom resources follow the built-ins, by group then resource; scope and preferred version', () => {
  assert.deepEqual(d.resources.slice(0, BUILTIN.resources.length), [...BUILTIN.resources]);
  assert.deepEqual(d.resources.slice(BUILTIN.resources.length).map((r) => `${r.group}/${r.resource}`), ['gateway.networking.k8s.io/gatewayclasses', 'gateway.networking.k8s.io/gateways', 'stable.example.com/crontabs']);
  const ct = d.infoForKind('CronTab');
  assert.equal(ct.version, 'v1');
  assert.deepEqual(ct.servedVersions, ['v1', 'v1beta1', 'v2alpha1']);
  assert.equal(ct.namespaced, true);
  assert.equal(d.infoForKind('GatewayClass').namespaced, false);
  assert.equal(ct.crd, 'crontabs.stable.example.com');
  assert.deepEqual(d.category('gateway-api').map((r) => r.kind), ['Gateway']);
  assert.equal(discoveryWithCrds([]), BUILTIN);
});

test('kube-aware version order (apimachinery version/helpers_test.go)', () => {
  const sorted = ['v1beta1', 'v12alpha1', 'foo10', 'v1', 'v2', 'v11beta2', 'v10beta3', 'v3beta1', 'v10', 'v11alpha2', 'foo1'].sort(compareKubeAwareVersions);
  assert.deepEqual(sorted, ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v1beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10']);
});

const naming: { name: string; other: CustomResourceDefinition; want: [string, string, string] }[] = [
  { name: 'no conflict', other: crd('others', 'stable.example.com', 'Other'), want: ['True', 'NoConflicts', 'no conflicts found'] },
  { name: 'plural in use (as a short name of another)', other: crd('others', 'stable.example.com', 'Other', { shortNames: ['crontabs'] }), want: ['False', 'PluralConflict', '"crontabs" is already in use'] },
  { name: 'short name in use', other: crd('others', 'stable.example.com', 'Other', { shortNames: ['ct'] }), want: ['False', 'ShortNamesConflict', '"ct" is already in use'] },
  { name: 'kind in use', other: withSingular(crd('others', 'stable.example.com', 'CronTab'), 'other'), want: ['False', 'KindConflict', '"CronTab" is already in use'] },
  { name: 'another group is no conflict', other: crd('crontabs', 'other.example.com', 'CronTab'), want: ['True', 'NoConflicts', 'no conflicts found'] },
];
for (const c of naming) {
  test(`naming controller: ${c.name}`, () => {
    const mine = crd('crontabs', 'stable.example.com', 'CronTab', { shortNames: ['ct'] });
    delete mine.status;
    const r = calculateNames(mine, [c.other, mine]);
    assert.deepEqual([r.condition.status, r.condition.reason, r.condition.message], c.want);
    assert.equal(r.accepted === undefined, c.want[0] === 'False');
  });
}

test('discoveryOf: stores holding the very same frozen CRDs share one discovery; a changed CRD gets its own', () => {
  const a = new Store();
  a.put(crd('widgets', 'example.com', 'Widget'));
  a.put(crd('gadgets', 'example.com', 'Gadget', { shortNames: ['gd'] }));
  const saved = a.toJSON();
  const da = discoveryOf(Store.fromJSON(saved));
  assert.equal(discoveryOf(Store.fromJSON(saved)), da, 'a second store of the same CRD objects reuses the first discovery');
  assert.equal(da.resolve('gd')?.kind, 'Gadget');
  const c = new Store();
  c.put(a.list('CustomResourceDefinition')[0]!);
  c.put(crd('gadgets', 'example.com', 'Gadget', { shortNames: ['gg'] }));
  const dc = discoveryOf(c);
  assert.notEqual(dc, da);
  assert.equal(dc.resolve('gd'), undefined);
  assert.equal(dc.resolve('gg')?.kind, 'Gadget');
  assert.deepEqual(dc.resources, discoveryWithCrds(c.list('CustomResourceDefinition')).resources);
});
