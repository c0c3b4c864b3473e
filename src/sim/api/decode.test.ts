import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { ApiError } from './errors.js';
import { decodeObject } from './decode.js';

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ApiError);
    assert.equal(e.reason, 'BadRequest');
    return e.message;
  }
  assert.fail('no error');
}

const pod = (spec: unknown, metadata: unknown = { name: 'x' }) => ({ apiVersion: 'v1', kind: 'Pod', metadata, spec });

test('wrong JSON types give encoding/json text inside the handler wrapping', () => {
  const deploy = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 'abc' } };
  assert.equal(
    message(() => decodeObject(deploy, 'Deployment', 'v1', 'Strict')),
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
  );
  assert.equal(
    message(() => decodeObject(pod({ containers: [{ name: 'c', image: 'i', command: [3600] }] }), 'Pod', 'v1', 'Strict')),
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Container.spec.containers.command of type string',
  );
  assert.equal(
    message(() => decodeObject(pod({}, { name: 2024 }), 'Pod', 'v1', 'Strict')),
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
  );
  assert.equal(
    message(() => decodeObject(pod({ containers: 'nginx' }), 'Pod', 'v1', 'Strict')),
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container',
  );
  assert.equal(
    message(() => decodeObject(pod({ containers: [{ name: 'c', image: 'i', imagePullPolicy: 3 }] }), 'Pod', 'v1', 'Strict')),
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Container.spec.containers.imagePullPolicy of type v1.PullPolicy',
  );
  assert.equal(
    message(() => decodeObject(pod({ containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 1.5 }] }] }), 'Pod', 'v1', 'Strict')),
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
  );
  assert.equal(
    message(() => decodeObject(pod({}, { name: 'x', labels: { a: 1 } }), 'Pod', 'v1', 'Strict')),
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
  );
  assert.equal(
    message(() => decodeObject({ kind: 'Pod', spec: 'x' }, 'Pod', 'v1', 'Strict')),
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec',
  );
});

test('an int64 field takes what an int32 cannot', () => {
  const { obj } = decodeObject(pod({ terminationGracePeriodSeconds: 3e9, containers: [] }), 'Pod', 'v1', 'Strict');
  assert.equal((obj['spec'] as { terminationGracePeriodSeconds: number }).terminationGracePeriodSeconds, 3e9);
  assert.match(message(() => decodeObject(pod({ priority: 3e9 }), 'Pod', 'v1', 'Strict')), /cannot unmarshal number 3000000000 into Go struct field PodSpec.spec.priority of type int32$/);
});

test('unknown fields: Strict fails with all of them, Warn reports, Ignore drops', () => {
  const bad = pod({ containers: [{ name: 'c', image: 'i', portz: [] }], foo: 1 }, { name: 'x', lables: {} });
  assert.equal(
    message(() => decodeObject(bad, 'Pod', 'v1', 'Strict')),
    'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "metadata.lables", unknown field "spec.containers[0].portz", unknown field "spec.foo"',
  );
  const warn = decodeObject(bad, 'Pod', 'v1', 'Warn');
  assert.deepEqual(warn.unknownFields, ['metadata.lables', 'spec.containers[0].portz', 'spec.foo']);
  assert.deepEqual(warn.obj, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
  const ignore = decodeObject(bad, 'Pod', 'v1', 'Ignore');
  assert.deepEqual(ignore.unknownFields, []);
  assert.deepEqual(ignore.obj, warn.obj);
  // names match case-sensitively
  assert.match(message(() => decodeObject({ kind: 'Deployment', spec: { Replicas: 2 } }, 'Deployment', 'v1', 'Strict')), /unknown field "spec.Replicas"$/);
  // a type error wins over unknown fields
  assert.match(message(() => decodeObject(pod({ foo: 1, restartPolicy: 1 }), 'Pod', 'v1', 'Strict')), /cannot unmarshal number into Go struct field PodSpec.spec.restartPolicy of type v1.RestartPolicy$/);
});

test('null leaves a field absent; quantities are stored canonical or rejected', () => {
  assert.deepEqual(decodeObject({ kind: 'Pod', metadata: { name: 'x' }, spec: null }, 'Pod', 'v1', 'Strict').obj, { kind: 'Pod', metadata: { name: 'x' } });
  assert.deepEqual(decodeObject(pod({ containers: null }), 'Pod', 'v1', 'Strict').obj['spec'], {});
  const { obj } = decodeObject(pod({ containers: [{ name: 'c', image: 'i', resources: { limits: { memory: '0.1875Gi', cpu: 0.5 } } }] }), 'Pod', 'v1', 'Strict');
  assert.deepEqual((obj['spec'] as { containers: { resources: unknown }[] }).containers[0]!.resources, { limits: { memory: '192Mi', cpu: '500m' } });
  assert.equal(
    message(() => decodeObject(pod({ containers: [{ name: 'c', image: 'i', resources: { limits: { memory: '1Gb' } } }] }), 'Pod', 'v1', 'Strict')),
    "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  );
});

test('IntOrString and Time report the inner decode with the outer context', () => {
  const svc = { kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: true }] } };
  assert.equal(
    message(() => decodeObject(svc, 'Service', 'v1', 'Strict')),
    'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
  );
  assert.match(message(() => decodeObject(pod({}, { name: 'x', creationTimestamp: 5 }), 'Pod', 'v1', 'Strict')), /json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string$/);
});

test('kinds without a full schema still type their metadata and keep the rest', () => {
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules: [{ verbs: ['get'] }] };
  assert.deepEqual(decodeObject(role, 'Role', 'v1', 'Strict').obj, role);
  assert.match(message(() => decodeObject({ ...role, metadata: { name: 'r', namespace: 1 } }, 'Role', 'v1', 'Strict')), /ObjectMeta.metadata.namespace of type string$/);
  const cj = { kind: 'CronJob', metadata: { name: 'c' }, spec: { schedule: 5 } };
  assert.match(message(() => decodeObject(cj, 'CronJob', 'v1', 'Strict')), /Go struct field CronJobSpec.spec.schedule of type string$/);
  const sec = { kind: 'Secret', metadata: { name: 's' }, data: { a: 'not base64!' } };
  assert.match(message(() => decodeObject(sec, 'Secret', 'v1', 'Strict')), /: illegal base64 data at input byte 3$/);
});

test('LimitRange and ResourceQuota are decoded by their schemas: a bad quantity is refused, good ones are canonical', () => {
  const QUANTITY_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  const lr = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', default: { cpu: 'lots' } }] } };
  assert.equal(message(() => decodeObject(lr, 'LimitRange', 'v1', 'Strict')), `LimitRange in version "v1" cannot be handled as a LimitRange: ${QUANTITY_ERROR}`);
  const rq = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: 'many' } } };
  assert.equal(message(() => decodeObject(rq, 'ResourceQuota', 'v1', 'Strict')), `ResourceQuota in version "v1" cannot be handled as a ResourceQuota: ${QUANTITY_ERROR}`);
  const good = decodeObject({ ...rq, spec: { hard: { 'requests.cpu': '0.5', 'requests.memory': '0.1875Gi' } } }, 'ResourceQuota', 'v1', 'Strict').obj as unknown as { spec: { hard: Record<string, string> } };
  assert.deepEqual(good.spec.hard, { 'requests.cpu': '500m', 'requests.memory': '192Mi' });
});

test('security contexts are typed: int64 ids, named string types, unknown fields', () => {
  assert.equal(
    message(() => decodeObject(pod({ containers: [{ name: 'c', image: 'i' }], securityContext: { runAsUser: 'abc' } }), 'Pod', 'v1', 'Strict')),
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSecurityContext.spec.securityContext.runAsUser of type int64',
  );
  assert.equal(
    message(() => decodeObject(pod({ containers: [{ name: 'c', image: 'i', securityContext: { capabilities: { add: [1] } } }] }), 'Pod', 'v1', 'Strict')),
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Capabilities.spec.containers.securityContext.capabilities.add of type v1.Capability',
  );
  assert.equal(
    message(() => decodeObject(pod({ containers: [{ name: 'c', image: 'i' }], securityContext: { fsgroup: 2000 } }), 'Pod', 'v1', 'Strict')),
    'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.securityContext.fsgroup"',
  );
  // uids above int32 are valid (int64)
  const big = decodeObject(pod({ containers: [{ name: 'c', image: 'i' }], securityContext: { runAsUser: 4294967294, supplementalGroups: [3000000000] } }), 'Pod', 'v1', 'Strict');
  assert.deepEqual((big.obj['spec'] as Record<string, unknown>)['securityContext'], { runAsUser: 4294967294, supplementalGroups: [3000000000] });
});

test('managedFields keep fieldsV1 as raw JSON', () => {
  const fieldsV1 = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } };
  const meta = { name: 'x', managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1 }] };
  const d = decodeObject(pod({ containers: [{ name: 'c', image: 'i' }] }, meta), 'Pod', 'v1', 'Strict');
  assert.deepEqual(d.unknownFields, []);
  assert.deepEqual(d.obj.metadata.managedFields?.[0]?.fieldsV1, fieldsV1);
});
