/**
 * `kubectl create` (k8s.io/kubectl pkg/cmd/create/create.go): `create -f FILE…` sends every
 * object of the manifests; `create <generator> NAME …` builds one object client-side (one file per
 * generator under ./create/). `create service` and `create secret` are command groups.
 */
import { ApiError } from '../../../sim/api/errors.js';
import type { CommandResult } from '../../types.js';
import type { Invocation, KubectlEnv, Verb } from '../context.js';
import { klogWarning, parseDryRun } from '../dry-run.js';
import { errorResult, formatApiError, KubectlError, seeHelp } from '../errors.js';
import { bool, list, str } from '../flags.js';
import { manifestNamespace, withSource } from '../manifest.js';
import { manifestsOrKustomization } from './kustomize.js';
import { checkOutput, printObject } from '../printobj.js';
import { namespaceOf } from '../target.js';
import { lastAppliedAnnotate } from '../last-applied.js';
import { validationDirective, warningLines } from '../validate.js';
import { Streams } from '../streams.js';
import { configMapGenerator } from './create/configmap.js';
import { deploymentGenerator } from './create/deployment.js';
import { ingressGenerator } from './create/ingress.js';
import { cronJobGenerator, jobGenerator } from './create/job.js';
import { clusterRoleBindingGenerator, clusterRoleGenerator, roleBindingGenerator, roleGenerator } from './create/rbac.js';
import { runGenerator } from './create/run-generator.js';
import { SECRET_GENERATORS } from './create/secret.js';
import { SERVICE_GENERATORS } from './create/service.js';
import { podDisruptionBudgetGenerator } from './create/pdb.js';
import { quotaGenerator } from './create/quota.js';
import { namespaceGenerator, priorityClassGenerator, serviceAccountGenerator } from './create/simple.js';
import type { Generator } from './create/types.js';
import { recordChangeCause } from '../record.js';

const GENERATORS: readonly Generator[] = [
  clusterRoleGenerator,
  clusterRoleBindingGenerator,
  configMapGenerator,
  cronJobGenerator,
  deploymentGenerator,
  ingressGenerator,
  jobGenerator,
  namespaceGenerator,
  podDisruptionBudgetGenerator,
  priorityClassGenerator,
  quotaGenerator,
  roleGenerator,
  roleBindingGenerator,
  serviceAccountGenerator,
];

interface Group {
  name: string;
  aliases: readonly string[];
  subs: readonly Generator[];
}

const GROUPS: readonly Group[] = [
  { name: 'service', aliases: ['svc'], subs: SERVICE_GENERATORS },
  { name: 'secret', aliases: [], subs: SECRET_GENERATORS },
];



async function createFromFiles(inv: Invocation, env: KubectlEnv): Promise<CommandResult> {
  const p = inv.parsed;
  const input = manifestsOrKustomization(env, p, 'create');
  if (!input) throw new KubectlError('must specify one of -f and -k');
  const dry = parseDryRun(p.flags);
  const output = str(p.flags, 'output');
  checkOutput(output);
  const ns = namespaceOf(env, p);
  const fieldValidation = validationDirective(p.flags);
  const objs = input.objs;
  const io = new Streams();
  io.err(input.stderr + (dry.warning ? klogWarning(env.cluster.now(), dry.warning) : ''));
  // the visitor's errors are aggregated and printed by CheckErr after every object was tried
  const errors: string[] = [];
  for (const { obj, source } of objs) {
    const warnings: string[] = [];
    try {
      const send = structuredClone(obj);
      const target = manifestNamespace(send, ns, env.cluster.discovery());
      if (target) send.metadata.namespace = target;
      if (bool(p.flags, 'save-config')) lastAppliedAnnotate(send);
      Object.assign(send, recordChangeCause(inv, send));
      const shown = dry.mode === 'client' ? send : env.api.create(send, { dryRun: dry.mode === 'server', fieldValidation, warnings });
      io.err(warningLines(env, warnings));
      io.out(printObject(shown, { output, operation: 'created', dryRun: dry.mode, generated: false }));
    } catch (e) {
      io.err(warningLines(env, warnings));
      const err = withSource(e, 'creating', source);
      errors.push(err instanceof ApiError ? `${formatApiError(err)}\n` : errorResult(err, 'create').stderr);
    }
  }
  // the objects kubectl could not map come last (the builder's aggregated error)
  for (const e of input.errors) errors.push(errorResult(e, 'create').stderr);
  for (const e of errors) io.err(e);
  return io.result(errors.length ? 1 : 0);
}

const matches = (g: { name: string; aliases?: readonly string[] }, word: string): boolean => g.name === word || (g.aliases ?? []).includes(word);

export const createVerb: Verb = {
  name: 'create',
  run(inv, env) {
    const p = inv.parsed;
    const [, first, second] = inv.path;
    if (!first) {
      if (p.args.length > 0 && list(p.flags, 'filename').length === 0 && !str(p.flags, 'kustomize')) throw new KubectlError(`Unexpected args: [${p.args.join(' ')}]`, seeHelp('create'));
      return createFromFiles(inv, env);
    }
    const group = GROUPS.find((g) => matches(g, first.name));
    if (group) {
      const sub = second && group.subs.find((g) => matches(g, second.name));
      if (!sub) throw new KubectlError(p.args.length ? `unknown command "${p.args.join(' ')}"` : 'Required resource not specified.', seeHelp(`create ${group.name}`));
      return runGenerator(sub, p, env);
    }
    const gen = GENERATORS.find((g) => matches(g, first.name));
    if (!gen) throw new KubectlError(`cka-lab does not simulate "kubectl ${inv.words}" yet`);
    return runGenerator(gen, p, env);
  },
};
