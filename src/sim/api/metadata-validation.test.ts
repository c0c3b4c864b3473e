/**
 * Label and annotation keys as kube-apiserver v1.35 validates them (metav1 validation
 * ValidateLabels / ValidateLabelName, apimachinery objectmeta.go ValidateAnnotations, both through
 * content.IsLabelKey). The expected texts are upstream's: the same checks run client-side in
 * kubectl v1.35.2's selector parser, e.g. `kubectl set selector --local -f svc.yaml 'a/b/c=1'`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import { ApiError } from './errors.js';
import type { KObject } from './types.js';
import { validateAnnotations, validateLabels } from './validation.js';

const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const THREE_PARTS =
  "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
const PREFIX_PART =
  "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const labelCases: { name: string; labels: Record<string, string>; errors: string[] }[] = [
  { name: 'valid keys and values', labels: { app: 'web', 'example.com/tier': 'front_end', 'a.b-c_d': '', X: '1' }, errors: [] },
  { name: 'a space and a bang', labels: { 'bad key!': 'v' }, errors: [`metadata.labels: Invalid value: "bad key!": ${NAME_PART}`] },
  { name: 'ends with an underscore', labels: { a_: 'b' }, errors: [`metadata.labels: Invalid value: "a_": ${NAME_PART}`] },
  { name: 'three parts', labels: { 'a/b/c': '1' }, errors: [`metadata.labels: Invalid value: "a/b/c": ${THREE_PARTS}`] },
  { name: 'upper-case prefix', labels: { 'Ex.com/x': '1' }, errors: [`metadata.labels: Invalid value: "Ex.com/x": ${PREFIX_PART}`] },
  { name: 'empty prefix', labels: { '/x': '1' }, errors: ['metadata.labels: Invalid value: "/x": prefix part must be non-empty'] },
  {
    name: 'empty name part',
    labels: { 'ex.com/': '1' },
    errors: ['metadata.labels: Invalid value: "ex.com/": name part must be non-empty', `metadata.labels: Invalid value: "ex.com/": ${NAME_PART}`],
  },
  { name: 'name part of 64 bytes', labels: { ['a'.repeat(64)]: '1' }, errors: [`metadata.labels: Invalid value: "${'a'.repeat(64)}": name part must be no more than 63 bytes`] },
  { name: 'name part of 63 bytes', labels: { ['a'.repeat(63)]: '1' }, errors: [] },
  { name: 'prefix of 254 bytes', labels: { [`${'a'.repeat(254)}/x`]: '1' }, errors: [`metadata.labels: Invalid value: "${'a'.repeat(254)}/x": prefix part must be no more than 253 bytes`] },
  { name: 'bad value', labels: { k: 'bad val!' }, errors: [`metadata.labels: Invalid value: "bad val!": ${VALUE}`] },
  { name: 'value of 64 bytes', labels: { k: 'v'.repeat(64) }, errors: [`metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 bytes`] },
  {
    name: 'key and value both bad: key first',
    labels: { 'k!': 'v!' },
    errors: [`metadata.labels: Invalid value: "k!": ${NAME_PART}`, `metadata.labels: Invalid value: "v!": ${VALUE}`],
  },
];

for (const tc of labelCases) {
  test(`ValidateLabels: ${tc.name}`, () => {
    assert.deepEqual(
      validateLabels(tc.labels, 'metadata.labels').map((e) => `${e.field}: ${e.body}`),
      tc.errors,
    );
  });
}

const annotationCases: { name: string; annotations: Record<string, string>; errors: string[] }[] = [
  { name: 'upper case is fine: the key is lower-cased first', annotations: { 'Example.COM/Key': '1' }, errors: [] },
  { name: 'any value', annotations: { note: 'anything at all: !@#' }, errors: [] },
  { name: 'three parts, reported as written', annotations: { 'Bad/Key/x': '1' }, errors: [`metadata.annotations: Invalid value: "Bad/Key/x": ${THREE_PARTS}`] },
  { name: 'a space', annotations: { 'bad key!': 'v' }, errors: [`metadata.annotations: Invalid value: "bad key!": ${NAME_PART}`] },
  { name: 'total size over 256 KiB', annotations: { a: 'x'.repeat(256 * 1024) }, errors: ['metadata.annotations: Too long: may not be more than 262144 bytes'] },
  { name: 'total size at the limit', annotations: { a: 'x'.repeat(256 * 1024 - 1) }, errors: [] },
];

for (const tc of annotationCases) {
  test(`ValidateAnnotations: ${tc.name}`, () => {
    assert.deepEqual(
      validateAnnotations(tc.annotations).map((e) => `${e.field}: ${e.body}`),
      tc.errors,
    );
  });
}

const cm = (metadata: Record<string, unknown>): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default', ...metadata } }) as KObject;

const writeCases: { name: string; obj: KObject; message: string }[] = [
  { name: 'ConfigMap with a bad label key', obj: cm({ labels: { 'bad key!': 'x' } }), message: `ConfigMap "c" is invalid: metadata.labels: Invalid value: "bad key!": ${NAME_PART}` },
  { name: 'ConfigMap with a bad annotation key', obj: cm({ annotations: { 'Bad/Key/x': '1' } }), message: `ConfigMap "c" is invalid: metadata.annotations: Invalid value: "Bad/Key/x": ${THREE_PARTS}` },
  {
    name: 'labels before annotations',
    obj: cm({ labels: { a_: 'b' }, annotations: { 'a/b/c': '' } }),
    message: `ConfigMap "c" is invalid: [metadata.labels: Invalid value: "a_": ${NAME_PART}, metadata.annotations: Invalid value: "a/b/c": ${THREE_PARTS}]`,
  },
  {
    name: "a Deployment's pod template labels",
    obj: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web', 'x y': '1' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    } as KObject,
    message: `Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: "x y": ${NAME_PART}`,
  },
];

for (const tc of writeCases) {
  test(`create and update reject: ${tc.name}`, () => {
    const c = loadFixture('kubeadm-calico');
    const api = new ApiServer(c);
    const isInvalid = (e: unknown): boolean => e instanceof ApiError && e.reason === 'Invalid' && e.message === tc.message;
    assert.throws(() => api.create(tc.obj), isInvalid);
    // the same metadata on an update of a valid object
    const clean = structuredClone(tc.obj);
    delete clean.metadata.labels;
    delete clean.metadata.annotations;
    if (tc.obj.kind === 'Deployment') (clean['spec'] as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels = { app: 'web' };
    const stored = api.create(clean);
    assert.throws(() => api.update({ ...tc.obj, metadata: { ...tc.obj.metadata, resourceVersion: stored.metadata.resourceVersion! } }), isInvalid);
  });
}
