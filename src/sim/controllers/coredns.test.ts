/**
 * CoreDNS servers in session copies (coredns.ts lookAt / RECORDED): a copy whose rebuild would
 * read what a recorded one read answers the kubelet without building its servers, builds one
 * only when something needs it (a query, a reload), and every byte is what building at once gives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { addSeed000Web } from '../traffic/seed000.js';
import { Cluster } from '../cluster.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from './index.js';
import { coreDnsRebuilds } from './coredns.js';
import { Session } from '../../shell/session.js';
import type { Pod } from '../api/types.js';

function original(): Cluster {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  c.advance(30_000);
  return c;
}

function copyOf(c: Cluster): Cluster {
  const copy = Cluster.restore(c.snapshot(), new ManualClock(c.now()), CONTROLLERS);
  copy.adoptControllerMemory(c.controllerMemory());
  return copy;
}

const dnsPods = (c: Cluster): Pod[] => c.store.list<Pod>('Pod', 'kube-system').filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns');

/** Labels the CoreDNS pods: their kubelets sync them, and ask each server how it is. */
function touch(c: Cluster): void {
  for (const p of dnsPods(c)) {
    const pod = structuredClone(p);
    pod.metadata.labels = { ...pod.metadata.labels, touched: 'yes' };
    c.write(pod);
  }
  c.settle();
}

const dnsReady = (c: Cluster): boolean[] => dnsPods(c).map((p) => p.status?.conditions?.find((x) => x.type === 'Ready')?.status === 'True');

/** A run that looks at CoreDNS, waits, queries it, changes its Corefile and reads its logs. */
async function transcript(c: Cluster): Promise<string> {
  const s = new Session(c);
  const out: string[] = [];
  const run = async (line: string): Promise<void> => {
    const r = await s.exec(line);
    out.push(`$ ${line}\n${r.exitCode}\n${r.stdout}${r.stderr}`);
  };
  touch(c);
  c.advance(20_000);
  await run('kubectl -n kube-system get pods -l k8s-app=kube-dns -o wide');
  c.advance(45_000);
  await run('kubectl -n net exec c -- nslookup web.net.svc.cluster.local');
  await run('kubectl -n net exec c -- nslookup kubernetes.default');
  await run('kubectl -n kube-system get cm coredns -o yaml > /tmp/cm.yaml');
  await run("sed -i 's/cache 30/cache 20/' /tmp/cm.yaml");
  await run('kubectl replace -f /tmp/cm.yaml');
  c.advance(150_000);
  await run('kubectl -n kube-system logs -l k8s-app=kube-dns --tail=20');
  await run('kubectl -n net exec c -- nslookup web.net');
  out.push(JSON.stringify(c.snapshot()));
  return out.join('\n');
}

test('coredns: a copy answers the kubelet without rebuilding its servers, and builds one when queried', async () => {
  const c = original();
  coreDnsRebuilds.forget();
  const first = copyOf(c);
  let before = coreDnsRebuilds.count;
  touch(first);
  assert.equal(coreDnsRebuilds.count, before + 2, 'the first copy builds both servers');
  assert.deepEqual(dnsReady(first), [true, true]);
  const second = copyOf(c);
  before = coreDnsRebuilds.count;
  touch(second);
  assert.deepEqual(dnsReady(second), [true, true]);
  assert.equal(coreDnsRebuilds.count, before, 'the copy rebuilt a CoreDNS server only the kubelet asked about');
  // a query reaches a server: that one is built then
  const r = await new Session(second).exec('kubectl -n net exec c -- nslookup web.net.svc.cluster.local');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.ok(coreDnsRebuilds.count > before);
});

test('coredns: a copy whose servers are built late gives the bytes of one that built them at once', async () => {
  const c = original();
  coreDnsRebuilds.forget();
  const atOnce = await transcript(copyOf(c));
  const before = coreDnsRebuilds.count;
  const late = await transcript(copyOf(c));

  assert.equal(late, atOnce);
  // the second run replayed: it built no more servers than the queries and reloads needed
  assert.ok(coreDnsRebuilds.count - before <= 2);
});

test("coredns: a copy's first look at a recorded rebuild's files builds each container's view once", () => {
  const c = original();
  // a hosts plugin: each server reads /etc/hosts beside its upstream resolv.conf
  const cm = structuredClone(c.store.get('ConfigMap', 'kube-system', 'coredns')!) as unknown as { data: Record<string, string> };
  cm.data['Corefile'] = cm.data['Corefile']!.replace('errors', 'errors\n    hosts /etc/hosts {\n       fallthrough\n    }');
  c.write(cm as never);
  c.advance(300_000);
  coreDnsRebuilds.forget();
  const built = coreDnsRebuilds.count;
  touch(copyOf(c));
  const copy = copyOf(c);
  const views = coreDnsRebuilds.views;
  const reads = coreDnsRebuilds.reads;
  touch(copy);
  assert.deepEqual(dnsReady(copy), [true, true]);
  assert.equal(coreDnsRebuilds.count - built, 2, 'only the first copy built its servers');
  // both pods' recorded reads (their upstream resolv.conf, …), through one view each (one per read before)
  assert.ok(coreDnsRebuilds.reads - reads > 2, `${coreDnsRebuilds.reads - reads} reads`);
  assert.equal(coreDnsRebuilds.views - views, 2, `${coreDnsRebuilds.reads - reads} reads`);
});
