/**
 * The projected service-account token a pod's kube-api-access volume holds (runtime/volumes.ts):
 * minted when the kubelet writes the volume, signed only when something reads it (Vfs.writeDeferred),
 * with the same bytes whether it is read at once, in a copy of the state or from a saved session.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../../shell/session.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from '../controllers/index.js';
import { authenticate } from '../authn.js';
import { signaturesComputed as tokenSignatures } from '../pki/sign.js';
import { tokenSignerMints } from './volumes.js';

const TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

test('token volume: a pod token is signed when read, not when the kubelet writes it, and reads the same everywhere', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 0));
  const run = async (l: string): Promise<string> => {
    const r = await s.exec(l);
    return r.stdout + r.stderr;
  };
  const before = tokenSignatures();
  await run(`kubectl run tok --image=busybox --command -- sleep 3600`);
  await run('sleep 10');
  assert.match(await run('kubectl get pod tok --no-headers'), /Running/);
  // the kubelet mounted the volume (its token is there) and nothing has read the token
  assert.equal(tokenSignatures(), before, 'the token was signed before anyone read it');

  // a copy of the state shares the unsigned file: making it and reading its other files signs nothing
  const copy = Session.fromJSON(s.toJSON(), new ManualClock(s.cluster.now()), CONTROLLERS);
  assert.match((await copy.exec(`kubectl exec tok -- cat /var/run/secrets/kubernetes.io/serviceaccount/namespace`)).stdout, /^default$/);
  assert.equal(tokenSignatures(), before);

  // read: a real RS256 token the API server accepts, signed once
  const token = await run(`kubectl exec tok -- cat ${TOKEN}`);
  assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.equal(tokenSignatures(), before + 1);
  assert.equal(authenticate(s.cluster, { token })?.username, 'system:serviceaccount:default:default');
  // the copy holds the same token, and reading it there does not sign it again
  assert.equal((await copy.exec(`kubectl exec tok -- cat ${TOKEN}`)).stdout, token);
  assert.equal(tokenSignatures(), before + 1);

  // a saved session holds the text: restored from it, the pod reads the same bytes
  const text = JSON.stringify(s.toJSON({ persist: true }));
  assert.ok(text.includes(token));
  const restored = Session.fromJSON(JSON.parse(text), new ManualClock(s.cluster.now()), CONTROLLERS);
  assert.equal((await restored.exec(`kubectl exec tok -- cat ${TOKEN}`)).stdout, token);
});

test('token volume: two copies of a state that start the same pod at the same time draw its token claims once, and read the same token', async () => {
  const base = new Session(loadFixture('kubeadm-calico', 0));
  const copies = [0, 1].map(() => Session.fromJSON(base.toJSON(), new ManualClock(base.cluster.now()), CONTROLLERS));
  const before = tokenSignerMints();
  const tokens: string[] = [];
  for (const s of copies) {
    await s.exec(`kubectl run tok2 --image=busybox --command -- sleep 3600`);
    await s.exec('sleep 10');
    assert.match((await s.exec('kubectl get pod tok2 --no-headers')).stdout, /Running/);
    tokens.push((await s.exec(`kubectl exec tok2 -- cat ${TOKEN}`)).stdout);
  }
  // the same pod (uid), node, ServiceAccount and time: the second copy's kubelet takes the first's signer
  assert.equal(tokenSignerMints(), before + 1);
  assert.match(tokens[0]!, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.equal(tokens[1], tokens[0]);
  assert.equal(authenticate(copies[1]!.cluster, { token: tokens[1]! })?.username, 'system:serviceaccount:default:default');
  // at another time the claims differ: a token of its own
  const later = Session.fromJSON(base.toJSON(), new ManualClock(base.cluster.now() + 1_000), CONTROLLERS);
  await later.exec(`kubectl run tok2 --image=busybox --command -- sleep 3600`);
  await later.exec('sleep 10');
  const other = (await later.exec(`kubectl exec tok2 -- cat ${TOKEN}`)).stdout;
  assert.equal(tokenSignerMints(), before + 2);
  assert.notEqual(other, tokens[0]);
});
