/**
 * `kubectl expose` (k8s.io/kubectl pkg/cmd/expose/expose.go, generate/versioned/service.go
 * ServiceGeneratorV2): a Service whose selector is the object's selector (a pod's labels), ports
 * from --port/--target-port or introspected container ports, labels inherited from the object.
 */
import type { Container, Deployment, KObject, Pod, Service } from '../../../sim/api/types.js';
import type { ResourceInfo } from '../../../sim/api/registry.js';
import type { Invocation, KubectlEnv, Verb } from '../context.js';
import { klogWarning, parseDryRun } from '../dry-run.js';
import { errorResult, KubectlError, RawError } from '../errors.js';
import { manifestsOrKustomization } from './kustomize.js';
import { manifestNamespace } from '../manifest.js';
import { str } from '../flags.js';
import { checkOutput, printObject } from '../printobj.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES } from '../target.js';
import { recordChangeCause } from '../record.js';


const kv = (s: string): Record<string, string> => Object.fromEntries(s.split(',').map((x) => [x.slice(0, x.indexOf('=')), x.slice(x.indexOf('=') + 1)]));

function selectorOf(obj: KObject): Record<string, string> | undefined {
  if (obj.kind === 'Pod' || obj.kind === 'Service') return obj.kind === 'Pod' ? obj.metadata.labels : (obj as Service).spec.selector;
  const sel = (obj as Deployment).spec?.selector;
  if (sel?.matchExpressions?.length) throw new KubectlError(`couldn't convert expressions - "${JSON.stringify(sel)}" to map-based selector format`);
  return sel?.matchLabels;
}

function containersOf(obj: KObject): Container[] {
  if (obj.kind === 'Pod') return (obj as Pod).spec.containers;
  return (obj as Deployment).spec?.template?.spec?.containers ?? [];
}

export const exposeVerb: Verb = {
  name: 'expose',
  run(inv, env) {
    const p = inv.parsed;
    const input = manifestsOrKustomization(env, p, 'expose');
    if (p.args.length === 0 && !input) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    const dry = parseDryRun(p.flags);
    const output = str(p.flags, 'output');
    checkOutput(output);
    const ns = namespaceOf(env, p);
    const d = env.cluster.discovery();
    if (input) {
      // -f/-k: each object as the file has it (the builder visits the file's objects; no server read)
      let stdout = '';
      let stderr = input.stderr;
      for (const { obj } of input.objs) {
        try {
          const info = d.infoForKind(obj.kind);
          const target = manifestNamespace(obj, ns, d) ?? ns.name;
          stdout += exposeOne(inv, env, obj, info, { name: target, explicit: ns.explicit || obj.metadata.namespace !== undefined }, dry, output);
        } catch (e) {
          stderr += errorResult(e, 'expose').stderr;
        }
      }
      for (const e of input.errors) stderr += errorResult(e, 'expose').stderr;
      return { stdout, stderr: (dry.warning ? klogWarning(env.cluster.now(), dry.warning) : '') + stderr, exitCode: stderr && stderr !== input.stderr ? 1 : 0 };
    }
    const { targets } = parseTargets(p.args, d, env.shortNames);
    const t = targets[0];
    if (!t) throw new KubectlError('resource(s) were provided, but no name was specified');
    // the builder's GET comes first (a missing object is NotFound whatever its kind)
    const obj = env.api.get(t.info.kind, ns.name, t.name);
    const stdout = exposeOne(inv, env, obj, t.info, ns, dry, output);
    return { stdout, stderr: dry.warning ? klogWarning(env.cluster.now(), dry.warning) : '', exitCode: 0 };
  },
};

/**
 * polymorphichelpers/canbeexposed.go: only these kinds, else `cannot expose a <GroupKind>` (the
 * GroupKind printed as schema.GroupKind.String: `ConfigMap`, `StatefulSet.apps`).
 */
function exposable(info: ResourceInfo): true {
  if (!['Pod', 'Service', 'Deployment', 'ReplicaSet', 'ReplicationController'].includes(info.kind)) throw new KubectlError(`cannot expose a ${info.group ? `${info.kind}.${info.group}` : info.kind}`);
  return true;
}

/** One object's Service, created (or printed for a client dry run): its printer line. */
function exposeOne(inv: Invocation, env: KubectlEnv, obj: KObject, info: ResourceInfo, ns: { name: string; explicit: boolean }, dry: ReturnType<typeof parseDryRun>, output: string | undefined): string {
  const p = inv.parsed;
  exposable(info);
  const t = { info, name: obj.metadata.name };
  const selector = str(p.flags, 'selector') ? kv(str(p.flags, 'selector')!) : selectorOf(obj);
  if (!selector || Object.keys(selector).length === 0) throw new KubectlError(`couldn't retrieve selectors via --selector flag or introspection: the ${t.info.kind.toLowerCase()} has no labels`);
  const protocol = str(p.flags, 'protocol') ?? 'TCP';
  const targetFlag = str(p.flags, 'target-port');
  const target = (v: string): number | string => (/^\d+$/.test(v) ? Number(v) : v);
  let ports: { name?: string; protocol: string; port: number; targetPort: number | string }[];
  const portFlag = str(p.flags, 'port');
  if (portFlag !== undefined) {
    ports = portFlag.split(',').map((s, i, all) => ({
      ...(all.length > 1 ? { name: `port-${i + 1}` } : {}),
      protocol,
      port: Number(s),
      targetPort: target(targetFlag ?? s),
    }));
  } else {
    const found = obj.kind === 'Service' ? ((obj as Service).spec.ports ?? []).map((sp) => ({ containerPort: sp.port, protocol: sp.protocol })) : containersOf(obj).flatMap((c) => c.ports ?? []);
    if (found.length === 0) throw new KubectlError("couldn't find port via --port flag or introspection", "See 'kubectl expose -h' for help and examples");
    ports = found.map((cp, i) => ({
      ...(found.length > 1 ? { name: `port-${i + 1}` } : {}),
      protocol: cp.protocol ?? protocol,
      port: cp.containerPort,
      targetPort: targetFlag !== undefined ? target(targetFlag) : cp.containerPort,
    }));
  }
  const name = str(p.flags, 'name') ?? t.name;
  const labels = str(p.flags, 'labels') ? kv(str(p.flags, 'labels')!) : obj.metadata.labels;
  const type = str(p.flags, 'type');
  const svc = {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: { name, ...(ns.explicit ? { namespace: ns.name } : {}), ...(labels ? { labels: { ...labels } } : {}) },
    spec: {
      ports,
      selector: { ...selector },
      ...(str(p.flags, 'cluster-ip') ? { clusterIP: str(p.flags, 'cluster-ip') } : {}),
      ...(type ? { type } : {}),
      ...(str(p.flags, 'external-ip') ? { externalIPs: [str(p.flags, 'external-ip')] } : {}),
      ...(str(p.flags, 'session-affinity') ? { sessionAffinity: str(p.flags, 'session-affinity') } : {}),
      ...(str(p.flags, 'load-balancer-ip') ? { loadBalancerIP: str(p.flags, 'load-balancer-ip') } : {}),
    },
    status: { loadBalancer: {} },
  } as KObject;
  const shown = dry.mode === 'client' ? svc : env.api.create(recordChangeCause(inv, { ...svc, metadata: { ...svc.metadata, namespace: ns.name } }), { dryRun: dry.mode === 'server' });
  return printObject(shown, { output, operation: 'exposed', dryRun: dry.mode, generated: dry.mode === 'client' });
}
