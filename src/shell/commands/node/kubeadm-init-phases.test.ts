/** kubeadm init phase certs NAME|all and kubeconfig NAME|all, and the phases that write the control plane, on the fixture's control plane. */
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import { issuedBy, readCertificatePem } from '../../../sim/pki/x509.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { goldenTranscript } from '../../../testing/transcripts.js';
import type { Node } from '../../../sim/api/types.js';

test('certs all keeps every certificate kubeadm made; a removed etcd-server certificate is signed again by the etcd CA', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const all = await s.exec('kubeadm init phase certs all');
  assert.equal(
    all.stdout,
    [
      '[certs] Using certificateDir folder "/etc/kubernetes/pki"',
      '[certs] Using existing ca certificate authority',
      '[certs] Using existing apiserver certificate and key on disk',
      '[certs] Using existing apiserver-kubelet-client certificate and key on disk',
      '[certs] Using existing front-proxy-ca certificate authority',
      '[certs] Using existing front-proxy-client certificate and key on disk',
      '[certs] Using existing etcd/ca certificate authority',
      '[certs] Using existing etcd/server certificate and key on disk',
      '[certs] Using existing etcd/peer certificate and key on disk',
      '[certs] Using existing etcd/healthcheck-client certificate and key on disk',
      '[certs] Using existing apiserver-etcd-client certificate and key on disk',
      '[certs] Using the existing "sa" key',
      '',
    ].join('\n'),
  );
  const fs = s.cluster.host('cka-cp1')!.fs;
  const before = fs.read('/etc/kubernetes/pki/etcd/server.crt');
  await s.exec('rm /etc/kubernetes/pki/etcd/server.crt /etc/kubernetes/pki/etcd/server.key');
  await s.exec('sleep 60');
  const r = await s.exec('kubeadm init phase certs etcd-server');
  assert.equal(r.stdout, '[certs] Generating "etcd/server" certificate and key\n[certs] etcd/server serving cert is signed for DNS names [cka-cp1 localhost] and IPs [192.168.122.11 127.0.0.1 ::1]\n');
  const cert = readCertificatePem(fs.read('/etc/kubernetes/pki/etcd/server.crt'))!;
  assert.notEqual(fs.read('/etc/kubernetes/pki/etcd/server.crt'), before);
  assert.ok(issuedBy(cert, readCertificatePem(fs.read('/etc/kubernetes/pki/etcd/ca.crt'))!));
  assert.ok(!issuedBy(cert, readCertificatePem(fs.read('/etc/kubernetes/pki/ca.crt'))!));
  assert.equal((await s.exec('kubeadm init phase certs apiserver-kubelet-client')).stdout, '[certs] Using existing apiserver-kubelet-client certificate and key on disk\n');
});

/** Every file under a directory, path → content (what a dry run must leave as it was). */
function filesUnder(s: Session, node: string, dir: string): Record<string, string> {
  const fs = s.cluster.host(node)!.fs;
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of fs.list(d)) {
      const p = `${d}/${name}`;
      if (fs.isDir(p)) walk(p);
      else out[p] = fs.read(p);
    }
  };
  walk(dir);
  return out;
}

test('init phase certs|kubeconfig --dry-run write only into a kubeadm-init-dryrun directory (phases/init/certs.go, kubeconfig.go)', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const fs = s.cluster.host('cka-cp1')!.fs;
  const pki = filesUnder(s, 'cka-cp1', '/etc/kubernetes');
  // what is on disk is used; the sa key is looked for in the write directory, so it is made there
  const all = await s.exec('kubeadm init phase certs all --dry-run');
  assert.equal(all.exitCode, 0, all.stderr);
  const dir = /^\[certs\] Using certificateDir folder "(\/etc\/kubernetes\/tmp\/kubeadm-init-dryrun\d+)"\n/.exec(all.stdout)?.[1];
  assert.ok(dir, all.stdout);
  assert.match(all.stdout, /\[certs\] Using existing ca certificate authority\n[^]*\[certs\] Using existing apiserver-etcd-client certificate and key on disk\n\[certs\] Generating "sa" key and public key\n$/);
  assert.match(fs.read(`${dir}/sa.key`), /PRIVATE KEY/);
  // a missing leaf is signed by the CA of the write directory, which a phase on its own does not have
  await s.exec('rm /etc/kubernetes/pki/apiserver.crt /etc/kubernetes/pki/apiserver.key');
  delete pki['/etc/kubernetes/pki/apiserver.crt'];
  delete pki['/etc/kubernetes/pki/apiserver.key'];
  const leaf = await s.exec('kubeadm init phase certs apiserver --dry-run');
  assert.equal(leaf.exitCode, 1);
  assert.match(leaf.stderr, /^error execution phase certs\/apiserver: couldn't load CA certificate ca: couldn't load ca certificate authority from \/etc\/kubernetes\/tmp\/kubeadm-init-dryrun\d+\n/);
  // the kubeconfig phase reads the CA from there too
  const kc = await s.exec('kubeadm init phase kubeconfig all --dry-run');
  assert.equal(kc.exitCode, 1);
  const kdir = /^\[kubeconfig\] Using kubeconfig folder "(\/etc\/kubernetes\/tmp\/kubeadm-init-dryrun\d+)"\n$/.exec(kc.stdout)?.[1];
  assert.ok(kdir, kc.stdout);
  assert.equal(kc.stderr, `error execution phase kubeconfig/admin: couldn't create a kubeconfig; the CA files couldn't be loaded: failed to load certificate: couldn't load the certificate file ${kdir}/ca.crt: open ${kdir}/ca.crt: no such file or directory\nTo see the stack trace of this error execute with --v=5 or higher\n`);
  // with no PKI at all, `all` makes every CA, certificate and key in the dry-run directory
  await s.exec('rm -r /etc/kubernetes/pki');
  for (const k of Object.keys(pki)) if (k.startsWith('/etc/kubernetes/pki/')) delete pki[k];
  const fresh = await s.exec('kubeadm init phase certs all --dry-run');
  assert.equal(fresh.exitCode, 0, fresh.stderr);
  const fdir = /"(\/etc\/kubernetes\/tmp\/kubeadm-init-dryrun\d+)"/.exec(fresh.stdout)![1]!;
  assert.equal(fresh.stdout.split('\n').filter((l) => l.startsWith('[certs] Generating')).length, 11);
  assert.ok(fs.exists(`${fdir}/etcd/server.crt`) && fs.exists(`${fdir}/front-proxy-client.key`));
  assert.equal(fs.exists('/etc/kubernetes/pki/ca.crt'), false);
  // nothing outside /etc/kubernetes/tmp changed
  const after = filesUnder(s, 'cka-cp1', '/etc/kubernetes');
  for (const k of Object.keys(after)) if (k.startsWith('/etc/kubernetes/tmp/')) delete after[k];
  assert.deepEqual(after, pki);
});

test('kubeconfig admin: an existing file is validated, a removed one is written again with a working client certificate', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  assert.equal((await s.exec('kubeadm init phase kubeconfig admin')).stdout, '[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/admin.conf"\n');
  await s.exec('rm /etc/kubernetes/admin.conf');
  assert.equal((await s.exec('kubeadm init phase kubeconfig admin')).stdout, '[kubeconfig] Writing "admin.conf" kubeconfig file\n');
  const r = await s.exec('kubectl --kubeconfig /etc/kubernetes/admin.conf get nodes --no-headers');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /^cka-cp1 +Ready/);
  const who = await s.exec('kubectl --kubeconfig /etc/kubernetes/admin.conf auth whoami -o jsonpath={.status.userInfo.username}');
  assert.equal(who.stdout, 'kubernetes-admin');
  await s.exec("sed -i 's|server: https://.*|server: https://10.0.0.1:6443|' /etc/kubernetes/scheduler.conf");
  const bad = await s.exec('kubeadm init phase kubeconfig all');
  assert.equal(bad.exitCode, 1);
  assert.equal(bad.stdout, '[kubeconfig] Using kubeconfig folder "/etc/kubernetes"\n[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/admin.conf"\n[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/super-admin.conf"\n[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/kubelet.conf"\n[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/controller-manager.conf"\n');
  assert.match(bad.stderr, /^error execution phase kubeconfig\/scheduler: a kubeconfig file "\/etc\/kubernetes\/scheduler\.conf" exists already but has got the wrong API Server URL\n/);
});

/**
 * The phases that write the control plane (kubeadm-init-phases.ts), as a learner runs them on
 * kubeadm-calico's control plane: a moved-away scheduler manifest regenerated brings the scheduler
 * back, etcd's regenerated manifest is the one kubeadm init wrote, the node phases relabel the node,
 * re-upload the configuration and recreate a deleted CoreDNS. Golden: testdata/kubeadm-init-run.txt.
 */
test('init phase control-plane, etcd local, kubelet-start, upload-config, addon, mark-control-plane', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const lines = [
    'ssh cka-cp1',
    'cp /etc/kubernetes/manifests/kube-scheduler.yaml /root/sched.orig',
    'mv /etc/kubernetes/manifests/kube-scheduler.yaml /tmp/',
    'sleep 30',
    'kubectl -n kube-system get pods -l component=kube-scheduler',
    'kubeadm init phase control-plane scheduler',
    'ls -l /etc/kubernetes/manifests/kube-scheduler.yaml',
    'diff /root/sched.orig /etc/kubernetes/manifests/kube-scheduler.yaml && echo same',
    'sleep 30',
    'kubectl -n kube-system get pods -l component=kube-scheduler',
    'cp /etc/kubernetes/manifests/etcd.yaml /root/etcd.orig',
    'kubeadm init phase etcd local',
    'diff /root/etcd.orig /etc/kubernetes/manifests/etcd.yaml && echo same',
    'kubeadm init phase control-plane all --pod-network-cidr 10.244.0.0/16',
    'kubeadm init phase control-plane all --config /root/x.yaml --pod-network-cidr 10.244.0.0/16',
    'kubeadm init phase control-plane apiserver --dry-run',
    'cp /var/lib/kubelet/config.yaml /root/kubelet.orig',
    'kubeadm init phase kubelet-start',
    'diff /root/kubelet.orig /var/lib/kubelet/config.yaml && echo same',
    'kubeadm init phase upload-config all',
    'kubectl -n kube-system get cm kubelet-config',
    'kubectl -n kube-system delete deploy coredns',
    'kubeadm init phase addon coredns',
    'kubectl -n kube-system get deploy coredns -o jsonpath={.spec.template.spec.containers[0].image}',
    'kubectl label node cka-cp1 node-role.kubernetes.io/control-plane-',
    'kubeadm init phase mark-control-plane',
    'kubectl get nodes cka-cp1',
  ];
  const text = await goldenTranscript(s, lines);
  assertGolden(goldenPath(import.meta.url, 'kubeadm-init-run.txt'), text);
  const fs = s.cluster.host('cka-cp1')!.fs;
  // kubeadm's defaults without --config: the pod subnet only from --pod-network-cidr
  assert.match(fs.read('/etc/kubernetes/manifests/kube-controller-manager.yaml'), /--cluster-cidr=10\.244\.0\.0\/16/);
  await s.exec('kubeadm init phase control-plane controller-manager');
  assert.doesNotMatch(fs.read('/etc/kubernetes/manifests/kube-controller-manager.yaml'), /--cluster-cidr|--allocate-node-cidrs/);
  // --config: the ClusterConfiguration's values
  fs.write('/root/kubeadm.yaml', 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nnetworking:\n  podSubnet: 172.16.0.0/16\n  serviceSubnet: 10.97.0.0/16\n');
  assert.equal((await s.exec('kubeadm init phase control-plane controller-manager --config /root/kubeadm.yaml')).exitCode, 0);
  const kcm = fs.read('/etc/kubernetes/manifests/kube-controller-manager.yaml');
  assert.match(kcm, /--cluster-cidr=172\.16\.0\.0\/16\n/);
  assert.match(kcm, /--service-cluster-ip-range=10\.97\.0\.0\/16\n/);
  const cp = s.cluster.store.get<Node>('Node', undefined, 'cka-cp1')!;
  assert.equal(cp.metadata.labels?.['node-role.kubernetes.io/control-plane'], '');
  assert.ok(cp.spec?.taints?.some((t) => t.key === 'node-role.kubernetes.io/control-plane' && t.effect === 'NoSchedule'));
});

test('certs with --config encryptionAlgorithm: ECDSA-P256: new P-256 keys (EC PRIVATE KEY), ecdsa-with-SHA256 from a new EC CA', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const fs = s.cluster.host('cka-cp1')!.fs;
  fs.write('/root/kubeadm.yaml', 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nencryptionAlgorithm: ECDSA-P256\n');
  await s.exec('rm /etc/kubernetes/pki/apiserver.crt /etc/kubernetes/pki/apiserver.key');
  const r = await s.exec('kubeadm init phase certs apiserver --config /root/kubeadm.yaml');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /^\[certs\] Generating "apiserver" certificate and key\n/);
  assert.match(fs.read('/etc/kubernetes/pki/apiserver.key'), /^-----BEGIN EC PRIVATE KEY-----\n/);
  const text = (await s.exec('openssl x509 -in /etc/kubernetes/pki/apiserver.crt -noout -text')).stdout;
  assert.match(text, / {8}Signature Algorithm: sha256WithRSAEncryption\n/);
  assert.match(text, /Public Key Algorithm: id-ecPublicKey\n {16}Public-Key: \(256 bit\)\n/);
  // the API server serves the new certificate, and clients still trust it
  const nodes = await s.exec('kubectl get nodes cka-cp1 --no-headers');
  assert.equal(nodes.exitCode, 0, nodes.stderr);
  // a new CA gets an EC key too, and signs with ECDSA
  await s.exec('rm /etc/kubernetes/pki/front-proxy-ca.* /etc/kubernetes/pki/front-proxy-client.*');
  assert.equal((await s.exec('kubeadm init phase certs front-proxy-ca --config /root/kubeadm.yaml')).exitCode, 0);
  assert.equal((await s.exec('kubeadm init phase certs front-proxy-client --config /root/kubeadm.yaml')).exitCode, 0);
  const ca = readCertificatePem(fs.read('/etc/kubernetes/pki/front-proxy-ca.crt'))!;
  const leaf = readCertificatePem(fs.read('/etc/kubernetes/pki/front-proxy-client.crt'))!;
  assert.equal(leaf.signatureAlgorithm, '1.2.840.10045.4.3.2');
  assert.ok(issuedBy(leaf, ca));
  assert.equal((await s.exec('openssl x509 -in /etc/kubernetes/pki/front-proxy-client.crt -noout -issuer')).stdout, 'issuer=CN = front-proxy-ca\n');
  const mixed = await s.exec('kubeadm init phase certs apiserver --config /root/kubeadm.yaml --apiserver-cert-extra-sans foo');
  assert.equal(mixed.stderr, "can not mix '--config' with arguments [apiserver-cert-extra-sans]\nTo see the stack trace of this error execute with --v=5 or higher\n");
});

test("init phase addon puts kubeadm's kube-proxy and CoreDNS objects back (CreateOrUpdate), keeping CoreDNS's replicas and a modified Corefile", async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  // a field of a kube-system object by its path (`spec/template/spec/containers/0/image`)
  const get = (kind: string, name: string, path: string): unknown => path.split('/').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], s.cluster.store.get(kind, 'kube-system', name));
  const proxyConf = get('ConfigMap', 'kube-proxy', 'data/config.conf');
  const dsImage = get('DaemonSet', 'kube-proxy', 'spec/template/spec/containers/0/image');
  const dnsImage = get('Deployment', 'coredns', 'spec/template/spec/containers/0/image');
  const uid = get('Service', 'kube-dns', 'metadata/uid');
  for (const l of [
    `kubectl -n kube-system patch cm kube-proxy --type merge -p '{"data":{"config.conf":"broken"}}'`,
    'kubectl -n kube-system set image ds/kube-proxy kube-proxy=registry.k8s.io/kube-proxy:v0.0.1',
    'kubectl -n kube-system set image deploy/coredns coredns=registry.k8s.io/coredns/coredns:v0.0.1',
    'kubectl -n kube-system scale deploy coredns --replicas 3',
    `kubectl -n kube-system patch svc kube-dns --type merge -p '{"spec":{"selector":{"k8s-app":"nope"}}}'`,
    `kubectl -n kube-system patch cm coredns --type merge -p '{"data":{"Corefile":".:53 {\\n    forward . 8.8.8.8\\n}\\n"}}'`,
  ]) {
    const r = await s.exec(l);
    assert.equal(r.exitCode, 0, `${l}: ${r.stderr}`);
  }
  // (like every init phase, its values are kubeadm's defaults and the flags, not the running cluster's)
  const r = await s.exec('kubeadm init phase addon all --pod-network-cidr 10.244.0.0/16');
  assert.equal(r.stdout, '[addons] Applied essential addon: CoreDNS\n[addons] Applied essential addon: kube-proxy\n', r.stderr);
  assert.equal(get('ConfigMap', 'kube-proxy', 'data/config.conf'), proxyConf, "kube-proxy's configuration is kubeadm's again");
  assert.equal(get('DaemonSet', 'kube-proxy', 'spec/template/spec/containers/0/image'), dsImage);
  assert.equal(get('Deployment', 'coredns', 'spec/template/spec/containers/0/image'), dnsImage);
  assert.equal(get('Deployment', 'coredns', 'spec/replicas'), 3, 'deployedDNSReplicas: the running count stays');
  assert.equal(get('Service', 'kube-dns', 'spec/selector/k8s-app'), 'kube-dns');
  assert.equal(get('Service', 'kube-dns', 'metadata/uid'), uid, 'updated, not re-created');
  assert.match(String(get('ConfigMap', 'coredns', 'data/Corefile')), /forward \. 8\.8\.8\.8/, 'a modified Corefile is retained');
  // without the flag, the default: no cluster CIDR, written as the YAML encoder writes an empty string
  await s.exec('kubeadm init phase addon kube-proxy');
  assert.match(String(get('ConfigMap', 'kube-proxy', 'data/config.conf')), /\nclusterCIDR: ""\n/);
});

test('--dry-run of control-plane, etcd and kubelet-start writes to a kubeadm-init-dryrun directory and changes nothing else', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const fs = s.cluster.host('cka-cp1')!.fs;
  const manifest = fs.read('/etc/kubernetes/manifests/kube-apiserver.yaml');
  const kubelet = fs.read('/var/lib/kubelet/config.yaml');
  await s.exec('rm /etc/kubernetes/manifests/kube-scheduler.yaml');
  const cp = await s.exec('kubeadm init phase control-plane all --dry-run --kubernetes-version v1.35.0');
  assert.equal(cp.exitCode, 0, cp.stderr);
  const dir = /^\[control-plane\] Using manifest folder "(\/etc\/kubernetes\/tmp\/kubeadm-init-dryrun\d+)"\n/.exec(cp.stdout)?.[1];
  assert.ok(dir, cp.stdout);
  assert.equal(cp.stdout.split('\n').slice(1).join('\n'), '[control-plane] Creating static Pod manifest for "kube-apiserver"\n[control-plane] Creating static Pod manifest for "kube-controller-manager"\n[control-plane] Creating static Pod manifest for "kube-scheduler"\n');
  assert.deepEqual(fs.list(dir), ['kube-apiserver.yaml', 'kube-controller-manager.yaml', 'kube-scheduler.yaml']);
  assert.equal(fs.stat(`${dir}/kube-scheduler.yaml`)!.mode, 0o600);
  assert.equal(fs.read('/etc/kubernetes/manifests/kube-apiserver.yaml'), manifest);
  assert.equal(fs.exists('/etc/kubernetes/manifests/kube-scheduler.yaml'), false, 'the removed manifest stays removed');
  const etcd = await s.exec('kubeadm init phase etcd local --dry-run');
  assert.match(etcd.stdout, /^\[dryrun\] Would ensure that "\/var\/lib\/etcd" directory is present\n\[etcd\] Creating static Pod manifest for local etcd in "\/etc\/kubernetes\/tmp\/kubeadm-init-dryrun\d+"\n$/);
  const since = s.cluster.host('cka-cp1')!.data.units['kubelet']!.since;
  const ks = await s.exec('kubeadm init phase kubelet-start --dry-run');
  const kdir = /"(\/etc\/kubernetes\/tmp\/kubeadm-init-dryrun\d+)\/kubeadm-flags\.env"/.exec(ks.stdout)?.[1];
  // v1.35's kubelet-start writes the instance configuration there too and applies it (NodeLocalCRISocket)
  assert.equal(
    ks.stdout,
    `[kubelet-start] Would stop the kubelet\n[kubelet-start] Writing kubelet environment file with flags to file "${kdir}/kubeadm-flags.env"\n[kubelet-start] Writing kubelet configuration to file "${kdir}/instance-config.yaml"\n[patches] Applied patch of type "application/strategic-merge-patch+json" to target "kubeletconfiguration"\n[kubelet-start] Writing kubelet configuration to file "${kdir}/config.yaml"\n[kubelet-start] Would start the kubelet\n`,
  );
  assert.ok(fs.exists(`${kdir}/config.yaml`));
  assert.equal(fs.read('/var/lib/kubelet/config.yaml'), kubelet);
  assert.equal(s.cluster.host('cka-cp1')!.data.units['kubelet']!.since, since, 'the kubelet was not restarted');
  // the phases that talk to the API server print every request under --dry-run: not simulated, nothing done
  const up = await s.exec('kubeadm init phase upload-config kubeadm --dry-run');
  assert.equal(up.exitCode, 1);
  assert.match(up.stderr, /--dry-run is not simulated/);
  const certs = await s.exec('kubeadm init phase upload-certs --upload-certs --dry-run');
  assert.equal(certs.exitCode, 1);
  assert.match(certs.stderr, /--dry-run is not simulated/);
  assert.equal(s.cluster.store.get('Secret', 'kube-system', 'kubeadm-certs'), undefined);
});

test('certs with encryptionAlgorithm: ECDSA-P384: P-384 keys, a new CA signs ecdsa-with-SHA384, openssl prints the secp384r1 key', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const fs = s.cluster.host('cka-cp1')!.fs;
  fs.write('/root/kubeadm.yaml', 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nencryptionAlgorithm: ECDSA-P384\n');
  await s.exec('rm /etc/kubernetes/pki/front-proxy-ca.* /etc/kubernetes/pki/front-proxy-client.*');
  assert.equal((await s.exec('kubeadm init phase certs front-proxy-ca --config /root/kubeadm.yaml')).exitCode, 0);
  const r = await s.exec('kubeadm init phase certs front-proxy-client --config /root/kubeadm.yaml');
  assert.equal(r.stdout, '[certs] Generating "front-proxy-client" certificate and key\n', r.stderr);
  assert.match(fs.read('/etc/kubernetes/pki/front-proxy-client.key'), /^-----BEGIN EC PRIVATE KEY-----\n/);
  const ca = readCertificatePem(fs.read('/etc/kubernetes/pki/front-proxy-ca.crt'))!;
  const leaf = readCertificatePem(fs.read('/etc/kubernetes/pki/front-proxy-client.crt'))!;
  assert.equal(ca.signatureAlgorithm, '1.2.840.10045.4.3.3');
  assert.equal(leaf.signatureAlgorithm, '1.2.840.10045.4.3.3');
  assert.ok(issuedBy(leaf, ca));
  const text = (await s.exec('openssl x509 -in /etc/kubernetes/pki/front-proxy-client.crt -noout -text')).stdout;
  assert.match(text, /\n {4}Signature Algorithm: ecdsa-with-SHA384\n/);
  assert.match(text, /Public Key Algorithm: id-ecPublicKey\n {16}Public-Key: \(384 bit\)\n {16}pub:\n(?: {20}[0-9a-f:]+\n){7} {16}ASN1 OID: secp384r1\n {16}NIST CURVE: P-384\n/);
  const key = (await s.exec('openssl ec -in /etc/kubernetes/pki/front-proxy-client.key -noout -text')).stdout;
  assert.match(key, /^Private-Key: \(384 bit\)\npriv:\n(?: {4}[0-9a-f:]+\n){4}pub:\n(?: {4}[0-9a-f:]+\n){7}ASN1 OID: secp384r1\nNIST CURVE: P-384\n$/);
  // the same seed gives the same key
  const again = new Session(loadFixture('kubeadm-calico', 1));
  await again.exec('ssh cka-cp1');
  again.cluster.host('cka-cp1')!.fs.write('/root/kubeadm.yaml', 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nencryptionAlgorithm: ECDSA-P384\n');
  await again.exec('rm /etc/kubernetes/pki/front-proxy-ca.* /etc/kubernetes/pki/front-proxy-client.*');
  await again.exec('kubeadm init phase certs front-proxy-ca --config /root/kubeadm.yaml');
  assert.equal(again.cluster.host('cka-cp1')!.fs.read('/etc/kubernetes/pki/front-proxy-ca.key'), fs.read('/etc/kubernetes/pki/front-proxy-ca.key'));
});

test('openssl x509|ec|pkey -text of a P-384 key and certificate the lab made match real OpenSSL 3.0.19', async () => {
  // testdata/p384-*.pem: front-proxy-client's key and certificate from `kubeadm init phase certs` with ECDSA-P384;
  // testdata/p384-openssl-*.txt: what `openssl x509 -noout -text`, `openssl ec -noout -text` (stdout; `read EC key`
  // goes to stderr) and `openssl pkey -noout -text` of OpenSSL 3.0.19 print for them (the certificate verified OK
  // against its CA with `openssl verify`)
  const data = (f: string): string => readFileSync(goldenPath(import.meta.url, f), 'utf8');
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const fs = s.cluster.host('cka-cp1')!.fs;
  fs.write('/root/k.pem', data('p384-key.pem'));
  fs.write('/root/c.pem', data('p384-cert.pem'));
  assert.equal((await s.exec('openssl x509 -in /root/c.pem -noout -text')).stdout, data('p384-openssl-x509-text.txt'));
  const ec = await s.exec('openssl ec -in /root/k.pem -noout -text');
  assert.equal(ec.stdout, data('p384-openssl-ec-text.txt').replace(/^read EC key\n/, ''));
  assert.equal(ec.stderr, 'read EC key\n');
  assert.equal((await s.exec('openssl pkey -in /root/k.pem -noout -text')).stdout, data('p384-openssl-pkey-text.txt'));
});

test("a leaf phase whose CA is missing from /etc/kubernetes/pki fails with LoadCertificateAuthority's and TryLoadCertFromDisk's wording (phases/certs/certs.go, util/pkiutil)", async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const tail = '\nTo see the stack trace of this error execute with --v=5 or higher\n';
  // a leaf on disk is only checked against the CA's certificate (runCertPhase → TryLoadCertFromDisk)
  await s.exec('mv /etc/kubernetes/pki/ca.crt /root/ca.crt');
  const onDisk = await s.exec('kubeadm init phase certs apiserver');
  assert.equal(onDisk.exitCode, 1);
  assert.equal(onDisk.stderr, `error execution phase certs/apiserver: couldn't load CA certificate ca: couldn't load the certificate file /etc/kubernetes/pki/ca.crt: open /etc/kubernetes/pki/ca.crt: no such file or directory${tail}`);
  // a leaf to be made loads the whole CA (CreateCertAndKeyFilesWithCA → LoadCertificateAuthority)
  await s.exec('rm /etc/kubernetes/pki/apiserver.crt /etc/kubernetes/pki/apiserver.key');
  const noCrt = await s.exec('kubeadm init phase certs apiserver');
  assert.equal(noCrt.stderr, `error execution phase certs/apiserver: couldn't load CA certificate ca: failure loading ca certificate authority: failed to load certificate: couldn't load the certificate file /etc/kubernetes/pki/ca.crt: open /etc/kubernetes/pki/ca.crt: no such file or directory${tail}`);
  await s.exec('mv /etc/kubernetes/pki/ca.key /root/ca.key');
  const none = await s.exec('kubeadm init phase certs apiserver');
  assert.equal(none.stderr, `error execution phase certs/apiserver: couldn't load CA certificate ca: couldn't load ca certificate authority from /etc/kubernetes/pki${tail}`);
  await s.exec('cp /root/ca.crt /etc/kubernetes/pki/ca.crt');
  const noKey = await s.exec('kubeadm init phase certs apiserver');
  assert.equal(noKey.stderr, `error execution phase certs/apiserver: couldn't load CA certificate ca: failure loading ca certificate authority: failed to load key: couldn't load the private key file /etc/kubernetes/pki/ca.key: open /etc/kubernetes/pki/ca.key: no such file or directory${tail}`);
  assert.equal(s.cluster.host('cka-cp1')!.fs.exists('/etc/kubernetes/pki/apiserver.crt'), false);
  // the etcd CA: Name etcd-ca, BaseName etcd/ca
  await s.exec('rm /etc/kubernetes/pki/etcd/ca.crt /etc/kubernetes/pki/etcd/ca.key /etc/kubernetes/pki/etcd/server.crt');
  const etcd = await s.exec('kubeadm init phase certs etcd-server');
  assert.equal(etcd.stderr, `error execution phase certs/etcd-server: couldn't load CA certificate etcd-ca: couldn't load etcd/ca certificate authority from /etc/kubernetes/pki${tail}`);
});
