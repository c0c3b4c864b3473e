/**
 * `kubectl config` (k8s.io/kubectl pkg/cmd/config: view.go, get_contexts.go, current_context.go,
 * use_context.go, set_context.go, delete_context.go) over the kubeconfig file in the simulated
 * filesystem ($KUBECONFIG, else ~/.kube/config). Writes go back to that file the way clientcmd's
 * ModifyConfig writes it: keys sorted, named lists sorted by name (reference §10).
 */
import type { CommandResult } from '../../types.js';
import type { Invocation, KubectlEnv, Verb } from '../context.js';
import { type Parsed, bool, str } from '../flags.js';
import { KubectlError } from '../errors.js';
import { kubeconfigPath, readRaw, writeRaw } from '../kubeconfig.js';
import { resolvePath } from '../../../sim/node/vfs.js';
import { renderRows } from '../../printers/tabwriter.js';
import { sortKeys, type Json } from '../../printers/serialize.js';
import { toYaml } from '../../printers/yaml.js';
import { marshalIndent } from '../../printers/json.js';
import { printJsonPath } from '../../printers/jsonpath.js';
import { deleteCluster, deleteUser, getClusters, getUsers, renameContext, setCluster, setCredentials, setProperty, unsetProperty } from './config-edit.js';

type Raw = ReturnType<typeof readRaw>;
type Named = { name: string; [k: string]: unknown };

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });

function path(env: KubectlEnv, p: Parsed): string {
  return kubeconfigPath(env.env, str(p.flags, 'kubeconfig'));
}

function byName(list: readonly Named[] | undefined): Named[] {
  return [...(list ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** clientcmd's write: sorted lists, no empty preferences. */
function save(env: KubectlEnv, file: string, raw: Raw): void {
  const out: Record<string, unknown> = { ...raw };
  for (const k of ['clusters', 'contexts', 'users'] as const) if (raw[k]) out[k] = byName(raw[k] as unknown as Named[]);
  delete out['preferences'];
  writeRaw(env.fs, file, sortKeys(out) as Raw);
}

const OMIT_DATA = ['certificate-authority-data', 'client-certificate-data', 'client-key-data'];
const REDACT = ['token', 'password'];

/** Kubeconfig keys that name a file, and the key FlattenConfig moves its content to. */
const FILE_KEYS: Record<string, string> = {
  'certificate-authority': 'certificate-authority-data',
  'client-certificate': 'client-certificate-data',
  'client-key': 'client-key-data',
};

/**
 * view.go: --minify keeps the current context only (the global --context, when given, becomes the
 * current context first); --flatten embeds the files clusters and users name (FlattenConfig) and,
 * like --raw, shows data in full; otherwise data reads DATA+OMITTED and secrets REDACTED.
 */
function viewDocument(raw: Raw, o: { raw: boolean; minify: boolean; flatten: boolean; context?: string | undefined; read: (path: string) => string | undefined }): Json {
  const doc = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
  delete doc['preferences'];
  if (o.minify) {
    const current = o.context || raw['current-context'];
    // clientcmd/api/helpers.go MinifyConfig
    if (!current) throw new KubectlError('current-context must exist in order to minify');
    const ctx = (raw.contexts ?? []).find((c) => c.name === current);
    if (!ctx) throw new KubectlError(`cannot locate context ${current}`);
    if (ctx.context.cluster && !(raw.clusters ?? []).some((c) => c.name === ctx.context.cluster)) throw new KubectlError(`cannot locate cluster ${ctx.context.cluster}`);
    doc['current-context'] = current;
    doc['contexts'] = [ctx];
    doc['clusters'] = (raw.clusters ?? []).filter((c) => c.name === ctx.context.cluster);
    doc['users'] = (raw.users ?? []).filter((u) => u.name === ctx.context.user);
  }
  const entries = (): Record<string, unknown>[] =>
    ['clusters', 'users'].flatMap((list) => ((doc[list] as Record<string, Record<string, unknown>>[] | undefined) ?? []).map((e) => e['cluster'] ?? e['user']).filter((x): x is Record<string, unknown> => !!x));
  if (o.flatten) {
    for (const inner of entries()) {
      for (const [k, dataKey] of Object.entries(FILE_KEYS)) {
        const file = inner[k];
        if (typeof file !== 'string' || file === '') continue;
        const content = o.read(file);
        if (content === undefined) throw new KubectlError(`open ${file}: no such file or directory`);
        inner[dataKey] = Buffer.from(content, 'utf8').toString('base64');
        delete inner[k];
      }
    }
  } else if (!o.raw) {
    for (const inner of entries()) {
      for (const k of OMIT_DATA) if (typeof inner[k] === 'string') inner[k] = 'DATA+OMITTED';
      for (const k of REDACT) if (typeof inner[k] === 'string') inner[k] = 'REDACTED';
    }
  }
  doc['apiVersion'] ??= 'v1';
  doc['kind'] ??= 'Config';
  doc['clusters'] ??= null;
  doc['contexts'] ??= null;
  doc['current-context'] ??= '';
  doc['users'] ??= null;
  return sortKeys(doc);
}

function view(env: KubectlEnv, p: Parsed, file: string): CommandResult {
  const doc = viewDocument(readRaw(env.fs, file), { raw: bool(p.flags, 'raw'), minify: bool(p.flags, 'minify'), flatten: bool(p.flags, 'flatten'), context: str(p.flags, 'context'), read: (f) => env.fs.tryRead(resolvePath(file.slice(0, file.lastIndexOf('/')) || '/', f)) });
  const out = str(p.flags, 'output') ?? 'yaml';
  if (out === 'yaml') return ok(toYaml(doc));
  if (out === 'json') return ok(`${marshalIndent(doc)}\n`);
  if (out.startsWith('jsonpath=')) {
    const r = printJsonPath(out.slice('jsonpath='.length), doc);
    if (!r.ok) throw new KubectlError(r.error);
    return ok(r.text);
  }
  throw new KubectlError(`unable to match a printer suitable for the output format "${out}", allowed formats are: json,jsonpath,yaml`);
}

function getContexts(env: KubectlEnv, p: Parsed, file: string): CommandResult {
  const raw = readRaw(env.fs, file);
  const all = byName(raw.contexts as unknown as Named[]) as unknown as NonNullable<Raw['contexts']>;
  const wanted = p.args;
  const missing = wanted.filter((n) => !all.some((c) => c.name === n));
  const shown = wanted.length > 0 ? all.filter((c) => wanted.includes(c.name)) : all;
  const output = str(p.flags, 'output');
  if (output !== undefined && output !== 'name') throw new KubectlError(`output must be one of '' or 'name': ${output}`);
  let stdout: string;
  if (output === 'name') stdout = shown.map((c) => `${c.name}\n`).join('');
  else {
    const rows = shown.map((c) => [c.name === raw['current-context'] ? '*' : '', c.name, c.context?.cluster ?? '', c.context?.user ?? '', c.context?.namespace ?? '']);
    stdout = renderRows(bool(p.flags, 'no-headers') ? rows : [['CURRENT', 'NAME', 'CLUSTER', 'AUTHINFO', 'NAMESPACE'], ...rows]);
  }
  const stderr = missing.map((n) => `error: context ${n} not found\n`).join('');
  return { stdout, stderr, exitCode: missing.length > 0 ? 1 : 0 };
}

function useContext(env: KubectlEnv, p: Parsed, file: string): CommandResult {
  const name = p.args[0];
  if (name === undefined || p.args.length !== 1) throw new KubectlError('Unexpected args: []', "See 'kubectl config use-context -h' for help and examples");
  const raw = readRaw(env.fs, file);
  if (!(raw.contexts ?? []).some((c) => c.name === name)) throw new KubectlError(`no context exists with the name: "${name}"`);
  raw['current-context'] = name;
  save(env, file, raw);
  return ok(`Switched to context "${name}".\n`);
}

function setContext(env: KubectlEnv, p: Parsed, file: string): CommandResult {
  const raw = readRaw(env.fs, file);
  const current = bool(p.flags, 'current');
  if (current && p.args.length > 0) throw new KubectlError('you cannot specify both a context name and --current');
  let name = p.args[0];
  if (current) {
    name = raw['current-context'];
    if (!name) throw new KubectlError('no current context is set');
  }
  if (name === undefined || name === '') throw new KubectlError('you must specify a non-empty context name or --current', "See 'kubectl config set-context -h' for help and examples");
  const contexts = (raw.contexts ??= []);
  let ctx = contexts.find((c) => c.name === name);
  const created = ctx === undefined;
  if (!ctx) {
    ctx = { name, context: { cluster: '', user: '' } };
    contexts.push(ctx);
  }
  const set = (flag: string, key: 'cluster' | 'user' | 'namespace'): void => {
    const v = str(p.flags, flag);
    if (v !== undefined && p.changed.has(flag)) ctx.context[key] = v;
  };
  set('cluster', 'cluster');
  set('user', 'user');
  set('namespace', 'namespace');
  for (const k of ['cluster', 'user', 'namespace'] as const) if (ctx.context[k] === '' || ctx.context[k] === undefined) delete ctx.context[k];
  save(env, file, raw);
  return ok(`Context "${name}" ${created ? 'created' : 'modified'}.\n`);
}

function deleteContext(env: KubectlEnv, p: Parsed, file: string): CommandResult {
  const name = p.args[0];
  if (name === undefined) throw new KubectlError('Unexpected args: []', "See 'kubectl config delete-context -h' for help and examples");
  const raw = readRaw(env.fs, file);
  if (!(raw.contexts ?? []).some((c) => c.name === name)) throw new KubectlError(`cannot delete context ${name}, not in ${file}`);
  let stderr = '';
  if (raw['current-context'] === name) stderr = 'warning: this removed your active context, use "kubectl config use-context" to select a different one\n';
  raw.contexts = (raw.contexts ?? []).filter((c) => c.name !== name);
  save(env, file, raw);
  return { stdout: `deleted context ${name} from ${file}\n`, stderr, exitCode: 0 };
}

function currentContext(env: KubectlEnv, file: string): CommandResult {
  const cur = readRaw(env.fs, file)['current-context'];
  if (!cur) throw new KubectlError('current-context is not set');
  return ok(`${cur}\n`);
}

/** The subcommands this simulator implements; their flags are declared in spec/config.ts. */
const SUBCOMMANDS: Record<string, { run: (env: KubectlEnv, p: Parsed, file: string, inv: Invocation) => CommandResult }> = {
  view: {
    run: view,
  },
  'get-contexts': {
    run: getContexts,
  },
  'current-context': { run: (env, _p, file) => currentContext(env, file) },
  'use-context': { run: useContext },
  use: { run: useContext },
  'set-context': {
    run: setContext,
  },
  'delete-context': { run: deleteContext },
  'get-clusters': { run: getClusters },
  'get-users': { run: getUsers },
  'set-cluster': { run: (env, p, file, inv) => setCluster(env, p, file, save, inv) },
  'set-credentials': { run: (env, p, file, inv) => setCredentials(env, p, file, save, inv) },
  'delete-cluster': { run: (env, p, file) => deleteCluster(env, p, file, save) },
  'delete-user': { run: (env, p, file) => deleteUser(env, p, file, save) },
  'rename-context': { run: (env, p, file, inv) => renameContext(env, p, file, save, inv) },
  set: { run: (env, p, file, inv) => setProperty(env, p, file, save, inv) },
  unset: { run: (env, p, file, inv) => unsetProperty(env, p, file, save, inv) },
};

export const configVerb: Verb = {
  name: 'config',
  run(inv, env) {
    const p = inv.parsed;
    const sub = inv.path[1]?.name;
    const spec = sub === undefined ? undefined : SUBCOMMANDS[sub];
    if (!spec) throw new KubectlError(`unknown command "${p.args[0] ?? ''}" for "kubectl config"`, "Run 'kubectl config --help' for usage.");
    return spec.run(env, p, path(env, p), inv);
  },
};
