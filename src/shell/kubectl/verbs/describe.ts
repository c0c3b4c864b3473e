/**
 * `kubectl describe` (k8s.io/kubectl pkg/cmd/describe/describe.go Run, DescribeMatchingResources):
 * every object the arguments name, each through its kind's describer with the related objects
 * kubectl fetches separately (events, endpoint slices, replica sets, pods, leases). With
 * `TYPE NAME` and no exact match, every object whose name starts with NAME is described; when none
 * does, the original NotFound error is printed. Objects are joined by "\n\n".
 */
import type { Deployment, EndpointSlice, KEvent, KObject, NetworkPolicy, Node, Pod, ReplicaSet, Service } from '../../../sim/api/types.js';
import { ApiError } from '../../../sim/api/errors.js';
import type { CommandResult } from '../../types.js';
import type { KubectlEnv, Verb } from '../context.js';
import { type Parsed, bool, list, str } from '../flags.js';
import { KubectlError, errorResult } from '../errors.js';
import { resolveArgs, resolveFiles, selectObjects } from '../resource-args.js';
import { type DescribeContext, describe as describeKnown, hasDescriber, joinDescribed } from '../../printers/describe/index.js';
import { noResourcesMessage } from '../../printers/table.js';
import { describeNode } from '../describers/node.js';
import { describeEndpointSlice } from '../describers/endpointslice.js';
import { describeNetworkPolicy } from '../describers/networkpolicy.js';
import { describeGeneric } from '../describers/generic.js';
import { servedAs } from '../../../sim/api/events-v1.js';
import { commandNamespace, endpointsWarning, fetchAll, warnFirst } from './get.js';


/** Events of one list call, indexed by involved object: by uid, and by kind/name/namespace. */
interface EventIndex {
  all: KEvent[];
  byUid: Map<string, number[]>;
  byName: Map<string, number[]>;
}

const nameKey = (kind: string, name: string, ns: string): string => `${kind}\u0000${name}\u0000${ns}`;

/**
 * describe.go searchEvents for each object described: the server filters the events by the
 * involved object, so one list per namespace, indexed, serves every object of the command
 * (`kubectl describe pods` over 5,000 pods must not list and copy every Event 5,000 times).
 */
function eventSearch(env: KubectlEnv): (obj: KObject) => KEvent[] {
  const lists = new Map<string, EventIndex>();
  const indexFor = (ns: string | undefined): EventIndex => {
    const key = ns ?? '\u0000all';
    let ix = lists.get(key);
    if (!ix) {
      const all = env.api.list<KEvent>('Event', ns);
      ix = { all, byUid: new Map(), byName: new Map() };
      const add = (m: Map<string, number[]>, k: string, i: number): void => {
        const at = m.get(k);
        if (at) at.push(i);
        else m.set(k, [i]);
      };
      all.forEach((e, i) => {
        const io = e.involvedObject;
        if (io.uid) add(ix!.byUid, io.uid, i);
        add(ix!.byName, nameKey(io.kind, io.name, io.namespace ?? ''), i);
      });
      lists.set(key, ix);
    }
    return ix;
  };
  // events whose involvedObject is this object: by uid when both have one, else by kind/ns/name
  return (obj) => {
    const ix = indexFor(obj.metadata.namespace ?? undefined);
    const named = ix.byName.get(nameKey(obj.kind, obj.metadata.name, obj.metadata.namespace ?? '')) ?? [];
    const uid = obj.metadata.uid;
    const hits = uid ? [...(ix.byUid.get(uid) ?? []), ...named.filter((i) => !ix.all[i]!.involvedObject.uid)].sort((a, b) => a - b) : named;
    return hits.map((i) => ix.all[i]!);
  };
}

function ownedBy(obj: KObject, owner: KObject): boolean {
  return (obj.metadata.ownerReferences ?? []).some((r) => r.controller === true && (r.uid ? r.uid === owner.metadata.uid : r.name === owner.metadata.name));
}

const REVISION = 'deployment.kubernetes.io/revision';

/**
 * describe.go DeploymentDescriber (k8s.io/kubectl v1.35) with deploymentutil.GetAllReplicaSetsInChunks:
 * the namespace's ReplicaSets the deployment controls; the new one shares the deployment's revision,
 * every other is old, scaled to 0 or not (describe prints `allOldRSs`, the second result: recorded,
 * testdata/recorded/deployment-web.txt lists `web-688d5bd7b5 (0/0 replicas created)`).
 */
function deploymentReplicaSets(env: KubectlEnv, d: Deployment): DescribeContext['replicaSets'] {
  const owned = env.api.list<ReplicaSet>('ReplicaSet', d.metadata.namespace).filter((rs) => ownedBy(rs, d));
  const rev = d.metadata.annotations?.[REVISION];
  const newRs = owned.find((rs) => rev !== undefined && rs.metadata.annotations?.[REVISION] === rev);
  return { old: owned.filter((rs) => rs !== newRs), ...(newRs ? { new: newRs } : {}) };
}

function describeOne(env: KubectlEnv, obj: KObject, eventsFor: ((obj: KObject) => KEvent[]) | undefined): string {
  const now = env.cluster.now();
  const events = eventsFor ? eventsFor(obj) : undefined;
  if (obj.kind === 'Node') {
    const pods = env.api.list<Pod>('Pod').filter((p) => p.spec.nodeName === obj.metadata.name && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
    const lease = env.api.tryGet('Lease', 'kube-node-lease', obj.metadata.name);
    return describeNode(obj as Node, { now, pods, ...(lease ? { lease } : {}), ...(events ? { events } : {}) });
  }
  if (obj.kind === 'EndpointSlice') return describeEndpointSlice(obj as EndpointSlice, now, events);
  if (obj.kind === 'NetworkPolicy') return describeNetworkPolicy(obj as NetworkPolicy);
  if (!hasDescriber(obj.kind)) return describeGeneric(obj, now, events);
  const ctx: DescribeContext = { now, ...(events ? { events } : {}) };
  const ns = obj.metadata.namespace;
  if (obj.kind === 'Service')
    ctx.endpointSlices = env.api.list<EndpointSlice>('EndpointSlice', ns).filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === obj.metadata.name);
  if (obj.kind === 'Ingress') {
    ctx.services = env.api.list<Service>('Service', ns);
    ctx.endpointSlices = env.api.list<EndpointSlice>('EndpointSlice', ns);
  }
  if (obj.kind === 'Deployment') {
    const rs = deploymentReplicaSets(env, obj as Deployment);
    if (rs) ctx.replicaSets = rs;
  }
  if (obj.kind === 'ReplicaSet' || obj.kind === 'ReplicationController' || obj.kind === 'DaemonSet' || obj.kind === 'StatefulSet') ctx.pods = env.api.list<Pod>('Pod', ns).filter((p) => ownedBy(p, obj));
  // getPodsForPVC: the namespace's pods with a volume naming the claim
  if (obj.kind === 'PersistentVolumeClaim')
    ctx.pods = env.api.list<Pod>('Pod', ns).filter((p) => (p.spec.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === obj.metadata.name));
  if (obj.kind === 'Namespace') {
    ctx.resourceQuotas = env.api.list('ResourceQuota', obj.metadata.name);
    ctx.limitRanges = env.api.list('LimitRange', obj.metadata.name);
  }
  return describeKnown(obj, ctx) ?? describeGeneric(obj, now, events);
}

function isNotFound(e: unknown): boolean {
  return e instanceof ApiError && e.reason === 'NotFound';
}

async function runDescribe(p: Parsed, env: KubectlEnv): Promise<CommandResult> {
  const files = list(p.flags, 'filename');
  if (p.args.length === 0 && files.length === 0)
    throw new KubectlError('You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.');
  const allNamespaces = bool(p.flags, 'all-namespaces');
  const resolved = files.length > 0 ? resolveFiles(env, files, bool(p.flags, 'recursive'), 'describe') : resolveArgs(p.args, env.cluster.discovery(), env.shortNames);
  const label = str(p.flags, 'selector');
  env.api.ensureUp();
  const namespace = commandNamespace(env, p);
  const showEvents = p.flags['show-events'] !== false;
  const warn = endpointsWarning(env, resolved.requests.map((r) => r.info));
  let stderr = '';
  const { groups, errors } = fetchAll(env, resolved, { namespace, allNamespaces, selectors: label !== undefined ? { label } : {}, ignoreNotFound: false });
  // the generic describer reads through the dynamic client: an object in the version its resource serves (an Event read as events.k8s.io/v1 in that form)
  let objs = groups.flatMap((g) => g.objs.map((o) => servedAs(g.info, o)));
  let errs = errors;
  let prefixMatched = false;
  // DescribeMatchingResources: `describe TYPE NAME` with no exact match → prefix match
  const only = resolved.requests[0];
  if (files.length === 0 && p.args.length === 2 && resolved.requests.length === 1 && only?.names?.length === 1 && errors.length === 1 && isNotFound(errors[0])) {
    const prefix = only.names[0]!;
    const all = env.api.list(only.info.kind, allNamespaces ? undefined : namespace);
    const matches = selectObjects(all, only.info, label !== undefined ? { label } : {}).filter((o) => o.metadata.name.startsWith(prefix));
    if (matches.length > 0) {
      objs = matches.map((o) => servedAs(only.info, o));
      errs = [];
      prefixMatched = true;
    }
  }
  const search = showEvents ? eventSearch(env) : undefined;
  const texts = objs.map((o) => describeOne(env, o, search));
  // k8s.io/kubectl pkg/cmd/describe/describe.go (v1.35): Run joins the objects with "\n\n";
  // DescribeMatchingResources prints each prefix match followed by "\n" (recorded: pods-prefix.txt)
  const stdout = prefixMatched ? texts.map((t) => `${t}\n`).join('') : joinDescribed(texts);
  if (objs.length === 0 && errs.length === 0) stderr += `${noResourcesMessage(namespace, allNamespaces, false)}\n`;
  stderr += errs.map((e) => errorResult(e, 'describe').stderr).join('');
  return warnFirst(warn, { stdout, stderr, exitCode: errs.length > 0 ? 1 : 0 });
}

export const describeVerb: Verb = {
  name: 'describe',
  async run(inv, env) {
    try {
      return await runDescribe(inv.parsed, env);
    } catch (e) {
      return errorResult(e, 'describe');
    }
  },
};
