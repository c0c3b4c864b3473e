/**
 * `kubectl create job` and `kubectl create cronjob` (k8s.io/kubectl pkg/cmd/create/create_job.go,
 * create_cronjob.go): container named after the object, args after `--` as its command; a Job's
 * pods never restart, a CronJob's restart OnFailure. `create job --from=cronjob/x` copies the
 * CronJob's job template.
 */
import type { CronJob, KObject } from '../../../../sim/api/types.js';
import { KubectlError } from '../../errors.js';
import { str } from '../../flags.js';
import { meta, type GenContext, type Generator } from './types.js';

function podTemplate(ctx: GenContext, restartPolicy: string): Record<string, unknown> {
  const command = ctx.p.dashArgs;
  return {
    metadata: {},
    spec: {
      containers: [{ name: ctx.name, image: str(ctx.p.flags, 'image')!, ...(command.length ? { command: [...command] } : {}), resources: {} }],
      restartPolicy,
    },
  };
}

export const jobGenerator: Generator = {
  name: 'job',
  path: 'create job',
  errorPrefix: 'failed to create job: ',
  build(ctx) {
    const from = str(ctx.p.flags, 'from');
    const image = str(ctx.p.flags, 'image');
    if (from === undefined && image === undefined) throw new KubectlError('either --image or --from must be specified');
    if (from !== undefined && image !== undefined) throw new KubectlError('either --image or --from must be specified');
    if (from !== undefined) {
      const [type, name] = from.split('/');
      if (!name || !['cronjob', 'cronjobs', 'cj', 'cronjobs.batch'].includes(type!.toLowerCase())) throw new KubectlError(`from must be an existing cronjob: unknown object type ${type}`);
      const cj = ctx.env.api.get<CronJob>('CronJob', ctx.ns.name, name);
      const tpl = cj.spec.jobTemplate as { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: unknown };
      return {
        kind: 'Job',
        apiVersion: 'batch/v1',
        metadata: {
          name: ctx.name,
          ...(ctx.ns.explicit ? { namespace: ctx.ns.name } : {}),
          ...(tpl.metadata?.labels ? { labels: tpl.metadata.labels } : {}),
          annotations: { 'cronjob.kubernetes.io/instantiate': 'manual', ...(tpl.metadata?.annotations ?? {}) },
          ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cj.metadata.name, uid: cj.metadata.uid!, controller: true }],
        },
        spec: tpl.spec,
        status: {},
      } as KObject;
    }
    return { kind: 'Job', apiVersion: 'batch/v1', metadata: meta(ctx), spec: { template: podTemplate(ctx, 'Never') }, status: {} } as KObject;
  },
};

export const cronJobGenerator: Generator = {
  name: 'cronjob',
  aliases: ['cj'],
  path: 'create cronjob',
  required: ['image', 'schedule'],
  errorPrefix: 'failed to create cronjob: ',
  build(ctx) {
    const restart = str(ctx.p.flags, 'restart') ?? 'OnFailure';
    if (restart !== 'OnFailure' && restart !== 'Never') throw new KubectlError(`restart=${restart} is not supported. Only OnFailure and Never are supported for cronjob`);
    return {
      kind: 'CronJob',
      apiVersion: 'batch/v1',
      metadata: meta(ctx),
      spec: {
        schedule: str(ctx.p.flags, 'schedule')!,
        jobTemplate: { metadata: { name: ctx.name }, spec: { template: podTemplate(ctx, restart) } },
      },
      status: {},
    } as KObject;
  },
};
