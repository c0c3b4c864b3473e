/**
 * `kubectl replace --raw URI -f FILE` (k8s.io/kubectl pkg/cmd/replace/replace.go Validate and
 * pkg/cmd/util/rawhttp RawPut): the file's bytes are PUT to the path as they are and the server's
 * reply is copied to stdout. What learners send this way is a namespace's finalize subresource
 * (`kubectl get ns X -o json | jq '.spec.finalizers=[]' | kubectl replace --raw
 * /api/v1/namespaces/X/finalize -f -`), which the simulated API server answers
 * (ApiServer.finalizeNamespace); other paths are refused with a note.
 */
import type { Namespace } from '../../../sim/api/types.js';
import { ApiError } from '../../../sim/api/errors.js';
import type { CommandResult } from '../../types.js';
import type { KubectlEnv } from '../context.js';
import { KubectlError, RawError, seeHelp } from '../errors.js';
import { bool, list, str } from '../flags.js';
import type { Parsed } from '../flags.js';
import { readLocalFile } from '../local-file.js';
import { parseRequestURIError } from '../../../util/go-url.js';

const FINALIZE = /^\/api\/v1\/namespaces\/([^/?]+)\/finalize\/?(\?.*)?$/;

/** replace.go Validate's checks for --raw, as usage errors. */
function validate(p: Parsed, raw: string): string {
  const files = list(p.flags, 'filename');
  const usage = (msg: string): KubectlError => new KubectlError(msg, seeHelp('replace'));
  if (files.length !== 1) throw usage('--raw can only use a single local file or stdin');
  if (/^https?:\/\//.test(files[0]!)) throw usage('--raw cannot read from a url');
  if (bool(p.flags, 'recursive')) throw usage('--raw and --recursive are mutually exclusive');
  if (str(p.flags, 'output')) throw usage('--raw and --output are mutually exclusive');
  const bad = parseRequestURIError(raw);
  if (bad !== undefined) throw usage(`--raw must be a valid URL path: ${bad}`);
  return files[0]!;
}

/**
 * A Namespace as the API server encodes it (encoding/json over the Go structs: field order,
 * omitempty, sorted map keys). The real reply also carries metadata.managedFields, which the
 * simulation does not keep.
 */
export function namespaceJson(ns: Namespace): string {
  const m = ns.metadata;
  const sortedMap = (r: Record<string, string> | undefined): Record<string, string> | undefined =>
    r && Object.keys(r).length ? Object.fromEntries(Object.keys(r).sort().map((k) => [k, r[k]!])) : undefined;
  const metadata = {
    name: m.name,
    uid: m.uid,
    resourceVersion: m.resourceVersion,
    creationTimestamp: m.creationTimestamp,
    deletionTimestamp: m.deletionTimestamp,
    deletionGracePeriodSeconds: m.deletionGracePeriodSeconds,
    labels: sortedMap(m.labels),
    annotations: sortedMap(m.annotations),
    ownerReferences: m.ownerReferences?.length ? m.ownerReferences : undefined,
    finalizers: m.finalizers?.length ? m.finalizers : undefined,
  };
  const spec = ns.spec?.finalizers?.length ? { finalizers: ns.spec.finalizers } : {};
  const status = {
    phase: ns.status?.phase,
    conditions: ns.status?.conditions?.length
      ? ns.status.conditions.map((c) => ({ type: c.type, status: c.status, lastTransitionTime: c.lastTransitionTime ?? null, reason: c.reason, message: c.message }))
      : undefined,
  };
  return `${JSON.stringify({ kind: 'Namespace', apiVersion: 'v1', metadata, spec, status })}\n`;
}

/** handlers/rest.go summarizeData: a JSON object's first 30 bytes, anything else in hex. */
function summarizeData(text: string): string {
  const data = Buffer.from(text, 'utf8');
  if (data.length === 0) return '<empty>';
  const head = data.subarray(0, 30);
  const more = data.length > 30 ? ' ...' : '';
  return data[0] === 0x7b ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}

/** encoding/json's complaint about a body that is not JSON (the first character, or a cut-off document). */
function jsonError(text: string): string {
  const first = text.trimStart()[0];
  if (first === undefined || /[{["\-0-9tfn]/.test(first)) return 'unexpected end of JSON input';
  return `invalid character '${first}' looking for beginning of value`;
}

/**
 * The spec.finalizers of the body, or the decoding error the server answers with
 * (transformDecodeError: `the object provided is unrecognized (must be of type Namespace): …`).
 */
function bodyFinalizers(text: string, name: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError('BadRequest', `the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; json parse error: ${jsonError(text)} (${summarizeData(text)})`, 400);
  }
  const obj = (body ?? {}) as { metadata?: { name?: unknown }; spec?: { finalizers?: unknown } };
  const bodyName = obj.metadata?.name;
  if (typeof bodyName === 'string' && bodyName !== name) throw new ApiError('BadRequest', `the name of the object (${bodyName}) does not match the name on the URL (${name})`, 400);
  const f = obj.spec?.finalizers;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

export function runReplaceRaw(env: KubectlEnv, p: Parsed, raw: string): CommandResult {
  const file = validate(p, raw);
  const text = file === '-' ? env.stdin : readLocalFile(env, file);
  if (text === undefined) throw new KubectlError(`open ${file}: no such file or directory`);
  const m = FINALIZE.exec(raw);
  if (!m) throw new RawError(`error: cka-lab answers kubectl replace --raw only for a namespace's finalize path (/api/v1/namespaces/NAME/finalize), not ${raw}`);
  let name = m[1]!;
  try {
    name = decodeURIComponent(name);
  } catch {
    // a malformed %-escape names no namespace the server has: it answers NotFound for it as written
  }
  const ns = env.api.finalizeNamespace(name, bodyFinalizers(text, name));
  return { stdout: namespaceJson(ns), stderr: '', exitCode: 0 };
}
