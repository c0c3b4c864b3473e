/**
 * IPAddress objects (networking.k8s.io/v1, GA in 1.33): the API server's ClusterIP allocator holds
 * one per allocated address (pkg/registry/core/service/ipallocator/ipallocator.go createIPAddress)
 * and releases it with the Service; an IPAddress created by hand reserves its address. The table
 * is printers.go printIPAddress (NAME, PARENTREF); PodTemplates print printPodTemplate's columns.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Session } from '../shell/session.js';

async function sh(s: Session, cmd: string): Promise<string> {
  const r = await s.exec(cmd);
  return r.stdout + r.stderr;
}

const write = (path: string, text: string): string => `cat > ${path} <<'EOF'\n${text}\nEOF`;

describe('IPAddress objects of the ClusterIP allocator', () => {
  it('lists one per ClusterIP, headless Services none, with the Service as parentRef', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const table = await sh(s, 'kubectl get ipaddresses');
    const lines = table.trimEnd().split('\n');
    assert.equal(lines[0], 'NAME             PARENTREF');
    assert.ok(lines.includes('10.244.0.1       services/default/kubernetes'));
    assert.ok(lines.includes('10.244.0.10      services/kube-system/kube-dns'));
    // mysql is headless: no address, no IPAddress
    assert.ok(!table.includes('services/default/mysql\n'));
    assert.equal(lines.length - 1, (await sh(s, "kubectl get svc -A -o jsonpath='{range .items[*]}{.spec.clusterIP}{\"\\n\"}{end}'")).split('\n').filter((ip) => /^\d/.test(ip)).length);
    assert.equal(
      await sh(s, 'kubectl get ip 10.244.0.10 -o yaml | grep -v -e uid: -e creationTimestamp:'),
      [
        'apiVersion: networking.k8s.io/v1', 'kind: IPAddress', 'metadata:', '  labels:', '    ipaddress.kubernetes.io/ip-family: IPv4',
        '    ipaddress.kubernetes.io/managed-by: ipallocator.k8s.io', '  name: 10.244.0.10', '  resourceVersion: "1"', 'spec:', '  parentRef:',
        '    name: kube-dns', '    namespace: kube-system', '    resource: services', '',
      ].join('\n'),
    );
  });

  it('comes with the Service and goes with it', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await sh(s, 'kubectl create service clusterip x --tcp=80 --clusterip=10.244.0.77');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.77 --no-headers'), '10.244.0.77   services/default/x\n');
    await sh(s, 'kubectl delete service x');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.77'), 'Error from server (NotFound): ipaddresses.networking.k8s.io "10.244.0.77" not found\n');
  });

  it('a dual-stack Service holds one per family', async () => {
    const s = new Session(loadFixture('kubeadm-calico-dualstack', 0));
    await sh(s, write('/root/web.yaml', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ipFamilyPolicy: RequireDualStack\n  ports:\n  - port: 80'));
    assert.equal(await sh(s, 'kubectl create -f /root/web.yaml'), 'service/web created\n');
    const ips = (await sh(s, "kubectl get svc web -o jsonpath='{.spec.clusterIPs[*]}'")).split(' ');
    assert.equal(ips.length, 2);
    for (const [ip, fam] of [[ips[0]!, 'IPv4'], [ips[1]!, 'IPv6']])
      assert.equal(await sh(s, `kubectl get ipaddress ${ip} -o jsonpath='{.metadata.labels.ipaddress\\.kubernetes\\.io/ip-family} {.spec.parentRef.name}'`), `${fam} web`);
  });

  it('an IPAddress created by hand reserves its address; an allocated one already exists', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const ip = (name: string, ref: string): string => `apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata:\n  name: ${name}\nspec:\n  parentRef:\n${ref}`;
    await sh(s, write('/root/ip.yaml', ip('10.244.0.99', '    group: gateway.networking.k8s.io\n    resource: gateways\n    namespace: infra\n    name: gw')));
    assert.equal(await sh(s, 'kubectl create -f /root/ip.yaml'), 'ipaddress.networking.k8s.io/10.244.0.99 created\n');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.99 --no-headers'), '10.244.0.99   gateways.gateway.networking.k8s.io/infra/gw\n');
    assert.equal(
      await sh(s, 'kubectl create service clusterip y --tcp=80 --clusterip=10.244.0.99'),
      'error: failed to create ClusterIP service: Service "y" is invalid: spec.clusterIPs: Invalid value: ["10.244.0.99"]: failed to allocate IP 10.244.0.99: provided IP is already allocated\n',
    );
    await sh(s, write('/root/dns.yaml', ip('10.244.0.10', '    resource: services\n    namespace: default\n    name: other')));
    assert.equal(await sh(s, 'kubectl create -f /root/dns.yaml'), 'Error from server (AlreadyExists): error when creating "/root/dns.yaml": ipaddresses.networking.k8s.io "10.244.0.10" already exists\n');
  });
});

describe('PodTemplate table (printers.go printPodTemplate)', () => {
  it('prints containers, images and the template labels, with no AGE', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const pt = 'apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: tpl\ntemplate:\n  metadata:\n    labels: {tier: fe, app: web}\n  spec:\n    containers:\n    - {name: a, image: nginx:1.27}\n    - {name: b, image: busybox}';
    await sh(s, write('/root/pt.yaml', pt));
    await sh(s, write('/root/bare.yaml', 'apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: bare\ntemplate:\n  spec:\n    containers:\n    - {name: c, image: redis}'));
    await sh(s, 'kubectl create -f /root/pt.yaml -f /root/bare.yaml');
    assert.equal(
      await sh(s, 'kubectl get podtemplates'),
      'NAME   CONTAINERS   IMAGES               POD LABELS\nbare   c            redis                <none>\ntpl    a,b          nginx:1.27,busybox   app=web,tier=fe\n',
    );
  });
});
