/**
 * `kubectl patch TYPE NAME -p PATCH [--type strategic|merge|json]`
 * (k8s.io/kubectl pkg/cmd/patch/patch.go): the patch is YAML or JSON; the result is sent as an
 * update; no change prints `… patched (no change)`. `--subresource=status` reads and writes
 * …/NAME/status, where the server keeps only the status of what it is sent; `--subresource=scale`
 * patches the object's autoscaling/v1 Scale (…/NAME/scale), whose spec.replicas the server
 * writes to the object, and prints the Scale it answers (`scale.autoscaling/NAME patched`).
 * The resource builder fetches every target first (cli-runtime RetrieveLazy; kubectl v1.35.2
 * against a stub server sends GET …/NAME/scale before the PATCH), so a custom resource without
 * its spec replicas stops at ScaleREST.Get's InternalError and never reaches the update's
 * `the spec replicas field … cannot be empty` BadRequest.
 */
import { parse as parseYaml } from 'yaml';
import type { KObject } from '../../../sim/api/types.js';
import type { Scale } from '../../../sim/api/scale.js';
import type { Verb } from '../context.js';
import { parseDryRun } from '../dry-run.js';
import { errorResult, KubectlError, RawError } from '../errors.js';
import { str } from '../flags.js';
import { jsonPatch, JsonPatchError, mergePatch, strategicMerge, type JsonValue } from '../merge.js';
import { printObject } from '../printobj.js';
import { warningLines } from '../validate.js';
import { Streams } from '../streams.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES } from '../target.js';
import { recordChangeCause } from '../record.js';
import { readLocalFile } from '../local-file.js';

export const patchVerb: Verb = {
  name: 'patch',
  run(inv, env) {
    const p = inv.parsed;
    const type = str(p.flags, 'type')!;
    if (!['json', 'merge', 'strategic'].includes(type)) throw new KubectlError(`--type must be one of [json merge strategic], not "${type}"`);
    let text = str(p.flags, 'patch');
    const file = str(p.flags, 'patch-file');
    if (file) {
      text = readLocalFile(env, file);
      if (text === undefined) throw new KubectlError(`unable to read patch file: open ${file}: no such file or directory`);
    }
    if (!text) throw new KubectlError('must specify --patch or --patch-file containing the contents of the patch', "See 'kubectl patch -h' for help and examples");
    if (p.args.length === 0) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    const dry = parseDryRun(p.flags);
    let patch: JsonValue;
    try {
      patch = parseYaml(text) as JsonValue;
    } catch (e) {
      throw new KubectlError(`unable to parse "${text}": yaml: ${(e as Error).message.split('\n')[0]}`);
    }
    const ns = namespaceOf(env, p);
    // --subresource=status: read and write …/NAME/status (the builder's GET and the helper's PATCH)
    const subresource = str(p.flags, 'subresource') ?? '';
    const status = subresource === 'status';
    const scale = subresource === 'scale';
    const { targets } = parseTargets(p.args, env.cluster.discovery());
    const io = new Streams();
    // ContinueOnError: a target that fails is reported at the end, the others are still patched
    const errors: string[] = [];
    for (const t of targets) {
      try {
        io.out(patchOne(t));
      } catch (e) {
        errors.push(errorResult(e, 'patch').stderr);
      }
    }
    for (const e of errors) io.err(e);
    return io.result(errors.length ? 1 : 0);

    function patchOne(t: (typeof targets)[number]): string {
      // kubectl patch sends no fieldValidation: the server's default, Warn, applies
      const warnings: string[] = [];
      const live = status ? env.api.getStatus(t.info.kind, ns.name, t.name) : scale ? (env.api.getScale(t.info.kind, ns.name, t.name) as unknown as KObject) : env.api.get(t.info.kind, ns.name, t.name);
      // custom resources have no patch strategy: the server answers 415 and patch.go rewords it
      if (type === 'strategic' && t.info.crd) {
        const gvk = `${t.info.group}/${t.info.version}, Kind=${t.info.kind}`;
        throw new KubectlError(
          `application/strategic-merge-patch+json is not supported by ${gvk}: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
        );
      }
      let next: JsonValue;
      try {
        const cur = live as unknown as JsonValue;
        next = type === 'json' ? jsonPatch(cur, patch) : type === 'merge' ? mergePatch(cur, patch) : strategicMerge(cur, patch);
      } catch (e) {
        if (e instanceof JsonPatchError) throw new RawError(`The request is invalid: ${e.message}`);
        throw e;
      }
      const obj = next as unknown as KObject;
      // the merged object may share its metadata with `live`: read what was live before changing it
      const liveVersion = live.metadata.resourceVersion;
      const changed = JSON.stringify(obj) !== JSON.stringify(live);
      // patch.go: the change cause goes in a second merge patch, after didPatch was decided
      // (a --record annotation sent to …/status would be dropped there)
      const recorded = dry.mode === 'client' || status || scale ? obj : recordChangeCause(inv, obj);
      let shown = live;
      let didPatch = changed;
      if (changed || recorded !== obj) {
        delete recorded.metadata.resourceVersion;
        const write = { dryRun: dry.mode === 'server', fieldValidation: 'Warn' as const, warnings };
        shown =
          dry.mode === 'client'
            ? recorded
            : status
              ? env.api.updateStatus(recorded, write)
              : scale
                ? (env.api.updateScale(t.info.kind, ns.name, t.name, recorded as unknown as Scale, 'patch', write) as unknown as KObject)
                : env.api.update(recorded, write);
        // patch.go compares the server's answer with the object it read: a patch whose only
        // content the server dropped (an unknown field) stored nothing
        if (dry.mode === 'none') didPatch = shown.metadata.resourceVersion !== liveVersion;
      }
      // the server's warnings are written as its answer arrives, before the printer's line
      io.err(warningLines(env, warnings));
      return printObject(shown, { output: str(p.flags, 'output'), operation: didPatch ? 'patched' : 'patched (no change)', dryRun: dry.mode, generated: false });
    }
  },
};
