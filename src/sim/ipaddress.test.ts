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
import { MSG_SUBDOMAIN } from './api/validation.js';

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

describe('deleting an IPAddress of the ClusterIP allocator (repairip.go)', () => {
  it('goes at once and comes back, a new object, at the next 3-minute resync of the kube-apiserver, with a Warning Event on the Service', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const [started, node] = (await sh(s, "kubectl get po -n kube-system -l component=kube-apiserver -o jsonpath='{.items[0].status.containerStatuses[0].state.running.startedAt} {.items[0].spec.nodeName}'")).split(' ');
    const before = await sh(s, "kubectl get ipaddress 10.244.0.10 -o jsonpath='{.metadata.uid}'");
    const now = Number((await sh(s, 'date +%s')).trim()) * 1000;
    const since = Date.parse(started!);
    const period = 3 * 60_000;
    const tick = since + Math.ceil((now + 1 - since) / period) * period;
    assert.ok(tick > now + 1000, 'the next resync is ahead');
    assert.equal(await sh(s, 'kubectl delete ipaddress 10.244.0.10'), 'ipaddress.networking.k8s.io "10.244.0.10" deleted\n');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.10'), 'Error from server (NotFound): ipaddresses.networking.k8s.io "10.244.0.10" not found\n');
    assert.ok(!(await sh(s, 'kubectl get ipaddresses --no-headers')).includes('10.244.0.10 '));
    // nothing notices before the resync
    await sh(s, `sleep ${(tick - now) / 1000 - 1}`);
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.10'), 'Error from server (NotFound): ipaddresses.networking.k8s.io "10.244.0.10" not found\n');
    assert.equal(await sh(s, 'kubectl get events -n kube-system --field-selector reason=ClusterIPNotAllocated'), 'No resources found in kube-system namespace.\n');
    await sh(s, 'sleep 1');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.10 --no-headers'), '10.244.0.10   services/kube-system/kube-dns\n');
    const again = await sh(s, "kubectl get ipaddress 10.244.0.10 -o jsonpath='{.metadata.uid} {.metadata.creationTimestamp} {.metadata.labels}'");
    const [uid, created] = again.split(' ');
    assert.notEqual(uid, before);
    assert.equal(created, new Date(tick).toISOString().replace('.000Z', 'Z'));
    assert.ok(again.endsWith('{"ipaddress.kubernetes.io/ip-family":"IPv4","ipaddress.kubernetes.io/managed-by":"ipallocator.k8s.io"}'), again);
    // the events.k8s.io/v1 recorder's Event: eventTime, action and reporting controller, no source or count
    const ev = await sh(s, "kubectl get events.events.k8s.io -n kube-system --field-selector reason=ClusterIPNotAllocated -o jsonpath='{range .items[*]}{.type}|{.action}|{.note}|{.reportingController}|{.reportingInstance}|{.regarding.kind}/{.regarding.name}|{.eventTime}|{.deprecatedCount}{\"\\n\"}{end}'");
    assert.equal(
      ev,
      `Warning|ClusterIPAllocation|Cluster IP [IPv4]: 10.244.0.10 is not allocated; repairing|ipallocator-repair-controller|ipallocator-repair-controller-${node}|Service/kube-dns|${new Date(tick).toISOString().replace('.000Z', '.000000Z')}|\n`,
    );
    const described = (await sh(s, 'kubectl describe svc -n kube-system kube-dns')).trimEnd().split('\n').slice(-1)[0];
    assert.equal(described, '  Warning  ClusterIPNotAllocated  0s    ipallocator-repair-controller  Cluster IP [IPv4]: 10.244.0.10 is not allocated; repairing');
    // repaired once: the next resync finds it
    await sh(s, 'sleep 400');
    assert.equal((await sh(s, 'kubectl get events -n kube-system --field-selector reason=ClusterIPNotAllocated --no-headers')).trimEnd().split('\n').length, 1);
  });

  it('a deleted one goes with its Service and is not repaired; dry run deletes nothing', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await sh(s, 'kubectl create service clusterip x --tcp=80 --clusterip=10.244.0.77');
    assert.equal(await sh(s, 'kubectl delete ipaddress 10.244.0.77 --dry-run=server'), 'ipaddress.networking.k8s.io "10.244.0.77" deleted (server dry run)\n');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.77 --no-headers'), '10.244.0.77   services/default/x\n');
    assert.equal(await sh(s, 'kubectl delete ipaddress 10.244.0.77'), 'ipaddress.networking.k8s.io "10.244.0.77" deleted\n');
    await sh(s, 'kubectl delete service x');
    await sh(s, 'sleep 400');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.77'), 'Error from server (NotFound): ipaddresses.networking.k8s.io "10.244.0.77" not found\n');
    assert.equal(await sh(s, 'kubectl get events --field-selector reason=ClusterIPNotAllocated'), 'No resources found in default namespace.\n');
    // the address is free again, and a new Service there has its IPAddress at once
    assert.equal(await sh(s, 'kubectl create service clusterip y --tcp=80 --clusterip=10.244.0.77'), 'service/y created\n');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.77 --no-headers'), '10.244.0.77   services/default/y\n');
  });
});

describe('the Service deletion window and leaked IPAddresses (repairip.go syncIPAddress)', () => {
  const managed = (name: string, svc: string): string =>
    `apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata:\n  name: ${name}\n  labels:\n    ipaddress.kubernetes.io/ip-family: IPv4\n    ipaddress.kubernetes.io/managed-by: ipallocator.k8s.io\nspec:\n  parentRef:\n    resource: services\n    namespace: default\n    name: ${svc}`;

  it('a terminating Service still holds its ClusterIP: a Service asking for it gets "provided IP is already allocated" (before AlreadyExists), free once it is gone', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await sh(s, write('/root/a.yaml', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  finalizers: [example.com/hold]\nspec:\n  clusterIP: 10.244.0.88\n  ports:\n  - port: 80'));
    assert.equal(await sh(s, 'kubectl create -f /root/a.yaml'), 'service/a created\n');
    await sh(s, 'kubectl delete svc a --wait=false');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.88 --no-headers'), '10.244.0.88   services/default/a\n');
    const taken = 'The Service "a" is invalid: spec.clusterIPs: Invalid value: ["10.244.0.88"]: failed to allocate IP 10.244.0.88: provided IP is already allocated\n';
    // storage.go beginCreate allocates before the store's create finds the name taken
    assert.equal(await sh(s, 'kubectl create -f /root/a.yaml'), taken);
    await sh(s, `kubectl patch svc a --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]'`);
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.88'), 'Error from server (NotFound): ipaddresses.networking.k8s.io "10.244.0.88" not found\n');
    assert.equal(await sh(s, 'kubectl create -f /root/a.yaml'), 'service/a created\n');
  });

  it('an allocator IPAddress whose Service does not exist holds the address for 60 s, then the loop deletes it with a Warning', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await sh(s, write('/root/ip.yaml', managed('10.244.0.89', 'ghost')));
    assert.equal(await sh(s, 'kubectl create -f /root/ip.yaml'), 'ipaddress.networking.k8s.io/10.244.0.89 created\n');
    const created = Date.parse(await sh(s, "kubectl get ipaddress 10.244.0.89 -o jsonpath='{.metadata.creationTimestamp}'"));
    const now = Number((await sh(s, 'date +%s')).trim()) * 1000;
    assert.equal(
      await sh(s, 'kubectl create service clusterip ghost --tcp=80 --clusterip=10.244.0.89'),
      'error: failed to create ClusterIP service: Service "ghost" is invalid: spec.clusterIPs: Invalid value: ["10.244.0.89"]: failed to allocate IP 10.244.0.89: provided IP is already allocated\n',
    );
    // a dry run's allocator (ipallocator.go dryRunAllocator) checks the range only, never the IPAddress
    assert.equal(await sh(s, 'kubectl create service clusterip ghost --tcp=80 --clusterip=10.244.0.89 --dry-run=server'), 'service/ghost created (server dry run)\n');
    // ipLifetime > gracePeriod: still there at exactly 60 s
    await sh(s, `sleep ${(created + 60_000 - now) / 1000}`);
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.89 --no-headers'), '10.244.0.89   services/default/ghost\n');
    await sh(s, 'sleep 1');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.89'), 'Error from server (NotFound): ipaddresses.networking.k8s.io "10.244.0.89" not found\n');
    const node = await sh(s, "kubectl get po -n kube-system -l component=kube-apiserver -o jsonpath='{.items[0].spec.nodeName}'");
    assert.equal(
      await sh(s, "kubectl get events.events.k8s.io --field-selector reason=IPAddressNotAllocated -o jsonpath='{range .items[*]}{.type}|{.action}|{.note}|{.reportingInstance}|{.regarding.kind}/{.regarding.name}{\"\\n\"}{end}'"),
      `Warning|IPAddressAllocation|IPAddress: 10.244.0.89 for Service default/ghost appears to have leaked: cleaning up|ipallocator-repair-controller-${node}|IPAddress/10.244.0.89\n`,
    );
    assert.equal(await sh(s, 'kubectl create service clusterip ghost --tcp=80 --clusterip=10.244.0.89'), 'service/ghost created\n');
  });

  it('one whose Service exists without that address goes at once (wrong reference); an unlabelled one is not the allocator\'s and stays', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await sh(s, 'kubectl create service clusterip real --tcp=80');
    await sh(s, write('/root/ip.yaml', managed('10.244.0.90', 'real')));
    assert.equal(await sh(s, 'kubectl create -f /root/ip.yaml'), 'ipaddress.networking.k8s.io/10.244.0.90 created\n');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.90'), 'Error from server (NotFound): ipaddresses.networking.k8s.io "10.244.0.90" not found\n');
    assert.equal(
      await sh(s, "kubectl get events.events.k8s.io --field-selector reason=IPAddressWrongReference -o jsonpath='{.items[*].note}'"),
      'IPAddress: 10.244.0.90 for Service default/real has a wrong reference; cleaning up',
    );
    await sh(s, write('/root/mine.yaml', 'apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata:\n  name: 10.244.0.91\nspec:\n  parentRef:\n    resource: services\n    namespace: default\n    name: ghost'));
    await sh(s, 'kubectl create -f /root/mine.yaml');
    await sh(s, 'sleep 120');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.91 --no-headers'), '10.244.0.91   services/default/ghost\n');
  });

  it('one of the allocator\'s that references something else than a Service goes at once, its parentRef in Go\'s %v', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const other = (name: string, ref: string): string =>
      `apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata:\n  name: ${name}\n  labels:\n    ipaddress.kubernetes.io/ip-family: IPv4\n    ipaddress.kubernetes.io/managed-by: ipallocator.k8s.io\nspec:\n  parentRef:\n${ref}`;
    await sh(s, write('/root/a.yaml', other('10.244.0.92', '    group: apps\n    resource: deployments\n    namespace: default\n    name: web')));
    await sh(s, write('/root/b.yaml', other('10.244.0.93', '    resource: pods\n    namespace: default\n    name: web')));
    assert.equal(await sh(s, 'kubectl create -f /root/a.yaml'), 'ipaddress.networking.k8s.io/10.244.0.92 created\n');
    assert.equal(await sh(s, 'kubectl create -f /root/b.yaml'), 'ipaddress.networking.k8s.io/10.244.0.93 created\n');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.92'), 'Error from server (NotFound): ipaddresses.networking.k8s.io "10.244.0.92" not found\n');
    assert.equal(await sh(s, 'kubectl get ipaddress 10.244.0.93'), 'Error from server (NotFound): ipaddresses.networking.k8s.io "10.244.0.93" not found\n');
    assert.equal(
      await sh(s, "kubectl get events.events.k8s.io --field-selector reason=IPAddressNotAllocated -o jsonpath='{range .items[*]}{.type}|{.action}|{.note}{\"\\n\"}{end}'"),
      'Warning|IPAddressAllocation|IPAddress 10.244.0.92 appears to have been modified, not referencing a Service &{apps deployments default web}: cleaning up\n' +
        'Warning|IPAddressAllocation|IPAddress 10.244.0.93 appears to have been modified, not referencing a Service &{ pods default web}: cleaning up\n',
    );
  });
});

describe('IPAddress validation (pkg/apis/networking/validation ValidateIPAddress, apimachinery IsValidIP)', () => {
  const doc = (name: string, spec: string): string => `apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata:\n  name: "${name}"\n${spec}`;
  const create = async (s: Session, name: string, spec: string): Promise<string> => {
    await sh(s, write('/root/ip.yaml', doc(name, spec)));
    return sh(s, 'kubectl create -f /root/ip.yaml');
  };
  const ref = 'spec:\n  parentRef: {resource: services, namespace: default, name: x}';

  it('the name must be an IP address in canonical form', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    assert.equal(await create(s, 'web', ref), 'The IPAddress "web" is invalid: metadata.name: Invalid value: "web": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)\n');
    assert.equal(await create(s, '10.244.0.090', ref), 'The IPAddress "10.244.0.090" is invalid: metadata.name: Invalid value: "10.244.0.090": must not have leading 0s\n');
    assert.equal(await create(s, '::ffff:10.244.0.9', ref), 'The IPAddress "::ffff:10.244.0.9" is invalid: metadata.name: Invalid value: "::ffff:10.244.0.9": must not be an IPv4-mapped IPv6 address\n');
    assert.equal(await create(s, '2001:DB8:0:0::5', ref), 'The IPAddress "2001:DB8:0:0::5" is invalid: metadata.name: Invalid value: "2001:DB8:0:0::5": must be in canonical form ("2001:db8::5")\n');
    assert.equal(await create(s, 'fe80::1%eth0', ref), 'The IPAddress "fe80::1%eth0" is invalid: metadata.name: Invalid value: "fe80::1%eth0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)\n');
    assert.equal(await create(s, '2001:db8::5', ref), 'ipaddress.networking.k8s.io/2001:db8::5 created\n');
  });

  it('parentRef is required, with resource and name; group, resource, name and namespace are checked', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    assert.equal(await create(s, '10.244.0.91', 'spec: {}'), 'The IPAddress "10.244.0.91" is invalid: spec.parentRef: Required value\n');
    assert.equal(
      await create(s, '10.244.0.91', "spec:\n  parentRef: {group: Gateway_API, resource: gate/ways, namespace: '..'}"),
      [
        'The IPAddress "10.244.0.91" is invalid: ',
        `* spec.parentRef.group: Invalid value: "Gateway_API": ${MSG_SUBDOMAIN}`,
        '* spec.parentRef.resource: Invalid value: "gate/ways": may not contain \'/\'',
        '* spec.parentRef.name: Required value',
        '* spec.parentRef.namespace: Invalid value: "..": may not be \'..\'',
        '',
      ].join('\n'),
    );
    assert.equal(await create(s, '10.244.0.91', 'spec:\n  parentRef: {name: "a%b"}'), 'The IPAddress "10.244.0.91" is invalid: \n* spec.parentRef.resource: Required value\n* spec.parentRef.name: Invalid value: "a%b": may not contain \'%\'\n');
    // the core group is empty, so it may be left out
    assert.equal(await create(s, '10.244.0.91', ref), 'ipaddress.networking.k8s.io/10.244.0.91 created\n');
  });

  it('parentRef is immutable; the rest of the object is not', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    assert.equal(await create(s, '10.244.0.92', ref), 'ipaddress.networking.k8s.io/10.244.0.92 created\n');
    assert.equal(
      await sh(s, 'kubectl patch ipaddress 10.244.0.92 --type=merge -p \'{"spec":{"parentRef":{"name":"y"}}}\''),
      'The IPAddress "10.244.0.92" is invalid: spec.parentRef: Invalid value: networking.ParentReference{Group:"", Resource:"services", Namespace:"default", Name:"y"}: field is immutable\n',
    );
    assert.equal(await sh(s, 'kubectl label ipaddress 10.244.0.92 team=net'), 'ipaddress.networking.k8s.io/10.244.0.92 labeled\n');
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
