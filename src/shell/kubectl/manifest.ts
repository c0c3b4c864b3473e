/**
 * Reading `-f` input the way kubectl's resource builder does (cli-runtime pkg/resource
 * builder.go, visitor.go; apimachinery yaml.NewYAMLOrJSONDecoder): a file, a directory (its
 * .json/.yaml/.yml files in name order, `-R` to descend), or `-` for stdin; several documents per
 * file separated by `---`; `kind: List` expands to its items. Errors carry kubectl's wording.
 */
import { goYamlIndentError } from '../../util/go-yaml-indent.js';
import { isPlainTree } from '../../util/yaml-memo.js';
import { copyJSON } from '../../util/json-copy.js';
import { remember } from '../../util/bounded-map.js';
import { Composer, Parser, parseAllDocuments, type Tags, type YAMLError } from 'yaml';
import type { KObject } from '../../sim/api/types.js';
import type { Discovery } from '../../sim/api/registry.js';
import { ApiError } from '../../sim/api/errors.js';
import { resolvePath } from '../../sim/node/vfs.js';
import { marshalCompact } from '../printers/json.js';
import { sortKeys } from '../printers/serialize.js';
import { KubectlError } from './errors.js';
import type { KubectlEnv } from './context.js';
import { isStdinPath } from './local-file.js';
import { matchRequirements, parseLabelSelector, SelectorParseError } from '../../sim/api/selectors.js';

export interface ManifestObject {
  obj: KObject;
  /** The path as the user typed it (or `STDIN`), for `error when creating "<source>"`. */
  source: string;
}

const EXTENSIONS = ['.json', '.yaml', '.yml'];

function listDir(env: KubectlEnv, abs: string, shown: string, recursive: boolean, out: { abs: string; shown: string }[]): void {
  for (const name of [...env.fs.list(abs)].sort()) {
    const childAbs = `${abs.replace(/\/$/, '')}/${name}`;
    const childShown = `${shown.replace(/\/$/, '')}/${name}`;
    if (env.fs.isDir(childAbs)) {
      if (recursive) listDir(env, childAbs, childShown, recursive, out);
    } else if (EXTENSIONS.some((e) => name.endsWith(e))) out.push({ abs: childAbs, shown: childShown });
  }
}

/**
 * The document of `text` holding `offset`, as kubectl's YAMLReader cuts it (apimachinery
 * pkg/util/yaml/decoder.go: a line starting with `---` and nothing after it but blanks or a comment
 * ends a document); go-yaml then counts lines within that document.
 */
function chunkAt(text: string, offset: number): string {
  let start = 0;
  let end = text.length;
  let at = 0;
  for (const line of text.split('\n')) {
    const next = at + line.length + 1;
    if (/^---\s*(?:#.*)?$/.test(line)) {
      if (at <= offset) start = Math.min(next, text.length);
      else {
        end = at;
        break;
      }
    }
    at = next;
  }
  return text.slice(start, end);
}

/** go-yaml's wording for the errors a learner makes most (tabs, bad indentation, unclosed quotes). */
/** Where `offset` falls in `text`: the document chunk's start and the 0-based line within it. */
function chunkLine(text: string, offset: number): { start: number; line: number } {
  const chunk = chunkAt(text, offset);
  const start = chunk === '' ? offset : Math.max(0, text.lastIndexOf(chunk, offset));
  let line = 0;
  for (let i = start; i < Math.min(offset, text.length); i++) if (text.charCodeAt(i) === 10) line++;
  return { start, line };
}

/** The end of the document chunk starting at `start` (the next `---` line, or the text's end). */
function chunkEnd(text: string, start: number): number {
  return start + chunkAt(text, start).length;
}

/** A plain scalar ends this line (`key: value`, `- value`): its continuation may not begin with a tab. */
const PLAIN_VALUE_END = /^\s*(?:-\s+)?(?:[^\s#:][^:#]*:\s+)?[^\s'"[{|>&*!#%@`:-][^#]*[^:\s]\s*$|^\s*(?:-\s+)?(?:[^\s#:][^:#]*:\s+)[^\s'"[{|>&*!#%@`:-]\s*$/;

/**
 * go-yaml v2's wording and line for the errors the `yaml` package reports differently
 * (yaml.v2 scannerc.go / parserc.go, as sigs.k8s.io/yaml runs it on each `---` document):
 * a scanner error prints its mark's 0-based line + 1 and nothing on the document's first line,
 * a parser error the 0-based line of the token it could not place (yaml.go parser.fail).
 * Checked with kubectl v1.35.2 `create --dry-run=client -f`:
 *  - `a: b: c` → `mapping values are not allowed in this context`, at the second colon;
 *  - an unclosed `[a` / `{a: b` → `did not find expected ',' or ']'` (`'}'`) at the next token;
 *  - a key left alone on its line → `could not find expected ':'` at the next token (stale simple key);
 *  - a tab starting the line after a plain scalar → `found a tab character that violates
 *    indentation` (scan_plain_scalar), elsewhere `found character that cannot start any token`.
 * Undefined when the existing mapping applies.
 */
function goYamlParseError(text: string, e: YAMLError): { line: number; problem: string } | undefined {
  const at = chunkLine(text, e.pos[0]);
  // a scanner error's mark line counts from 0 and is printed + 1, unless it is 0 (no line at all)
  const scanner = (offset: number, problem: string): { line: number; problem: string } => {
    const mark = chunkLine(text, offset).line;
    return { line: mark === 0 ? 0 : mark + 1, problem };
  };
  switch (e.code) {
    case 'BAD_INDENT':
      if (e.message.startsWith('Flow sequence')) return { line: at.line, problem: "did not find expected ',' or ']'" };
      if (e.message.startsWith('Flow map')) return { line: at.line, problem: "did not find expected ',' or '}'" };
      return { line: at.line, problem: 'did not find expected key' };
    case 'BLOCK_AS_IMPLICIT_KEY': {
      const colon = /:(?=\s|$)/g;
      colon.lastIndex = e.pos[0];
      const m = colon.exec(text);
      return scanner(m ? m.index : e.pos[0], 'mapping values are not allowed in this context');
    }
    case 'MISSING_CHAR': {
      if (!e.message.startsWith('Implicit map keys need to be followed by map values')) return undefined;
      const end = chunkEnd(text, at.start);
      const next = /[^\s]/g;
      next.lastIndex = e.pos[1];
      let m = next.exec(text);
      while (m && m.index < end && text[m.index] === '#') {
        next.lastIndex = text.indexOf('\n', m.index) === -1 ? end : text.indexOf('\n', m.index);
        m = next.exec(text);
      }
      return scanner(m && m.index < end ? m.index : end, "could not find expected ':'");
    }
    case 'TAB_AS_INDENT': {
      const lines = text.slice(at.start, e.pos[0]).split('\n').slice(0, -1).filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
      const prev = lines[lines.length - 1] ?? '';
      return scanner(e.pos[0], PLAIN_VALUE_END.test(prev) ? 'found a tab character that violates indentation' : 'found character that cannot start any token');
    }
    default:
      return undefined;
  }
}

function goYamlMessage(e: YAMLError): string {
  switch (e.code) {
    case 'TAB_AS_INDENT':
      return 'found character that cannot start any token';
    case 'MISSING_CHAR':
      return e.message.includes('"') || e.message.includes("'") ? 'found unexpected end of stream' : 'did not find expected key';
    case 'MULTILINE_IMPLICIT_KEY':
    case 'BLOCK_AS_IMPLICIT_KEY':
      return 'could not find expected \':\'';
    case 'DUPLICATE_KEY':
      return `mapping key ${JSON.stringify(e.message.match(/"([^"]*)"/)?.[1] ?? '')} already defined`;
    default:
      return 'did not find expected key';
  }
}

/**
 * kubectl decodes YAML with sigs.k8s.io/yaml, i.e. go-yaml v2, which reads a plain integer with a
 * leading 0 as octal (strconv.ParseInt base 0): `defaultMode: 0400` is 256, as in the Kubernetes
 * docs' examples, where YAML 1.2 would read 400. Quoted "0400" stays a string.
 */
const GO_OCTAL_INT = { identify: (): boolean => false, default: true, tag: 'tag:yaml.org,2002:int', test: /^[-+]?0[0-7]+$/, resolve: (s: string): number => parseInt(s, 8) };
/**
 * go-yaml v2's YAML 1.1 booleans (resolve.go's resolveMapList): y/yes/on and n/no/off in three
 * casings each are booleans, as keys too: `enabled: yes` reaches the server as `true`, and a key
 * `n:` becomes "false" (checked with kubectl v1.35.2 `label -f … --local -o json`).
 */
const GO_BOOL = {
  identify: (): boolean => false,
  default: true,
  tag: 'tag:yaml.org,2002:bool',
  test: /^(?:y|Y|yes|Yes|YES|on|On|ON|n|N|no|No|NO|off|Off|OFF)$/,
  resolve: (s: string): boolean => /^(?:y|yes|on)$/i.test(s),
};
/**
 * go-yaml v2 drops every `_` of a plain scalar before strconv.ParseInt(s, 0, 64) (resolve.go):
 * `1_000` is 1000 and `0_17` octal 15; YAML 1.2 would keep both as strings.
 */
const GO_UNDERSCORE_INT = {
  identify: (): boolean => false,
  default: true,
  tag: 'tag:yaml.org,2002:int',
  test: /^[-+]?[0-9][0-9_]*_[0-9_]*$/,
  resolve: (s: string): number => {
    const plain = s.replace(/_/g, '');
    return /^[-+]?0[0-7]+$/.test(plain) ? parseInt(plain, 8) : Number(plain);
  },
};
export const GO_YAML_TAGS = { customTags: (tags: Tags): Tags => [GO_OCTAL_INT, GO_BOOL, GO_UNDERSCORE_INT, ...tags] };

/** Decode one file's text into objects. */
/**
 * `errors`: the resource builder's ContinueOnError (apply, create, delete): an object kubectl
 * cannot map (a kind no CRD serves yet, no kind) is set aside with its error and the others go
 * on, so a file with a CRD and its first custom resource creates the CRD and fails the resource
 * with "ensure CRDs are installed first". Without it the first such error ends the command.
 */
export function decodeManifest(text: string, source: string, d: Discovery, errors?: unknown[], validate = false): KObject[] {
  const objs: KObject[] = [];
  const memo = parsedDocuments(text);
  if (memo) {
    for (const doc of memo) {
      if (doc.value === null || doc.value === undefined) continue;
      decodeDocument(doc.tree ? copyJSON(doc.value) : structuredClone(doc.value), source, d, objs, errors, validate);
    }
    return objs;
  }
  // documents one at a time (what parseAllDocuments does, without holding every parsed document
  // until the last: 20,000 documents parse in a third of the time and memory)
  let index = 0;
  for (const doc of new Composer(MANIFEST_YAML).compose(new Parser().parse(text))) {
    const at = index++;
    if (doc.errors[0]) {
      // the error's line and column: parseAllDocuments places them (a failing file is small work)
      const err = parseAllDocuments(text, MANIFEST_YAML)[at]?.errors[0] ?? doc.errors[0];
      const structural = err.code === 'BAD_INDENT' || (err.code === 'MISSING_CHAR' && err.message.startsWith('Sequence item without - indicator'));
      const indent = (structural ? goYamlIndentError(chunkAt(text, err.pos[0])) : undefined) ?? goYamlParseError(text, err);
      const line = indent?.line ?? err.linePos?.[0]?.line ?? 1;
      // yaml.go parser.fail: a problem on the document's first line (mark line 0) prints no line
      throw new KubectlError(`error parsing ${source}: error converting YAML to JSON: yaml: ${line > 0 ? `line ${line}: ` : ''}${indent?.problem ?? goYamlMessage(err)}`);
    }
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value === null || value === undefined) continue;
    decodeDocument(value, source, d, objs, errors, validate);
  }
  return objs;
}

/** One parsed document's objects, into `objs` (decodeManifest's `errors`: set aside, else thrown). */
function decodeDocument(value: unknown, source: string, d: Discovery, objs: KObject[], errors: unknown[] | undefined, validate: boolean): void {
  if (!validate && (typeof value !== 'object' || Array.isArray(value))) {
    // unstructured.UnstructuredJSONScheme decodes into its `detector` struct first
    const type = Array.isArray(value) ? 'array' : typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'bool' : 'string';
    throw new KubectlError(`unable to decode "${source}": json: cannot unmarshal ${type} into Go value of type unstructured.detector`);
  }
  try {
    if (validate) validateObjectKind(value, source);
    objs.push(...expand(value as Record<string, unknown>, source, d));
  } catch (e) {
    if (!errors || !(e instanceof KubectlError)) throw e;
    errors.push(e);
  }
}

// go-yaml v2 keeps the last of duplicate keys (yaml.v2 decode.go d.mapping sets each pair in
// turn; checked with kubectl v1.35.2 `create --dry-run=client -o yaml`: `name: x` then `name: z` is z)
const MANIFEST_YAML = { uniqueKeys: false, ...GO_YAML_TAGS };

/** A parsed document of a memoised manifest: its value (null for an empty one), and whether copyJSON copies it as structuredClone would. */
interface ParsedDocument {
  value: unknown;
  tree: boolean;
}

const PARSED = new Map<string, readonly ParsedDocument[]>();
/** Texts memoised, and the longest: a task's manifests are applied again in every copy of its state, a 20,000-document file is not kept. */
const PARSED_MAX = 64;
const PARSED_TEXT_MAX = 64 * 1024;

/**
 * The documents of a manifest's text, parsed once per text (the values depend on the text alone:
 * the options are this module's constants) and handed out as copies, so what decoding changes
 * stays the caller's. A text whose parse fails anywhere (a syntax error, too many aliases) is not
 * kept (undefined): decodeManifest's own lazy loop then parses it and fails where it always did,
 * after the documents before the failing one were decoded.
 */
function parsedDocuments(text: string): readonly ParsedDocument[] | undefined {
  const hit = PARSED.get(text);
  if (hit) return hit;
  if (text.length > PARSED_TEXT_MAX) return undefined;
  const docs: ParsedDocument[] = [];
  try {
    for (const doc of new Composer(MANIFEST_YAML).compose(new Parser().parse(text))) {
      if (doc.errors[0]) return undefined;
      const value: unknown = doc.toJS({ maxAliasCount: 100 });
      docs.push({ value, tree: isPlainTree(value) });
    }
  } catch {
    return undefined;
  }
  return remember(PARSED, text, docs, PARSED_MAX);
}

/**
 * The schema check kubectl runs on each document before decoding it when it validates (create,
 * apply and replace unless `--validate=false|ignore`; cli-runtime visitor.go ValidateSchema, k8s.io/kubectl
 * pkg/validation schema.go getObjectKind): a document that is no object, an apiVersion or kind
 * that is absent or no string, an apiVersion with more than one `/` (ParseGroupVersion), all of
 * them aggregated (`[a, b]` for two). Checked with kubectl v1.35.2 against a stub server.
 */
function validateObjectKind(value: unknown, source: string): void {
  const errs: string[] = [];
  if (!value || typeof value !== 'object' || Array.isArray(value)) errs.push('invalid object to validate');
  else {
    const v = value as Record<string, unknown>;
    const apiVersion = v['apiVersion'];
    if (apiVersion === undefined || apiVersion === null) errs.push('apiVersion not set');
    else if (typeof apiVersion !== 'string') errs.push("apiVersion isn't string type");
    else if (apiVersion.split('/').length > 2) errs.push(`unexpected GroupVersion string: ${apiVersion}`);
    const kind = v['kind'];
    if (kind === undefined || kind === null) errs.push('kind not set');
    else if (typeof kind !== 'string') errs.push("kind isn't string type");
  }
  if (errs.length === 0) return;
  const agg = errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
  throw new KubectlError(`error validating "${source}": error validating data: ${agg}; if you choose to ignore these errors, turn validation off with --validate=false`);
}

function expand(v: Record<string, unknown>, source: string, d: Discovery): KObject[] {
  // the object as JSON only when an error shows it (20,000 documents need not be marshalled)
  const json = (): string => marshalCompact(sortKeys(v));
  if (typeof v['kind'] !== 'string' || v['kind'] === '') throw new KubectlError(`unable to decode "${source}": Object 'Kind' is missing in '${json()}'`);
  if (typeof v['apiVersion'] !== 'string' || v['apiVersion'] === '') throw new KubectlError(`unable to decode "${source}": Object 'apiVersion' is missing in '${json()}'`);
  if (v['kind'] === 'List' || (v['kind'].endsWith('List') && Array.isArray(v['items']))) {
    return ((v['items'] as unknown[]) ?? []).flatMap((item) => (item && typeof item === 'object' ? expand(item as Record<string, unknown>, source, d) : []));
  }
  const obj = v as KObject;
  obj.metadata = (obj.metadata && typeof obj.metadata === 'object' ? obj.metadata : {}) as KObject['metadata'];
  if (!d.hasKind(obj.kind)) {
    const name = typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
    const ns = typeof obj.metadata.namespace === 'string' ? obj.metadata.namespace : '';
    throw new KubectlError(
      `resource mapping not found for name: "${name}" namespace: "${ns}" from "${source}": no matches for kind "${obj.kind}" in version "${obj.apiVersion}"\nensure CRDs are installed first`,
    );
  }
  return [obj];
}

/** Every object named by `-f` flags, in order. */
export function readManifests(env: KubectlEnv, filenames: readonly string[], recursive: boolean, verb = 'create', errors?: unknown[], validate = false): ManifestObject[] {
  const out: ManifestObject[] = [];
  for (const f of filenames) {
    if (f === '-' || isStdinPath(env, f)) {
      for (const obj of decodeManifest(env.stdin, 'STDIN', env.cluster.discovery(), errors, validate)) out.push({ obj, source: 'STDIN' });
      continue;
    }
    if (/^https?:\/\//.test(f)) throw new KubectlError(`unable to read URL "${f}", server reported 404 Not Found, status code=404`);
    const abs = resolvePath(env.cwd, f);
    if (!env.fs.exists(abs)) throw new KubectlError(`the path "${f}" does not exist`);
    const files: { abs: string; shown: string }[] = [];
    if (env.fs.isDir(abs)) listDir(env, abs, f, recursive, files);
    else files.push({ abs, shown: f });
    for (const file of files) {
      for (const obj of decodeManifest(env.fs.read(file.abs), file.shown, env.cluster.discovery(), errors, validate)) out.push({ obj, source: file.shown });
    }
  }
  if (out.length === 0 && !errors?.length) throw new KubectlError(`no objects passed to ${verb}`);
  return out;
}

/** `error when creating "<file>": ` inside a server message (helpers.go AddSourceToErr). */
export function withSource(e: unknown, verb: string, source: string): unknown {
  if (e instanceof ApiError && e.reason !== 'Invalid') return new ApiError(e.reason, `error when ${verb} "${source}": ${e.message}`, e.code, e.details);
  return e;
}

/** The namespace an object from a manifest goes to; a clash with -n is an error (resource builder). */
export function manifestNamespace(obj: KObject, ns: { name: string; explicit: boolean }, d: Discovery): string | undefined {
  const info = d.infoForKind(obj.kind);
  if (!info.namespaced) return undefined;
  const own = obj.metadata.namespace;
  if (own && ns.explicit && own !== ns.name)
    throw new KubectlError(`the namespace from the provided object "${own}" does not match the namespace "${ns.name}". You must pass '--namespace=${own}' to perform this operation.`);
  return own || ns.name;
}

/**
 * The resource builder's LabelSelectorParam over -f/-k (cli-runtime builder.go visitByPaths): an
 * object of the files whose labels do not match -l is not applied; a selector that does not parse
 * is the builder's error.
 */
export function filterBySelector(objs: ManifestObject[], selector: string | undefined): ManifestObject[] {
  if (selector === undefined || selector === '') return objs;
  let reqs: ReturnType<typeof parseLabelSelector>;
  try {
    reqs = parseLabelSelector(selector);
  } catch (e) {
    if (!(e instanceof SelectorParseError)) throw e;
    throw new KubectlError(`the provided selector "${selector}" is not valid: ${e.message}`);
  }
  return objs.filter(({ obj }) => matchRequirements(reqs, obj.metadata.labels));
}

/**
 * The live copy of an object read from a file (the resource builder's `.Latest()`): a verb given
 * `-f` without `--local` works on what the server holds, and an object it lacks is that target's
 * error (ContinueOnError) rather than the whole command's.
 */
export function latestOf(env: KubectlEnv, obj: KObject, ns: { name: string; explicit: boolean }): KObject | Error {
  try {
    return env.api.get(obj.kind, manifestNamespace(obj, ns, env.cluster.discovery()) ?? '', obj.metadata.name ?? '');
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}
