/**
 * The journal of a unit's start: the fixture's boot journaled the kubelet's and containerd's start
 * like any other start (systemd's `Started UNIT.service - DESCRIPTION.`, the kubelet's start-up
 * lines), a restart keeps that history once, a kubelet that fails at start is restarted by
 * systemd every 10 s as a new process with its restart counter (systemd 255 service.c
 * service_enter_restart), and `journalctl -f` in the background is a running job `kill %1` ends.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

async function onNode(host: string): Promise<Session> {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec(`ssh ${host}`);
  return s;
}

const count = (text: string, needle: string): number => text.split(needle).length - 1;

describe('unit starts in the journal', () => {
  it('a healthy node shows the start of its kubelet and containerd', async () => {
    const s = await onNode('cka-cp1');
    const kubelet = (await s.exec('journalctl -u kubelet')).stdout;
    assert.match(kubelet.split('\n')[0]!, /^Nov 27 06:00:00 cka-cp1 systemd\[1\]: Started kubelet\.service - kubelet: The Kubernetes Node Agent\.$/);
    assert.match(kubelet, /kubelet\[1768\]: I1127 06:00:00\.000000 {4}1768 server\.go:1262\] "Started kubelet"\n/);
    const containerd = (await s.exec('journalctl -u containerd')).stdout;
    assert.equal(containerd, 'Nov 27 06:00:00 cka-cp1 systemd[1]: Starting containerd.service - containerd container runtime...\nNov 27 06:00:00 cka-cp1 systemd[1]: Started containerd.service - containerd container runtime.\n');
  });

  it('a restart keeps the earlier start once and logs the new process under its own pid', async () => {
    const s = await onNode('cka-cp1');
    await s.exec('systemctl restart kubelet');
    await s.exec('sleep 1');
    await s.exec('systemctl restart kubelet');
    const out = (await s.exec('journalctl -u kubelet')).stdout;
    assert.equal(count(out, '"Started kubelet"'), 3);
    assert.equal(count(out, 'Started kubelet.service'), 3);
    const starts = [...out.matchAll(/kubelet\[(\d+)\]: I\d{4} [\d:.]+ +(\d+) server\.go:1262\]/g)];
    for (const m of starts) assert.equal(m[1], m[2]);
    const pids = new Set(starts.map((m) => m[1]));
    assert.equal(pids.size, 3);
  });

  it('a kubelet that cannot start is restarted every 10 s as a new process, counting restarts', async () => {
    const s = await onNode('cka-w1');
    await s.exec('mv /var/lib/kubelet/config.yaml /tmp/');
    await s.exec('systemctl restart kubelet');
    await s.exec('sleep 25');
    const out = (await s.exec('journalctl -u kubelet')).stdout;
    assert.match(out, /systemd\[1\]: kubelet\.service: Scheduled restart job, restart counter is at 1\.\n.*systemd\[1\]: Started kubelet\.service/);
    assert.match(out, /restart counter is at 2\./);
    assert.doesNotMatch(out, /restart counter is at 3\./);
    const failed = [...out.matchAll(/kubelet\[(\d+)\]: E.* run\.go:72\] "command failed"/g)].map((m) => m[1]);
    assert.equal(failed.length, 3);
    assert.equal(new Set(failed).size, 3);
    const status = (await s.exec('systemctl status kubelet')).stdout;
    assert.match(status, new RegExp(`Main PID: ${failed[2]} \\(code=exited, status=1/FAILURE\\)`));
  });

  it('journalctl -fu kubelet & keeps running until it is killed', async () => {
    const s = await onNode('cka-cp1');
    await s.exec('journalctl -fu kubelet &');
    assert.match((await s.exec('jobs')).stdout, /^\[1\]\+ {2}Running +journalctl -fu kubelet &\n$/);
    const k = await s.exec('kill %1');
    assert.equal(k.exitCode, 0);
    assert.equal(k.stderr, '');
    assert.match((await s.exec('jobs')).stdout, /Terminated +journalctl -fu kubelet/);
    assert.equal((await s.exec('journalctl -u kubelet -f')).exitCode, 0);
  });
});
