/**
 * Objects the real API server rejects are never stored, and nothing stored can crash a
 * controller, printer or describer: valid manifests of every workload kind are mutated (a value
 * of the wrong JSON type, null, a bad quantity or enum, an unknown field) and sent through
 * every write verb (create, apply, replace, merge/strategic/json patch including `{"spec":null}`
 * and `containers: null`, edit through a scripted editor, set image/env/resources, scale, label,
 * annotate); simulated time passes, the session is saved and revived, and `kubectl get`/
 * `describe` run over everything. No exception may escape, a write that failed without output
 * leaves the store untouched, and every stored object decodes strictly (src/testing/fuzz.ts
 * counts the findings; `npm run fuzz` runs it longer over many seeds).
 */
import { test } from 'node:test';
import { loadFixture } from '../testing/fixtures.js';
import { Session, type SessionData } from './session.js';
import { Random } from '../util/random.js';
import { ManualClock } from '../util/clock.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { decodeObject } from '../sim/api/decode.js';
import { infoForKind } from '../sim/api/registry.js';
import { FuzzLog, fuzzCount, fuzzSeed, looksLikeJsError } from '../testing/fuzz.js';

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
    else setAt(obj, path, structuredClone(VALUES[r.int(VALUES.length)]!)); // a copy: a shared value could become its own child
  }
  return obj;
}

const KINDS = ['Pod', 'Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'CronJob', 'Service', 'ConfigMap', 'Secret', 'NetworkPolicy', 'Event', 'EndpointSlice'];

/** Stored objects that no longer decode strictly: a write let through what the server refuses. */
function undecodable(s: Session): string[] {
  const out: string[] = [];
  for (const kind of KINDS) {
    for (const o of s.cluster.store.list(kind)) {
      const info = infoForKind(kind);
      try {
        decodeObject(o, kind, info.version, 'Strict');
      } catch (e) {
        out.push(`stored ${kind} ${o.metadata.namespace}/${o.metadata.name} does not decode (${e instanceof Error ? e.message : String(e)}): ${JSON.stringify(o)}`);
      }
    }
  }
  return out;
}

/** Patches that null out whole parts of an object: `{"spec":null}`, `containers: null`, …. */
const NULL_PATCHES = [
  '{"spec":null}',
  '{"spec":{"template":{"spec":{"containers":null}}}}',
  '{"spec":{"containers":null}}',
  '{"spec":{"template":null}}',
  '{"spec":{"selector":null}}',
  '{"spec":{"ports":null}}',
  '{"spec":{"replicas":null}}',
  '{"spec":{"jobTemplate":null}}',
  '{"metadata":{"labels":null,"annotations":{"a":null}}}',
  '{"metadata":null}',
  '{"data":null}',
  '{"status":null}',
  '{"spec":{"template":{"metadata":null}}}',
  '{"spec":{"containers":[{"name":"c","image":null}]}}',
];

/** Values an editor might leave in the YAML. */
const TEXT_VALUES = ['null', 'abc', '-1', '1.5', '[]', '{}', 'true', '"x"', '3e9', '~', '', '0.1875Gi', '[3600]'];
const IMAGES = ['nginx:1.29', '', 'UPPER:Case', 'a b', '::', 'busybox@sha256:zz'];
const ENV = ['X=1', 'X=', 'X-', '1BAD=v', 'A.B=c', '=v'];
const QUANTITIES = ['500m', 'abc', '-1', '1e3', '0.1875Gi', '1Gb', '', '0'];
const REPLICAS = ['-1', 'abc', '0', '3', '1.5', '', '99999999999'];
const LABEL_KEYS = ['a', 'a/b', '-bad', 'x'.repeat(70), 'kubernetes.io/x', 'app'];
const LABEL_VALUES = ['b', '', 'bad value', 'x'.repeat(70), '-x', 'd'];

const pick = <T>(r: Random, xs: readonly T[]): T => xs[r.int(xs.length)]!;
const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

/** A JSON pointer into the object, for a json patch. */
function pointer(path: (string | number)[]): string {
  return `/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/** One write through a random verb; `edits` is how many edits the scripted editor makes. */
function writeLine(r: Random, base: Json, obj: Json, editor: { edits: number }): { line: string; file?: string } {
  const kind = (base as { kind: string }).kind.toLowerCase();
  const name = (base as { metadata: { name: string } }).metadata.name;
  const spec = (obj as { spec?: Json }).spec ?? null;
  switch (r.int(14)) {
    case 0:
      return { line: 'kubectl create -f /tmp/m.json', file: JSON.stringify(obj) };
    case 1:
      return { line: 'kubectl apply -f /tmp/m.json', file: JSON.stringify(obj) };
    case 2:
      return { line: 'kubectl replace -f /tmp/m.json', file: JSON.stringify(obj) };
    case 3:
      return { line: `kubectl patch ${kind} ${name} --type merge -p ${quote(JSON.stringify({ spec, metadata: { labels: { x: 'y' } } }))}` };
    case 4:
      return { line: `kubectl patch ${kind} ${name} -p ${quote(JSON.stringify({ spec }))}` };
    case 5: {
      const all = paths(obj).filter((p) => p[0] !== 'kind' && p[0] !== 'apiVersion');
      const at = all.length ? pointer(pick(r, all)) : '/spec';
      const op = pick(r, ['replace', 'add', 'remove']);
      const value = pick(r, VALUES);
      return { line: `kubectl patch ${kind} ${name} --type json -p ${quote(JSON.stringify([op === 'remove' ? { op, path: at } : { op, path: at, value }]))}` };
    }
    case 6:
    case 7:
      return { line: `kubectl patch ${kind} ${name} --type ${pick(r, ['merge', 'strategic'])} -p ${quote(pick(r, NULL_PATCHES))}` };
    case 8:
      editor.edits = 1 + r.int(2);
      return { line: `kubectl edit ${kind} ${name}` };
    case 9:
      return { line: `kubectl set image ${kind}/${name} c=${quote(pick(r, IMAGES))}` };
    case 10:
      return { line: `kubectl set env ${kind}/${name} ${quote(pick(r, ENV))}` };
    case 11:
      return { line: `kubectl set resources ${kind}/${name} --limits=cpu=${pick(r, QUANTITIES)},memory=${pick(r, QUANTITIES)}` };
    case 12:
      return { line: `kubectl scale ${kind} ${name} --replicas=${pick(r, REPLICAS)}` };
    default: {
      const verb = pick(r, ['label', 'annotate']);
      const key = pick(r, LABEL_KEYS);
      return { line: `kubectl ${verb} ${kind} ${name} ${quote(r.int(4) === 0 ? `${key}-` : `${key}=${pick(r, LABEL_VALUES)}`)} --overwrite` };
    }
  }
}

/**
 * The scripted editor: it changes one line of what kubectl opens (a value replaced by a wrong
 * type, or the line dropped) while edits remain, then saves unchanged, as a user who gives up
 * does when kubectl reopens the file with the server's error.
 */
function scriptedEditor(r: Random, state: { edits: number }): (text: string) => Promise<string> {
  return async (text) => {
    if (state.edits <= 0) return text;
    state.edits--;
    const lines = text.split('\n');
    const candidates = lines.map((l, i) => (/^\s*[-\w./"]+:( |$)/.test(l) && !l.trimStart().startsWith('#') ? i : -1)).filter((i) => i >= 0);
    if (candidates.length === 0) return text;
    const i = pick(r, candidates);
    if (r.int(4) === 0) lines.splice(i, 1);
    else lines[i] = lines[i]!.replace(/:( .*)?$/, `: ${pick(r, TEXT_VALUES)}`);
    return lines.join('\n');
  };
}

const READERS = [
  'kubectl get all -A -o wide',
  'kubectl get cj,job,cm,secret,netpol,ep,endpointslice,events -A',
  'kubectl describe pods',
  'kubectl describe deploy,rs,ds,sts,job,cj,svc,cm,secret,netpol',
  'kubectl get pods,deploy,rs,ds,sts,job,cj,svc -o yaml',
  'kubectl get all -o json',
  'kubectl get pods -o custom-columns=N:.metadata.name,I:.spec.containers[*].image',
  'kubectl describe nodes',
  'kubectl top pods',
];

test('mutated manifests through every write verb, time, save and reload: no crash, nothing invalid stored', async () => {
  const seed = fuzzSeed(35);
  const log = new FuzzLog('validation-fuzz', seed);
  const r = new Random(seed);
  const editing = { edits: 0 };
  const opts = { editor: scriptedEditor(r, editing) };
  let s = new Session(loadFixture('kubeadm-calico'), opts);
  const fs = () => s.cluster.host('cka-ws')!.fs;
  // the base objects exist first, so patch/edit/set/scale/label meet real objects
  for (const base of BASE) {
    fs().write('/tmp/m.json', JSON.stringify(base));
    await s.exec('kubectl create -f /tmp/m.json');
  }
  const n = fuzzCount(80);
  for (let i = 0; i < n; i++) {
    const base = BASE[r.int(BASE.length)]!;
    const obj = r.int(6) === 0 ? structuredClone(base) : mutate(r, base);
    const { line, file } = writeLine(r, base, obj, editing);
    if (file !== undefined) fs().write('/tmp/m.json', file);
    const before = s.cluster.store.generation;
    log.run();
    let out;
    try {
      out = await log.timed(line, () => s.exec(line));
    } catch (e) {
      log.record('crashes', `threw on ${line} with ${JSON.stringify(obj)}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      continue;
    } finally {
      editing.edits = 0;
    }
    log.trace(line, out);
    if (looksLikeJsError(out.stderr) || looksLikeJsError(out.stdout)) log.record('crashes', `${line} printed a JavaScript error: ${out.stderr}${out.stdout}`);
    if (out.exitCode !== 0 && out.stdout === '' && s.cluster.store.generation !== before)
      log.record('halfApplied', `failed write changed the cluster: ${line}\n${JSON.stringify(obj)}\n${out.stderr}`);
    for (const bad of undecodable(s)) log.record('poisoned', `after ${line} (exit ${out.exitCode}): ${bad}`);
    if (i % 10 === 9) {
      try {
        s.cluster.advance(r.int(180_000));
      } catch (e) {
        log.record('crashes', `advance threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }
      try {
        const now = s.cluster.now();
        s = Session.fromJSON(JSON.parse(JSON.stringify(s.toJSON())) as SessionData, new ManualClock(now), CONTROLLERS, opts);
      } catch (e) {
        log.record('poisoned', `the session does not reload: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        continue;
      }
      for (const cmd of READERS) {
        try {
          const o = await log.timed(cmd, () => s.exec(cmd));
          if (looksLikeJsError(o.stderr) || looksLikeJsError(o.stdout)) log.record('crashes', `${cmd} printed a JavaScript error: ${o.stderr}`);
          else if (o.exitCode !== 0 && !/^(No resources found|error: Metrics API not available)/m.test(o.stderr)) log.record('poisoned', `${cmd} fails on what the store holds: ${o.stderr}`);
        } catch (e) {
          log.record('crashes', `threw on ${cmd}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        }
      }
      for (const bad of undecodable(s)) log.record('poisoned', `after time passed and the session was reloaded: ${bad}`);
    }
  }
  log.finish();
});
