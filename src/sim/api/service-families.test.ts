/**
 * A Service's IP families on single- and dual-stack clusters, against the cases of kubernetes
 * pkg/registry/core/service/storage/storage_test.go (TestCreateInitIPFields, TestUpdateIPsFromSingleStack,
 * TestUpdateIPsFromDualStack): what initIPFamilyFields defaults and what it refuses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Service } from './types.js';
import { clusterIPsByFamily, clusterIPsOf, initIPFamilyFields, serviceRanges, validateFamilyUpdate } from './service-families.js';
import { deepFreeze } from '../../util/json-copy.js';

const V4 = serviceRanges('10.96.0.0/12');
const V6 = serviceRanges('fd00:10:96::/108');
const V4V6 = serviceRanges('10.96.0.0/12,fd00:10:96::/108');
const V6V4 = serviceRanges('fd00:10:96::/108,10.96.0.0/12');

function svc(spec: Record<string, unknown>): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { selector: { app: 's' }, ports: [{ port: 80 }], ...spec } } as Service;
}

const create: { name: string; ranges: typeof V4; spec: Record<string, unknown>; policy?: string | undefined; families?: string[] | undefined; error?: string }[] = [
  { name: 'nothing asked, v4 cluster', ranges: V4, spec: {}, policy: 'SingleStack', families: ['IPv4'] },
  { name: 'nothing asked, v6 cluster', ranges: V6, spec: {}, policy: 'SingleStack', families: ['IPv6'] },
  { name: 'nothing asked, dual v6-first cluster', ranges: V6V4, spec: {}, policy: 'SingleStack', families: ['IPv6'] },
  { name: 'PreferDualStack on a single-stack cluster', ranges: V4, spec: { ipFamilyPolicy: 'PreferDualStack' }, policy: 'PreferDualStack', families: ['IPv4'] },
  { name: 'PreferDualStack on a dual-stack cluster', ranges: V4V6, spec: { ipFamilyPolicy: 'PreferDualStack' }, policy: 'PreferDualStack', families: ['IPv4', 'IPv6'] },
  { name: 'RequireDualStack, IPv6 first', ranges: V4V6, spec: { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6'] }, policy: 'RequireDualStack', families: ['IPv6', 'IPv4'] },
  { name: 'SingleStack IPv6 on a v4-first dual cluster', ranges: V4V6, spec: { ipFamilies: ['IPv6'] }, policy: 'SingleStack', families: ['IPv6'] },
  { name: 'families inferred from the ClusterIPs', ranges: V4V6, spec: { ipFamilyPolicy: 'PreferDualStack', clusterIP: 'fd00:10:96::5', clusterIPs: ['fd00:10:96::5', '10.96.0.5'] }, policy: 'PreferDualStack', families: ['IPv6', 'IPv4'] },
  { name: 'headless without selector defaults to dual families', ranges: V4, spec: { clusterIP: 'None', clusterIPs: ['None'], selector: undefined }, policy: 'RequireDualStack', families: ['IPv4', 'IPv6'] },
  { name: 'headless with selector stays single', ranges: V4, spec: { clusterIP: 'None', clusterIPs: ['None'] }, policy: 'SingleStack', families: ['IPv4'] },
  { name: 'ExternalName gets nothing', ranges: V4V6, spec: { type: 'ExternalName', externalName: 'x.example.com' }, policy: undefined, families: undefined },
  { name: 'RequireDualStack on a single-stack cluster', ranges: V4, spec: { ipFamilyPolicy: 'RequireDualStack' }, error: 'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services' },
  { name: 'ClusterIP and family disagree', ranges: V4V6, spec: { ipFamilies: ['IPv6'], clusterIP: '10.96.0.5', clusterIPs: ['10.96.0.5'] }, error: 'spec.clusterIPs[0]: Invalid value: "10.96.0.5": expected an IPv6 value as indicated by `ipFamilies[0]`' },
  { name: 'clusterIPs without clusterIP', ranges: V4, spec: { clusterIPs: ['10.96.0.5'] }, error: 'spec.clusterIPs: Invalid value: ["10.96.0.5"]: must be empty when `clusterIP` is not specified' },
  { name: 'clusterIP and clusterIPs[0] differ', ranges: V4, spec: { clusterIP: '10.96.0.5', clusterIPs: ['10.96.0.6'] }, error: 'spec.clusterIPs: Invalid value: ["10.96.0.6"]: first value must match `clusterIP`' },
  { name: 'not an IP', ranges: V4, spec: { clusterIP: '10.96.0.500', clusterIPs: ['10.96.0.500'] }, error: 'spec.clusterIPs[0]: Invalid value: "10.96.0.500": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' },
  { name: 'None with a second IP', ranges: V4V6, spec: { ipFamilyPolicy: 'PreferDualStack', clusterIP: 'None', clusterIPs: ['None', 'fd00:10:96::5'] }, error: 'spec.clusterIPs: Invalid value: ["None","fd00:10:96::5"]: \'None\' must be the first and only value' },
  { name: 'an unknown family', ranges: V4, spec: { ipFamilies: ['IPv5'] }, error: 'spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"' },
];

for (const tc of create) {
  test(`initIPFamilyFields on create: ${tc.name}`, () => {
    const s = svc(tc.spec);
    const errs = initIPFamilyFields(s, undefined, tc.ranges);
    if (tc.error) {
      assert.deepEqual(errs.map((e) => `${e.field}: ${e.body}`), [tc.error]);
      return;
    }
    assert.deepEqual(errs, []);
    assert.equal(s.spec.ipFamilyPolicy, tc.policy);
    assert.deepEqual(s.spec.ipFamilies, tc.families);
  });
}

const dual = (policy: string): Service =>
  svc({ ipFamilyPolicy: policy, ipFamilies: ['IPv4', 'IPv6'], clusterIP: '10.96.0.5', clusterIPs: ['10.96.0.5', 'fd00:10:96::5'] });
const single = (): Service => svc({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'], clusterIP: '10.96.0.5', clusterIPs: ['10.96.0.5'] });

const update: { name: string; ranges: typeof V4; old: Service; change: (s: Service) => void; families?: string[]; ips?: string[]; error?: string[]; validation?: string }[] = [
  { name: 'upgrade to PreferDualStack adds the second family', ranges: V4V6, old: single(), change: (s) => (s.spec.ipFamilyPolicy = 'PreferDualStack'), families: ['IPv4', 'IPv6'], ips: ['10.96.0.5'] },
  { name: 'downgrade with SingleStack keeps the primary', ranges: V4V6, old: dual('PreferDualStack'), change: (s) => (s.spec.ipFamilyPolicy = 'SingleStack'), families: ['IPv4'], ips: ['10.96.0.5'] },
  {
    name: 'dropping the second IP needs SingleStack',
    ranges: V4V6,
    old: dual('RequireDualStack'),
    change: (s) => {
      s.spec.clusterIPs = ['10.96.0.5'];
      s.spec.ipFamilies = ['IPv4'];
    },
    error: [
      "spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": must be 'SingleStack' to release the secondary cluster IP",
      "spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": must be 'SingleStack' to release the secondary IP family",
    ],
  },
  { name: 'an unchanged PreferDualStack Service is left alone when the cluster lost a family', ranges: V4, old: dual('PreferDualStack'), change: () => undefined, families: ['IPv4', 'IPv6'], ips: ['10.96.0.5', 'fd00:10:96::5'] },
  { name: 'the policy is kept from the stored Service', ranges: V4V6, old: dual('RequireDualStack'), change: (s) => delete s.spec.ipFamilyPolicy, families: ['IPv4', 'IPv6'] },
  {
    name: 'the primary family may not change',
    ranges: V4V6,
    old: single(),
    change: (s) => {
      s.spec.ipFamilies = ['IPv6'];
      s.spec.clusterIP = 'fd00:10:96::5';
      s.spec.clusterIPs = ['fd00:10:96::5'];
    },
    validation: 'spec.clusterIPs[0]: Invalid value: ["fd00:10:96::5"]: may not change once set; spec.ipFamilies[0]: Invalid value: ["IPv6"]: may not change once set',
  },
];

for (const tc of update) {
  test(`IP families on update: ${tc.name}`, () => {
    const s = structuredClone(tc.old);
    tc.change(s);
    const errs = initIPFamilyFields(s, tc.old, tc.ranges);
    if (tc.error) {
      assert.deepEqual(errs.map((e) => `${e.field}: ${e.body}`), tc.error);
      return;
    }
    assert.deepEqual(errs, []);
    if (tc.validation) {
      assert.equal(validateFamilyUpdate(s, tc.old).map((e) => `${e.field}: ${e.body}`).join('; '), tc.validation);
      return;
    }
    assert.deepEqual(validateFamilyUpdate(s, tc.old), []);
    if (tc.families) assert.deepEqual(s.spec.ipFamilies, tc.families);
    if (tc.ips) assert.deepEqual(s.spec.clusterIPs, tc.ips);
  });
}

test('clusterIPsOf: the values of clusterIPsByFamily, kept for a frozen (stored) spec only', () => {
  const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { clusterIP: '10.96.0.5', clusterIPs: ['10.96.0.5', 'fd00::5'] } } as unknown as Service;
  assert.deepEqual(clusterIPsOf(svc), [...clusterIPsByFamily(svc).values()]);
  // a spec still being built is asked again: its change shows
  svc.spec.clusterIPs = ['10.96.0.6'];
  assert.deepEqual(clusterIPsOf(svc), ['10.96.0.6']);
  const stored: Service = { ...svc, spec: { ...svc.spec, clusterIPs: ['10.96.0.7'] } };
  deepFreeze(stored);
  const first = clusterIPsOf(stored);
  assert.deepEqual(first, ['10.96.0.7']);
  assert.equal(clusterIPsOf(stored), first);
  // headless: none
  assert.deepEqual(clusterIPsOf({ ...svc, spec: { clusterIP: 'None', clusterIPs: ['None'] } } as Service), []);
});

test('serviceRanges: parsed once per flag value, the ranges frozen (shared), a fresh list each call', () => {
  const a = serviceRanges('10.96.0.0/12,fd00:10:96::/112');
  const b = serviceRanges('10.96.0.0/12,fd00:10:96::/112');
  assert.notEqual(a, b);
  assert.equal(a[0], b[0]);
  assert.ok(a.every((r) => Object.isFrozen(r)));
  assert.deepEqual(a.map((r) => [r.family, r.text, r.bits]), [['IPv4', '10.96.0.0/12', 12], ['IPv6', 'fd00:10:96::/112', 112]]);
  a.pop();
  assert.equal(serviceRanges('10.96.0.0/12,fd00:10:96::/112').length, 2);
  assert.deepEqual(serviceRanges('10.96.0.0/16').map((r) => r.text), ['10.96.0.0/16']);
});
