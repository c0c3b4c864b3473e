/** kubeadm's renewal converts each key to PKCS#1 once per text (kubeadm-renewal.ts pkcs1), in any copy of a state. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import { pkcs1Conversions } from './kubeadm-renewal.js';

test('renew all in two copies of one state: the second converts no key again and writes the same files', async () => {
  const run = async (): Promise<string> => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await s.exec('ssh cka-cp1');
    const r = await s.exec('kubeadm certs renew all');
    assert.match(r.stdout, /Done renewing certificates\./);
    const fs = s.cluster.host('cka-cp1')!.fs;
    return ['pki/apiserver.key', 'pki/apiserver.crt', 'pki/etcd/peer.key', 'admin.conf', 'scheduler.conf'].map((f) => fs.read(`/etc/kubernetes/${f}`)).join('\n');
  };
  const before = pkcs1Conversions();
  const first = await run();
  const converted = pkcs1Conversions() - before;
  // the old key and the new pool key of each of the eleven certificates (some share a text)
  assert.ok(converted > 0);
  const again = pkcs1Conversions();
  assert.equal(await run(), first, 'the same keys and certificates');
  assert.equal(pkcs1Conversions() - again, 0, 'every conversion came from the memo');
});
