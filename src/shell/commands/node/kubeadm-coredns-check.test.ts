/**
 * The CoreDNSUnsupportedPlugins preflight check of `kubeadm upgrade apply`
 * (phases/upgrade/preflight.go checkUnsupportedPlugins over corefile-migration's Unsupported).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import { clone } from '../../../sim/api/store.js';
import type { ConfigMap } from '../../../sim/api/types.js';
import { unsupportedNotices } from './kubeadm-coredns-check.js';
import { DEFAULT_COREFILE_SEED000 } from '../../../sim/dns/corefile/kubeadm.js';

/** The Corefile kubeadm v1.35 writes. */
const DEFAULT = DEFAULT_COREFILE_SEED000;

test('migration.Unsupported: unknown plugins and unknown options of known plugins, per server block, in Corefile order', () => {
  assert.deepEqual(unsupportedNotices('1.12.1', DEFAULT), []);
  // migrate_test.go TestUnsupported "same coredns version": route53 is not in the table (here of 1.12.1)
  const cf = `${DEFAULT}example.org:53 {
    route53 example.org.:Z1Z2Z3Z4DZ5Z6Z7
    hosts {
       10.0.0.1 db.example.org
       2001:db8::1 db6.example.org
       fd00::1 db7.example.org
       fallthrough
       bogus
    }
    log {
       class denial
       format x
    }
}
`;
  assert.deepEqual(unsupportedNotices('1.12.1', cf), [
    'Plugin "route53" is unsupported by this migration tool in 1.12.1.',
    // plugins.go's IPv6 pattern wants two colons around inner digits: `fd00::1` is not one of its addresses
    'Option "fd00::1" in plugin "hosts" is unsupported by this migration tool in 1.12.1.',
    'Option "bogus" in plugin "hosts" is unsupported by this migration tool in 1.12.1.',
    'Option "format" in plugin "log" is unsupported by this migration tool in 1.12.1.',
  ]);
  // a CoreDNS release outside the table the lab carries is not checked
  assert.equal(unsupportedNotices('1.9.3', cf), undefined);
});

const NEW_KUBEADM = [
  'ssh cka-cp1',
  "sed -i 's|/v1.34/|/v1.35/|' /etc/apt/sources.list.d/kubernetes.list",
  'apt-get update >/dev/null',
  'apt-mark unhold kubeadm >/dev/null',
  "apt-get install -y kubeadm='1.35.2-1.1' >/dev/null",
];

test('kubeadm upgrade apply fails its preflight on a Corefile plugin the migration tool does not know, unless the check is ignored', async () => {
  const s = new Session(loadFixture('kubeadm-calico-v134', 1));
  for (const l of NEW_KUBEADM) await s.exec(l);
  const cm = clone(s.cluster.store.get<ConfigMap>('ConfigMap', 'kube-system', 'coredns')!);
  cm.data!['Corefile'] = cm.data!['Corefile']!.replace('    loop\n', '    loop\n    whoami\n');
  s.cluster.write(cm);
  const manifest = s.cluster.host('cka-cp1')!.fs.read('/etc/kubernetes/manifests/kube-apiserver.yaml');
  const r = await s.exec('kubeadm upgrade apply v1.35.2 -y');
  assert.equal(r.exitCode, 1);
  assert.equal(
    r.stdout,
    `[upgrade] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...
[upgrade] Use 'kubeadm init phase upload-config kubeadm --config your-config-file' to re-upload it.
[upgrade/preflight] Running preflight checks
[preflight] The corefile contains plugins that kubeadm/CoreDNS does not know how to migrate. Each plugin listed should be manually verified for compatibility with the newer version of CoreDNS. Once ready, the upgrade can be initiated by skipping the preflight check. During the upgrade, kubeadm will migrate the configuration while leaving the listed plugin configs untouched, but cannot guarantee that they will work with the newer version of CoreDNS.
`,
  );
  assert.equal(
    r.stderr,
    `error execution phase preflight: [preflight] Some fatal errors occurred:
\t[ERROR CoreDNSUnsupportedPlugins]: CoreDNS cannot migrate the following plugins:
[Plugin "whoami" is unsupported by this migration tool in 1.12.1.]
[preflight] If you know what you are doing, you can make a check non-fatal with \`--ignore-preflight-errors=...\`
To see the stack trace of this error execute with --v=5 or higher
`,
  );
  assert.equal(s.cluster.host('cka-cp1')!.fs.read('/etc/kubernetes/manifests/kube-apiserver.yaml'), manifest);
  // ignored (by name, any case, or `all`): a warning on stderr and the upgrade goes on
  const ok = await s.exec('kubeadm upgrade apply v1.35.2 -y --ignore-preflight-errors=corednsunsupportedplugins');
  assert.equal(ok.exitCode, 0, ok.stderr);
  assert.ok(ok.stderr.startsWith('\t[WARNING CoreDNSUnsupportedPlugins]: CoreDNS cannot migrate the following plugins:\n[Plugin "whoami" is unsupported by this migration tool in 1.12.1.]\n'), ok.stderr);
  assert.match(s.cluster.host('cka-cp1')!.fs.read('/etc/kubernetes/manifests/kube-apiserver.yaml'), /kube-apiserver:v1\.35\.2/);
});
