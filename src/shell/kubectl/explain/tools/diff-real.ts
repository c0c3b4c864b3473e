/**
 * Differential check of the simulator's `kubectl explain` against the REAL kubectl v1.35 binary
 * served the same OpenAPI data: every field path (depth ≤ 5) of every documented kind, the
 * --recursive views and the error cases. Prints the mismatches; exits 1 if any.
 * KINDS=CustomResourceDefinition,APIService limits the walk to those kinds; `fixed` in KINDS adds the
 * fixed cases (resource-name forms, JSONPath oddities, errors), which otherwise run only without KINDS.
 *
 *   node scripts/real-kubectl.mjs && node --import tsx src/shell/kubectl/explain/tools/diff-real.ts
 */
import { schemaComponents, KIND_SCHEMAS, resolveRef, type Schema } from '../schema.js';
import { RESOURCES } from '../../../../sim/api/registry.js';
import { loadFixture } from '../../../../testing/fixtures.js';
import { Session } from '../../../session.js';
import { discoveryLists, openapiDocs } from './openapi-docs.js';
// @ts-expect-error plain JS helper without types
import { runReal } from './real-server.mjs';

const docs = openapiDocs();
const discovery = discoveryLists();

// Every field path up to depth 4 for each kind, plus recursive views and error cases.
const cmds: string[][] = [];
function walk(prefix: string, s: Schema, depth: number, seen: Set<string>): void {
  const r = resolveRef(s.$ref) ?? s;
  const target = r.allOf?.length === 1 ? (resolveRef(r.allOf[0]!.$ref) ?? r) : r.items ? (resolveRef(r.items.$ref) ?? resolveRef(r.items.allOf?.[0]?.$ref) ?? r.items) : r;
  for (const [k, v] of Object.entries(target.properties ?? {})) {
    cmds.push(['explain', `${prefix}.${k}`]);
    if (depth > 0 && !seen.has(`${prefix}.${k}`)) walk(`${prefix}.${k}`, v, depth - 1, seen);
  }
}
const only = process.env.KINDS?.split(',');
for (const kind of Object.keys(KIND_SCHEMAS).filter((k) => only === undefined || only.includes(k))) {
  const info = RESOURCES.find((r) => r.kind === kind)!;
  cmds.push(['explain', info.resource], ['explain', info.resource, '--recursive']);
  walk(info.resource, schemaComponents()[KIND_SCHEMAS[kind]!]!, 4, new Set());
}
if (only === undefined || only.includes('fixed')) cmds.push(['explain', 'svc'], ['explain', 'po.spec.dnsConfig'], ['explain', 'deploy.spec.strategy'], ['explain', 'netpol.spec', '--recursive'],
  ['explain', 'foos'], ['explain', 'pod.spec.foo'], ['explain', 'secrets'], ['explain', 'roles'], ['explain', 'ds'], ['explain'], ['explain', 'a', 'b'],
  ['explain', 'deployments.apps.spec.replicas'], ['explain', 'deploy.apps.spec'], ['explain', 'pod.spec.containers.ports.protocol'],
  ['explain', '--api-version=apps/v2', 'deploy'], ['explain', '-o', 'yaml', 'pod'], ['explain', 'Pod.spec'], ['explain', 'pods..spec'], ['explain', 'svc.spec.ports.targetPort'],
  ['explain', 'pod.spec.nodeSelector.foo'], ['explain', 'ing.spec.rules.http.paths.backend.service.port'], ['explain', 'cm.data'], ['explain', 'no.spec.taints'],
  ['explain', 'endpointslices', '--recursive'], ['explain', 'pod.spec', '--recursive'], ['explain', 'pod.spec.dnsPolicy', '--recursive'],
  // explain.go parses the input as a JSONPath: non-field nodes, recursive descent, odd characters
  ['explain', 'pod.spec.$'], ['explain', 'pod.$.spec'], ['explain', 'pod.spec.$ref'], ['explain', 'po..spec'], ['explain', 'pods..spec.containers'],
  ['explain', 'Deployments.apps.spec'], ['explain', 'pod.spec[0]'], ['explain', 'pod.spec.containers[*].name'], ['explain', 'pod.spec!'],
  ['explain', 'pod.spec}{.x'], ['explain', 'pod."spec"'], ['explain', 'pod.spec.containers.'], ['explain', '$pod.spec'], ['explain', 'pod.spec.1'],
  ['explain', 'pods.v1.spec'], ['explain', 'deployments.apps..spec'], ['explain', 'deployments.apps.spec..replicas'], ['explain', 'pod.spec\\.x'], ['explain', ''], ['explain', '.'], ['explain', 'pods.'], ['explain', 'pod.spec. '], ['explain', 'pod.spec.containers[0]']);
const limit = Number(process.env.LIMIT ?? cmds.length);
const todo = cmds.slice(0, limit);
const real = (await runReal(docs, discovery, todo)) as { status: number; stdout: string; stderr: string }[];
let bad = 0;
for (const [i, argv] of todo.entries()) {
  const s = new Session(loadFixture('kubeadm-calico', 0));
  const line = ['kubectl', ...argv].map((a) => (a === '' || /[^\w./=-]/.test(a) ? `'${a}'` : a)).join(' ');
  const mine = await s.exec(line);
  const r = real[i]!;
  if (mine.stdout !== r.stdout || mine.stderr !== r.stderr || mine.exitCode !== r.status) {
    bad++;
    if (bad <= 5) {
      console.log(`MISMATCH ${line}`);
      console.log(JSON.stringify({ real: r, mine }).slice(0, 3000));
    }
  }
}
console.log(`${todo.length} commands, ${bad} mismatches`);
if (bad > 0) process.exitCode = 1;
