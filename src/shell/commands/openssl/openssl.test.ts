/**
 * `openssl x509` against output recorded from OpenSSL 3.0.19 (/usr/bin/openssl) on the
 * kubeadm-calico fixture's certificates and a key it generated (user.key): testdata/case-NN.txt holds
 * `# openssl SUBCOMMAND OPTS` then the real stdout and stderr (the error queue's thread id fixed). Also the key → request → signed certificate round trip.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { Vfs } from '../../../sim/node/vfs.js';
import { openssl } from '../openssl.js';
import type { CommandResult } from '../../types.js';
import { readCertificatePem, issuedBy } from '../../../sim/pki/x509.js';
import { loadFixture } from '../../../testing/fixtures.js';

const dir = new URL('./testdata/', import.meta.url);

function run(fs: Vfs, line: string[], now = 0): CommandResult {
  return openssl({ argv: ['openssl', ...line], stdin: '', env: {}, cwd: '/root', user: 'root', fs, location: { kind: 'workstation', host: 'ws' }, now: () => now }) as CommandResult;
}

function fsWithTestdata(): Vfs {
  const fs = new Vfs({ files: {}, dirs: ['/', '/root'] }, () => 0);
  for (const f of readdirSync(dir)) if (/\.(crt|key|csr)$/.test(f)) fs.write(`/root/${f}`, readFileSync(new URL(f, dir), 'utf8'));
  return fs;
}

for (const f of readdirSync(dir).filter((n) => n.startsWith('case-')).sort()) {
  test(`openssl golden ${f}`, () => {
    const text = readFileSync(new URL(f, dir), 'utf8');
    const nl = text.indexOf('\n');
    const argv = text.slice(2, nl).split(' ').slice(1);
    const r = run(fsWithTestdata(), argv);
    assert.equal(r.stdout + r.stderr, text.slice(nl + 1));
  });
}

test('genrsa → req → x509 -req makes a certificate the CA signed, with the request subject', () => {
  const c = loadFixture('kubeadm-calico', 1);
  const cp = c.host(c.meta.controlPlane)!;
  const fs = fsWithTestdata();
  fs.write('/root/ca.key', cp.fs.read('/etc/kubernetes/pki/ca.key'));
  fs.write('/root/ca.crt', cp.fs.read('/etc/kubernetes/pki/ca.crt'));
  const ctx = (argv: string[]): CommandResult => openssl({ argv: ['openssl', ...argv], stdin: '', env: {}, cwd: '/root', user: 'root', fs, location: { kind: 'workstation', host: 'ws' }, now: () => c.now(), cluster: c }) as CommandResult;
  assert.equal(ctx(['genrsa', '-out', 'jane.key', '2048']).exitCode, 0);
  assert.equal(ctx(['req', '-new', '-key', 'jane.key', '-subj', '/CN=jane/O=dev', '-out', 'jane.csr']).exitCode, 0);
  const r = ctx(['x509', '-req', '-in', 'jane.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'jane.crt', '-days', '10']);
  assert.equal(r.stderr, 'Certificate request self-signature ok\nsubject=CN = jane, O = dev\n');
  const cert = readCertificatePem(fs.read('/root/jane.crt'))!;
  assert.ok(issuedBy(cert, readCertificatePem(fs.read('/root/ca.crt'))!));
  assert.deepEqual(cert.subject, [['CN', 'jane'], ['O', 'dev']]);
  assert.equal(cert.notAfter - cert.notBefore, 10 * 86_400_000);
  assert.match(fs.read('/root/ca.srl'), /^[0-9A-F]+\n$/);
  assert.equal(ctx(['x509', '-in', 'missing.crt', '-noout']).exitCode, 1);
});

test('the documented discovery-hash pipeline on the control plane gives the hash kubeadm prints', async () => {
  const { Session } = await import('../../session.js');
  const c = loadFixture('kubeadm-calico', 1);
  const s = new Session(c);
  const hash = (await s.exec("ssh cka-cp1 \"openssl x509 -pubkey -in /etc/kubernetes/pki/ca.crt | openssl rsa -pubin -outform der 2>/dev/null | openssl dgst -sha256 -hex | sed 's/^.* //'\"")).stdout.trim();
  assert.match(hash, /^[0-9a-f]{64}$/);
  const join = (await s.exec('ssh cka-cp1 kubeadm token create --print-join-command')).stdout;
  assert.ok(join.includes(`--discovery-token-ca-cert-hash sha256:${hash} `), join);
  const viaPkey = (await s.exec('ssh cka-cp1 "openssl x509 -pubkey -noout -in /etc/kubernetes/pki/ca.crt | openssl pkey -pubin -outform der | openssl sha256"')).stdout;
  assert.equal(viaPkey, `SHA2-256(stdin)= ${hash}\n`);
  const mod = await s.exec('ssh cka-cp1 "openssl x509 -noout -modulus -in /etc/kubernetes/pki/ca.crt | openssl md5; openssl rsa -noout -modulus -in /etc/kubernetes/pki/ca.key | openssl md5"');
  const [a, b] = mod.stdout.trim().split('\n');
  assert.equal(a, b, 'a CA key and its certificate share the modulus');
});

test('req -x509 makes the certificate the real openssl 3.0 made from the same key, serial and second (web.crt, mixed.crt)', () => {
  const fs = fsWithTestdata();
  const at = Date.UTC(2026, 11, 4, 17, 31, 5);
  const web = run(fs, ['req', '-x509', '-new', '-key', 'user.key', '-subj', '/CN=web.example.com', '-addext', 'subjectAltName=DNS:web.example.com', '-set_serial', '0x3c5a1f0e9d2b7a6c4e8f1a2b3c4d5e6f70819203', '-days', '365', '-out', 'sim-web.crt'], at);
  assert.deepEqual([web.stdout, web.stderr, web.exitCode], ['', '', 0]);
  assert.equal(fs.read('/root/sim-web.crt'), readFileSync(new URL('web.crt', dir), 'utf8'));
  const mixed = run(fs, [
    'req', '-x509', '-new', '-key', 'user.key', '-subj', '/C=DE/O=Shop, Inc./CN=*.shop.example',
    '-addext', 'basicConstraints=critical,CA:FALSE', '-addext', 'keyUsage=critical,digitalSignature,keyEncipherment',
    '-addext', 'subjectAltName=DNS:shop.example,DNS:*.shop.example,IP:10.0.0.1,email:ops@shop.example',
    '-addext', 'extendedKeyUsage=serverAuth,clientAuth', '-set_serial', '4660', '-days', '90',
  ], at);
  assert.equal(mixed.stdout, readFileSync(new URL('mixed.crt', dir), 'utf8'), 'without -out the PEM goes to stdout');
});

test('req -x509 -newkey: progress lines shaped as OpenSSL 3.0 prints them, the key in privkey.pem without -keyout, subject errors after the key is written', () => {
  const c = loadFixture('kubeadm-calico', 1);
  const fs = fsWithTestdata();
  const ctx = (argv: string[]): CommandResult => openssl({ argv: ['openssl', ...argv], stdin: '', env: {}, cwd: '/root', user: 'root', fs, location: { kind: 'workstation', host: 'ws' }, now: () => c.now(), cluster: c }) as CommandResult;
  const r = ctx(['req', '-x509', '-nodes', '-days', '365', '-newkey', 'rsa:2048', '-out', 'tls.crt', '-subj', '/CN=web.example.com', '-addext', 'subjectAltName=DNS:web.example.com']);
  assert.equal(r.exitCode, 0);
  const lines = r.stderr.split('\n');
  assert.equal(lines.length, 4);
  assert.equal(lines[2], '-----');
  for (const l of lines.slice(0, 2)) assert.match(l, /^(\.+\+)*\.+\+{65}\*(\.+\+)*\.+\+{65}\*(\.+\+)*\.+\+{65}$/);
  const key = fs.read('/root/privkey.pem');
  assert.match(key, /^-----BEGIN PRIVATE KEY-----\n/);
  assert.equal((fs.stat('/root/privkey.pem')?.mode ?? 0) & 0o777, 0o600);
  const cert = readCertificatePem(fs.read('/root/tls.crt'))!;
  assert.equal(cert.serialBytes.length <= 20 && cert.version === 3, true);
  assert.equal(cert.notAfter - cert.notBefore, 365 * 86_400_000);
  assert.ok(issuedBy(cert, cert), 'self-signed');
  assert.deepEqual(cert.san, ['DNS:web.example.com']);
  const bad = ctx(['req', '-x509', '-nodes', '-newkey', 'rsa:2048', '-keyout', 'b.key', '-out', 'b.crt', '-subj', 'CN=b']);
  assert.equal(bad.exitCode, 1);
  assert.match(bad.stderr, /-----\nreq: subject name is expected to be in the format/);
  assert.ok(fs.isFile('/root/b.key') && !fs.isFile('/root/b.crt'));
  const csr = ctx(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'j.key', '-subj', '/CN=jane/O=dev']);
  assert.match(csr.stdout, /^-----BEGIN CERTIFICATE REQUEST-----\n/);
});
