/**
 * Objects the real API server rejects are never stored, and nothing stored can crash a
 * controller, printer or describer: valid manifests of every workload kind are mutated (a value
 * of the wrong JSON type, null, a bad quantity or enum, an unknown field) and sent through
 * create, apply, replace and patch; simulated time passes, the session is saved and revived, and
 * `kubectl get`/`describe` run over everything. No exception may escape, a write that failed
 * without output leaves the store untouched, and every stored object decodes strictly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Session } from './session.js';
import { Random } from '../util/random.js';
import { ManualClock } from '../util/clock.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { decodeObject } from '../sim/api/decode.js';
import { infoForKind } from '../sim/api/registry.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const template = (labels: Record<string, string>, restartPolicy?: string): Json => ({
  metadata: { labels },
  spec: {
    ...(restartPolicy ? { restartPolicy } : {}),
    containers: [{ name: 'c', image: 'busybox:1.36', command: ['sleep', '3600'], ports: [{ containerPort: 80 }], resources: { limits: { memory: '128Mi', cpu: '500m' } } }],
  },
});

const BASE: Json[] = [
  { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { app: 'p' } }, spec: (template({}) as { spec: Json }).spec },
  { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 2, selector: { matchLabels: { app: 'd' } }, template: template({ app: 'd' }) } },
  { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' }, spec: { replicas: 1, selector: { matchLabels: { app: 'rs' } }, template: template({ app: 'rs' }) } },
  { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ds' }, spec: { selector: { matchLabels: { app: 'ds' } }, template: template({ app: 'ds' }) } },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'ss' }, spec: { serviceName: 'ss', replicas: 1, selector: { matchLabels: { app: 'ss' } }, template: template({ app: 'ss' }) } },
  { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { backoffLimit: 2, template: template({}, 'Never') } },
  { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'cj' }, spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: template({}, 'OnFailure') } } } },
  { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { selector: { app: 'd' }, ports: [{ port: 80, targetPort: 80 }] } },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'b' } },
  { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sec' }, data: { a: 'Yg==' } },
  { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np' }, spec: { podSelector: { matchLabels: { app: 'd' } }, ingress: [{ ports: [{ port: 80 }] }] } },
];

/** Wrong types, nulls, bad quantities and enums, a bad name; no huge replica counts (valid, only slow). */
const VALUES: Json[] = [null, 'abc', 42, -1, 1.5, 3e9, true, {}, [], [3600], { x: 1 }, '0.1875Gi', '1Gb', '', 'Sometimes', '2024x_', 7];

/** Every path into the object, parents included. */
function paths(v: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (at.length > 0) out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

function setAt(root: Json, path: (string | number)[], value: Json): void {
  let cur = root as Record<string | number, Json>;
  for (const p of path.slice(0, -1)) cur = cur[p] as Record<string | number, Json>;
  cur[path[path.length - 1]!] = value;
}

function mutate(r: Random, base: Json): Json {
  const obj = structuredClone(base) as { [k: string]: Json };
  const n = 1 + r.int(2);
  for (let i = 0; i < n; i++) {
    const all = paths(obj).filter((p) => p[0] !== 'kind' && p[0] !== 'apiVersion' && !(p[0] === 'metadata' && p[1] === 'name' && p.length === 2 && r.int(3) > 0));
    const path = all[r.int(all.length)]!;
    if (r.int(5) === 0) setAt(obj, [...path.slice(0, -1), 'unknownFieldz'], 1);
    else setAt(obj, path, VALUES[r.int(VALUES.length)]!);
  }
  return obj;
}

const KINDS = ['Pod', 'Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'CronJob', 'Service', 'ConfigMap', 'Secret', 'NetworkPolicy', 'Event', 'EndpointSlice'];

function assertStoredDecode(s: Session, when: string): void {
  for (const kind of KINDS) {
    for (const o of s.cluster.store.list(kind)) {
      const info = infoForKind(kind);
      assert.doesNotThrow(() => decodeObject(o, kind, info.version, "Strict"), `${when}: stored ${kind} ${o.metadata.namespace}/${o.metadata.name} does not decode: ${JSON.stringify(o)}`);
    }
  }
}

test('mutated manifests through create/apply/replace/patch, time, save and reload: no crash, nothing invalid stored', async () => {
  let s = new Session(loadFixture('kubeadm-calico'));
  const r = new Random(35);
  const fs = () => s.cluster.host('cka-ws')!.fs;
  for (let i = 0; i < 160; i++) {
    const base = BASE[r.int(BASE.length)]!;
    const obj = r.int(6) === 0 ? structuredClone(base) : mutate(r, base);
    fs().write('/tmp/m.json', JSON.stringify(obj));
    const kind = (base as { kind: string }).kind.toLowerCase();
    const name = ((base as { metadata: { name: string } }).metadata.name);
    const op = r.int(4);
    const line =
      op === 0
        ? 'kubectl create -f /tmp/m.json'
        : op === 1
          ? 'kubectl apply -f /tmp/m.json'
          : op === 2
            ? 'kubectl replace -f /tmp/m.json'
            : `kubectl patch ${kind} ${name} --type merge -p '${JSON.stringify({ spec: (obj as { spec?: Json }).spec ?? null, metadata: { labels: { x: 'y' } } })}'`;
    const before = s.cluster.store.generation;
    const out = await s.exec(line).catch((e: unknown) => assert.fail(`threw on ${line} with ${JSON.stringify(obj)}: ${String(e)}`));
    if (out.exitCode !== 0 && out.stdout === '') assert.equal(s.cluster.store.generation, before, `failed write changed the cluster: ${line}\n${JSON.stringify(obj)}\n${out.stderr}`);
    assertStoredDecode(s, `after ${line} (exit ${out.exitCode}) with ${JSON.stringify(obj)}`);
    if (i % 10 === 9) {
      assert.doesNotThrow(() => s.cluster.advance(r.int(180_000)), 'advance threw');
      const now = s.cluster.now();
      s = Session.fromJSON(JSON.parse(JSON.stringify(s.toJSON())), new ManualClock(now), CONTROLLERS);
      for (const cmd of ['kubectl get all -A -o wide', 'kubectl get cj,job,cm,secret,netpol,ep,endpointslice -A', 'kubectl describe pods', 'kubectl describe deploy,rs,ds,sts,job,cj,svc,cm,secret,netpol', 'kubectl get pods -o yaml']) {
        await s.exec(cmd).catch((e: unknown) => assert.fail(`threw on ${cmd}: ${String(e)}`));
      }
      assertStoredDecode(s, 'after time passed and the session was reloaded');
    }
  }
});
