/** etcdctl member add --learner and member remove against the kubeadm-calico fixture's etcd. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

const C = '--endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';

test('a learner added for a new control plane node is listed unstarted and can be removed', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  await s.exec('sudo -i');
  const before = (await s.exec(`etcdctl ${C} member list`)).stdout;
  const add = await s.exec(`etcdctl ${C} member add cka-cp2 --peer-urls=https://192.168.122.12:2380 --learner`);
  const m = /^Member ([0-9a-f]{16}) added as learner to cluster ([0-9a-f]{16})\n\nETCD_NAME="cka-cp2"\nETCD_INITIAL_CLUSTER="(.*)"\nETCD_INITIAL_ADVERTISE_PEER_URLS="https:\/\/192\.168\.122\.12:2380"\nETCD_INITIAL_CLUSTER_STATE="existing"\n$/.exec(add.stdout);
  assert.ok(m, add.stdout + add.stderr);
  assert.match(m[3]!, /cka-cp1=https:\/\/192\.168\.122\.11:2380/);
  assert.match(m[3]!, /cka-cp2=https:\/\/192\.168\.122\.12:2380/);
  const list = (await s.exec(`etcdctl ${C} member list`)).stdout;
  assert.ok(list.startsWith(before));
  assert.ok(list.endsWith(`${m[1]!.replace(/^0+/, '')}, unstarted, , https://192.168.122.12:2380, , true\n`), list);
  assert.equal((await s.exec(`etcdctl ${C} member add x --peer-urls=https://192.168.122.12:2380`)).stderr, 'Error: etcdserver: Peer URLs already exists\n');
  const rm = await s.exec(`etcdctl ${C} member remove ${m[1]}`);
  assert.equal(rm.stdout, `Member ${m[1]} removed from cluster ${m[2]}\n`);
  assert.equal((await s.exec(`etcdctl ${C} member list`)).stdout, before);
  assert.equal((await s.exec(`etcdctl ${C} member remove ${m[1]}`)).stderr, 'Error: etcdserver: member not found\n');
  // the only voting member cannot go
  const self = before.split(',')[0]!;
  assert.equal((await s.exec(`etcdctl ${C} member remove ${self}`)).exitCode, 1);
  assert.equal((await s.exec(`etcdctl ${C} member list`)).stdout, before);
});
