/**
 * `kubectl rollout status|history|undo|restart|pause|resume` for Deployments
 * (k8s.io/kubectl pkg/cmd/rollout/*.go, pkg/polymorphichelpers history.go, rollback.go,
 * objectrestarter.go, rollout_status.go). Revisions are the ReplicaSets' `deployment.kubernetes.io/revision`.
 */
import type { Deployment, KObject, ReplicaSet } from '../../../sim/api/types.js';
import type { CommandResult } from '../../types.js';
import { renderRows } from '../../printers/tabwriter.js';
import type { KubectlEnv, Verb } from '../context.js';
import { KubectlError, RawError, seeHelp } from '../errors.js';
import { int, str } from '../flags.js';
import { printObject } from '../printobj.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES } from '../target.js';
import { parseDryRun } from '../dry-run.js';

const REVISION = 'deployment.kubernetes.io/revision';

function ownedReplicaSets(env: KubectlEnv, d: Deployment): ReplicaSet[] {
  return env.api
    .list<ReplicaSet>('ReplicaSet', d.metadata.namespace)
    .filter((rs) => rs.metadata.ownerReferences?.some((o) => o.uid === d.metadata.uid))
    .sort((a, b) => Number(a.metadata.annotations?.[REVISION] ?? 0) - Number(b.metadata.annotations?.[REVISION] ?? 0));
}

/** DeploymentStatusViewer.Status: the message and whether the rollout is done. */
function statusOf(d: Deployment): { msg: string; done: boolean } {
  const name = d.metadata.name;
  const st = d.status ?? {};
  const want = d.spec.replicas ?? 1;
  if ((d.metadata.generation ?? 0) > (st.observedGeneration ?? 0)) return { msg: 'Waiting for deployment spec update to be observed...\n', done: false };
  const progressing = st.conditions?.find((c) => c.type === 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') throw new KubectlError(`deployment "${name}" exceeded its progress deadline`);
  const updated = st.updatedReplicas ?? 0;
  if (updated < want) return { msg: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${want} new replicas have been updated...\n`, done: false };
  if ((st.replicas ?? 0) > updated) return { msg: `Waiting for deployment "${name}" rollout to finish: ${(st.replicas ?? 0) - updated} old replicas are pending termination...\n`, done: false };
  if ((st.availableReplicas ?? 0) < updated) return { msg: `Waiting for deployment "${name}" rollout to finish: ${st.availableReplicas ?? 0} of ${updated} updated replicas are available...\n`, done: false };
  return { msg: `deployment "${name}" successfully rolled out\n`, done: true };
}

function status(env: KubectlEnv, d0: Deployment, watch: boolean): CommandResult {
  let out = '';
  let last = '';
  for (let i = 0; i < 600; i++) {
    const d = env.api.get<Deployment>('Deployment', d0.metadata.namespace, d0.metadata.name);
    const s = statusOf(d);
    if (s.msg !== last) out += s.msg;
    last = s.msg;
    if (s.done || !watch) return { stdout: out, stderr: '', exitCode: 0 };
    env.cluster.advance(1000);
  }
  return { stdout: out, stderr: 'error: timed out waiting for the condition\n', exitCode: 1 };
}

function history(env: KubectlEnv, d: Deployment, revision: number | undefined): CommandResult {
  const rss = ownedReplicaSets(env, d);
  if (revision) {
    const rs = rss.find((r) => Number(r.metadata.annotations?.[REVISION]) === revision);
    if (!rs) throw new KubectlError(`unable to find the specified revision`);
    const tpl = structuredClone(rs.spec.template) as { metadata?: { labels?: Record<string, string> } };
    return { stdout: `deployment.apps/${d.metadata.name} with revision #${revision}\n${JSON.stringify(tpl)}\n`, stderr: '', exitCode: 0 };
  }
  const rows = [['REVISION', 'CHANGE-CAUSE'], ...rss.map((rs) => [rs.metadata.annotations?.[REVISION] ?? '0', rs.metadata.annotations?.['kubernetes.io/change-cause'] ?? '<none>'])];
  const table = renderRows(rows, { minwidth: 0, tabwidth: 0, padding: 2, padchar: ' ' });
  return { stdout: `deployment.apps/${d.metadata.name} \n${table}\n`, stderr: '', exitCode: 0 };
}

function undo(env: KubectlEnv, d: Deployment, toRevision: number): string {
  const rss = ownedReplicaSets(env, d);
  const rev = (rs: ReplicaSet): number => Number(rs.metadata.annotations?.[REVISION] ?? 0);
  const current = Math.max(0, ...rss.map(rev));
  let target: ReplicaSet | undefined;
  if (toRevision > 0) {
    target = rss.find((rs) => rev(rs) === toRevision);
    if (!target) throw new KubectlError(`unable to find specified revision ${toRevision} in history`);
  } else {
    target = [...rss].reverse().find((rs) => rev(rs) < current);
    if (!target) throw new KubectlError(`no rollout history found for deployment "${d.metadata.name}"`);
  }
  if (rev(target) === current) return `deployment.apps/${d.metadata.name} skipped rollback (current template already matches revision ${rev(target)})\n`;
  const tpl = structuredClone(target.spec.template) as Deployment['spec']['template'];
  if (tpl.metadata?.labels) delete tpl.metadata.labels['pod-template-hash'];
  d.spec.template = tpl;
  env.api.update(d);
  return `deployment.apps/${d.metadata.name} rolled back\n`;
}

const SUBS = ['history', 'pause', 'restart', 'resume', 'status', 'undo'];

export const rolloutVerb: Verb = {
  name: 'rollout',
  run(inv, env) {
    const p = inv.parsed;
    const sub = inv.path[1]?.name;
    if (!sub || !SUBS.includes(sub)) throw new KubectlError(`unknown command "${p.args[0] ?? ''}" for "kubectl rollout"`, seeHelp('rollout'));
    if (p.args.length === 0) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    parseDryRun(p.flags);
    const ns = namespaceOf(env, p);
    const { targets, typesOnly } = parseTargets(p.args);
    if (typesOnly.length) throw new KubectlError('resource(s) were provided, but no name was specified');
    let stdout = '';
    // the resource builder fetches every object before acting on any (r.Infos()), so one
    // missing name fails the whole command and changes nothing
    const objects = targets.map((t) => {
      if (!['Deployment', 'DaemonSet', 'StatefulSet'].includes(t.info.kind)) throw new KubectlError(`no ${sub === 'status' ? 'status viewer' : 'history viewer'} has been implemented for "${t.info.kind}"`);
      return env.api.get<KObject>(t.info.kind, ns.name, t.name);
    });
    for (const obj of objects) {
      const d = obj as Deployment;
      const out = str(p.flags, 'output');
      switch (sub) {
        case 'status':
          return status(env, d, p.flags['watch'] !== false);
        case 'history':
          return history(env, d, int(p.flags, 'revision') || undefined);
        case 'undo':
          stdout += undo(env, d, int(p.flags, 'to-revision') ?? 0);
          break;
        case 'restart': {
          if (d.spec.paused) throw new KubectlError(`deployments.apps "${d.metadata.name}" can't restart paused deployment (run rollout resume first)`);
          const tpl = d.spec.template;
          tpl.metadata = { ...(tpl.metadata ?? {}), annotations: { ...(tpl.metadata?.annotations ?? {}), 'kubectl.kubernetes.io/restartedAt': env.cluster.timestamp() } };
          stdout += printObject(env.api.update(d), { output: out, operation: 'restarted', dryRun: 'none', generated: false });
          break;
        }
        case 'pause':
        case 'resume': {
          const want = sub === 'pause';
          if (Boolean(d.spec.paused) === want) throw new KubectlError(`deployments.apps "${d.metadata.name}" is ${want ? 'already paused' : 'not paused'}`);
          if (want) d.spec.paused = true;
          else delete d.spec.paused;
          stdout += printObject(env.api.update(d), { output: out, operation: want ? 'paused' : 'resumed', dryRun: 'none', generated: false });
          break;
        }
      }
    }
    return { stdout, stderr: '', exitCode: 0 };
  },
};
