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
import { EXPLAIN_CASES } from './testdata/explain/cases.js';

async function transcript(session: Session, argv: readonly string[]): Promise<string> {
  const line = `kubectl ${argv.join(' ')}`;
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

  const errors = [
    { name: 'field below a scalar', command: 'kubectl explain pod.spec.dnsPolicy.foo', stdout: 'KIND:       Pod\nVERSION:    v1\n\n', stderr: 'error: field "foo" does not exist\n' },
    { name: 'deep unknown field names the last segment', command: 'kubectl explain svc.spec.foo.bar', stdout: 'KIND:       Service\nVERSION:    v1\n\n', stderr: 'error: field "bar" does not exist\n' },
    { name: 'kind whose schema the server does not publish', command: 'kubectl explain secrets', stdout: '', stderr: 'error: GVR (/v1, Resource=secrets) not found in OpenAPI schema\n' },
    { name: 'group without an OpenAPI document', command: 'kubectl explain roles', stdout: '', stderr: 'error: couldn\'t find resource for "rbac.authorization.k8s.io/v1, Resource=roles"\n' },
  ];
  for (const c of errors) {
    it(c.name, async () => {
      const s = new Session(loadFixture('kubeadm-calico', 0));
      const r = await s.exec(c.command);
      assert.deepEqual({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }, { stdout: c.stdout, stderr: c.stderr, exitCode: 1 });
    });
  }
});
