/**
 * NGINX Gateway Fabric in the data path: transcripts through a learner's shell on the
 * kubeadm-calico-gateway fixture (GatewayClass nginx, data plane Service nginx-gateway/nginx-gateway
 * NodePort 31080): statuses in get/describe, curl through the Gateway's address and the NodePort.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Session } from '../../shell/session.js';
import { loadFixture } from '../../testing/fixtures.js';
import { Cluster } from '../cluster.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from '../controllers/index.js';

async function body(s: Session, line: string): Promise<string> {
  const r = await s.exec(line);
  assert.equal(r.exitCode, 0, `${line}: ${r.stderr}`);
  return r.stdout;
}

const GW = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: web, namespace: shop}
spec:
  gatewayClassName: nginx
  listeners:
  - {name: http, protocol: HTTP, port: 80, hostname: "*.shop.example"}
`;

const ROUTE = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: pay, namespace: shop}
spec:
  parentRefs: [{name: web, sectionName: http}]
  hostnames: [pay.shop.example]
  rules:
  - matches: [{path: {type: PathPrefix, value: /pay}}]
    backendRefs: [{name: pay-service, port: 8282}]
`;

async function setup(...objs: string[]): Promise<{ s: Session; advance: (ms: number) => void }> {
  const c = loadFixture('kubeadm-calico-gateway');
  const s = new Session(c);
  for (const line of [
    'kubectl create ns shop',
    'kubectl -n shop create deployment pay --image=nginx:1.27 --port=80',
    'kubectl -n shop expose deployment pay --name=pay-service --port=8282 --target-port=80',
  ]) assert.equal((await s.exec(line)).exitCode, 0, line);
  for (const o of objs) {
    const r = await s.exec(`kubectl apply -f - <<'EOF'\n${o}EOF`);
    assert.equal(r.exitCode, 0, r.stderr);
  }
  c.advance(30_000);
  return { s, advance: (ms) => c.advance(ms) };
}

const NOT_FOUND = '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

test('get and describe show the statuses NGINX Gateway Fabric writes', async () => {
  const { s } = await setup(GW, ROUTE);
  assert.equal(await body(s, 'kubectl get gatewayclass'), 'NAME    CONTROLLER                                   ACCEPTED   AGE\nnginx   gateway.nginx.org/nginx-gateway-controller   True       5d4h\n');
  const ip = await body(s, 'kubectl -n nginx-gateway get svc nginx-gateway -o jsonpath={.spec.clusterIP}');
  assert.equal(await body(s, 'kubectl -n shop get gtw'), `NAME   CLASS   ${'ADDRESS'.padEnd(ip.length)}   PROGRAMMED   AGE\nweb    nginx   ${ip}   True         30s\n`);
  assert.equal(await body(s, 'kubectl -n shop get httproute'), 'NAME   HOSTNAMES              AGE\npay    ["pay.shop.example"]   30s\n');
  assert.equal(await body(s, 'kubectl -n shop get gateway web -o jsonpath={.status.listeners[0].attachedRoutes}'), '1');
  const d = await body(s, 'kubectl -n shop describe httproute pay');
  assert.match(d, /Controller Name: +gateway\.nginx\.org\/nginx-gateway-controller/);
  assert.match(d, /Reason: +Accepted\n +Status: +True\n +Type: +Accepted/);
  assert.match(d, /Reason: +ResolvedRefs\n +Status: +True\n +Type: +ResolvedRefs/);
});

test('curl through the Gateway address and the NodePort reaches the backend; a miss is the data plane 404', async () => {
  const { s } = await setup(GW, ROUTE);
  const ip = await body(s, 'kubectl -n shop get gateway web -o jsonpath={.status.addresses[0].value}');
  // the address is the data plane Service's ClusterIP: reachable from nodes and pods, not the workstation
  assert.equal((await s.exec(`curl -s -m 2 -H 'Host: pay.shop.example' http://${ip}/pay`)).exitCode, 28);
  assert.equal((await s.exec('ssh cka-w1')).exitCode, 0);
  // the upstream gets /pay (no rewrite): the nginx backend's own 404, signed with its version (the data plane answers `nginx`)
  assert.match(await body(s, `curl -s -H 'Host: pay.shop.example' http://${ip}/pay`), /nginx\/\d/);
  assert.equal((await s.exec('exit')).exitCode, 0);
  assert.equal(await body(s, `curl -s -o /dev/null -w '%{http_code}' -H 'Host: pay.shop.example' http://192.168.122.21:31080/other`), '404');
  assert.equal(await body(s, `curl -s -H 'Host: other.shop.example' http://192.168.122.21:31080/pay`), NOT_FOUND);
  const rw = ROUTE.replace('backendRefs:', "filters: [{type: URLRewrite, urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /}}}]\n    backendRefs:");
  assert.equal((await s.exec(`kubectl apply -f - <<'EOF'\n${rw}EOF`)).exitCode, 0);
  assert.match(await body(s, `curl -s -H 'Host: pay.shop.example' http://192.168.122.21:31080/pay`), /Welcome to nginx/);
});

test('broken links: wrong sectionName, a namespace the listener does not allow, a missing Service, a cross-namespace ref', async () => {
  const { s } = await setup(GW);
  const apply = async (y: string): Promise<void> => assert.equal((await s.exec(`kubectl apply -f - <<'EOF'\n${y}EOF`)).exitCode, 0);
  const reason = async (ns: string, name: string, type: string): Promise<string> =>
    body(s, `kubectl -n ${ns} get httproute ${name} -o jsonpath='{.status.parents[0].conditions[?(@.type=="${type}")].reason}'`);
  await apply(ROUTE.replace('sectionName: http', 'sectionName: https'));
  await s.exec('sleep 2');
  assert.equal(await reason('shop', 'pay', 'Accepted'), 'NoMatchingParent');
  assert.equal(await body(s, 'kubectl -n shop get gateway web -o jsonpath={.status.listeners[0].attachedRoutes}'), '0');
  await apply(ROUTE.replace('hostnames: [pay.shop.example]', 'hostnames: [pay.other.example]'));
  await s.exec('sleep 2');
  assert.equal(await reason('shop', 'pay', 'Accepted'), 'NoMatchingListenerHostname');
  await apply(ROUTE.replace('pay-service', 'pay-svc'));
  await s.exec('sleep 2');
  assert.equal(await reason('shop', 'pay', 'Accepted'), 'Accepted');
  assert.equal(await reason('shop', 'pay', 'ResolvedRefs'), 'BackendNotFound');
  assert.equal(await body(s, `curl -s -o /dev/null -w '%{http_code}' -H 'Host: pay.shop.example' http://192.168.122.21:31080/pay`), '500');
  await s.exec('kubectl create ns team');
  await apply(ROUTE.replace('namespace: shop', 'namespace: team').replace('parentRefs: [{name: web, sectionName: http}]', 'parentRefs: [{name: web, namespace: shop}]'));
  await s.exec('sleep 2');
  assert.equal(await reason('team', 'pay', 'Accepted'), 'NotAllowedByListeners');
  await apply(GW.replace('hostname: "*.shop.example"', 'hostname: "*.shop.example", allowedRoutes: {namespaces: {from: All}}'));
  await apply(ROUTE.replace('namespace: shop', 'namespace: team').replace('parentRefs: [{name: web, sectionName: http}]', 'parentRefs: [{name: web, namespace: shop}]').replace('{name: pay-service,', '{name: pay-service, namespace: shop,'));
  await s.exec('sleep 2');
  assert.equal(await reason('team', 'pay', 'Accepted'), 'Accepted');
  assert.equal(await reason('team', 'pay', 'ResolvedRefs'), 'RefNotPermitted');
  await apply('apiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata: {name: from-team, namespace: shop}\nspec:\n  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: team}]\n  to: [{group: "", kind: Service}]\n');
  await s.exec('sleep 2');
  assert.equal(await reason('team', 'pay', 'ResolvedRefs'), 'ResolvedRefs');
});

test('weights: backendRefs 80:20 split the requests of one rule by split_clients, the same on every run and after a reload', async () => {
  const run = async (): Promise<{ seen: string; again: string }> => {
    const { s } = await setup(GW);
    for (const line of ['kubectl -n shop create deployment pay2 --image=httpd:2.4 --port=80', 'kubectl -n shop expose deployment pay2 --port=8282 --target-port=80']) assert.equal((await s.exec(line)).exitCode, 0, line);
    const split = ROUTE.replace('backendRefs: [{name: pay-service, port: 8282}]', 'backendRefs: [{name: pay-service, port: 8282, weight: 80}, {name: pay2, port: 8282, weight: 20}]').replace('/pay}}', '/}}');
    assert.equal((await s.exec(`kubectl apply -f - <<'EOF'\n${split}EOF`)).exitCode, 0);
    await s.exec('sleep 30');
    const curl = async (): Promise<string> => ((await body(s, `curl -s -H 'Host: pay.shop.example' http://192.168.122.21:31080/`)).includes('Welcome to nginx') ? 'n' : 'h');
    let seen = '';
    for (let i = 0; i < 200; i++) seen += await curl();
    // the random source is part of the saved state: a restored copy answers the next requests alike
    const snap = JSON.parse(JSON.stringify(s.cluster.snapshot())) as ReturnType<Cluster['snapshot']>;
    const copy = new Session(Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS));
    let again = '';
    for (let i = 0; i < 20; i++) again += ((await body(copy, `curl -s -H 'Host: pay.shop.example' http://192.168.122.21:31080/`)).includes('Welcome to nginx') ? 'n' : 'h');
    let next = '';
    for (let i = 0; i < 20; i++) next += await curl();
    assert.equal(again, next);
    return { seen, again };
  };
  const a = await run();
  const share = [...a.seen].filter((x) => x === 'n').length;
  assert.ok(share > 140 && share < 180, `nginx answered ${share} of 200`);
  assert.deepEqual(await run(), a);
});

const CERT = readFileSync(new URL('../../shell/kubectl/verbs/testdata/transcripts/gateway-https.txt', import.meta.url), 'utf8');
const pemOf = (path: string): string => CERT.split(`#! file ${path}\n`)[1]!.split('#! end\n')[0]!;

test('HTTPS listeners: certificateRefs resolve as NGF 1.6 resolves them (listener conditions)', async () => {
  const listener = (tls: string): string => GW.replace('  - {name: http, protocol: HTTP, port: 80, hostname: "*.shop.example"}\n', `  - {name: https, protocol: HTTPS, port: 443, hostname: "*.shop.example"${tls}}\n`);
  const b64 = (t: string): string => Buffer.from(t).toString('base64');
  const secret = (name: string, ns: string, type: string, crt: string, key: string): string =>
    `apiVersion: v1\nkind: Secret\nmetadata: {name: ${name}, namespace: ${ns}}\ntype: ${type}\ndata: {tls.crt: ${b64(crt)}, tls.key: ${b64(key)}}\n`;
  const crt = pemOf('/root/tls.crt');
  const key = pemOf('/root/tls.key');
  const otherKey = (await import('node:crypto')).generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cases: { name: string; tls: string; objs: string[]; want: string }[] = [
    { name: 'a valid kubernetes.io/tls Secret', tls: ', tls: {certificateRefs: [{name: c}]}', objs: [secret('c', 'shop', 'kubernetes.io/tls', crt, key)], want: 'Accepted/True/Accepted Programmed/True/Programmed ResolvedRefs/True/ResolvedRefs Conflicted/False/NoConflicts' },
    { name: 'missing Secret', tls: ', tls: {certificateRefs: [{name: c}]}', objs: [], want: 'Accepted/False/InvalidCertificateRef ResolvedRefs/False/InvalidCertificateRef Programmed/False/Invalid: tls.certificateRefs[0]: Invalid value: shop/c: secret does not exist' },
    { name: 'Opaque Secret', tls: ', tls: {certificateRefs: [{name: c}]}', objs: [secret('c', 'shop', 'Opaque', crt, key)], want: 'Accepted/False/InvalidCertificateRef ResolvedRefs/False/InvalidCertificateRef Programmed/False/Invalid: tls.certificateRefs[0]: Invalid value: shop/c: secret type must be "kubernetes.io/tls" not "Opaque"' },
    { name: 'key of another certificate', tls: ', tls: {certificateRefs: [{name: c}]}', objs: [secret('c', 'shop', 'kubernetes.io/tls', crt, otherKey)], want: 'Accepted/False/InvalidCertificateRef ResolvedRefs/False/InvalidCertificateRef Programmed/False/Invalid: tls.certificateRefs[0]: Invalid value: shop/c: TLS secret is invalid: tls: private key does not match public key' },
    { name: 'no tls at all', tls: '', objs: [], want: 'Accepted/False/UnsupportedValue Programmed/False/Invalid: TLS: Required value: tls must be defined for HTTPS listener' },
    { name: 'no certificateRefs', tls: ', tls: {mode: Terminate}', objs: [], want: 'Accepted/False/InvalidCertificateRef ResolvedRefs/False/InvalidCertificateRef Programmed/False/Invalid: tls.certificateRefs: Required value: certificateRefs must be defined for TLS mode terminate' },
    { name: 'Passthrough', tls: ', tls: {mode: Passthrough, certificateRefs: [{name: c}]}', objs: [secret('c', 'shop', 'kubernetes.io/tls', crt, key)], want: 'Accepted/False/UnsupportedValue Programmed/False/Invalid: tls.mode: Unsupported value: "Passthrough": supported values: "Terminate"' },
    { name: 'another namespace without a ReferenceGrant', tls: ', tls: {certificateRefs: [{name: c, namespace: certs}]}', objs: ['apiVersion: v1\nkind: Namespace\nmetadata: {name: certs}\n', secret('c', 'certs', 'kubernetes.io/tls', crt, key)], want: 'Accepted/False/RefNotPermitted ResolvedRefs/False/RefNotPermitted Programmed/False/Invalid: Certificate ref to secret certs/c not permitted by any ReferenceGrant' },
    {
      name: 'another namespace with a ReferenceGrant from Gateways',
      tls: ', tls: {certificateRefs: [{name: c, namespace: certs}]}',
      objs: ['apiVersion: v1\nkind: Namespace\nmetadata: {name: certs}\n', secret('c', 'certs', 'kubernetes.io/tls', crt, key), 'apiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata: {name: gw, namespace: certs}\nspec:\n  from: [{group: gateway.networking.k8s.io, kind: Gateway, namespace: shop}]\n  to: [{group: "", kind: Secret}]\n'],
      want: 'Accepted/True/Accepted Programmed/True/Programmed ResolvedRefs/True/ResolvedRefs Conflicted/False/NoConflicts',
    },
  ];
  for (const c of cases) {
    const { s } = await setup(...c.objs, listener(c.tls));
    const conds = JSON.parse(await body(s, 'kubectl -n shop get gateway web -o jsonpath={.status.listeners[0].conditions}')) as { type: string; status: string; reason: string; message: string }[];
    const got = conds.map((x) => `${x.type}/${x.status}/${x.reason}`).join(' ') + (conds[0]!.status === 'False' ? `: ${conds[0]!.message}` : '');
    assert.equal(got, c.want, c.name);
    const gw = await body(s, `kubectl -n shop get gateway web -o jsonpath='{.status.conditions[*].reason}'`);
    assert.equal(gw, c.want.startsWith('Accepted/True') ? 'Accepted Programmed' : 'ListenersNotValid Invalid', c.name);
  }
});

test('GRPCRoute: served from its CRD; NGF writes its parents as for HTTPRoute', async () => {
  const { s } = await setup(GW);
  const grpc = `apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: rpc, namespace: shop}
spec:
  parentRefs: [{name: web}]
  hostnames: [rpc.shop.example]
  rules:
  - matches: [{method: {service: shop.Pay, method: Charge}}]
    backendRefs: [{name: pay-service, port: 8282}]
`;
  assert.equal((await s.exec(`kubectl apply -f - <<'EOF'\n${grpc}EOF`)).exitCode, 0);
  await s.exec('sleep 2');
  assert.equal(await body(s, 'kubectl -n shop get grpcroute'), 'NAME   HOSTNAMES              AGE\nrpc    ["rpc.shop.example"]   2s\n');
  const reasons = async (): Promise<string> => body(s, `kubectl -n shop get grpcroute rpc -o jsonpath='{.status.parents[0].conditions[*].reason}'`);
  assert.equal(await reasons(), 'Accepted ResolvedRefs');
  assert.equal(await body(s, 'kubectl -n shop get gateway web -o jsonpath={.status.listeners[0].attachedRoutes}'), '1');
  assert.equal((await s.exec(`kubectl apply -f - <<'EOF'\n${grpc.replace('pay-service', 'nope')}EOF`)).exitCode, 0);
  await s.exec('sleep 2');
  assert.equal(await reasons(), 'Accepted BackendNotFound');
  assert.equal((await s.exec(`kubectl apply -f - <<'EOF'\n${grpc.replace('rpc.shop.example', 'rpc.other.example')}EOF`)).exitCode, 0);
  await s.exec('sleep 2');
  // a failed attachment comes last, so DeduplicateConditions puts ResolvedRefs first
  assert.equal(await reasons(), 'ResolvedRefs NoMatchingListenerHostname');
  assert.match(await body(s, 'kubectl explain grpcroute.spec.rules'), /^GROUP: +gateway\.networking\.k8s\.io\nKIND: +GRPCRoute\nVERSION: +v1\n\nFIELD: rules <\[\]Object>\n/);
});
