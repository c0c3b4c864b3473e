/**
 * `kubectl kustomize [DIR]` (k8s.io/kubectl pkg/cmd/kustomize, kustomize v5.7.1 krusty): build
 * the kustomization in DIR (default `.`) on the workstation's filesystem and print the YAML;
 * deprecation notes go to stderr, build errors read `error: <kustomize's message>`.
 */
import { validationDirective } from '../validate.js';
import { resolvePath } from '../../../sim/node/vfs.js';
import { build, KustomizeError, renderYaml } from '../../kustomize/index.js';
import type { Obj } from '../../kustomize/types.js';
import type { KObject } from '../../../sim/api/types.js';
import type { KubectlEnv, Verb } from '../context.js';
import { KubectlError, seeHelp } from '../errors.js';
import { bool, list, str, type Parsed } from '../flags.js';
import { readManifests, type ManifestObject } from '../manifest.js';

/** Build DIR for `kustomize`, `apply -k`, `create -k`, `delete -k`; warnings come back as stderr text. */
export function kustomizeDir(env: KubectlEnv, dir: string): { objects: Obj[]; stderr: string } {
  try {
    const r = build(env.fs, resolvePath(env.cwd, dir), dir);
    return { objects: r.objects, stderr: r.warnings.map((w) => `${w}\n`).join('') };
  } catch (e) {
    if (e instanceof KustomizeError) throw new KubectlError(e.message);
    throw e;
  }
}

/** The built objects as manifests (`-k` verbs send them like `-f` documents). */
export function kustomizeObjects(env: KubectlEnv, dir: string): { objs: { obj: KObject; source: string }[]; stderr: string } {
  const r = kustomizeDir(env, dir);
  return { objs: r.objects.map((o) => ({ obj: structuredClone(o) as unknown as KObject, source: dir })), stderr: r.stderr };
}

export const kustomizeVerb: Verb = {
  name: 'kustomize',
  run(inv, env) {
    const p = inv.parsed;
    if (p.args.length > 1) throw new KubectlError('specify one path to a kustomization directory', seeHelp('kustomize'));
    const r = kustomizeDir(env, p.args[0] ?? '.');
    return { stdout: renderYaml(r.objects), stderr: r.stderr, exitCode: 0 };
  },
};

/**
 * The objects of `-f FILE…` or `-k DIR` (cli-runtime FilenameOptions.validate: `-k` takes no
 * `-f` and no `-R`), with the kustomize warnings to print on stderr and the objects kubectl
 * could not map (printed after the others, ContinueOnError).
 */
export function manifestsOrKustomization(
  env: KubectlEnv,
  p: Parsed,
  verb: string,
): { objs: ManifestObject[]; stderr: string; errors: unknown[] } | undefined {
  const files = list(p.flags, 'filename');
  const dir = str(p.flags, 'kustomize');
  const errors: unknown[] = [];
  // create and apply validate each document unless told not to (validateObjectKind)
  const validate = (verb === 'create' || verb === 'apply') && validationDirective(p.flags) !== 'Ignore';
  if (dir === undefined || dir === '') return files.length ? { objs: readManifests(env, files, bool(p.flags, 'recursive'), verb, errors, validate), stderr: '', errors } : undefined;
  if (files.length > 0) throw new KubectlError('only one of -f or -k can be specified');
  if (bool(p.flags, 'recursive')) throw new KubectlError("the -k flag can't be used with -f or -R");
  const r = kustomizeObjects(env, dir);
  if (r.objs.length === 0) throw new KubectlError(`no objects passed to ${verb}`);
  return { ...r, errors };
}
