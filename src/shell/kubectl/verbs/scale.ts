/**
 * `kubectl scale` (k8s.io/kubectl pkg/cmd/scale/scale.go, pkg/scale/scale.go): every resource
 * named is fetched first (one missing name changes nothing), then scaled through its scale
 * subresource (sim/api/scale.ts): with --current-replicas a GET of the Scale and the precondition
 * (`Expected replicas to be 2, was 3`), then the merge patch of spec.replicas. So a custom
 * resource whose CRD declares `subresources.scale` scales through its specReplicasPath, and a
 * resource without one is answered with the server's NotFound.
 */
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { int, str, checkRequired } from '../flags.js';
import { parseDryRun } from '../dry-run.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES } from '../target.js';
import { printObject } from '../printobj.js';
import { RawError } from '../errors.js';
import { recordChangeCause } from '../record.js';

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
    const { targets, typesOnly } = parseTargets(p.args, env.cluster.discovery(), env.shortNames);
    if (typesOnly.length > 0) throw new KubectlError(`resource(s) were provided, but no name was specified`);
    let stdout = '';
    // scale.go visits every resource before scaling any: one missing name changes nothing
    const objects = targets.map((t) => env.api.get(t.info.kind, ns.name, t.name));
    const current = int(p.flags, 'current-replicas') ?? -1;
    for (const obj of objects) {
      let updated = obj;
      if (dry.mode === 'client') {
        (obj.spec as { replicas?: number }).replicas = replicas;
      } else {
        const on = obj.metadata.namespace;
        if (current >= 0) {
          // ScalePrecondition.validate against the Scale's spec.replicas
          const was = env.api.getScale(obj.kind, on, obj.metadata.name).spec.replicas ?? 0;
          if (was !== current) throw new KubectlError(`Expected replicas to be ${current}, was ${was}`);
        }
        updated = env.api.patchScale(obj.kind, on, obj.metadata.name, replicas, { dryRun: dry.mode === 'server' });
        // --record: a second patch with the change-cause annotation (Recorder.MakeRecordMergePatch)
        const recorded = recordChangeCause(inv, updated);
        if (recorded !== updated && dry.mode !== 'server') updated = env.api.update(recorded);
      }
      stdout += printObject(updated, { output: str(p.flags, 'output'), operation: 'scaled', dryRun: dry.mode, generated: false });
    }
    return { stdout, stderr: '', exitCode: 0 };
  },
};
