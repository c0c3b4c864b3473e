/**
 * `kubectl scale` (k8s.io/kubectl pkg/cmd/scale/scale.go): sets spec.replicas of deployments,
 * replicasets, statefulsets (and replicationcontrollers), honouring --current-replicas.
 */
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { int, str, checkRequired } from '../flags.js';
import { parseDryRun } from '../dry-run.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES } from '../target.js';
import { printObject } from '../printobj.js';
import { RawError } from '../errors.js';
import { recordChangeCause } from '../record.js';

const SCALABLE = ['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController'];

export const scaleVerb: Verb = {
  name: 'scale',
  run(inv, env) {
    const p = inv.parsed;
    checkRequired(p, ['replicas']);
    const replicas = int(p.flags, 'replicas') ?? 0;
    if (replicas < 0) throw new KubectlError('The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
    if (p.args.length === 0) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    const dry = parseDryRun(p.flags);
    const ns = namespaceOf(env, p);
    const { targets, typesOnly } = parseTargets(p.args, env.cluster.discovery());
    if (typesOnly.length > 0) throw new KubectlError(`resource(s) were provided, but no name was specified`);
    let stdout = '';
    // scale.go visits every resource before scaling any: one missing name changes nothing
    const objects = targets.map((t) => {
      if (!SCALABLE.includes(t.info.kind)) throw new KubectlError(`cannot scale ${t.info.resource} "${t.name}": no scaler has been implemented for {"${t.info.group}" "${t.info.kind}"}`);
      return env.api.get(t.info.kind, ns.name, t.name);
    });
    for (const obj of objects) {
      const spec = obj.spec as { replicas?: number };
      const current = int(p.flags, 'current-replicas') ?? -1;
      if (current >= 0 && (spec.replicas ?? 1) !== current)
        throw new KubectlError(`Expected replicas to be ${current}, was ${spec.replicas ?? 1}`);
      spec.replicas = replicas;
      const updated = dry.mode === 'client' ? obj : env.api.update(recordChangeCause(inv, obj), { dryRun: dry.mode === 'server' });
      stdout += printObject(updated, { output: str(p.flags, 'output'), operation: 'scaled', dryRun: dry.mode, generated: false });
    }
    return { stdout, stderr: '', exitCode: 0 };
  },
};
