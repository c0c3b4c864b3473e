import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { addSeed000Web } from '../../../sim/traffic/seed000.js';
import { Session } from '../../session.js';
import type { ConfigMap, Deployment, NetworkPolicy } from '../../../sim/api/types.js';
import { coreDnsLogs } from '../../../sim/controllers/coredns.js';

async function seed000(): Promise<Session> {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  return new Session(c);
}

const SEED_LINES = [
  '-A KUBE-SERVICES -d 10.111.80.136/32 -p tcp -m comment --comment "net/web cluster IP" -m tcp --dport 80 -j KUBE-SVC-RTHZXQ2YZKSHM2PI',
  '-A KUBE-SVC-RTHZXQ2YZKSHM2PI -m comment --comment "net/web -> 10.244.62.167:80" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-S3UT2MK4P7AJ67WG',
  '-A KUBE-SVC-RTHZXQ2YZKSHM2PI -m comment --comment "net/web -> 10.244.95.170:80" -j KUBE-SEP-JIQR6UIXHEWKPI63',
  '-A KUBE-NODEPORTS -p tcp -m comment --comment "net/web" -m tcp --dport 31777 -j KUBE-EXT-RTHZXQ2YZKSHM2PI',
];

test('seed 000: kube-proxy wrote the net/web rules on cka-w1', async () => {
  const s = await seed000();
  await s.exec('ssh cka-w1');
  const r = await s.exec('sudo iptables -t nat -S | grep net/web');
  const lines = r.stdout.split('\n');
  for (const l of SEED_LINES) assert.ok(lines.includes(l), `missing ${l}\n${r.stdout}`);
});

test('seed 000: pod → pod across nodes, NodePort on every node from the workstation', async () => {
  const s = await seed000();
  const r = await s.exec('kubectl -n net exec c -- wget -qO- -T3 http://10.244.62.167');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /<title>Welcome to nginx!<\/title>/);
  for (const ip of ['192.168.122.11', '192.168.122.21', '192.168.122.22']) {
    const n = await s.exec(`curl -s http://${ip}:31777 | grep title`);
    assert.equal(n.stdout, '<title>Welcome to nginx!</title>\n', ip);
  }
  // the workstation does not route the pod or Service networks
  const t = await s.exec('curl -s -m 3 http://10.111.80.136');
  assert.equal(t.exitCode, 28);
});

test('transcript: tool errors print the real messages', async () => {
  const s = await seed000();
  const cases: { line: string; stderr: string; code: number }[] = [
    { line: 'kubectl -n net exec c -- wget -qO- -T3 http://10.244.62.167:8080', stderr: "wget: can't connect to remote host (10.244.62.167): Connection refused\n", code: 1 },
    { line: 'kubectl -n net exec c -- wget -qO- http://10.244.62.167/nope', stderr: 'wget: server returned error: HTTP/1.1 404 Not Found\n', code: 1 },
    { line: 'kubectl -n net exec c -- wget -qO- -T3 http://nosuch', stderr: "wget: bad address 'nosuch'\n", code: 1 },
    { line: 'curl http://192.168.122.21:31000', stderr: "curl: (7) Failed to connect to 192.168.122.21 port 31000 after 0 ms: Couldn't connect to server\n", code: 7 },
  ];
  for (const k of cases) {
    const r = await s.exec(k.line);
    assert.equal(r.stderr.replace(/command terminated with exit code \d+\n/, ''), k.stderr, k.line);
    assert.notEqual(r.exitCode, 0, k.line);
  }
});

test('seed 000: busybox nslookup short name fails with NXDOMAIN, the FQDN works', async () => {
  const s = await seed000();
  const short = await s.exec('kubectl -n net exec c -- nslookup web');
  assert.match(short.stdout, /\*\* server can't find web\.svc\.cluster\.local: NXDOMAIN/);
  assert.equal(short.exitCode, 1);
  const fq = await s.exec('kubectl -n net exec c -- nslookup web.net.svc.cluster.local');
  assert.equal(fq.exitCode, 0);
  assert.ok(fq.stdout.startsWith('Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.net.svc.cluster.local\nAddress: 10.111.80.136\n'), fq.stdout);
});

test('seed 000: a Corefile hosts edit takes effect after the mount sync and reload, not before', async () => {
  const s = await seed000();
  const c = s.cluster;
  const cm = structuredClone(c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'coredns')!);
  cm.data!['Corefile'] = cm.data!['Corefile']!.replace('    ready\n', '    ready\n    hosts {\n       192.168.122.200 legacy.example.internal\n       fallthrough\n    }\n');
  c.write(cm);
  c.settle();
  const t0 = c.now();
  const q = 'kubectl -n net exec c -- nslookup legacy.example.internal';
  c.advance(20_000);
  assert.equal((await s.exec(q)).exitCode, 1, 'effective too early');
  let at = 0;
  for (let i = 0; i < 40 && !at; i++) {
    c.advance(5_000);
    // both replicas must have reloaded: ask several times (kube-proxy picks a random endpoint)
    const rs = [await s.exec(q), await s.exec(q), await s.exec(q), await s.exec(q)];
    if (rs.every((r) => r.exitCode === 0)) at = c.now() - t0;
  }
  assert.ok(at > 30_000 && at <= 120_000, `took ${at} ms`);
  const pod = c.store.list('Pod', 'kube-system').find((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns')!;
  assert.match(coreDnsLogs(c, pod as never, false) ?? '', /\[INFO\] Reloading\n\[INFO\] plugin\/reload: Running configuration SHA512 = [0-9a-f]{128}\n\[INFO\] Reloading complete\n/);
});

test('a Corefile typo crash-loops restarted CoreDNS pods with the exact log; DNS then times out', async () => {
  const s = await seed000();
  const c = s.cluster;
  const cm = structuredClone(c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'coredns')!);
  cm.data!['Corefile'] = cm.data!['Corefile']!.replace('    kubernetes cluster.local', '    kubernete cluster.local');
  c.write(cm);
  // rollout restart: new pods read the broken file at once
  const d = structuredClone(c.store.get<Deployment>('Deployment', 'kube-system', 'coredns')!);
  d.spec.template.metadata = { ...(d.spec.template.metadata ?? {}), annotations: { 'kubectl.kubernetes.io/restartedAt': '2025-01-01T00:00:00Z' } };
  d.metadata.generation = (d.metadata.generation ?? 1) + 1;
  c.write(d);
  c.settle();
  c.advance(60_000);
  const pods = c.store.list('Pod', 'kube-system').filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns' && !p.metadata.deletionTimestamp);
  assert.ok(pods.length > 0);
  const broken = pods.find((p) => (p as { status?: { containerStatuses?: { state: { waiting?: { reason: string } } }[] } }).status?.containerStatuses?.[0]?.state.waiting?.reason === 'CrashLoopBackOff');
  assert.ok(broken, 'a coredns pod in CrashLoopBackOff');
  assert.equal(coreDnsLogs(c, broken as never, true), "/etc/coredns/Corefile:7 - Error during parsing: Unknown directive 'kubernete'\n");
});

test('CoreDNS scaled to 0: bind9-style and busybox clients time out', async () => {
  const s = await seed000();
  const c = s.cluster;
  const d = structuredClone(c.store.get<Deployment>('Deployment', 'kube-system', 'coredns')!);
  d.spec.replicas = 0;
  d.metadata.generation = (d.metadata.generation ?? 1) + 1;
  c.write(d);
  c.settle();
  c.advance(60_000);
  const r = await s.exec('kubectl -n net exec c -- nslookup web.net.svc.cluster.local');
  assert.equal(r.exitCode, 1);
  assert.match(r.stdout + r.stderr, /;; connection timed out; no servers could be reached/);
});

test('ip_forward=0 on the destination node breaks cross-node traffic', async () => {
  const s = await seed000();
  s.cluster.host('cka-w2')!.fs.write('/proc/sys/net/ipv4/ip_forward', '0\n');
  const r = await s.exec('kubectl -n net exec c -- wget -qO- -T3 http://10.244.62.167');
  assert.equal(r.stderr.replace(/command terminated with exit code \d+\n/, ''), 'wget: download timed out\n');
  const same = await s.exec('kubectl -n net exec c -- wget -qO- -T3 http://10.244.95.170');
  assert.equal(same.exitCode, 0, 'same-node traffic still works');
});

function denyAll(): NetworkPolicy {
  return { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'deny', namespace: 'net' }, spec: { podSelector: { matchLabels: { app: 'web' } }, policyTypes: ['Ingress'] } };
}

test('NetworkPolicy deny blocks traffic on calico; allow by podSelector re-opens it', async () => {
  const s = await seed000();
  s.cluster.insert(denyAll());
  s.cluster.settle();
  const r = await s.exec('kubectl -n net exec c -- wget -qO- -T3 http://10.244.62.167');
  assert.equal(r.exitCode, 1);
  assert.match(r.stderr, /wget: download timed out/);
  const why = await s.exec('why');
  assert.match(why.stdout, /NetworkPolicy ingress of net\/web-1 \(net\/deny\): denied/);
  s.cluster.insert<NetworkPolicy>({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'allow-c', namespace: 'net' }, spec: { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { run: 'c' } } }], ports: [{ port: 80 }] }] } });
  s.cluster.settle();
  assert.equal((await s.exec('kubectl -n net exec c -- wget -qO- -T3 http://10.244.62.167')).exitCode, 0);
});

test('flannel does not enforce NetworkPolicy', async () => {
  const c = loadFixture('flannel-single', 0);
  const s = new Session(c);
  const target = c.store.list('Pod', 'default').find((p) => p.metadata.name.startsWith('ncss-i-nginx'))!;
  c.insert<NetworkPolicy>({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'deny', namespace: 'default' }, spec: { podSelector: {}, policyTypes: ['Ingress'] } });
  c.settle();
  const { connect } = await import('../../../sim/traffic/path.js');
  const r = connect(c, { kind: 'node', host: 'ncss-i' }, (target as { status?: { podIP?: string } }).status!.podIP!, 1, 'tcp');
  assert.notEqual(r.error, 'timeout', r.trace.join('\n'));
  void s;
});

test('seed 004: flannel-single kube-dns rules on ncss-i', async () => {
  const c = loadFixture('flannel-single', 0);
  const s = new Session(c);
  await s.exec('ssh ncss-i');
  const r = await s.exec('sudo iptables -t nat -S | grep 10.244.0.10');
  assert.ok(r.stdout.includes('-A KUBE-SERVICES -d 10.244.0.10/32 -p udp -m comment --comment "kube-system/kube-dns:dns cluster IP" -m udp --dport 53 -j KUBE-SVC-TCOU7JCQXEZGVUNU'), r.stdout);
});

test('seed 002: nslookup output redirected to a file on the workstation', async () => {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  const s = new Session(c);
  await s.exec('mkdir -p /root/CKA');
  const r = await s.exec('kubectl -n net exec -it c -- nslookup web.net.svc.cluster.local > /root/CKA/nslookup.out');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(c.host(c.meta.workstation)!.fs.tryRead('/root/CKA/nslookup.out') ?? '', /Address: 10\.111\.80\.136/);
});

test("kube-proxy: others' edits last until a sync rewrites their chain (partial syncs, full ones hourly or after the canary goes); a bad mode crash-loops it", async () => {
  const s = await seed000();
  const c = s.cluster;
  const nat = async (chain: string): Promise<string> => (await s.exec(`ssh cka-w1 sudo iptables -t nat -S ${chain}`)).stdout;
  const svcChain = /-j (KUBE-SVC-\S+)/.exec((await nat('KUBE-SERVICES')).split('\n').find((l) => l.includes('net/web'))!)![1]!;
  await s.exec('ssh cka-w1 sudo iptables -t nat -I KUBE-SERVICES -j DROP');
  await s.exec(`ssh cka-w1 sudo iptables -t nat -I ${svcChain} -j DROP`);
  c.advance(31_000);
  // nothing changed in the API: no sync, both edits stay
  assert.match(await nat('KUBE-SERVICES'), /-A KUBE-SERVICES -j DROP/);
  assert.match(await nat(svcChain), new RegExp(`-A ${svcChain} -j DROP`));
  // another Service: a partial sync rewrites KUBE-SERVICES, not web's unchanged chain
  await s.exec('kubectl create service clusterip other --tcp=80');
  assert.doesNotMatch(await nat('KUBE-SERVICES'), /-A KUBE-SERVICES -j DROP/);
  assert.match(await nat(svcChain), new RegExp(`-A ${svcChain} -j DROP`));
  // the hourly full sync rewrites every chain (an edit made just before a partial sync counts too)
  await s.exec('kubectl delete service other');
  c.advance(3_600_000);
  assert.doesNotMatch(await nat(svcChain), / -j DROP/);
  // the Monitor sees its canary gone within a syncPeriod and forces a full sync
  await s.exec(`ssh cka-w1 sudo iptables -t nat -I ${svcChain} -j DROP`);
  await s.exec('ssh cka-w1 sudo iptables -t mangle -X KUBE-PROXY-CANARY');
  c.advance(10_000);
  assert.match(await nat(svcChain), / -j DROP/);
  c.advance(21_000);
  assert.doesNotMatch(await nat(svcChain), / -j DROP/);
  assert.match((await s.exec('ssh cka-w1 sudo iptables -t mangle -S KUBE-PROXY-CANARY')).stdout, /^-N KUBE-PROXY-CANARY$/m);
  const cm = structuredClone(c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'kube-proxy')!);
  cm.data!['config.conf'] = cm.data!['config.conf']!.replace('mode: ""', 'mode: "iptabels"');
  c.write(cm);
  c.settle();
  c.advance(60_000);
  const kp = c.store.list('Pod', 'kube-system').filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy');
  for (const p of kp) assert.equal((p as { status?: { containerStatuses?: { state: { waiting?: { reason: string } } }[] } }).status?.containerStatuses?.[0]?.state.waiting?.reason, 'CrashLoopBackOff');
  const { kubeProxyLogs } = await import('../../../sim/controllers/kube-proxy.js');
  assert.match(kubeProxyLogs(c, kp[0] as never, 'kube-proxy', false) ?? '', /^E\d{4} \d\d:\d\d:\d\d\.\d{6} {7}1 run\.go:72\] "command failed" err="failed validate: KubeProxyConfiguration\.ProxyMode: Invalid value: \\"iptabels\\": must be iptables, ipvs, nftables or blank \(blank means the best-available proxy \[currently iptables\]\)"\n$/);
});

test('kubectl logs of a CoreDNS pod shows its startup lines', async () => {
  const s = await seed000();
  const pod = s.cluster.store.list('Pod', 'kube-system').find((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns')!;
  const r = await s.exec(`kubectl -n kube-system logs ${pod.metadata.name}`);
  assert.match(r.stdout, /^\.:53\n\[INFO\] plugin\/reload: Running configuration SHA512 = [0-9a-f]{128}\nCoreDNS-1\.13\.1\nlinux\/amd64, go1\.25\.2, 1db4568\n/);
});
