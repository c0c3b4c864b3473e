/**
 * What `kubectl get pod -w` prints while a pod is deleted: the Terminating row, then the kubelet's
 * terminal status (kubelet.go syncTerminatedPod: a deleted pod ends Succeeded or Failed since
 * v1.27, kubernetes#115331), the registry's update shortening the grace period to 0 for the
 * kubelet's final DELETE (apiserver rest/delete.go BeforeDelete), and the DELETED event: three rows
 * `0/1 Completed` (`Error` for a container killed at the end of its grace period, exit 137), as the
 * pod printer shows a terminal phase rather than Terminating (printers.go printPod).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

const rows = (out: string): string[][] => out.trimEnd().split('\n').map((l) => l.trim().split(/\s+/));

describe('get -w while a pod is deleted', () => {
  it('nginx stops at SIGTERM: Terminating, then 0/1 Completed three times', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await s.exec('kubectl run w --image=nginx');
    await s.exec('sleep 5');
    await s.exec('kubectl delete po w --wait=false');
    const r = await s.exec('kubectl get po w -w --output-watch-events --request-timeout=40s');
    assert.deepEqual(
      rows(r.stdout).map((x) => x.slice(0, 5)),
      [
        ['EVENT', 'NAME', 'READY', 'STATUS', 'RESTARTS'],
        ['ADDED', 'w', '1/1', 'Terminating', '0'],
        ['MODIFIED', 'w', '0/1', 'Completed', '0'],
        ['MODIFIED', 'w', '0/1', 'Completed', '0'],
        ['DELETED', 'w', '0/1', 'Completed', '0'],
      ],
    );
  });

  it('a container that ignores SIGTERM is killed after the grace period: 0/1 Error', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await s.exec('kubectl run b --image=busybox -- sleep 3600');
    await s.exec('sleep 5');
    await s.exec('kubectl delete po b --wait=false');
    const r = await s.exec('kubectl get po b -w --request-timeout=40s');
    const got = rows(r.stdout);
    assert.deepEqual(got.map((x) => x.slice(0, 4)), [
      ['NAME', 'READY', 'STATUS', 'RESTARTS'],
      ['b', '1/1', 'Terminating', '0'],
      ['b', '0/1', 'Error', '0'],
      ['b', '0/1', 'Error', '0'],
      ['b', '0/1', 'Error', '0'],
    ]);
    assert.equal(got[2]![4], '35s');
  });
});
