/**
 * `kubectl create` (k8s.io/kubectl pkg/cmd/create/create.go): `create -f FILE…` sends every
 * object of the manifests; `create <generator> NAME …` builds one object client-side (one file per
 * generator under ./create/). `create service` and `create secret` are command groups.
 */
import { ApiError } from '../../../sim/api/errors.js';
import type { KObject } from '../../../sim/api/types.js';
import type { CommandResult } from '../../types.js';
import type { KubectlEnv, Verb } from '../context.js';
import { klogWarning, parseDryRun } from '../dry-run.js';
import { errorResult, formatApiError, KubectlError, seeHelp } from '../errors.js';
import { bool, FlagError, list, parseFlags, str, type Parsed } from '../flags.js';
import { readManifests } from '../manifest.js';
import { checkOutput, printObject } from '../printobj.js';
import { validationDirective, warningLines } from '../validate.js';
import { firstPositional, namespaceOf } from '../target.js';
import { lastAppliedAnnotate } from './apply.js';
import { configMapGenerator } from './create/configmap.js';
import { deploymentGenerator } from './create/deployment.js';
import { ingressGenerator } from './create/ingress.js';
import { cronJobGenerator, jobGenerator } from './create/job.js';
import { clusterRoleBindingGenerator, clusterRoleGenerator, roleBindingGenerator, roleGenerator } from './create/rbac.js';
import { CREATE_COMMON_FLAGS, runGenerator } from './create/run-generator.js';
import { SECRET_GENERATORS } from './create/secret.js';
import { SERVICE_GENERATORS } from './create/service.js';
import { namespaceGenerator, priorityClassGenerator, serviceAccountGenerator } from './create/simple.js';
import type { Generator } from './create/types.js';
import { infoForKind } from '../../../sim/api/registry.js';

const GENERATORS: readonly Generator[] = [
  clusterRoleGenerator,
  clusterRoleBindingGenerator,
  configMapGenerator,
  cronJobGenerator,
  deploymentGenerator,
  ingressGenerator,
  jobGenerator,
  namespaceGenerator,
  priorityClassGenerator,
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

const FILE_FLAGS = [
  ...CREATE_COMMON_FLAGS,
  { name: 'filename', short: 'f', type: 'stringSlice' as const },
  { name: 'recursive', short: 'R', type: 'bool' as const },
  { name: 'edit', type: 'bool' as const },
  { name: 'raw', type: 'string' as const },
  { name: 'selector', short: 'l', type: 'string' as const },
  { name: 'windows-line-endings', type: 'bool' as const },
];

const VALUE_FLAGS = new Set(
  [...FILE_FLAGS, { name: 'namespace', short: 'n', type: 'string' as const }, { name: 'kubeconfig', type: 'string' as const }, { name: 'context', type: 'string' as const }]
    .filter((f) => f.type !== 'bool' && !('noOptDefault' in f && f.noOptDefault !== undefined))
    .flatMap((f) => [`--${f.name}`, ...('short' in f && f.short ? [`-${f.short}`] : [])]),
);

const matches = (g: { name: string; aliases?: readonly string[] }, word: string): boolean => g.name === word || (g.aliases ?? []).includes(word);

/** `error when creating "<file>": ` inside a server message (helpers.go AddSourceToErr). */
export function withSource(e: unknown, verb: string, source: string): unknown {
  if (e instanceof ApiError && e.reason !== 'Invalid') return new ApiError(e.reason, `error when ${verb} "${source}": ${e.message}`, e.code, e.details);
  return e;
}

/** The namespace an object from a manifest goes to; a clash with -n is an error (resource builder). */
export function manifestNamespace(obj: KObject, ns: { name: string; explicit: boolean }): string | undefined {
  const info = infoForKind(obj.kind);
  if (!info.namespaced) return undefined;
  const own = obj.metadata.namespace;
  if (own && ns.explicit && own !== ns.name)
    throw new KubectlError(`the namespace from the provided object "${own}" does not match the namespace "${ns.name}". You must pass '--namespace=${own}' to perform this operation.`);
  return own || ns.name;
}

async function createFromFiles(argv: string[], env: KubectlEnv, global: Parsed): Promise<CommandResult> {
  let p: Parsed;
  try {
    p = parseFlags(argv, FILE_FLAGS);
  } catch (e) {
    if (e instanceof FlagError) return errorResult(e, 'create');
    throw e;
  }
  const files = list(p.flags, 'filename');
  if (files.length === 0) throw new KubectlError('must specify one of -f and -k');
  const dry = parseDryRun(p.flags);
  const output = str(p.flags, 'output');
  checkOutput(output);
  const ns = namespaceOf(env, p, global);
  const fieldValidation = validationDirective(p.flags);
  const objs = readManifests(env, files, bool(p.flags, 'recursive'));
  let stdout = '';
  let stderr = dry.warning ? klogWarning(env.cluster.now(), dry.warning) : '';
  let failed = false;
  for (const { obj, source } of objs) {
    try {
      const send = structuredClone(obj);
      const target = manifestNamespace(send, ns);
      if (target) send.metadata.namespace = target;
      if (bool(p.flags, 'save-config')) lastAppliedAnnotate(send);
      const warnings: string[] = [];
      const shown = dry.mode === 'client' ? send : env.api.create(send, { dryRun: dry.mode === 'server', fieldValidation, warnings });
      stderr += warningLines(env, warnings);
      stdout += printObject(shown, { output, operation: 'created', dryRun: dry.mode, generated: false });
    } catch (e) {
      failed = true;
      const err = withSource(e, 'creating', source);
      stderr += err instanceof ApiError ? `${formatApiError(err)}\n` : errorResult(err, 'create').stderr;
    }
  }
  return { stdout, stderr, exitCode: failed ? 1 : 0 };
}

function runGroup(group: Group, argv: string[], env: KubectlEnv, global: Parsed): Promise<CommandResult> | CommandResult {
  const idx = firstPositional(argv, VALUE_FLAGS);
  const word = idx >= 0 ? argv[idx]! : undefined;
  const sub = word === undefined ? undefined : group.subs.find((g) => matches(g, word));
  if (!sub) {
    const rest = idx >= 0 ? argv.slice(idx).filter((a) => !a.startsWith('-')).join(' ') : '';
    if (!rest) throw new KubectlError(`Required resource not specified.`, seeHelp(`create ${group.name}`));
    throw new KubectlError(`unknown command "${rest}"`, seeHelp(`create ${group.name}`));
  }
  return runGenerator(sub, [...argv.slice(0, idx), ...argv.slice(idx + 1)], env, global);
}

export const createVerb: Verb = {
  name: 'create',
  short: 'Create a resource from a file or from stdin',
  run(argv, env, global) {
    const idx = firstPositional(argv, VALUE_FLAGS);
    if (idx < 0) return createFromFiles(argv, env, global);
    const word = argv[idx]!;
    const rest = [...argv.slice(0, idx), ...argv.slice(idx + 1)];
    const group = GROUPS.find((g) => matches(g, word));
    if (group) return runGroup(group, rest, env, global);
    const gen = GENERATORS.find((g) => matches(g, word));
    if (gen) return runGenerator(gen, rest, env, global);
    if (argv.some((a) => a === '-f' || a.startsWith('--filename') || /^-f./.test(a))) return createFromFiles(argv, env, global);
    throw new KubectlError(`Unexpected args: [${argv.filter((a) => !a.startsWith('-')).join(' ')}]`, seeHelp('create'));
  },
};
