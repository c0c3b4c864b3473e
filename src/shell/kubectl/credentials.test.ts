/**
 * What kubectl sends about who it is (credentials.ts): the kubeconfig is read on every line
 * through memos (the parsed file shared, not copied; `*-data` fields decoded once per text), so
 * these check that a changed kubeconfig is seen at once and the file's parse is never changed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import type { KubectlEnv, KubectlFiles } from './context.js';
import { clientContext } from './credentials.js';
import type { Parsed } from './flags.js';
import { parseYamlShared } from '../../util/yaml-memo.js';

const kubeconfig = (cert: string, ca: string): string =>
  [
    'apiVersion: v1',
    'kind: Config',
    'current-context: c',
    'contexts: [{name: c, context: {cluster: k, user: u}}]',
    `clusters: [{name: k, cluster: {server: "https://192.168.122.11:6443", certificate-authority-data: ${Buffer.from(ca).toString('base64')}}}]`,
    `users: [{name: u, user: {client-certificate-data: ${Buffer.from(cert).toString('base64')}}}]`,
    '',
  ].join('\n');

const parsed = (): Parsed => ({ flags: {}, changed: new Set(), given: [], args: [], dashArgs: [], sawDash: false });

test('clientContext: each kubeconfig text gives its own certificate and CA, read again unchanged', () => {
  const cluster = loadFixture('kubeadm-calico', 1);
  let text = kubeconfig('CERT ONE', '-----BEGIN CERTIFICATE-----\nA\n');
  const fs = { tryRead: (p: string) => (p === '/root/.kube/config' ? text : undefined) } as unknown as KubectlFiles;
  const env = { cluster, fs, cwd: '/root', stdin: '', env: { HOME: '/root' } } as unknown as KubectlEnv;
  for (let i = 0; i < 2; i++) {
    const c = clientContext(env, parsed(), 'get')!;
    assert.equal(c.credentials.clientCertificate, 'CERT ONE');
    assert.equal(c.endpoint?.caPem, '-----BEGIN CERTIFICATE-----\nA\n');
  }
  const before = JSON.stringify(parseYamlShared(text));
  text = kubeconfig('CERT TWO', 'not a pem');
  assert.throws(() => clientContext(env, parsed(), 'get'), /unable to load root certificates/, 'the new CA data is decoded, not the old one remembered');
  text = kubeconfig('CERT TWO', '-----BEGIN CERTIFICATE-----\nB\n');
  const c = clientContext(env, parsed(), 'get')!;
  assert.equal(c.credentials.clientCertificate, 'CERT TWO');
  assert.equal(c.endpoint?.caPem, '-----BEGIN CERTIFICATE-----\nB\n');
  text = kubeconfig('CERT ONE', '-----BEGIN CERTIFICATE-----\nA\n');
  assert.equal(JSON.stringify(parseYamlShared(text)), before, 'reading the shared parse left it as it was');
});
