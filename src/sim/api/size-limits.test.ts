/**
 * The control plane's size limits as kubectl shows them: 3 MiB request bodies, 1 MiB of
 * ConfigMap/Secret data, 256 KiB of annotations, etcd's 1.5 MiB request limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../../shell/session.js';
import { checkRequestBody, checkStoredSize, ETCD_MAX_REQUEST_BYTES } from './size-limits.js';
import type { KObject } from './types.js';

function session(): { s: Session; write: (path: string, text: string) => void } {
  const c = loadFixture('kubeadm-calico');
  return { s: new Session(c), write: (path, text) => c.host('cka-ws')!.fs.write(path, text) };
}

const cm = (name: string, value: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  big: ${value}\n`;

test('a ConfigMap over 1 MiB is invalid; a body over 3 MiB is refused before validation', async () => {
  const { s, write } = session();
  write('/root/f2', 'x'.repeat(2_000_000));
  write('/root/f10', 'x'.repeat(10_000_000));
  let r = await s.exec('kubectl create cm big --from-file=/root/f2');
  assert.equal(r.stderr, 'error: failed to create configmap: ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes\n');
  r = await s.exec('kubectl create cm big --from-file=/root/f10');
  assert.equal(r.stderr, 'error: failed to create configmap: Request entity too large: limit is 3145728\n');
  write('/root/big.yaml', cm('big', 'x'.repeat(10_000_000)));
  for (const verb of ['create', 'apply', 'replace']) {
    r = await s.exec(`kubectl ${verb} -f /root/big.yaml`);
    const when = verb === 'replace' ? 'replacing' : 'creating';
    // the body is refused before the server looks the object up (replace of a missing object)
    assert.equal(r.stderr, `Error from server (RequestEntityTooLarge): error when ${when} "/root/big.yaml": Request entity too large: limit is 3145728\n`);
  }
  // exactly 1 MiB is allowed; one byte more is not
  write('/root/edge.yaml', cm('edge', 'x'.repeat(1_048_576)));
  r = await s.exec('kubectl create -f /root/edge.yaml');
  assert.equal(r.stdout, 'configmap/edge created\n', r.stderr);
  write('/root/over.yaml', cm('over', 'x'.repeat(1_048_577)));
  r = await s.exec('kubectl create -f /root/over.yaml');
  assert.equal(r.stderr, 'The ConfigMap "over" is invalid: []: Too long: may not be more than 1048576 bytes\n');
  assert.equal((await s.exec('kubectl get cm over')).exitCode, 1, 'nothing stored');
});

test('apply of a 1.2 MB ConfigMap: its last-applied annotation is too long as well', async () => {
  const { s, write } = session();
  write('/root/mid.yaml', cm('mid', 'x'.repeat(1_200_000)));
  const r = await s.exec('kubectl apply -f /root/mid.yaml');
  assert.equal(
    r.stderr,
    'The ConfigMap "mid" is invalid: \n* metadata.annotations: Too long: may not be more than 262144 bytes\n* []: Too long: may not be more than 1048576 bytes\n',
  );
});

test('Secret data counts decoded bytes; stringData counts too', async () => {
  const { s, write } = session();
  write('/root/f2', 'y'.repeat(1_100_000));
  let r = await s.exec('kubectl create secret generic s --from-file=/root/f2');
  assert.equal(r.stderr, 'error: failed to create secret Secret "s" is invalid: data: Too long: may not be more than 1048576 bytes\n');
  // 1 MiB of data is 1.33 MiB of base64 and is still allowed
  write('/root/f1', 'y'.repeat(1_048_576));
  r = await s.exec('kubectl create secret generic s --from-file=/root/f1');
  assert.equal(r.stdout, 'secret/s created\n', r.stderr);
});

test("an object within the body limit but over etcd's request limit", async () => {
  const { s, write } = session();
  const big = 'v'.repeat(2_000_000);
  write('/root/pod.json', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx', env: [{ name: 'BIG', value: big }] }] } }));
  const r = await s.exec('kubectl create -f /root/pod.json');
  assert.equal(r.stderr, 'Error from server: error when creating "/root/pod.json": etcdserver: request is too large\n');
  assert.equal((await s.exec('kubectl get pod p')).exitCode, 1, 'nothing stored');
  // a dry run never reaches etcd
  assert.equal((await s.exec('kubectl create -f /root/pod.json --dry-run=server -o name')).stdout, 'pod/p\n');
});

test('the limits count UTF-8 bytes of the JSON, at the exact edge, however short the text is in UTF-16 units', () => {
  const etcd = (o: unknown): boolean => {
    try {
      checkStoredSize(o as KObject);
      return false;
    } catch {
      return true;
    }
  };
  // {"s":"…"} is 8 bytes around the value
  assert.equal(etcd({ s: 'v'.repeat(ETCD_MAX_REQUEST_BYTES - 8) }), false, 'exactly the limit');
  assert.equal(etcd({ s: 'v'.repeat(ETCD_MAX_REQUEST_BYTES - 7) }), true, 'one byte over');
  // two bytes a character: 800,000 characters are 1.6 MB, over the limit in bytes though not in units
  assert.equal(etcd({ s: 'é'.repeat(800_000) }), true);
  assert.equal(etcd({ s: 'é'.repeat(500_000) }), false);
  // a surrogate pair, 4 bytes for 2 units
  assert.equal(etcd({ s: '😀'.repeat((ETCD_MAX_REQUEST_BYTES - 8) / 4) }), false);
  assert.equal(etcd({ s: `${'😀'.repeat((ETCD_MAX_REQUEST_BYTES - 8) / 4)}v` }), true);
  assert.throws(() => checkRequestBody({ s: 'é'.repeat(1_600_000) }), /Request entity too large/);
  assert.doesNotThrow(() => checkRequestBody({ s: 'é'.repeat(1_500_000) }));
});
