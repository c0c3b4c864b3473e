/**
 * `kubectl patch --subresource=status` on the built-in kinds meets the status strategies'
 * validation (api/validation-status.ts): k8s.io/kubernetes pkg/apis/core/validation/validation.go
 * ValidatePodStatusUpdate and ValidateNodeUpdate, pkg/apis/apps/validation/validation.go
 * ValidateDeploymentStatusUpdate, with the server's words as kubectl prints an Invalid error.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

type Run = (cmd: string) => Promise<{ stdout: string; stderr: string; exitCode: number }>;

function session(): Run {
  const s = new Session(loadFixture('kubeadm-calico', 0));
  return async (cmd) => {
    const { stdout, stderr, exitCode } = await s.exec(cmd);
    return { stdout, stderr, exitCode };
  };
}

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const QUALIFIED =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('status writes of built-in kinds are validated (ValidateXStatusUpdate)', () => {
  it('pods: condition types, nominatedNodeName, the immutable qosClass', async () => {
    const run = session();
    assert.equal((await run('kubectl run p --image=nginx --restart=Never')).exitCode, 0);
    assert.deepEqual(await run(`kubectl patch pod p --subresource=status --type=merge -p '{"status":{"conditions":[{"type":"bad type!","status":"True"}]}}'`), {
      stdout: '',
      stderr: `The Pod "p" is invalid: metadata.conditions[0].Type: Invalid value: "bad type!": ${QUALIFIED}\n`,
      exitCode: 1,
    });
    assert.equal(
      (await run(`kubectl patch pod p --subresource=status -p '{"status":{"qosClass":"Guaranteed"}}'`)).stderr,
      'The Pod "p" is invalid: status.qosClass: Invalid value: "Guaranteed": field is immutable\n',
    );
    assert.equal(
      (await run(`kubectl patch pod p --subresource=status -p '{"status":{"nominatedNodeName":"Bad_Node"}}'`)).stderr,
      `The Pod "p" is invalid: status.nominatedNodeName: Invalid value: "Bad_Node": ${SUBDOMAIN}\n`,
    );
    // the system condition types and a qualified custom one pass; a status without qosClass keeps it
    assert.equal((await run(`kubectl patch pod p --subresource=status -p '{"status":{"nominatedNodeName":"cka-w1"}}'`)).exitCode, 0);
    assert.equal((await run(`kubectl patch pod p --subresource=status --type=merge -p '{"status":{"qosClass":null}}'`)).exitCode, 0);
    assert.equal((await run('kubectl get pod p -o jsonpath={.status.qosClass}')).stdout, 'BestEffort');
  });

  it('pods: podIPs and hostIPs (validatePodIPs, validateHostIPs; podIP authoritative in conversion)', async () => {
    const run = session();
    await run('kubectl run p --image=nginx');
    await run('sleep 5');
    const patch = async (status: string): Promise<string> => (await run(`kubectl patch pod p --subresource=status --type=merge -p '{"status":${status}}'`)).stderr;
    assert.equal(
      await patch('{"podIP":"10.0.0.1","podIPs":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}]}'),
      'The Pod "p" is invalid: status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:"10.0.0.1"}, core.PodIP{IP:"10.0.0.2"}}: may specify no more than one IP for each IP family\n',
    );
    assert.equal(
      await patch('{"podIP":"10.0.0.1","podIPs":[{"ip":"10.0.0.1"},{"ip":"fd00::1"},{"ip":"10.0.0.3"}]}'),
      'The Pod "p" is invalid: status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:"10.0.0.1"}, core.PodIP{IP:"fd00::1"}, core.PodIP{IP:"10.0.0.3"}}: may specify no more than one IP for each IP family\n',
    );
    // a podIP that is not podIPs[0] replaces the list (Convert_v1_PodStatus_To_core_PodStatus)
    assert.equal(await patch('{"podIP":"nope"}'), 'The Pod "p" is invalid: status.podIPs[0]: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)\n');
    assert.equal(
      await patch('{"hostIPs":[{"ip":"10.9.9.9"}]}'),
      'The Pod "p" is invalid: status.hostIPs[0].ip: Invalid value: "10.9.9.9": must be equal to `hostIP`\n',
    );
    assert.equal(
      await patch('{"hostIP":"10.9.9.9","hostIPs":[{"ip":"10.9.9.9"},{"ip":"bad"}]}'),
      [
        'The Pod "p" is invalid: ',
        '* status.hostIPs[1]: Invalid value: "bad": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        '* status.hostIPs: Invalid value: []core.HostIP{core.HostIP{IP:"10.9.9.9"}, core.HostIP{IP:"bad"}}: may specify no more than one IP for each IP family',
        '',
      ].join('\n'),
    );
    assert.equal(await patch('{"podIP":"10.0.0.1","podIPs":[{"ip":"10.0.0.1"},{"ip":"fd00::1"}]}'), '');
    assert.equal((await run('kubectl get pod p -o jsonpath={.status.podIPs}')).stdout, '[{"ip":"10.0.0.1"},{"ip":"fd00::1"}]');
    assert.equal(await patch('{"podIP":"10.0.0.7"}'), '');
    assert.equal((await run('kubectl get pod p -o jsonpath={.status.podIP}/{.status.podIPs}')).stdout, '10.0.0.7/[{"ip":"10.0.0.7"}]');
  });

  it('pods: a terminated container of a pod that never restarts stays terminated', async () => {
    const run = session();
    await run('kubectl run t --image=busybox --restart=Never -- true');
    await run('sleep 30');
    assert.equal((await run('kubectl get pod t -o jsonpath={.status.phase}')).stdout, 'Succeeded');
    const running = `[{"op":"replace","path":"/status/containerStatuses/0/state","value":{"running":{"startedAt":"2026-01-01T00:00:00Z"}}}]`;
    assert.deepEqual(await run(`kubectl patch pod t --subresource=status --type=json -p '${running}'`), {
      stdout: '',
      stderr: 'The Pod "t" is invalid: status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state\n',
      exitCode: 1,
    });
  });

  it('deployments: counts not negative and not above status.replicas', async () => {
    const run = session();
    await run('kubectl create deploy d --image=nginx');
    assert.equal(
      (await run(`kubectl patch deploy d --subresource=status -p '{"status":{"readyReplicas":5}}'`)).stderr,
      'The Deployment "d" is invalid: status.readyReplicas: Invalid value: 5: cannot be greater than status.replicas\n',
    );
    assert.equal(
      (await run(`kubectl patch deploy d --subresource=status --type=merge -p '{"status":{"replicas":-1,"updatedReplicas":0,"availableReplicas":0,"readyReplicas":0}}'`)).stderr,
      // 0 > -1: each count is then above status.replicas too (ValidateDeploymentStatus checks them all)
      [
        'The Deployment "d" is invalid: ',
        '* status.replicas: Invalid value: -1: must be greater than or equal to 0',
        '* status.updatedReplicas: Invalid value: 0: cannot be greater than status.replicas',
        '* status.readyReplicas: Invalid value: 0: cannot be greater than status.replicas',
        '* status.availableReplicas: Invalid value: 0: cannot be greater than status.replicas',
        '',
      ].join('\n'),
    );
    // collisionCount may not go down (IsDecremented: removing it counts as 0)
    assert.equal((await run(`kubectl patch deploy d --subresource=status -p '{"status":{"collisionCount":2}}'`)).exitCode, 0);
    assert.equal(
      (await run(`kubectl patch deploy d --subresource=status --type=merge -p '{"status":{"collisionCount":null}}'`)).stderr,
      'The Deployment "d" is invalid: status.collisionCount: Invalid value: 0: cannot be decremented\n',
    );
  });

  it('nodes: capacity and allocatable quantities, duplicate addresses', async () => {
    const run = session();
    assert.equal(
      (await run(`kubectl patch node cka-cp1 --subresource=status -p '{"status":{"capacity":{"cpu":"-500m"}}}'`)).stderr,
      'The Node "cka-cp1" is invalid: status.capacity.cpu: Invalid value: "-500m": must be greater than or equal to 0\n',
    );
    assert.equal(
      (await run(`kubectl patch node cka-cp1 --subresource=status -p '{"status":{"allocatable":{"pods":"1500m"}}}'`)).stderr,
      'The Node "cka-cp1" is invalid: status.allocatable.pods: Invalid value: "1500m": must be an integer\n',
    );
    const dup = `[{"op":"add","path":"/status/addresses/-","value":{"type":"Hostname","address":"cka-cp1"}}]`;
    assert.equal(
      (await run(`kubectl patch node cka-cp1 --subresource=status --type=json -p '${dup}'`)).stderr,
      'The Node "cka-cp1" is invalid: status.addresses[2]: Duplicate value: {"Type":"Hostname","Address":"cka-cp1"}\n',
    );
    assert.equal((await run(`kubectl patch node cka-cp1 --subresource=status -p '{"status":{"allocatable":{"pods":"100"}}}'`)).stdout, 'node/cka-cp1 patched\n');
  });
});
