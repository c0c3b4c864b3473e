/**
 * `kubectl apply --server-side` (k8s.io/kubectl pkg/cmd/apply/apply.go): the flag checks of
 * ApplyOptions.Validate, and applyOneObject's server-side branch, which sends the whole manifest
 * as an apply patch under a field manager (`kubectl` unless --field-manager names another) and
 * prints `serverside-applied`. A conflict comes back with apply.go's advice appended.
 */
import { ApiError } from '../../sim/api/errors.js';
import { entryOwns, LAST_APPLIED, unionFieldsV1 } from '../../sim/api/managed-fields.js';
import type { KObject, ManagedFieldsEntry } from '../../sim/api/types.js';
import type { ApplyOptions } from '../../sim/apiserver.js';
import type { KubectlEnv } from './context.js';
import type { DryRun } from './dry-run.js';
import { KubectlError } from './errors.js';
import { bool, str, type Parsed } from './flags.js';

/** apply.go fieldManagerServerSideApply and FieldManagerClientSideApply; GetApplyFieldManagerFlag. */
export function applyFieldManager(p: Parsed, serverSide: boolean): string {
  if (p.changed.has('field-manager')) return str(p.flags, 'field-manager') ?? '';
  return serverSide ? 'kubectl' : 'kubectl-client-side-apply';
}

/**
 * ApplyOptions.Validate in its order (without --applyset, an alpha behind KUBECTL_APPLYSET);
 * the texts match what kubectl v1.35 prints for them (recorded from the real binary).
 */
export function validateApplyFlags(p: Parsed, dry: DryRun): void {
  const serverSide = bool(p.flags, 'server-side');
  const force = bool(p.flags, 'force');
  const all = bool(p.flags, 'all');
  const selector = str(p.flags, 'selector') ?? '';
  if (bool(p.flags, 'force-conflicts') && !serverSide) throw new KubectlError('--force-conflicts only works with --server-side');
  if (dry === 'client' && serverSide) throw new KubectlError("--dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)");
  if (serverSide && force) throw new KubectlError('--force cannot be used with --server-side');
  if (dry === 'server' && force) throw new KubectlError('--dry-run=server cannot be used with --force');
  if (all && selector !== '') throw new KubectlError('cannot set --all and --selector at the same time');
  if (bool(p.flags, 'prune')) {
    if (force) throw new KubectlError('--force cannot be used with --prune');
    if (!all && selector === '')
      throw new KubectlError('all resources selected for prune without explicitly passing --all. To prune all resources, pass the --all flag. If you did not mean to prune all resources, specify a label selector');
    if (serverSide) throw new KubectlError("--prune is in alpha and doesn't currently work on objects created by server-side apply");
  }
}

/** apply.go's paragraph after a 409 from an apply patch (errors.IsConflict). */
const CONFLICT_ADVICE = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`;

/**
 * Send one object as an apply patch. A conflict becomes a plain error (fmt.Errorf wraps the
 * status), so CheckErr prints it after `error: `, advice included.
 */
export function serverSideApplyOne(env: KubectlEnv, desired: KObject, opts: ApplyOptions): KObject {
  let obj: KObject;
  try {
    obj = env.api.apply(structuredClone(desired), opts);
  } catch (e) {
    if (e instanceof ApiError && e.reason === 'Conflict') throw new KubectlError(`${e.message}\n${CONFLICT_ADVICE}`);
    throw e;
  }
  if (opts.dryRun) return obj;
  obj = saveLastAppliedAnnotation(env, obj, opts.fieldManager ?? '');
  const migrated = migratedManagedFields(obj, opts.fieldManager ?? '');
  if (!migrated) return obj;
  env.api.update({ ...obj, metadata: { ...obj.metadata, managedFields: migrated } }, { fieldManager: opts.fieldManager ?? '' });
  // apply.go re-sends the apply patch so that fields the migration handed over are pruned
  return env.api.apply(structuredClone(desired), opts);
}

const LAST_APPLIED_PATH = ['f:metadata', 'f:annotations', `f:${LAST_APPLIED}`];

/**
 * apply.go saveLastApplyAnnotationIfNecessary: with the default manager, an object that carries
 * client-side apply's annotation and no applier owning it gets the annotation applied alone by the
 * manager `kubectl-last-applied`, so later server-side applies (which leave it out) do not prune it.
 */
function saveLastAppliedAnnotation(env: KubectlEnv, obj: KObject, fieldManager: string): KObject {
  if (fieldManager !== 'kubectl') return obj;
  const annotation = obj.metadata.annotations?.[LAST_APPLIED];
  if (annotation === undefined) return obj;
  if ((obj.metadata.managedFields ?? []).some((e) => e.operation === 'Apply' && entryOwns(e, LAST_APPLIED_PATH))) return obj;
  const justAnnotation: KObject = {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: { name: obj.metadata.name, ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}), annotations: { [LAST_APPLIED]: annotation } },
  };
  return env.api.apply(justAnnotation, { fieldManager: 'kubectl-last-applied' });
}

/**
 * apply.go migrateToSSAIfNecessary with csaupgrade.UpgradeManagedFieldsPatch: the Update managers
 * that own the last-applied annotation (client-side apply's) are merged into the applier's Apply
 * entry (or the first of them becomes it) and removed. Undefined when nothing changes.
 */
function migratedManagedFields(obj: KObject, ssaManager: string): ManagedFieldsEntry[] | undefined {
  const before = obj.metadata.managedFields ?? [];
  const csaManagers = [...new Set(before.filter((e) => e.operation === 'Update' && entryOwns(e, LAST_APPLIED_PATH)).map((e) => e.manager))];
  let entries = before.map((e) => ({ ...e }));
  for (const csa of csaManagers) {
    const isCsa = (e: ManagedFieldsEntry): boolean => e.manager === csa && e.operation === 'Update' && !e.subresource;
    let target = entries.findIndex((e) => e.manager === ssaManager && e.operation === 'Apply' && !e.subresource);
    if (target < 0) {
      target = entries.findIndex(isCsa);
      if (target < 0) continue;
      entries[target] = { ...entries[target]!, operation: 'Apply', manager: ssaManager };
    }
    const t = entries[target]!;
    const source = entries.find((e) => isCsa(e) && e.apiVersion === t.apiVersion);
    if (source) entries[target] = { ...t, fieldsV1: unionFieldsV1(t.fieldsV1, source.fieldsV1) };
    entries = entries.filter((e) => !isCsa(e));
  }
  return JSON.stringify(entries) === JSON.stringify(before) ? undefined : entries;
}
