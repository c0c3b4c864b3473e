/**
 * `openssl genrsa BITS` and `openssl req -newkey rsa:BITS` beyond 2048 bits: keys of the asked size
 * from the seeded pools, the same for the same seed, and the error texts recorded from
 * /usr/bin/openssl 3.0.19 (Ubuntu 24.04; the error queue's thread id fixed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { Vfs } from '../../../sim/node/vfs.js';
import { openssl } from '../openssl.js';
import type { CommandResult } from '../../types.js';
import { loadFixture } from '../../../testing/fixtures.js';
import { USER_KEYS_SIZED } from '../../../sim/pki/user-keys-sized.js';

function session(): { fs: Vfs; run: (argv: string[]) => CommandResult } {
  const c = loadFixture('kubeadm-calico', 1);
  const fs = new Vfs({ files: {}, dirs: ['/', '/root'] }, () => 0);
  const run = (argv: string[]): CommandResult => openssl({ argv: ['openssl', ...argv], stdin: '', env: {}, cwd: '/root', user: 'root', fs, location: { kind: 'workstation', host: 'ws' }, now: () => c.now(), cluster: c }) as CommandResult;
  return { fs, run };
}

const bitsOf = (pem: string): number | undefined => createPrivateKey(pem).asymmetricKeyDetails?.modulusLength;

test('genrsa BITS and -out F BITS make keys of that size, the same for the same seed', () => {
  const a = session();
  const b = session();
  const k4 = a.run(['genrsa', '4096']);
  assert.equal(k4.exitCode, 0);
  assert.equal(k4.stderr, '');
  assert.equal(bitsOf(k4.stdout), 4096);
  assert.equal(b.run(['genrsa', '4096']).stdout, k4.stdout);
  assert.equal(a.run(['genrsa', '-out', 'k.key', '3072']).stdout, '');
  assert.equal(bitsOf(a.fs.read('/root/k.key')), 3072);
  assert.equal((a.fs.stat('/root/k.key')?.mode ?? 0) & 0o777, 0o600);
  assert.equal(bitsOf(a.run(['genrsa', '1024']).stdout), 1024);
  assert.equal(bitsOf(a.run(['genrsa']).stdout), 2048);
});

test('the pooled keys are written as OpenSSL 3.0 writes a PKCS#8 key', () => {
  for (const [bits, pool] of Object.entries(USER_KEYS_SIZED()))
    for (const pem of pool) {
      assert.equal(bitsOf(pem), Number(bits));
      assert.equal(createPrivateKey(pem).export({ type: 'pkcs8', format: 'pem' }), pem);
    }
});

test('genrsa refuses sizes and arguments as OpenSSL 3.0 does', () => {
  const { fs, run } = session();
  assert.deepEqual(run(['genrsa', '-out', 't.key', '8192x']), { stdout: '', stderr: 'genrsa: Can\'t parse "8192x" as a number\n', exitCode: 1 });
  assert.deepEqual(run(['genrsa', '-out', 't.key', '2048', 'extra']), { stdout: '', stderr: 'Extra arguments given.\ngenrsa: Use -help for summary.\n', exitCode: 1 });
  assert.deepEqual(run(['genrsa', '2048', '-out', 't.key']), { stdout: '', stderr: 'Extra arguments given.\ngenrsa: Use -help for summary.\n', exitCode: 1 });
  assert.equal(fs.isFile('/root/t.key'), false);
  assert.deepEqual(run(['genrsa', '-out', 't.key', '100']), {
    stdout: '',
    stderr: 'Error setting RSA length\n40C7C49B9D7F0000:error:1C8000AB:Provider routines:rsa_gen_set_params:key size too small:../providers/implementations/keymgmt/rsa_kmgmt.c:509:\n',
    exitCode: 1,
  });
  assert.equal(fs.read('/root/t.key'), '');
  assert.deepEqual(run(['genrsa', '0']), { stdout: '', stderr: '', exitCode: 1 });
});

test('req -newkey rsa:4096: a 4096-bit key, progress lines shaped as 3.0 prints them and longer than for 2048', () => {
  const { fs, run } = session();
  const r = run(['req', '-newkey', 'rsa:4096', '-nodes', '-keyout', 'k4.key', '-subj', '/CN=x', '-out', 'r.csr']);
  assert.equal(r.exitCode, 0);
  assert.equal(bitsOf(fs.read('/root/k4.key')), 4096);
  const lines = r.stderr.split('\n');
  assert.equal(lines.length, 4);
  assert.equal(lines[2], '-----');
  for (const l of lines.slice(0, 2)) assert.match(l, /^(\.+\+)*\.+\+{65}\*(\.+\+)*\.+\+{65}\*(\.+\+)*\.+\+{65}$/);
  const small = run(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k2.key', '-subj', '/CN=x', '-out', 'r2.csr']);
  assert.ok(lines[0]!.length + lines[1]!.length > small.stderr.split('\n').slice(0, 2).join('').length);
  assert.deepEqual(run(['req', '-newkey', 'rsa:100', '-nodes', '-keyout', 'kk', '-subj', '/CN=x']), {
    stdout: '',
    stderr: 'Error setting keysize\n40C7C49B9D7F0000:error:1C8000AB:Provider routines:rsa_gen_set_params:key size too small:../providers/implementations/keymgmt/rsa_kmgmt.c:509:\n',
    exitCode: 1,
  });
});
