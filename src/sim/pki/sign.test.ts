/**
 * signSha256's memo (sign.ts): the same key and bytes are signed once, give the same signature
 * every time (a valid one), and a caller that changes what it got changes nothing for the next.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { keyFor } from './kubeadm-pki.js';
import { signSha256, signaturesComputed } from './sign.js';

test('signSha256: a repeated key and input is signed once; the answer is a valid signature and the caller’s own copy', () => {
  const key = keyFor('ca');
  // bytes no other test signs (the memo is process-wide), fixed so the test is the same every run
  const data = Buffer.from('to be signed by sign.test.ts, nowhere else');
  const before = signaturesComputed();
  const first = signSha256(key, data);
  assert.equal(signaturesComputed(), before + 1);
  assert.ok(verify('sha256', data, createPublicKey(key), first));
  const copy = Buffer.from(first);
  first.fill(0);
  const again = signSha256(key, Buffer.from(data));
  assert.equal(signaturesComputed(), before + 1, 'the same key and bytes were signed again');
  assert.deepEqual(again, copy);
  // other bytes are another signature
  const other = signSha256(key, Buffer.concat([data, Buffer.from('!')]));
  assert.equal(signaturesComputed(), before + 2);
  assert.notDeepEqual(other, copy);
});
