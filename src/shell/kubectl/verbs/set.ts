/**
 * `kubectl set image|env|resources|selector` (k8s.io/kubectl pkg/cmd/set/set_image.go, set_env.go,
 * set_resources.go): edits the pod template's containers of a workload (or a pod's containers)
 * and prints `deployment.apps/web image updated`, `… env updated`, `… resource requirements updated`;
 * `set selector` lives in set-selector.ts.
 */
import type { Container, EnvVar, KObject, Pod } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { parseDryRun } from '../dry-run.js';
import { KubectlError, RawError, seeHelp } from '../errors.js';
import { list, str } from '../flags.js';
import { printObject } from '../printobj.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES } from '../target.js';
import { runSetSelector } from './set-selector.js';
import { recordChangeCause } from '../record.js';

/** polymorphichelpers UpdatePodSpecForObject: the pod spec a kind carries (a CronJob's in its job template). */
function podSpecOf(obj: KObject): Pod['spec'] {
  if (obj.kind === 'Pod') return (obj as Pod).spec;
  const spec = (obj as { spec?: { template?: { spec?: Pod['spec'] }; jobTemplate?: { spec?: { template?: { spec?: Pod['spec'] } } } } }).spec;
  const tpl = obj.kind === 'CronJob' ? spec?.jobTemplate?.spec?.template?.spec : spec?.template?.spec;
  if (!tpl) throw new KubectlError(`cannot set on ${obj.kind}`);
  return tpl;
}

function containersOf(obj: KObject): Container[] {
  return podSpecOf(obj).containers;
}

function selected(cs: Container[], which: string | undefined): Container[] {
  return cs.filter((c) => which === undefined || which === '*' || c.name === which);
}

function keyToEnvName(key: string): string {
  return key.replace(/[^a-zA-Z0-9_]/g, '_').toUpperCase();
}

/**
 * `set env --from=configmap/NAME|secret/NAME [--keys=a,b] [--prefix=P]`: one variable per data key
 * (the key upper-cased, other characters than letters, digits and `_` turned into `_`), each a
 * configMapKeyRef or secretKeyRef to its key. kubectl walks the Go map, in no fixed order; the keys
 * go in sorted order here.
 */
function fromRefs(env: Parameters<Verb['run']>[1], ns: string, from: string | undefined, keys: string[], prefix: string): EnvVar[] {
  if (!from) return [];
  const { targets } = parseTargets([from], env.cluster.discovery(), env.shortNames);
  const t = targets[0];
  if (!t || targets.length !== 1) throw new KubectlError('one resource must be specified in --from');
  if (t.info.kind !== 'ConfigMap' && t.info.kind !== 'Secret') throw new KubectlError('unsupported resource specified in --from');
  const obj = env.api.get(t.info.kind, ns, t.name) as KObject & { data?: Record<string, string> };
  return Object.keys(obj.data ?? {})
    .filter((k) => keys.length === 0 || keys.includes(k))
    .sort()
    .map((k) => ({
      name: prefix + keyToEnvName(k),
      valueFrom: t.info.kind === 'Secret' ? { secretKeyRef: { name: t.name, key: k } } : { configMapKeyRef: { name: t.name, key: k } },
    }));
}

export const setVerb: Verb = {
  name: 'set',
  run(inv, env) {
    const p = inv.parsed;
    const sub = inv.path[1]?.name;
    if (sub === 'selector') return runSetSelector(inv, env);
    if (!sub || !['image', 'env', 'resources', 'serviceaccount'].includes(sub)) throw new KubectlError(`cka-lab does not simulate "kubectl ${inv.words}" yet`);
    const path = inv.words;
    const dry = parseDryRun(p.flags);
    const ns = namespaceOf(env, p);
    // set_serviceaccount.go Complete: the last argument is the service account, the rest name objects
    if (sub === 'serviceaccount' && p.args.length === 0) throw new KubectlError('serviceaccount is required');
    const account = sub === 'serviceaccount' ? p.args[p.args.length - 1]! : '';
    const pairs = sub === 'serviceaccount' ? [] : p.args.filter((a) => a.includes('=') || (sub === 'env' && a.endsWith('-')));
    const res = sub === 'serviceaccount' ? p.args.slice(0, -1) : p.args.filter((a) => !pairs.includes(a));
    const { targets } = parseTargets(res, env.cluster.discovery(), env.shortNames);
    if (targets.length === 0 && sub === 'serviceaccount') throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    if (targets.length === 0) throw new KubectlError('one or more resources must be specified as <resource> <name> or <resource>/<name>', seeHelp(path));
    let stdout = '';
    // the resource builder visits every object before the command changes any (r.Infos()): one
    // missing target fails the whole command and leaves the others as they were
    const objects = targets.map((t) => env.api.get(t.info.kind, ns.name, t.name));
    for (const obj of objects) {
      const cs = containersOf(obj);
      let op = '';
      if (sub === 'image') {
        if (pairs.length === 0) throw new KubectlError('at least one image update is required', seeHelp(path));
        for (const pair of pairs) {
          const [cname, image] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
          const hit = selected(cs, cname);
          if (hit.length === 0) throw new KubectlError(`unable to find container named "${cname}"`);
          for (const c of hit) c.image = image;
        }
        op = 'image updated';
      } else if (sub === 'env') {
        const envs = [...list(p.flags, 'env'), ...pairs];
        const refs = fromRefs(env, ns.name, str(p.flags, 'from'), list(p.flags, 'keys'), str(p.flags, 'prefix') ?? '');
        for (const c of selected(cs, str(p.flags, 'containers'))) {
          for (const r of refs) {
            const cur = c.env ?? [];
            const i = cur.findIndex((x) => x.name === r.name);
            if (i >= 0) cur[i] = r;
            else cur.push(r);
            c.env = cur;
          }
          for (const e of envs) {
            if (e.endsWith('-') && !e.includes('=')) {
              c.env = (c.env ?? []).filter((x) => x.name !== e.slice(0, -1));
              continue;
            }
            const [k, v] = [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)];
            const cur = c.env ?? [];
            const i = cur.findIndex((x) => x.name === k);
            if (i >= 0) cur[i] = { name: k, value: v };
            else cur.push({ name: k, value: v });
            c.env = cur;
          }
          if (c.env?.length === 0) delete c.env;
        }
        op = 'env updated';
      } else if (sub === 'serviceaccount') {
        podSpecOf(obj).serviceAccountName = account;
        op = 'serviceaccount updated';
      } else {
        const parse = (s: string | undefined): Record<string, string> | undefined => (s ? Object.fromEntries(s.split(',').map((kv) => kv.split('=') as [string, string])) : undefined);
        const limits = parse(str(p.flags, 'limits'));
        const requests = parse(str(p.flags, 'requests'));
        if (!limits && !requests) throw new KubectlError('you must specify an update to requests or limits (in the form of --requests/--limits)');
        for (const c of selected(cs, str(p.flags, 'containers'))) {
          c.resources = { ...(c.resources ?? {}) };
          if (limits) c.resources.limits = { ...(c.resources.limits ?? {}), ...limits };
          if (requests) c.resources.requests = { ...(c.resources.requests ?? {}), ...requests };
        }
        op = 'resource requirements updated';
      }
      // set_*.go: --dry-run=client prints the changed object without sending it; server sends it with dryRun=All
      const updated = dry.mode === 'client' ? obj : env.api.update(recordChangeCause(inv, obj), { dryRun: dry.mode === 'server' });
      stdout += printObject(updated, { output: str(p.flags, 'output'), operation: op, dryRun: dry.mode, generated: false });
    }
    return { stdout, stderr: '', exitCode: 0 };
  },
};
