/**
 * etcdctl's and etcdutl's help and command-line errors. The golden was checked byte for byte
 * (stdout, stderr, exit status) against a Go program that builds the same command tree with the
 * real spf13/cobra v1.9.1 and spf13/pflag v1.0.6 (the versions etcd v3.6.5's go.mod pins) and
 * renders it with etcd v3.6.5's pkg/cobrautl/help.go UsageFunc and etcdctl/ctl.go's help template
 * (44 command lines; see the commit message). The tabwriter case is Go's own
 * text/tabwriter ExampleWriter_Init expectation.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { Session } from '../../session.js';
import { tabwrite } from '../../../util/go-tabwriter.js';

describe('Go text/tabwriter', () => {
  it('pads cells with tabs to the column block width (ExampleWriter_Init)', () => {
    const out = tabwrite('a\tb\tc\td\t.\n123\t12345\t1234567\t123456789\t.\n\n', { minwidth: 0, tabwidth: 8, padding: 0, padchar: '\t' });
    assert.equal(out, 'a\tb\tc\td\t\t.\n123\t12345\t1234567\t123456789\t.\n\n');
  });
  it('a line without tabs ends a column block', () => {
    assert.equal(tabwrite('ab\tx\nplain\nabcdefghij\ty\n', { minwidth: 0, tabwidth: 8, padding: 1, padchar: '\t' }), 'ab\tx\nplain\nabcdefghij\ty\n');
  });
});

describe('etcdctl and etcdutl help', () => {
  it('help, usage after flag errors, unknown commands and topics', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await s.exec('ssh cka-cp1');
    let out = '';
    for (const l of [
      'etcdctl -h',
      'etcdctl snapshot save --help',
      'etcdctl snapshot restore /tmp/snap.db --data-dir /var/lib/etcd-new',
      'etcdctl help member list',
      'etcdctl endpoint status -h',
      'etcdctl get k --limit x',
      'etcdctl membr',
      'etcdctl help nope',
      'etcdutl --help',
      'etcdutl snapshot restore -h',
      'etcdutl snapshot restore x --bogus',
      'etcdutl foo',
    ]) {
      const r = await s.exec(l);
      out += `$ ${l}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}--- exit ${r.exitCode}\n`;
    }
    assertGolden(goldenPath(import.meta.url, 'etcd-help.txt'), out);
  });

  it('the commands still run: flags anywhere, globals before the command', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await s.exec('ssh cka-cp1');
    const tls = '--cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';
    const r = await s.exec(`etcdctl --endpoints https://127.0.0.1:2379 ${tls} get /registry/namespaces/default --keys-only`);
    assert.equal(r.stdout, '/registry/namespaces/default\n\n');
    assert.equal((await s.exec(`etcdctl member list ${tls} -w table`)).exitCode, 0);
    assert.equal((await s.exec('etcdctl version')).stdout, 'etcdctl version: 3.6.5\nAPI version: 3.6\n');
  });
});

describe('the etcdctl in the etcd container', () => {
  it("names the image's etcd version in its help, version and client log lines", async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    const image = s.cluster.store.get<{ spec: { containers: { image: string }[] } } & import('../../../sim/api/types.js').KObject>('Pod', 'kube-system', 'etcd-cka-cp1')!.spec.containers[0]!.image;
    const v = /:(\d+\.\d+\.\d+)-\d+$/.exec(image)![1]!;
    assert.notEqual(v, '3.6.5', image);
    const help = await s.exec('kubectl -n kube-system exec etcd-cka-cp1 -- etcdctl -h');
    assert.match(help.stdout, new RegExp(`\\nVERSION:\\n  ${v.replaceAll('.', '\\.')}\\n\\nAPI VERSION:\\n  3\\.6\\n`));
    assert.equal((await s.exec('kubectl -n kube-system exec etcd-cka-cp1 -- etcdctl version')).stdout, `etcdctl version: ${v}\nAPI version: 3.6\n`);
    const save = await s.exec('kubectl -n kube-system exec etcd-cka-cp1 -- etcdctl --endpoints https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key snapshot save /var/lib/etcd/s.db');
    assert.match(save.stderr, new RegExp(`"caller":"v3@v${v.replaceAll('.', '\\.')}/maintenance\\.go:236"|\\tv3@v${v.replaceAll('.', '\\.')}/maintenance\\.go:236\\t`), save.stderr);
    // on the node, the etcd release installed there
    await s.exec('ssh cka-cp1');
    assert.match((await s.exec('etcdctl -h')).stdout, /\nVERSION:\n {2}3\.6\.5\n/);
  });
});
