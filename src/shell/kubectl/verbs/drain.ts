/**
 * `kubectl drain NODE` (k8s.io/kubectl pkg/drain/drain.go, filters.go): cordon, then evict every
 * pod on the node except mirror pods and (with --ignore-daemonsets) DaemonSet pods; refuse
 * unmanaged pods without --force and pods with emptyDir without --delete-emptydir-data.
 * Evictions go through the Eviction API, so PodDisruptionBudgets hold them back (evictAll).
 */
import type { Pod } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { bool, int } from '../flags.js';
import type { KubectlEnv } from '../context.js';
import { ApiError } from '../../../sim/api/errors.js';
import { DeadlineReached, INTERRUPTED_STATUS } from '../../budget.js';
import { pollUntil } from '../poll.js';
import { durationFlag } from '../duration.js';
import { setCordon } from './cordon.js';
import { goDuration } from '../../../util/go-duration.js';
import { orderedResult, type Chunk } from '../../commands/util.js';

export const drainVerb: Verb = {
  name: 'drain',
  async run(inv, env) {
    const p = inv.parsed;
    const name = p.args[0]?.replace(/^(node|nodes|no)\//, '');
    if (!name) throw new KubectlError('USAGE: drain NODE [flags]', "See 'kubectl drain -h' for help and examples");
    const stdout = setCordon(env, name, true);
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
    const chunks: Chunk[] = [{ stream: 'stdout', text: stdout }];
    if (warnings.length) chunks.push({ stream: 'stderr', text: `Warning: ${warnings.join('; ')}\n` });
    const r = await evictAll(env, evict, {
      useDelete: bool(p.flags, 'disable-eviction'),
      grace: int(p.flags, 'grace-period') ?? -1,
      timeoutMs: durationFlag(p, 'timeout', 0),
    }, chunks);
    if (r.error) {
      const pending = r.pending.map((po) => `pod/${po.metadata.name}\n`).join('');
      chunks.push({ stream: 'stderr', text: `There are pending pods in node "${name}" when an error occurred: ${r.error}\n${pending}error: unable to drain node "${name}" due to error: ${r.error}, continuing command...\nThere are pending nodes to be drained:\n ${name}\nerror: ${r.error}\n` });
      return orderedResult(chunks, 1);
    }
    if (r.stopped) {
      chunks.push({ stream: 'stderr', text: `cka-lab: drain stopped after ${goDuration(DRAIN_WINDOW_MS)} of simulated time with pods still pending; kubectl retries until --timeout or Ctrl-C\n` });
      return orderedResult(chunks, INTERRUPTED_STATUS);
    }
    chunks.push({ stream: 'stdout', text: `node/${name} drained\n` });
    return orderedResult(chunks, 0);
  },
};


/** How long a drain without --timeout keeps retrying blocked evictions here. */
export const DRAIN_WINDOW_MS = 10 * 60_000;

/**
 * drain.go DeleteOrEvictPods: evict (or with --disable-eviction delete) every pod; an eviction a
 * budget refuses (429) is retried 5 s later, printing kubectl's line each time, while the cluster
 * moves on (replacements start elsewhere, the budget recovers); an accepted pod is waited for
 * until it is gone (`pod/NAME evicted`). --timeout bounds the whole, as drain.go's globalTimeout.
 */
async function evictAll(env: KubectlEnv, pods: Pod[], o: { useDelete: boolean; grace: number; timeoutMs: number }, chunks: Chunk[]): Promise<{ error?: string; stopped?: boolean; pending: Pod[] }> {
  const c = env.cluster;
  // what drain printed so far goes out before a background job that wakes meanwhile writes
  const flush = (): void => {
    if (env.emit) for (const ch of chunks.splice(0)) if (ch.text) env.emit(ch.stream, ch.text);
  };
  const start = c.now();
  const deadline = start + (o.timeoutMs > 0 ? o.timeoutMs : DRAIN_WINDOW_MS);
  const retryAt = new Map<Pod, number>(pods.map((po) => [po, start]));
  const waiting: Pod[] = [];
  const errors: string[] = [];
  const verb = o.useDelete ? 'deleting' : 'evicting';
  const done = o.useDelete ? 'deleted' : 'evicted';
  const id = (po: Pod): { ns: string; name: string } => ({ ns: po.metadata.namespace ?? 'default', name: po.metadata.name });
  try {
    for (let guard = 0; guard < 100_000; guard++) {
      env.budget?.step();
      const now = c.now();
      const due = [...retryAt].filter(([, at]) => at <= now).map(([po]) => po);
      if (due.length) {
        chunks.push({ stream: 'stdout', text: due.map((po) => `${verb} pod ${id(po).ns}/${id(po).name}\n`).join('') });
        for (const po of due) {
          const { ns, name } = id(po);
          try {
            if (o.useDelete) env.api.delete('Pod', ns, name, o.grace >= 0 ? { gracePeriodSeconds: o.grace } : {});
            else env.api.evict(ns, name, o.grace >= 0 ? { gracePeriodSeconds: o.grace } : {});
            retryAt.delete(po);
            waiting.push(po);
          } catch (e) {
            if (e instanceof ApiError && e.reason === 'NotFound') {
              retryAt.delete(po);
            } else if (e instanceof ApiError && e.reason === 'TooManyRequests') {
              chunks.push({ stream: 'stderr', text: `error when evicting pods/${JSON.stringify(name)} -n ${JSON.stringify(ns)} (will retry after 5s): ${e.message}\n` });
              retryAt.set(po, now + 5000);
            } else {
              retryAt.delete(po);
              errors.push(`error when ${verb} pods/${JSON.stringify(name)} -n ${JSON.stringify(ns)}: ${e instanceof ApiError ? e.message : String(e)}`);
            }
          }
        }
      }
      for (const po of [...waiting]) {
        if (c.store.get('Pod', id(po).ns, id(po).name)) continue;
        waiting.splice(waiting.indexOf(po), 1);
        chunks.push({ stream: 'stdout', text: `pod/${id(po).name} ${done}\n` });
      }
      if (retryAt.size === 0 && waiting.length === 0) break;
      if (c.now() >= deadline) {
        const pending = [...retryAt.keys(), ...waiting];
        if (o.timeoutMs > 0) return { error: `drain did not complete within ${goDuration(o.timeoutMs)}`, pending };
        return { stopped: true, pending };
      }
      await pollUntil(env, Math.min(deadline, c.now() + 1000), () => undefined, flush);
    }
  } catch (e) {
    // killed by a `timeout` around it: what it printed stays on the terminal
    if (e instanceof DeadlineReached) e.stdout = chunks.filter((ch) => ch.stream === 'stdout').map((ch) => ch.text).join('');
    throw e;
  }
  if (errors.length) return { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`, pending: [] };
  return { pending: [] };
}
