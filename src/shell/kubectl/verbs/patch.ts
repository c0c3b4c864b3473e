/**
 * `kubectl patch TYPE NAME|-f FILE -p PATCH [--type strategic|merge|json] [--local]`
 * (k8s.io/kubectl pkg/cmd/patch/patch.go): the patch is YAML or JSON; the result is sent as an
 * update; no change prints `… patched (no change)`. Objects named by `-f` are patched where the
 * server holds them; with `--local` (or `--dry-run=client`) kubectl patches its own copy
 * (getPatchedJSON) and a JSON patch's failure is the library's own message (`error: error in
 * remove for path: …`), while the server answers a failing JSON patch with a 422 whose text hides
 * it (`The request is invalid: the server rejected our request due to an error in our request`:
 * apiserver handlers/patch.go applyJSPatch's NewGenericServerResponse). `--subresource=status` reads and writes
 * …/NAME/status, where the server keeps only the status of what it is sent; `--subresource=scale`
 * patches the object's autoscaling/v1 Scale (…/NAME/scale), whose spec.replicas the server
 * writes to the object, and prints the Scale it answers (`scale.autoscaling/NAME patched`).
 * The resource builder fetches every target first (cli-runtime RetrieveLazy; kubectl v1.35.2
 * against a stub server sends GET …/NAME/scale before the PATCH), so a custom resource without
 * its spec replicas stops at ScaleREST.Get's InternalError and never reaches the update's
 * `the spec replicas field … cannot be empty` BadRequest.
 */
import { parseYamlMemo as parseYaml } from '../../../util/yaml-memo.js';
import type { KObject } from '../../../sim/api/types.js';
import type { Scale } from '../../../sim/api/scale.js';
import type { Verb } from '../context.js';
import { parseDryRun } from '../dry-run.js';
import { errorResult, KubectlError, RawError } from '../errors.js';
import { bool, list, str } from '../flags.js';
import { mergePatch, strategicMerge, type JsonValue } from '../merge.js';
import { goJsonKind, jsonPatch, JsonPatchError, typeMetaParseError } from '../json-patch.js';
import { printObject } from '../printobj.js';
import { warningLines } from '../validate.js';
import { Streams } from '../streams.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES } from '../target.js';
import { latestOf, manifestNamespace, readManifests } from '../manifest.js';
import { badRequest } from '../../../sim/api/errors.js';
import type { ResourceInfo } from '../../../sim/api/registry.js';
import { recordChangeCause } from '../record.js';
import { readLocalFile } from '../local-file.js';

export const patchVerb: Verb = {
  name: 'patch',
  run(inv, env) {
    const p = inv.parsed;
    const type = str(p.flags, 'type')!;
    let text = str(p.flags, 'patch');
    const file = str(p.flags, 'patch-file');
    const local = bool(p.flags, 'local');
    const dry = parseDryRun(p.flags);
    // PatchOptions.Validate, in its order
    if (text && file) throw new KubectlError('cannot specify --patch and --patch-file together');
    if (!text && !file) throw new KubectlError('must specify --patch or --patch-file containing the contents of the patch', "See 'kubectl patch -h' for help and examples");
    if (local && p.args.length) throw new KubectlError('cannot specify --local and server resources');
    if (local && dry.mode === 'server') throw new KubectlError('cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
    if (!['json', 'merge', 'strategic'].includes(type)) throw new KubectlError(`--type must be one of [json merge strategic], not "${type}"`);
    if (file) {
      text = readLocalFile(env, file);
      if (text === undefined) throw new KubectlError(`unable to read patch file: open ${file}: no such file or directory`);
    }
    const files = list(p.flags, 'filename');
    if (p.args.length === 0 && files.length === 0) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    let patch: JsonValue;
    try {
      patch = parseYaml(text ?? '') as JsonValue;
    } catch (e) {
      throw new KubectlError(`unable to parse "${text}": yaml: ${(e as Error).message.split('\n')[0]}`);
    }
    const ns = namespaceOf(env, p);
    // --subresource=status: read and write …/NAME/status (the builder's GET and the helper's PATCH)
    const subresource = str(p.flags, 'subresource') ?? '';
    const status = subresource === 'status';
    const scale = subresource === 'scale';
    const discovery = env.cluster.discovery();
    // the resource builder: -f objects first (the files' own with --local, else the server's), then TYPE NAME
    const items: Array<Item | Error> = [];
    if (files.length) {
      for (const { obj } of readManifests(env, files, bool(p.flags, 'recursive'), 'patch')) {
        const namespace = manifestNamespace(obj, ns, discovery) ?? '';
        const info = discovery.infoForKind(obj.kind);
        if (local) items.push({ info, namespace, name: obj.metadata.name ?? '', object: obj });
        else {
          const live = latestOf(env, obj, ns);
          items.push(live instanceof Error ? live : { info, namespace, name: obj.metadata.name ?? '' });
        }
      }
    }
    if (!local) for (const t of parseTargets(p.args, discovery, env.shortNames).targets) items.push({ info: t.info, namespace: ns.name, name: t.name });
    const io = new Streams();
    // ContinueOnError: a target that fails is reported at the end, the others are still patched
    const errors: string[] = [];
    for (const item of items) {
      try {
        if (item instanceof Error) throw item;
        io.out(local || dry.mode === 'client' ? patchLocally(item) : patchOnServer(item));
      } catch (e) {
        errors.push(errorResult(e, 'patch').stderr);
      }
    }
    for (const e of errors) io.err(e);
    if (items.length === 0 && errors.length === 0) throw new KubectlError('no objects passed to patch');
    return io.result(errors.length ? 1 : 0);

    /** The object as the server holds it (or its status, or its Scale). */
    function liveOf(t: Item): KObject {
      return status ? env.api.getStatus(t.info.kind, t.namespace, t.name) : scale ? (env.api.getScale(t.info.kind, t.namespace, t.name) as unknown as KObject) : env.api.get(t.info.kind, t.namespace, t.name);
    }

    function print(obj: KObject, didPatch: boolean): string {
      return printObject(obj, { output: str(p.flags, 'output'), operation: didPatch ? 'patched' : 'patched (no change)', dryRun: dry.mode, generated: false });
    }

    /** getPatchedJSON: kubectl's own copy patched (--local, --dry-run=client); nothing is sent. */
    function patchLocally(t: Item): string {
      const live = t.object ?? liveOf(t);
      const cur = live as unknown as JsonValue;
      let next: JsonValue;
      if (type === 'json') {
        try {
          next = jsonPatch(cur, patch);
        } catch (e) {
          if (!(e instanceof JsonPatchError)) throw e;
          // getPatchedJSON's rewording of a missing key (the text after `key: `)
          const at = e.message.indexOf('doc is missing key');
          throw new KubectlError(at < 0 ? e.message : `Object to be patched is missing field (${e.message.slice(e.message.indexOf('key:') + 5)})`);
        }
      } else if (type === 'merge') next = mergePatch(cur, patch);
      else {
        // a strategic merge needs the kind's Go type, which kubectl's scheme lacks for custom resources
        if (t.info.crd) throw new KubectlError(`strategic merge patch is not supported for ${gvkString(t.info)} locally, try --type merge`);
        next = strategicMerge(cur, patch);
      }
      // runtime.Decode of the patched JSON, as an unstructured object
      if (next === null || typeof next !== 'object' || Array.isArray(next)) throw new KubectlError(typeMetaParseError(next));
      return print(next as unknown as KObject, JSON.stringify(next) !== JSON.stringify(live));
    }

    function patchOnServer(t: Item): string {
      // kubectl patch sends no fieldValidation: the server's default, Warn, applies
      const warnings: string[] = [];
      const live = liveOf(t);
      // custom resources have no patch strategy: the server answers 415 and patch.go rewords it
      if (type === 'strategic' && t.info.crd) {
        throw new KubectlError(
          `application/strategic-merge-patch+json is not supported by ${gvkString(t.info)}: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
        );
      }
      let next: JsonValue;
      const cur = live as unknown as JsonValue;
      if (type === 'json') {
        // applyJSPatch: the strict decode into []jsonPatchOp is a 400, the library's failure a 422
        const undecodable = strictDecodeError(patch);
        if (undecodable) throw badRequest(`error decoding patch: ${undecodable}`);
        try {
          next = jsonPatch(cur, patch);
        } catch (e) {
          if (e instanceof JsonPatchError) throw new RawError('The request is invalid: the server rejected our request due to an error in our request');
          throw e;
        }
      } else next = type === 'merge' ? mergePatch(cur, patch) : strategicMerge(cur, patch);
      const obj = decodedOnServer(next, t, scale);
      // the merged object may share its metadata with `live`: read what was live before changing it
      const liveVersion = live.metadata.resourceVersion;
      const changed = JSON.stringify(obj) !== JSON.stringify(live);
      // patch.go: the change cause goes in a second merge patch, after didPatch was decided
      // (a --record annotation sent to …/status would be dropped there)
      const recorded = status || scale ? obj : recordChangeCause(inv, obj);
      let shown = live;
      let didPatch = changed;
      if (changed || recorded !== obj) {
        delete recorded.metadata.resourceVersion;
        const write = { dryRun: dry.mode === 'server', fieldValidation: 'Warn' as const, warnings };
        shown = status
          ? env.api.updateStatus(recorded, write)
          : scale
            ? (env.api.updateScale(t.info.kind, t.namespace, t.name, recorded as unknown as Scale, 'patch', write) as unknown as KObject)
            : env.api.update(recorded, write);
        // patch.go compares the server's answer with the object it read: a patch whose only
        // content the server dropped (an unknown field) stored nothing
        if (dry.mode === 'none') didPatch = shown.metadata.resourceVersion !== liveVersion;
      }
      // the server's warnings are written as its answer arrives, before the printer's line
      io.err(warningLines(env, warnings));
      return print(shown, didPatch);
    }
  },
};

/** One object to patch: where it lives, and (with --local) kubectl's own copy of it. */
interface Item {
  info: ResourceInfo;
  namespace: string;
  name: string;
  object?: KObject;
}

/**
 * The patched document as the API server decodes it before the update (handlers/patch.go
 * jsonPatcher: runtime.DecodeInto the kind's own type; applyPatch: checkName and
 * EnsureObjectNamespaceMatchesRequestNamespace). A document that is not an object, or names
 * another kind, fails the decode, a plain error the server answers as a 500 without a reason
 * (`Error from server: …`); the kind's conversion error is read from apimachinery's scheme
 * (converting (v1.Secret) to (core.ConfigMap): unknown conversion), not recorded. A name or
 * namespace the patch changed is a 400.
 */
function decodedOnServer(next: JsonValue, t: Item, scale: boolean): KObject {
  if (next === null || typeof next !== 'object' || Array.isArray(next)) throw new RawError(`Error from server: ${typeMetaParseError(next)}`);
  const obj = next as unknown as KObject;
  // …/scale decodes into autoscaling's Scale, the object itself into its kind's type
  const want = scale ? { kind: 'Scale', group: 'autoscaling', version: 'v1' } : t.info;
  if (typeof obj.kind === 'string' && obj.kind !== '' && obj.kind !== want.kind) {
    const pkg = (group: string): string => (group === '' ? 'core' : group.split('.')[0]!);
    throw new RawError(`Error from server: converting (${want.version}.${obj.kind}) to (${pkg(want.group)}.${want.kind}): unknown conversion`);
  }
  const meta = (obj.metadata ?? {}) as { name?: unknown; namespace?: unknown };
  const name = typeof meta.name === 'string' ? meta.name : '';
  if (name !== t.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${t.name})`);
  if (t.info.namespaced && typeof meta.namespace === 'string' && meta.namespace !== '' && meta.namespace !== t.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  // a patch that dropped apiVersion or kind decodes into the kind of the URL
  if (obj.kind !== want.kind || typeof obj.apiVersion !== 'string') return { ...obj, apiVersion: want.group ? `${want.group}/${want.version}` : want.version, kind: want.kind } as KObject;
  return obj;
}

/** schema.GroupVersionKind's String(): `group/version, Kind=Kind` (`/v1, Kind=Pod` for the core group). */
function gvkString(info: ResourceInfo): string {
  return `${info.group}/${info.version}, Kind=${info.kind}`;
}

/**
 * The strict decode kube-apiserver runs on a JSON patch before the library sees it (handlers
 * patch.go applyJSPatch: kjson.UnmarshalStrict into []jsonPatchOp, whose op, path and from are
 * strings): Go's json error text, or undefined when it decodes.
 */
function strictDecodeError(patch: JsonValue): string | undefined {
  if (patch === null) return undefined;
  if (!Array.isArray(patch)) return `json: cannot unmarshal ${goJsonKind(patch)} into Go value of type []handlers.jsonPatchOp`;
  for (const o of patch) {
    if (o === null) continue;
    if (typeof o !== 'object' || Array.isArray(o)) return `json: cannot unmarshal ${goJsonKind(o)} into Go value of type handlers.jsonPatchOp`;
    for (const f of ['op', 'path', 'from']) {
      const v = o[f];
      if (v !== undefined && v !== null && typeof v !== 'string') return `json: cannot unmarshal ${goJsonKind(v)} into Go struct field jsonPatchOp.${f} of type string`;
    }
  }
  return undefined;
}
