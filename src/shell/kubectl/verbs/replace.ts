/**
 * `kubectl replace -f FILE [--force]` (k8s.io/kubectl pkg/cmd/replace/replace.go): a PUT of each
 * object (`replaced`); --force deletes and re-creates (`deleted` then `replaced`), waiting for the
 * old object to go — how CKA candidates apply a pod spec change kubectl edit refused. `--raw`
 * PUTs a file to a path (raw-put.ts). `--subresource=status|scale` PUTs to …/NAME/status or
 * …/NAME/scale (sim/apiserver.ts replaceScale: the object is no Scale, a 400); kubectl checks no
 * name, so any other subresource is a PUT the server routes nowhere, its plain 404 (recorded from
 * kubectl v1.35.2 by scripts/record-replace-subresource.mjs, testdata/replace-subresource/).
 */
import { ApiError } from '../../../sim/api/errors.js';
import type { KObject } from '../../../sim/api/types.js';
import type { FieldValidation } from '../../../sim/api/decode.js';
import type { ShellResult } from '../../commands/types.js';
import type { KubectlEnv, Verb } from '../context.js';
import { parseDryRun } from '../dry-run.js';
import { errorResult, formatApiError, KubectlError } from '../errors.js';
import { bool, int, list, str } from '../flags.js';
import { readManifests, type ManifestObject } from '../manifest.js';
import { printObject } from '../printobj.js';
import { namespaceOf } from '../target.js';
import { manifestNamespace, withSource } from '../manifest.js';
import { validationDirective, warningLines } from '../validate.js';
import { Streams } from '../streams.js';
import { deleteMessage, waitGone } from './delete.js';
import { runReplaceRaw } from './raw-put.js';

/**
 * Subresources a PUT reaches besides status and scale (pods' ephemeralcontainers and resize, a
 * CSR's approval, a namespace's finalize); their own rules are not emulated here, the write goes
 * as a plain update.
 */
const PUT_ROUTES: Readonly<Record<string, readonly string[]>> = { Pod: ['ephemeralcontainers', 'resize'], CertificateSigningRequest: ['approval'], Namespace: ['finalize'] };

const routed = (kind: string, subresource: string): boolean => subresource === 'status' || subresource === 'scale' || (PUT_ROUTES[kind]?.includes(subresource) ?? false);

/**
 * replace.go forceReplace: every object is deleted first (DeleteResult prints each `deleted`
 * line as it goes), then each one is awaited until it is gone, then each is created anew
 * (`replaced`). The deletion lines are written before the wait, so a background job that wakes
 * during it prints after them.
 */
async function forceReplace(
  env: KubectlEnv,
  manifests: readonly ManifestObject[],
  ns: { name: string; explicit: boolean },
  o: { grace: number; output: string | undefined; fieldValidation: FieldValidation },
  io: Streams,
): Promise<ShellResult> {
  const errors: string[] = [];
  const sends: { send: KObject; source: string }[] = [];
  const deleted: KObject[] = [];
  for (const { obj, source } of manifests) {
    const send = structuredClone(obj);
    const target = manifestNamespace(send, ns, env.cluster.discovery());
    if (target) send.metadata.namespace = target;
    sends.push({ send, source });
    const live = env.api.tryGet(send.kind, target, send.metadata.name);
    if (!live) continue;
    try {
      env.api.delete(send.kind, target, send.metadata.name, o.grace >= 0 ? { gracePeriodSeconds: o.grace } : {});
      io.out(deleteMessage(live, o.grace === 0 ? 'force deleted' : 'deleted', o.output));
      deleted.push(send);
    } catch (e) {
      errors.push(failure(e, 'deleting', source));
    }
  }
  for (const d of deleted) await waitGone(env, d.kind, d.metadata.namespace, d.metadata.name, 120, () => io.flush(env.emit));
  for (const { send, source } of sends) {
    const warnings: string[] = [];
    try {
      delete send.metadata.resourceVersion;
      const created = env.api.create(send, { fieldValidation: o.fieldValidation, warnings });
      io.err(warningLines(env, warnings));
      io.out(printObject(created, { output: o.output, operation: 'replaced', dryRun: 'none', generated: false }));
    } catch (e) {
      io.err(warningLines(env, warnings));
      errors.push(failure(e, 'replacing', source));
    }
  }
  for (const e of errors) io.err(e);
  return io.result(errors.length ? 1 : 0);
}

/** What CheckErr prints for one object's failure: the server's error, or kubectl's own, naming the file it came from. */
function failure(e: unknown, doing: 'deleting' | 'replacing', source: string): string {
  const err = withSource(e, doing, source);
  return err instanceof ApiError ? `${formatApiError(err)}\n` : errorResult(err, 'replace').stderr;
}

export const replaceVerb: Verb = {
  name: 'replace',
  async run(inv, env) {
    const p = inv.parsed;
    const files = list(p.flags, 'filename');
    if (files.length === 0) throw new KubectlError('must specify --filename to replace', "See 'kubectl replace -h' for help and examples");
    const raw = str(p.flags, 'raw');
    if (raw) return runReplaceRaw(env, p, raw);
    const dry = parseDryRun(p.flags);
    const ns = namespaceOf(env, p);
    const output = str(p.flags, 'output');
    const fieldValidation = validationDirective(p.flags);
    const io = new Streams();
    // the visitor's errors are aggregated and printed by CheckErr after every object was tried
    const errors: string[] = [];
    const manifests = readManifests(env, files, bool(p.flags, 'recursive'), 'replace', undefined, validationDirective(p.flags) !== 'Ignore');
    if (bool(p.flags, 'force')) return forceReplace(env, manifests, ns, { grace: int(p.flags, 'grace-period') ?? -1, output, fieldValidation }, io);
    for (const { obj, source } of manifests) {
      const warnings: string[] = [];
      try {
        const send = structuredClone(obj);
        const target = manifestNamespace(send, ns, env.cluster.discovery());
        if (target) send.metadata.namespace = target;
        const write = { dryRun: dry.mode === 'server', fieldValidation, warnings };
        // --subresource=status: a PUT to …/NAME/status, where only the status is kept; to
        // …/NAME/scale, where the object cannot be decoded as the Scale the server expects
        const subresource = str(p.flags, 'subresource');
        if (dry.mode !== 'client' && subresource === 'scale') env.api.replaceScale(send);
        if (dry.mode !== 'client' && subresource && !routed(send.kind, subresource)) throw new ApiError('NotFound', 'the server could not find the requested resource', 404);
        const shown = dry.mode === 'client' ? send : subresource === 'status' ? env.api.updateStatus(send, write) : env.api.update(send, write);
        io.err(warningLines(env, warnings));
        io.out(printObject(shown, { output, operation: 'replaced', dryRun: dry.mode, generated: false }));
      } catch (e) {
        // the server's warnings come with its refusal
        io.err(warningLines(env, warnings));
        errors.push(failure(e, 'replacing', source));
      }
    }
    for (const e of errors) io.err(e);
    return io.result(errors.length ? 1 : 0);
  },
};
