/**
 * A node's ps lists what each container runs as the node sees it (processes.ts): the shim, the
 * container's PID 1 and the processes it forks (an nginx master's workers, the ones
 * `kubectl exec POD -- ps` lists) with host PIDs; and nginx:alpine is an Alpine image whose ps is
 * BusyBox's (`PID   USER     TIME  COMMAND`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

async function withNginx(): Promise<Session> {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec(`kubectl run web --image=nginx --overrides='{"spec":{"nodeName":"cka-w1"}}'; kubectl run alp --image=nginx:alpine --overrides='{"spec":{"nodeName":"cka-w1"}}'; sleep 20`);
  return s;
}

test('node ps: each nginx container\'s master and its workers, children of the master under the shim', async () => {
  const s = await withNginx();
  await s.exec('ssh cka-w1');
  const rows = (await s.exec('ps -ef')).stdout.split('\n').map((l) => l.split(/ +/));
  const masters = rows.filter((r) => r.slice(7).join(' ') === 'nginx: master process nginx -g daemon off;');
  assert.equal(masters.length, 2);
  for (const m of masters) {
    const shim = rows.find((r) => r[1] === m[2]);
    assert.match(shim?.slice(7).join(' ') ?? '', /^\/usr\/bin\/containerd-shim-runc-v2 -namespace k8s\.io -id [0-9a-f]{64} /, 'the master is the shim\'s child');
    const workers = rows.filter((r) => r[2] === m[1]);
    // two CPUs: worker_processes auto; their pids as far past the master's as inside the container (1, then 29, 30)
    assert.deepEqual(
      workers.map((w) => [w[0], Number(w[1]) - Number(m[1]), w.slice(7).join(' ')]),
      [
        ['message+', 28, 'nginx: worker process'],
        ['message+', 29, 'nginx: worker process'],
      ],
    );
  }
  assert.match((await s.exec('ps aux | grep "[n]ginx: worker" | wc -l')).stdout, /^4\n$/);
});

test('nginx:alpine: BusyBox ps lists the master and its workers as the nginx user', async () => {
  const s = await withNginx();
  const r = await s.exec('kubectl exec alp -- ps aux');
  assert.equal(r.stdout, 'PID   USER     TIME  COMMAND\n    1 root      0:00 nginx: master process nginx -g daemon off;\n   29 nginx     0:00 nginx: worker process\n   30 nginx     0:00 nginx: worker process\n   36 root      0:00 ps aux\n');
  // the Debian-based image ships no ps
  assert.match((await s.exec('kubectl exec web -- ps')).stderr, /exec: "ps": executable file not found in \$PATH/);
});
