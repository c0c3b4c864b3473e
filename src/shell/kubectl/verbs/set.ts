/**
 * `kubectl set image|env|resources|selector` (k8s.io/kubectl pkg/cmd/set/set_image.go, set_env.go,
 * set_resources.go): edits the pod template's containers of a workload (or a pod's containers)
 * and prints `deployment.apps/web image updated`, `… env updated`, `… resource requirements updated`;
 * `set selector` lives in set-selector.ts.
 */
import type { Container, Deployment, KObject, Pod } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { KubectlError, seeHelp } from '../errors.js';
import { list, str } from '../flags.js';
import { printObject } from '../printobj.js';
import { namespaceOf, parseTargets } from '../target.js';
import { runSetSelector } from './set-selector.js';

function containersOf(obj: KObject): Container[] {
  if (obj.kind === 'Pod') return (obj as Pod).spec.containers;
  const tpl = (obj as Deployment).spec?.template?.spec;
  if (!tpl) throw new KubectlError(`cannot set on ${obj.kind}`);
  return tpl.containers;
}

function selected(cs: Container[], which: string | undefined): Container[] {
  return cs.filter((c) => which === undefined || which === '*' || c.name === which);
}

export const setVerb: Verb = {
  name: 'set',
  run(inv, env) {
    const p = inv.parsed;
    const sub = inv.path[1]?.name;
    if (sub === 'selector') return runSetSelector(p, env);
    if (!sub || !['image', 'env', 'resources'].includes(sub)) throw new KubectlError(`cka-lab does not simulate "kubectl ${inv.words}" yet`);
    const path = inv.words;
    const ns = namespaceOf(env, p);
    const pairs = p.args.filter((a) => a.includes('=') || (sub === 'env' && a.endsWith('-')));
    const res = p.args.filter((a) => !pairs.includes(a));
    const { targets } = parseTargets(res, env.cluster.discovery());
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
        for (const c of selected(cs, str(p.flags, 'containers'))) {
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
      stdout += printObject(env.api.update(obj), { output: str(p.flags, 'output'), operation: op, dryRun: 'none', generated: false });
    }
    return { stdout, stderr: '', exitCode: 0 };
  },
};
