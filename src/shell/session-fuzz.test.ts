/**
 * Bad input never crashes the shell and never half-applies: thousands of random and mutated
 * lines (kubectl verbs, flags, manifests, node tools) run through a Session; none may throw, and
 * a line that fails without printing anything on stdout must leave the cluster unchanged.
 */
import { test } from 'node:test';
import { loadFixture } from '../testing/fixtures.js';
import { Session } from './session.js';
import { Random } from '../util/random.js';
import { FuzzLog, fuzzCount, fuzzSeed, looksLikeJsError } from '../testing/fuzz.js';

const CORPUS = [
  'kubectl get pods -A',
  'kubectl -n kube-system get svc kube-dns -o yaml',
  'kubectl get nodes -o custom-columns=NAME:.metadata.name,PODCIDR:.spec.podCIDR',
  "kubectl get cm -n kube-system kube-proxy -o jsonpath='{.data.config\\.conf}'",
  'kubectl create deployment web --image=nginx --replicas=2',
  'kubectl expose deployment web --port=80 --type=NodePort',
  'kubectl create service clusterip x --tcp=80:8080',
  'kubectl scale deployment web --replicas=3',
  'kubectl label pod web app=x --overwrite',
  'kubectl delete svc x',
  'kubectl run b --image=busybox:1.36 --restart=Never -- sleep 3600',
  'kubectl describe node cka-w1',
  'kubectl rollout restart deployment web',
  'kubectl set image deployment/web nginx=nginx:1.29',
  'kubectl patch svc web -p \'{"spec":{"type":"ClusterIP"}}\'',
  'kubectl get endpointslice -l kubernetes.io/service-name=web',
  'kubectl explain pod.spec.dnsPolicy',
  'kubectl apply -f /tmp/m.yaml',
  'kubectl logs -n kube-system deploy/coredns',
  'echo hi | grep h | wc -l',
  'cat /etc/hosts | head -2',
];
const TOKENS = ['-n', '--namespace=', '-o', 'yaml', 'json', 'jsonpath={.x', '--image=', '-l', 'a=b,c', "'", '"', '|', '>', '--', '-A', '--dry-run=foo', 'svc/', 'pod/x/y', '{', '}', '$(', '\\', '--replicas=-1', ':', '=', '30000-', '%', '--tcp=abc', 'deploy', 'no', 'ep', '<<EOF'];

function mutate(r: Random, line: string): string {
  const words = line.split(' ');
  const n = 1 + r.int(3);
  for (let i = 0; i < n; i++) {
    const op = r.int(4);
    const at = r.int(words.length + 1);
    if (op === 0) words.splice(at, 0, TOKENS[r.int(TOKENS.length)]!);
    else if (op === 1 && words.length > 1) words.splice(r.int(words.length), 1);
    else if (op === 2) words[r.int(words.length)] = TOKENS[r.int(TOKENS.length)]!;
    else {
      const w = words[r.int(words.length)] ?? '';
      words[r.int(words.length)] = w.slice(0, r.int(w.length + 1)) + w.slice(r.int(w.length + 1));
    }
  }
  return words.join(' ');
}

test('random and mutated lines: no crash, failed lines change nothing', async () => {
  const seed = fuzzSeed(2026);
  const log = new FuzzLog('session-fuzz', seed);
  const cluster = loadFixture('kubeadm-calico');
  const s = new Session(cluster);
  cluster.host('cka-ws')!.fs.write('/tmp/m.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\ndata:\n  a: "1"\n');
  const r = new Random(seed);
  const n = fuzzCount(800);
  for (let i = 0; i < n; i++) {
    const base = CORPUS[r.int(CORPUS.length)]!;
    const line = r.int(5) === 0 ? base : mutate(r, base);
    const before = cluster.store.generation;
    log.run();
    let out;
    try {
      out = await log.timed(line, () => s.exec(line));
    } catch (e) {
      log.record('crashes', `threw on ${JSON.stringify(line)}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      continue;
    }
    if (looksLikeJsError(out.stderr) || looksLikeJsError(out.stdout)) log.record('crashes', `${JSON.stringify(line)} printed a JavaScript error: ${out.stderr}${out.stdout}`);
    if (out.exitCode !== 0 && out.stdout === '' && !line.includes('|') && !line.includes('>') && cluster.store.generation !== before)
      log.record('halfApplied', `failed line changed the cluster: ${JSON.stringify(line)}\n${out.stderr}`);
    if (!s.atTop) await s.exec('exit');
  }
  log.finish();
});
