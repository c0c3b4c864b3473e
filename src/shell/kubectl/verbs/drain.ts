/**
 * `kubectl drain NODE` (k8s.io/kubectl pkg/drain/drain.go, filters.go): cordon, then evict every
 * pod on the node except mirror pods and (with --ignore-daemonsets) DaemonSet pods; refuse
 * unmanaged pods without --force and pods with emptyDir without --delete-emptydir-data.
 */
import type { Pod } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { bool, int } from '../flags.js';
import { setCordon } from './cordon.js';
import { waitGone } from './delete.js';

export const drainVerb: Verb = {
  name: 'drain',
  run(inv, env) {
    const p = inv.parsed;
    const name = p.args[0]?.replace(/^(node|nodes|no)\//, '');
    if (!name) throw new KubectlError('USAGE: drain NODE [flags]', "See 'kubectl drain -h' for help and examples");
    let stdout = setCordon(env, name, true);
    const pods = env.api.list<Pod>('Pod').filter((po) => po.spec.nodeName === name && po.status?.phase !== 'Succeeded' && po.status?.phase !== 'Failed');
    const errors: string[] = [];
    const warnings: string[] = [];
    const evict: Pod[] = [];
    const ds: string[] = [];
    const unmanaged: string[] = [];
    const local: string[] = [];
    for (const po of pods) {
      const id = `${po.metadata.namespace}/${po.metadata.name}`;
      if (po.metadata.annotations?.['kubernetes.io/config.mirror']) continue;
      const owner = po.metadata.ownerReferences?.find((o) => o.controller);
      if (owner?.kind === 'DaemonSet') {
        if (!bool(p.flags, 'ignore-daemonsets')) errors.push(`cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ${id}`);
        else ds.push(id);
        continue;
      }
      if (!owner) {
        if (!bool(p.flags, 'force')) {
          errors.push(`cannot delete Pods that declare no controller (use --force to override): ${id}`);
          continue;
        }
        unmanaged.push(id);
      }
      if (po.spec.volumes?.some((v) => 'emptyDir' in v)) {
        if (!bool(p.flags, 'delete-emptydir-data')) {
          errors.push(`cannot delete Pods with local storage (use --delete-emptydir-data to override): ${id}`);
          continue;
        }
        local.push(id);
      }
      evict.push(po);
    }
    if (errors.length) {
      // filters.go groups the pods per reason: "<reason>: ns/a, ns/b"; several reasons aggregate as "[r1, r2]"
      const byReason = new Map<string, string[]>();
      for (const e of errors) {
        const at = e.lastIndexOf(': ');
        byReason.set(e.slice(0, at), [...(byReason.get(e.slice(0, at)) ?? []), e.slice(at + 2)]);
      }
      const parts = [...byReason].map(([reason, ids]) => `${reason}: ${ids.join(', ')}`);
      const agg = parts.length === 1 ? parts[0]! : `[${parts.join(', ')}]`;
      return { stdout, stderr: `error: unable to drain node "${name}" due to error: ${agg}, continuing command...\nThere are pending nodes to be drained:\n ${name}\nerror: ${agg}\n`, exitCode: 1 };
    }
    if (ds.length) warnings.push(`ignoring DaemonSet-managed Pods: ${ds.join(', ')}`);
    if (unmanaged.length) warnings.push(`deleting Pods that declare no controller: ${unmanaged.join(', ')}`);
    let stderr = warnings.length ? `Warning: ${warnings.join('; ')}\n` : '';
    const grace = int(p.flags, 'grace-period') ?? -1;
    for (const po of evict) {
      stdout += `evicting pod ${po.metadata.namespace}/${po.metadata.name}\n`;
      env.api.delete('Pod', po.metadata.namespace, po.metadata.name, grace >= 0 ? { gracePeriodSeconds: grace } : {});
    }
    for (const po of evict) {
      waitGone(env, 'Pod', po.metadata.namespace, po.metadata.name, 120);
      stdout += `pod/${po.metadata.name} evicted\n`;
    }
    stdout += `node/${name} drained\n`;
    stderr += '';
    return { stdout, stderr, exitCode: 0 };
  },
};
