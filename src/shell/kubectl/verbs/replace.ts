/**
 * `kubectl replace -f FILE [--force]` (k8s.io/kubectl pkg/cmd/replace/replace.go): a PUT of each
 * object (`replaced`); --force deletes and re-creates (`deleted` then `replaced`), waiting for the
 * old object to go — how CKA candidates apply a pod spec change kubectl edit refused. `--raw`
 * PUTs a file to a path (raw-put.ts).
 */
import { ApiError } from '../../../sim/api/errors.js';
import type { Verb } from '../context.js';
import { parseDryRun } from '../dry-run.js';
import { errorResult, formatApiError, KubectlError } from '../errors.js';
import { bool, int, list, str } from '../flags.js';
import { readManifests } from '../manifest.js';
import { printObject } from '../printobj.js';
import { namespaceOf } from '../target.js';
import { manifestNamespace, withSource } from '../manifest.js';
import { validationDirective, warningLines } from '../validate.js';
import { deleteMessage, waitGone } from './delete.js';
import { runReplaceRaw } from './raw-put.js';

export const replaceVerb: Verb = {
  name: 'replace',
  run(inv, env) {
    const p = inv.parsed;
    const files = list(p.flags, 'filename');
    if (files.length === 0) throw new KubectlError('must specify --filename to replace', "See 'kubectl replace -h' for help and examples");
    const raw = str(p.flags, 'raw');
    if (raw) return runReplaceRaw(env, p, raw);
    const dry = parseDryRun(p.flags);
    const ns = namespaceOf(env, p);
    const output = str(p.flags, 'output');
    const fieldValidation = validationDirective(p.flags);
    let stdout = '';
    let stderr = '';
    let failed = false;
    for (const { obj, source } of readManifests(env, files, bool(p.flags, 'recursive'), 'replace')) {
      const warnings: string[] = [];
      try {
        const send = structuredClone(obj);
        const target = manifestNamespace(send, ns, env.cluster.discovery());
        if (target) send.metadata.namespace = target;
        if (bool(p.flags, 'force')) {
          const grace = int(p.flags, 'grace-period') ?? -1;
          const live = env.api.tryGet(send.kind, target, send.metadata.name);
          if (live) {
            env.api.delete(send.kind, target, send.metadata.name, grace >= 0 ? { gracePeriodSeconds: grace } : {});
            stdout += deleteMessage(live, grace === 0 ? 'force deleted' : 'deleted', output);
            waitGone(env, send.kind, target, send.metadata.name, 120);
          }
          delete send.metadata.resourceVersion;
          stdout += printObject(env.api.create(send, { fieldValidation, warnings }), { output, operation: 'replaced', dryRun: 'none', generated: false });
          stderr += warningLines(env, warnings);
          continue;
        }
        const shown = dry.mode === 'client' ? send : env.api.update(send, { dryRun: dry.mode === 'server', fieldValidation, warnings });
        stderr += warningLines(env, warnings);
        stdout += printObject(shown, { output, operation: 'replaced', dryRun: dry.mode, generated: false });
      } catch (e) {
        failed = true;
        const err = withSource(e, 'replacing', source);
        stderr += err instanceof ApiError ? `${formatApiError(err)}\n` : errorResult(err, 'replace').stderr;
      }
    }
    return { stdout, stderr, exitCode: failed ? 1 : 0 };
  },
};
