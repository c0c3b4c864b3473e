/**
 * ingress-nginx in the data path: transcripts through a learner's shell on the kubeadm-calico
 * fixture (which installs the bare-metal manifest), from the workstation to a node's NodePort 30080.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../../shell/session.js';
import { loadFixture } from '../../testing/fixtures.js';
import { hostMatches, nginxErrorPage } from './ingress.js';

const NOT_FOUND = '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
const UNAVAILABLE = '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

async function setup(ingress: string): Promise<{ s: Session; advance: (ms: number) => void }> {
  const c = loadFixture('kubeadm-calico-ingress');
  const s = new Session(c);
  for (const line of [
    'kubectl create ns shop',
    'kubectl -n shop create deployment pay --image=nginx:1.27 --port=80',
    'kubectl -n shop expose deployment pay --name=pay-service --port=8282 --target-port=80',
  ]) assert.equal((await s.exec(line)).exitCode, 0, line);
  const r = await s.exec(`kubectl apply -f - <<'EOF'\n${ingress}EOF`);
  assert.equal(r.exitCode, 0, r.stderr);
  c.advance(30_000);
  return { s, advance: (ms) => c.advance(ms) };
}

const PAY = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: pay
  namespace: shop
  annotations:
    nginx.ingress.kubernetes.io/rewrite-target: /
spec:
  ingressClassName: nginx
  rules:
  - http:
      paths:
      - path: /pay
        pathType: Prefix
        backend:
          service:
            name: pay-service
            port:
              number: 8282
`;

async function body(s: Session, line: string): Promise<string> {
  const r = await s.exec(line);
  assert.equal(r.exitCode, 0, `${line}: ${r.stderr}`);
  return r.stdout;
}

test('the fixture installs ingress-nginx as the bare-metal manifest does', async () => {
  const s = new Session(loadFixture('kubeadm-calico-ingress'));
  const svc = await body(s, 'kubectl -n ingress-nginx get svc ingress-nginx-controller -o jsonpath={.spec.type}:{.spec.ports[*].nodePort}');
  assert.equal(svc, 'NodePort:30080 30443');
  assert.equal(await body(s, 'kubectl get ingressclass nginx -o jsonpath={.spec.controller}'), 'k8s.io/ingress-nginx');
  assert.equal(await body(s, 'kubectl -n ingress-nginx get deploy ingress-nginx-controller -o jsonpath={.status.readyReplicas}'), '1');
});

test('a Prefix rule with rewrite-target reaches the backend; other paths get the default backend 404', async () => {
  const { s } = await setup(PAY);
  const table = [
    { name: '/pay → backend /', url: 'http://192.168.122.21:30080/pay', want: /Welcome to nginx!/ },
    { name: '/pay/x → backend / (element prefix)', url: 'http://192.168.122.22:30080/pay/x', want: /Welcome to nginx!/ },
    { name: 'control plane NodePort', url: 'http://192.168.122.11:30080/pay', want: /Welcome to nginx!/ },
    { name: '/other → 404', url: 'http://192.168.122.21:30080/other', want: NOT_FOUND },
  ];
  for (const t of table) {
    const out = await body(s, `curl -s ${t.url}`);
    if (typeof t.want === 'string') assert.equal(out, t.want, t.name);
    else assert.match(out, t.want, t.name);
  }
});

test('without rewrite-target the backend sees /pay and answers its own 404', async () => {
  const { s } = await setup(PAY.replace('  annotations:\n    nginx.ingress.kubernetes.io/rewrite-target: /\n', ''));
  const out = await body(s, 'curl -s http://192.168.122.21:30080/pay');
  assert.match(out, /<center>nginx\/1\.\d+\.\d+<\/center>/);
  // Prefix is by path element: /payment is not under /pay
  assert.equal(await body(s, 'curl -s http://192.168.122.21:30080/payment'), NOT_FOUND);
});

test('host rules: exact, wildcard, and no Host match', async () => {
  const ing = PAY.replace('  - http:', '  - host: pay.example.com\n    http:').replace('  ingressClassName: nginx\n  rules:\n', '  ingressClassName: nginx\n  rules:\n  - host: "*.shop.example"\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: pay-service\n            port:\n              number: 8282\n');
  const { s } = await setup(ing);
  const table = [
    { host: 'pay.example.com', path: '/pay', ok: true },
    { host: 'PAY.example.com:30080', path: '/pay', ok: true },
    { host: 'x', path: '/pay', ok: false },
    { host: 'a.shop.example', path: '/anything', ok: true },
    { host: 'a.b.shop.example', path: '/', ok: false },
  ];
  for (const t of table) {
    const out = await body(s, `curl -s -H 'Host: ${t.host}' http://192.168.122.21:30080${t.path}`);
    if (t.ok) assert.match(out, /Welcome to nginx!/, t.host);
    else assert.equal(out, NOT_FOUND, t.host);
  }
  // the URL's host is the Host header when none is given: an IP matches no host rule
  assert.equal(await body(s, 'curl -s http://192.168.122.21:30080/pay'), NOT_FOUND);
});

test('Exact matches only the path itself; the longest path wins', async () => {
  const ing = PAY.replace('  annotations:\n    nginx.ingress.kubernetes.io/rewrite-target: /\n', '')
    .replace('pay-service', 'missing')
    .replace('      - path: /pay\n', '      - path: /\n        pathType: Exact\n        backend:\n          service:\n            name: pay-service\n            port:\n              number: 8282\n      - path: /pay\n');
  const { s } = await setup(ing);
  const table = [
    { path: '/', want: /Welcome to nginx!/ },
    { path: '/x', want: NOT_FOUND },
    // /pay's Service does not exist: 503
    { path: '/pay/x', want: UNAVAILABLE },
  ];
  for (const t of table) {
    const out = await body(s, `curl -s http://192.168.122.21:30080${t.path}`);
    if (typeof t.want === 'string') assert.equal(out, t.want, t.path);
    else assert.match(out, t.want, t.path);
  }
});

test('rewrite-target turns the locations into regexes: Exact no longer exact (template.go buildLocation)', async () => {
  const { s } = await setup(PAY.replace('pathType: Prefix', 'pathType: Exact'));
  assert.match(await body(s, 'curl -s http://192.168.122.21:30080/payment'), /Welcome to nginx!/);
});

test('a backend scaled to zero answers 503; Ingresses of another class are ignored', async () => {
  const { s, advance } = await setup(PAY);
  assert.equal((await s.exec('kubectl -n shop scale deployment pay --replicas=0')).exitCode, 0);
  advance(40_000);
  assert.equal(await body(s, 'curl -s http://192.168.122.21:30080/pay'), UNAVAILABLE);
  assert.equal(await body(s, "curl -s -o /dev/null -w '%{http_code}' http://192.168.122.21:30080/pay"), '503');
  const other = await setup(PAY.replace('ingressClassName: nginx', 'ingressClassName: traefik'));
  assert.equal(await body(other.s, 'curl -s http://192.168.122.21:30080/pay'), NOT_FOUND);
});

test('no class: served only when the nginx IngressClass is the default', async () => {
  const { s } = await setup(PAY.replace('  ingressClassName: nginx\n', ''));
  assert.equal(await body(s, 'curl -s http://192.168.122.21:30080/pay'), NOT_FOUND);
  assert.equal((await s.exec('kubectl annotate ingressclass nginx ingressclass.kubernetes.io/is-default-class=true')).exitCode, 0);
  assert.match(await body(s, 'curl -s http://192.168.122.21:30080/pay'), /Welcome to nginx!/);
});

test('NetworkPolicy on the backend applies to the controller pod: 504', async () => {
  const { s } = await setup(PAY);
  const r = await s.exec(`kubectl apply -f - <<'EOF'
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny, namespace: shop}
spec:
  podSelector: {}
  policyTypes: [Ingress]
EOF`);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(await body(s, 'curl -s http://192.168.122.21:30080/pay'), /504 Gateway Time-out/);
});

test('hostMatches and the error page', () => {
  const table = [
    { server: 'a.com', host: 'A.com', want: true },
    { server: '*.a.com', host: 'x.a.com', want: true },
    { server: '*.a.com', host: 'a.com', want: false },
    { server: '*.a.com', host: 'y.x.a.com', want: false },
  ];
  for (const t of table) assert.equal(hostMatches(t.server, t.host), t.want, `${t.server} ~ ${t.host}`);
  assert.equal(nginxErrorPage(404, 'Not Found'), NOT_FOUND);
});
