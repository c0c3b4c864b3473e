/**
 * `kubectl autoscale` (k8s.io/kubectl pkg/cmd/autoscale/autoscale.go): an autoscaling/v2
 * HorizontalPodAutoscaler for each scalable resource named, targeting it by kind and name, with
 * --min/--max and a CPU (--cpu, or the deprecated --cpu-percent) and/or memory (--memory) target:
 * `70%` is Utilization, a quantity (or a bare number: millicores / mebibytes) is AverageValue.
 */
import type { KObject } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { KubectlError, RawError } from '../errors.js';
import { checkRequired, int, str } from '../flags.js';
import { parseDryRun } from '../dry-run.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES } from '../target.js';
import { printObject } from '../printobj.js';
import { recordChangeCause } from '../record.js';

const SCALABLE = ['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController'];

type Target = { type: 'Utilization'; averageUtilization: number } | { type: 'AverageValue'; averageValue: string };

/** parseResourceInput: `70%` → Utilization; `500` → 500m / 500Mi; `500m`, `1Gi` → AverageValue. */
function parseResourceInput(input: string, resource: 'cpu' | 'memory'): Target {
  const s = input.trim();
  if (s === '') throw new KubectlError('empty input');
  if (s.endsWith('%')) {
    const n = Number(s.slice(0, -1));
    if (!Number.isInteger(n)) throw new KubectlError(`invalid percentage value: ${s}`);
    return { type: 'Utilization', averageUtilization: n };
  }
  if (/^[0-9]+(\.[0-9]+)?$/.test(s)) return { type: 'AverageValue', averageValue: `${Number(s)}${resource === 'cpu' ? 'm' : 'Mi'}` };
  if (!/^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.test(s)) throw new KubectlError(`invalid resource ${resource} value: ${s}`);
  return { type: 'AverageValue', averageValue: s };
}

export const autoscaleVerb: Verb = {
  name: 'autoscale',
  run(inv, env) {
    const p = inv.parsed;
    checkRequired(p, ['max']);
    const max = int(p.flags, 'max') ?? -1;
    const min = int(p.flags, 'min') ?? -1;
    const cpuPercent = int(p.flags, 'cpu-percent') ?? -1;
    const cpu = str(p.flags, 'cpu') ?? '';
    const memory = str(p.flags, 'memory') ?? '';
    if (max < 1) throw new KubectlError(`--max=MAXPODS is required and must be at least 1, max: ${max}`);
    if (max < min) throw new KubectlError(`--max=MAXPODS must be larger or equal to --min=MINPODS, max: ${max}, min: ${min}`);
    if (cpuPercent > 0 && cpu !== '') throw new KubectlError('--cpu-percent and --cpu are mutually exclusive');
    const cpuTarget = cpu !== '' ? parseResourceInput(cpu, 'cpu') : undefined;
    const memTarget = memory !== '' ? parseResourceInput(memory, 'memory') : undefined;
    if (p.args.length === 0) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    const dry = parseDryRun(p.flags);
    const ns = namespaceOf(env, p);
    const { targets, typesOnly } = parseTargets(p.args, env.cluster.discovery(), env.shortNames);
    if (typesOnly.length > 0) throw new KubectlError('resource(s) were provided, but no name was specified');
    let stdout = '';
    for (const t of targets) {
      const obj = env.api.get(t.info.kind, ns.name, t.name);
      if (!SCALABLE.includes(t.info.kind))
        throw new KubectlError(`cannot autoscale a ${t.info.kind}: could not find scale subresource for ${t.info.group}/${t.info.version}, Resource=${t.info.resource} in discovery information`);
      const metrics: unknown[] = [];
      if (cpuPercent > 0) metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpuPercent } } });
      if (cpuTarget) metrics.push({ type: 'Resource', resource: { name: 'cpu', target: cpuTarget } });
      if (memTarget) metrics.push({ type: 'Resource', resource: { name: 'memory', target: memTarget } });
      const hpa: KObject = {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: str(p.flags, 'name') || obj.metadata.name, ...(ns.explicit ? { namespace: ns.name } : {}) },
        spec: {
          maxReplicas: max,
          ...(metrics.length > 0 ? { metrics } : {}),
          ...(min > 0 ? { minReplicas: min } : {}),
          scaleTargetRef: { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name },
        },
        status: { currentMetrics: null, desiredReplicas: 0 },
      };
      if (dry.mode === 'client') {
        stdout += printObject(hpa, { output: str(p.flags, 'output'), operation: 'created', dryRun: dry.mode, generated: true });
        continue;
      }
      const created = env.api.create(recordChangeCause(inv, { ...hpa, metadata: { ...hpa.metadata, namespace: ns.name } }), { dryRun: dry.mode === 'server' });
      stdout += printObject(created, { output: str(p.flags, 'output'), operation: 'autoscaled', dryRun: dry.mode, generated: false });
    }
    return { stdout, stderr: '', exitCode: 0 };
  },
};
