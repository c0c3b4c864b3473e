/**
 * `kubectl explain` through a Session on the kubeadm-calico fixture. The goldens in
 * testdata/explain/ were recorded from the REAL kubectl v1.35 binary served the simulator's OpenAPI
 * data (explain/tools/record-real.ts), so they pin kubectl's own template layout: re-record them
 * with that script, not with UPDATE_GOLDEN.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import { commandLine, EXPLAIN_CASES } from './testdata/explain/cases.js';

async function transcript(session: Session, argv: readonly string[]): Promise<string> {
  const line = commandLine(argv);
  const r = await session.exec(line);
  return `$ ${line}\n${r.stdout}${r.stderr === '' ? '' : `[stderr]\n${r.stderr}`}[exit ${r.exitCode}]\n`;
}

describe('kubectl explain matches real kubectl v1.35 output', () => {
  const session = new Session(loadFixture('kubeadm-calico', 0));
  for (const c of EXPLAIN_CASES) {
    it(c.name, async () => {
      const want = readFileSync(new URL(`./testdata/explain/${c.name}.txt`, import.meta.url), 'utf8');
      assert.equal(await transcript(session, c.argv), want);
    });
  }
});

describe('kubectl explain behaviour', () => {
  const cases = [
    { name: 'short name and full name agree', a: 'kubectl explain po.spec.hostNetwork', b: 'kubectl explain pods.spec.hostNetwork' },
    { name: 'kind name is accepted', a: 'kubectl explain Pod.spec.nodeSelector', b: 'kubectl explain pod.spec.nodeSelector' },
    { name: 'trailing dot is ignored', a: 'kubectl explain svc.', b: 'kubectl explain svc' },
    { name: 'resource.group prefix', a: 'kubectl explain deployments.apps.spec.replicas', b: 'kubectl explain deploy.spec.replicas' },
    { name: 'matching --api-version', a: 'kubectl explain deploy --api-version=apps/v1', b: 'kubectl explain deploy' },
    { name: 'k alias', a: 'k explain netpol.spec.policyTypes', b: 'kubectl explain netpol.spec.policyTypes' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const s = new Session(loadFixture('kubeadm-calico', 0));
      const a = await s.exec(c.a);
      const b = await s.exec(c.b);
      assert.equal(a.exitCode, 0, a.stderr);
      assert.equal(a.stdout, b.stdout);
    });
  }

  // Every kind a CKA candidate explains: its header, and a nested field's type line.
  const kinds = [
    { command: 'kubectl explain statefulset', head: 'GROUP:      apps\nKIND:       StatefulSet\nVERSION:    v1\n' },
    { command: 'kubectl explain sts.spec.updateStrategy.rollingUpdate', head: 'GROUP:      apps\nKIND:       StatefulSet\nVERSION:    v1\n\nFIELD: rollingUpdate <RollingUpdateStatefulSetStrategy>\n' },
    { command: 'kubectl explain sts.spec.persistentVolumeClaimRetentionPolicy.whenDeleted', head: 'GROUP:      apps\nKIND:       StatefulSet\nVERSION:    v1\n\nFIELD: whenDeleted <string>\n' },
    { command: 'kubectl explain ds.spec.updateStrategy', head: 'GROUP:      apps\nKIND:       DaemonSet\nVERSION:    v1\n\nFIELD: updateStrategy <DaemonSetUpdateStrategy>\n' },
    { command: 'kubectl explain rs.spec', head: 'GROUP:      apps\nKIND:       ReplicaSet\nVERSION:    v1\n\nFIELD: spec <ReplicaSetSpec>\n' },
    { command: 'kubectl explain job.spec.podFailurePolicy.rules', head: 'GROUP:      batch\nKIND:       Job\nVERSION:    v1\n\nFIELD: rules <[]PodFailurePolicyRule>\n' },
    { command: 'kubectl explain cronjob.spec.jobTemplate.spec.template.spec.containers.image', head: 'GROUP:      batch\nKIND:       CronJob\nVERSION:    v1\n\nFIELD: image <string>\n' },
    { command: 'kubectl explain pvc.spec.resources', head: 'KIND:       PersistentVolumeClaim\nVERSION:    v1\n\nFIELD: resources <VolumeResourceRequirements>\n' },
    { command: 'kubectl explain pv.spec.nodeAffinity.required', head: 'KIND:       PersistentVolume\nVERSION:    v1\n\nFIELD: required <NodeSelector>\n' },
    { command: 'kubectl explain secret.data', head: 'KIND:       Secret\nVERSION:    v1\n\nFIELD: data <map[string]string>\n' },
    { command: 'kubectl explain sa.automountServiceAccountToken', head: 'KIND:       ServiceAccount\nVERSION:    v1\n\nFIELD: automountServiceAccountToken <boolean>\n' },
    { command: 'kubectl explain ns.spec', head: 'KIND:       Namespace\nVERSION:    v1\n\nFIELD: spec <NamespaceSpec>\n' },
    { command: 'kubectl explain ep.subsets.addresses', head: 'KIND:       Endpoints\nVERSION:    v1\n\nFIELD: addresses <[]EndpointAddress>\n' },
    { command: 'kubectl explain sc.volumeBindingMode', head: 'GROUP:      storage.k8s.io\nKIND:       StorageClass\nVERSION:    v1\n\nFIELD: volumeBindingMode <string>\n' },
    { command: 'kubectl explain hpa.spec.behavior.scaleDown', head: 'GROUP:      autoscaling\nKIND:       HorizontalPodAutoscaler\nVERSION:    v2\n\nFIELD: scaleDown <HPAScalingRules>\n' },
    { command: 'kubectl explain role.rules', head: 'GROUP:      rbac.authorization.k8s.io\nKIND:       Role\nVERSION:    v1\n\nFIELD: rules <[]PolicyRule>\n' },
    { command: 'kubectl explain clusterrole.aggregationRule', head: 'GROUP:      rbac.authorization.k8s.io\nKIND:       ClusterRole\nVERSION:    v1\n\nFIELD: aggregationRule <AggregationRule>\n' },
    { command: 'kubectl explain rolebinding.roleRef', head: 'GROUP:      rbac.authorization.k8s.io\nKIND:       RoleBinding\nVERSION:    v1\n\nFIELD: roleRef <RoleRef>\n' },
    { command: 'kubectl explain clusterrolebinding.subjects', head: 'GROUP:      rbac.authorization.k8s.io\nKIND:       ClusterRoleBinding\nVERSION:    v1\n\nFIELD: subjects <[]Subject>\n' },
    { command: 'kubectl explain pdb.spec.maxUnavailable', head: 'GROUP:      policy\nKIND:       PodDisruptionBudget\nVERSION:    v1\n\nFIELD: maxUnavailable <IntOrString>\n' },
    { command: 'kubectl explain pc.value', head: 'GROUP:      scheduling.k8s.io\nKIND:       PriorityClass\nVERSION:    v1\n\nFIELD: value <integer>\n' },
    { command: 'kubectl explain sts.spec --recursive', head: 'GROUP:      apps\nKIND:       StatefulSet\nVERSION:    v1\n\nFIELD: spec <StatefulSetSpec>\n' },
  ];
  for (const c of kinds) {
    it(c.command, async () => {
      const s = new Session(loadFixture('kubeadm-calico', 0));
      const r = await s.exec(c.command);
      assert.equal(r.stderr, '');
      assert.equal(r.exitCode, 0);
      assert.ok(r.stdout.startsWith(c.head), r.stdout.slice(0, 300));
    });
  }
  it('--recursive lists every nested field of a StatefulSet', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 0));
    const r = await s.exec('kubectl explain sts --recursive');
    for (const line of ['    updateStrategy\t<StatefulSetUpdateStrategy>', '      rollingUpdate\t<RollingUpdateStatefulSetStrategy>', '        partition\t<integer>', '    volumeClaimTemplates\t<[]PersistentVolumeClaim>']) {
      assert.ok(r.stdout.includes(`\n${line}\n`), line);
    }
  });

  const errors = [
    { name: 'field below a scalar', command: 'kubectl explain pod.spec.dnsPolicy.foo', stdout: 'KIND:       Pod\nVERSION:    v1\n\n', stderr: 'error: field "foo" does not exist\n' },
    { name: 'deep unknown field names the last segment', command: 'kubectl explain svc.spec.foo.bar', stdout: 'KIND:       Service\nVERSION:    v1\n\n', stderr: 'error: field "bar" does not exist\n' },
    { name: 'unknown field of a StatefulSet', command: 'kubectl explain sts.spec.updateStrategy.foo', stdout: 'GROUP:      apps\nKIND:       StatefulSet\nVERSION:    v1\n\n', stderr: 'error: field "foo" does not exist\n' },
  ];
  for (const c of errors) {
    it(c.name, async () => {
      const s = new Session(loadFixture('kubeadm-calico', 0));
      const r = await s.exec(c.command);
      assert.deepEqual({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }, { stdout: c.stdout, stderr: c.stderr, exitCode: 1 });
    });
  }
});
