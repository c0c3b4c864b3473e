/**
 * A background `kubectl get -w` (get-watch.ts backgroundWatch) in a shell whose cluster is
 * replaced: a reload after a one-shot command hands the shell the cluster another process wrote,
 * and the watch reports what differs from what it last saw; a session read back from its file
 * has no watch in memory (the process ended with the shell that ran it) and writes nothing more.
 * The rest (rows after the command that changed them, files, kill, --request-timeout) is in
 * testdata/transcripts/get-watch-background.txt.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session, type SessionData } from '../../session.js';
import { CONTROLLERS } from '../../../sim/controllers/index.js';
import { ManualClock } from '../../../util/clock.js';

function fromFile(s: Session): Session {
  const text = JSON.stringify(s.toJSON({ persist: true }));
  return Session.fromJSON(JSON.parse(text) as SessionData, new ManualClock(s.cluster.now()), CONTROLLERS, {}, true);
}

const text = (r: { output: { text: string }[] }): string => r.output.map((o) => o.text).join('');

test('a background watch follows the cluster a reload hands over, and reports what changed meanwhile', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('kubectl create cm a --from-literal=k=1');
  assert.equal(text(await s.exec('kubectl get cm -w -o name &')), '[1] 4300\nconfigmap/a\nconfigmap/kube-root-ca.crt\n');
  // another process changes the session's file: a new ConfigMap, one changed, one deleted
  const other = fromFile(s);
  await other.exec('kubectl create cm b --from-literal=k=1');
  await other.exec('kubectl patch cm a -p \'{"data":{"k":"2"}}\'');
  const old = s.cluster;
  s.adopt(other);
  assert.equal(text(await s.exec('true')), 'configmap/a\nconfigmap/b\n');
  // the watch goes on with the new cluster, and no longer with the old one
  old.insert({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stale', namespace: 'default' }, data: {} });
  assert.equal(text(await s.exec('kubectl delete cm a')), 'configmap "a" deleted from default namespace\nconfigmap/a\n');
  assert.equal(text(await s.exec('jobs')), '[1]+  Running                 kubectl get cm -w -o name &\n');
});

test('a session read back from its file keeps the job listed, writes nothing more and can kill it', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('kubectl get cm -w -o name &');
  const read = fromFile(s);
  assert.equal(text(await read.exec('kubectl create cm c --from-literal=k=1')), 'configmap/c created\n');
  assert.equal(text(await read.exec('kill %1')), '');
  assert.equal(text(await read.exec('true')), '[1]+  Terminated              kubectl get cm -w -o name\n');
});
