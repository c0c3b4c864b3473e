/**
 * The kubeconfig-editing `kubectl config` subcommands (k8s.io/kubectl v0.35.2 pkg/cmd/config:
 * get_clusters.go, get_users.go, set_cluster.go, set_credentials.go, delete_cluster.go,
 * delete_user.go, rename_context.go, set.go, unset.go). set-cluster and set-credentials merge
 * the given fields into the entry (modifyCluster / modifyAuthInfo: a new server clears
 * tls-server-name, insecure-skip-tls-verify clears the CA, token and basic auth replace each
 * other, --embed-certs reads the file into the *-data field); `set`/`unset` walk a dotted
 * property path (navigation_step_parser.go) over the named lists.
 */
import type { CommandResult } from '../../types.js';
import type { Invocation, KubectlEnv } from '../context.js';
import { bool, list, str, type Parsed } from '../flags.js';
import { KubectlError } from '../errors.js';
import { readRaw } from '../kubeconfig.js';
import { resolvePath } from '../../../sim/node/vfs.js';
import { commandHelp } from '../spec/help.js';

type Raw = ReturnType<typeof readRaw>;
type Entry = { name: string; [k: string]: unknown };
type Fields = Record<string, unknown>;

export type Save = (env: KubectlEnv, file: string, raw: Raw) => void;

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });

/** cobra's usage-then-error for a wrong argument count: the help on stdout, the error on stderr. */
function usageError(inv: Invocation, message: string): never {
  throw Object.assign(new KubectlError(message), { stdout: commandHelp(inv.path) });
}

const sortedNames = (entries: readonly Entry[] | undefined): string[] => (entries ?? []).map((e) => e.name).sort();

export function getClusters(env: KubectlEnv, _p: Parsed, file: string): CommandResult {
  return ok(['NAME', ...sortedNames(readRaw(env.fs, file).clusters as Entry[] | undefined)].map((n) => `${n}\n`).join(''));
}

export function getUsers(env: KubectlEnv, _p: Parsed, file: string): CommandResult {
  return ok(['NAME', ...sortedNames(readRaw(env.fs, file).users as Entry[] | undefined)].map((n) => `${n}\n`).join(''));
}

/** The entry `name` of a named list (created empty when missing) and its inner map. */
function entry(raw: Raw, listKey: 'clusters' | 'users' | 'contexts', innerKey: string, name: string): Fields {
  const entries = ((raw[listKey] as Entry[] | undefined) ??= []) as Entry[];
  let e = entries.find((x) => x.name === name);
  if (!e) {
    e = { name, [innerKey]: {} };
    entries.push(e);
  }
  return ((e[innerKey] as Fields | undefined) ??= {}) as Fields;
}

/** A file the flag names: its absolute path, or its content base64-encoded for --embed-certs. */
function fileRef(env: KubectlEnv, flag: string, path: string, embed: boolean): string {
  const abs = resolvePath(env.cwd, path);
  if (!embed) return abs;
  const text = env.fs.tryRead(abs);
  if (text === undefined) throw new KubectlError(`could not stat ${flag} file ${path}: stat ${path}: no such file or directory`);
  return Buffer.from(text).toString('base64');
}

export function setCluster(env: KubectlEnv, p: Parsed, file: string, save: Save, inv: Invocation): CommandResult {
  if (p.args.length !== 1 || p.args[0] === '') usageError(inv, `Unexpected args: [${p.args.join(' ')}]`);
  const name = p.args[0]!;
  const embed = bool(p.flags, 'embed-certs');
  const ca = str(p.flags, 'certificate-authority');
  if (embed && !ca) throw new KubectlError('you must specify a --certificate-authority to embed');
  const caData = ca !== undefined && p.changed.has('certificate-authority') ? fileRef(env, 'certificate-authority', ca, embed) : undefined;
  const raw = readRaw(env.fs, file);
  const c = entry(raw, 'clusters', 'cluster', name);
  const has = (f: string): boolean => p.changed.has(f);
  if (has('server')) {
    c['server'] = str(p.flags, 'server') ?? '';
    delete c['tls-server-name'];
  }
  if (has('tls-server-name')) c['tls-server-name'] = str(p.flags, 'tls-server-name') ?? '';
  if (has('insecure-skip-tls-verify')) {
    c['insecure-skip-tls-verify'] = bool(p.flags, 'insecure-skip-tls-verify');
    if (c['insecure-skip-tls-verify']) {
      delete c['certificate-authority'];
      delete c['certificate-authority-data'];
    }
  }
  if (caData !== undefined) {
    if (embed) {
      c['certificate-authority-data'] = caData;
      delete c['certificate-authority'];
    } else {
      c['certificate-authority'] = caData;
      delete c['certificate-authority-data'];
    }
    delete c['insecure-skip-tls-verify'];
  }
  if (has('proxy-url')) c['proxy-url'] = str(p.flags, 'proxy-url') ?? '';
  dropEmpty(c);
  save(env, file, raw);
  return ok(`Cluster "${name}" set.\n`);
}

/** Empty strings and false are omitted when clientcmd writes the file (omitempty). */
function dropEmpty(m: Fields): void {
  for (const [k, v] of Object.entries(m)) if (v === '' || v === false) delete m[k];
}

/** `key=value` list flags with `key-` removals (set_credentials.go parse of --auth-provider-arg / --exec-env). */
function keyValues(values: readonly string[], flag: string): { set: [string, string][]; remove: string[] } {
  const set: [string, string][] = [];
  const remove: string[] = [];
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq > 0) set.push([v.slice(0, eq), v.slice(eq + 1)]);
    else if (v.endsWith('-') && v.length > 1) remove.push(v.slice(0, -1));
    else throw new KubectlError(`invalid ${flag}: ${v}`);
  }
  return { set, remove };
}

export function setCredentials(env: KubectlEnv, p: Parsed, file: string, save: Save, inv: Invocation): CommandResult {
  if (p.args.length !== 1 || p.args[0] === '') usageError(inv, `unexpected args: [${p.args.join(' ')}]`);
  const name = p.args[0]!;
  const has = (f: string): boolean => p.changed.has(f);
  const embed = bool(p.flags, 'embed-certs');
  const cert = has('client-certificate') ? fileRef(env, 'client-certificate', str(p.flags, 'client-certificate') ?? '', embed) : undefined;
  const key = has('client-key') ? fileRef(env, 'client-key', str(p.flags, 'client-key') ?? '', embed) : undefined;
  const raw = readRaw(env.fs, file);
  const u = entry(raw, 'users', 'user', name);
  if (cert !== undefined) {
    u[embed ? 'client-certificate-data' : 'client-certificate'] = cert;
    delete u[embed ? 'client-certificate' : 'client-certificate-data'];
  }
  if (key !== undefined) {
    u[embed ? 'client-key-data' : 'client-key'] = key;
    delete u[embed ? 'client-key' : 'client-key-data'];
  }
  let setToken = false;
  let setBasic = false;
  if (has('token')) {
    u['token'] = str(p.flags, 'token') ?? '';
    setToken = u['token'] !== '';
  }
  for (const f of ['username', 'password']) {
    if (!has(f)) continue;
    u[f] = str(p.flags, f) ?? '';
    setBasic ||= u[f] !== '';
  }
  if (has('auth-provider')) {
    const provider = str(p.flags, 'auth-provider') ?? '';
    const cur = u['auth-provider'] as Fields | undefined;
    if (!cur || cur['name'] !== provider) u['auth-provider'] = { name: provider };
  }
  const ap = u['auth-provider'] as Fields | undefined;
  if (ap) {
    const { set, remove } = keyValues(list(p.flags, 'auth-provider-arg'), 'auth-provider-arg');
    const cfg = ((ap['config'] as Record<string, string> | undefined) ??= {});
    for (const k of remove) delete cfg[k];
    for (const [k, v] of set) cfg[k] = v;
  }
  if (has('exec-command')) {
    const cmd = str(p.flags, 'exec-command') ?? '';
    const cur = u['exec'] as Fields | undefined;
    if (!cur) u['exec'] = { command: cmd };
    else {
      cur['command'] = cmd;
      delete cur['args'];
    }
  }
  const exec = u['exec'] as Fields | undefined;
  if (exec) {
    if (has('exec-api-version')) exec['apiVersion'] = str(p.flags, 'exec-api-version') ?? '';
    if (has('exec-arg')) exec['args'] = list(p.flags, 'exec-arg');
    if (has('exec-interactive-mode')) exec['interactiveMode'] = str(p.flags, 'exec-interactive-mode') ?? '';
    exec['provideClusterInfo'] = has('exec-provide-cluster-info') ? bool(p.flags, 'exec-provide-cluster-info') : (exec['provideClusterInfo'] ?? false);
    const { set, remove } = keyValues(list(p.flags, 'exec-env'), 'exec-env');
    let envs = ((exec['env'] as { name: string; value: string }[] | undefined) ?? []).filter((e) => !remove.includes(e.name));
    for (const [k, v] of set) {
      const e = envs.find((x) => x.name === k);
      if (e) e.value = v;
      else envs = [...envs, { name: k, value: v }];
    }
    if (envs.length) exec['env'] = envs;
    else delete exec['env'];
  }
  if (setToken || setBasic) {
    if (!setToken) delete u['token'];
    if (!setBasic) {
      delete u['username'];
      delete u['password'];
    }
  }
  for (const [k, v] of Object.entries(u)) if (v === '') delete u[k];
  save(env, file, raw);
  return ok(`User "${name}" set.\n`);
}

function deleteNamed(env: KubectlEnv, p: Parsed, file: string, save: Save, listKey: 'clusters' | 'users', word: string): CommandResult {
  const name = p.args[0];
  if (name === undefined) throw new KubectlError(`${word} to delete is required`, `See 'kubectl config delete-${word} -h' for help and examples`);
  const raw = readRaw(env.fs, file);
  const entries = (raw[listKey] as Entry[] | undefined) ?? [];
  if (!entries.some((e) => e.name === name)) throw new KubectlError(`cannot delete ${word} ${name}, not in ${file}`);
  (raw as Record<string, unknown>)[listKey] = entries.filter((e) => e.name !== name);
  save(env, file, raw);
  return ok(`deleted ${word} ${name} from ${file}\n`);
}

export const deleteUser = (env: KubectlEnv, p: Parsed, file: string, save: Save): CommandResult => deleteNamed(env, p, file, save, 'users', 'user');
export const deleteCluster = (env: KubectlEnv, p: Parsed, file: string, save: Save): CommandResult => deleteNamed(env, p, file, save, 'clusters', 'cluster');

export function renameContext(env: KubectlEnv, p: Parsed, file: string, save: Save, inv: Invocation): CommandResult {
  if (p.args.length !== 2) usageError(inv, `Unexpected args: [${p.args.join(' ')}]`);
  const [from, to] = p.args as [string, string];
  const raw = readRaw(env.fs, file);
  const contexts = raw.contexts ?? [];
  const ctx = contexts.find((c) => c.name === from);
  if (!ctx) throw new KubectlError(`cannot rename the context "${from}", it's not in ${file}`);
  if (contexts.some((c) => c.name === to)) throw new KubectlError(`cannot rename the context "${from}", the context "${to}" already exists in ${file}`);
  ctx.name = to;
  if (raw['current-context'] === from) raw['current-context'] = to;
  save(env, file, raw);
  return ok(`Context "${from}" renamed to "${to}".\n`);
}

/** Fields of each named entry a property path may address, and whether they hold bytes or a bool. */
const FIELDS: Record<string, { inner: string; fields: Record<string, 'string' | 'bytes' | 'bool' | 'strings'> }> = {
  clusters: {
    inner: 'cluster',
    fields: { server: 'string', 'tls-server-name': 'string', 'insecure-skip-tls-verify': 'bool', 'certificate-authority': 'string', 'certificate-authority-data': 'bytes', 'proxy-url': 'string', 'disable-compression': 'bool' },
  },
  contexts: { inner: 'context', fields: { cluster: 'string', user: 'string', namespace: 'string' } },
  users: {
    inner: 'user',
    fields: {
      'client-certificate': 'string', 'client-certificate-data': 'bytes', 'client-key': 'string', 'client-key-data': 'bytes', token: 'string',
      tokenFile: 'string', as: 'string', 'as-uid': 'string', 'as-groups': 'strings', username: 'string', password: 'string',
    },
  },
};

interface PropertyPath {
  list?: 'clusters' | 'contexts' | 'users' | undefined;
  name?: string;
  field?: string;
}

/** navigation_step_parser.go, for the paths a kubeconfig has: `current-context`, `LIST.NAME[.FIELD]`. */
function parsePath(prop: string): PropertyPath {
  if (prop === 'current-context') return {};
  const parts = prop.split('.');
  const head = parts[0]!;
  const spec = FIELDS[head];
  if (!spec) throw new KubectlError(`unable to parse ${prop} after [] at api.Config`);
  const name = parts[1];
  const field = parts.slice(2).join('.');
  if (field !== '' && !(field in spec.fields)) throw new KubectlError(`unable to parse one or more field values of ${prop}`);
  return { list: head as PropertyPath['list'], ...(name !== undefined ? { name } : {}), ...(field !== '' ? { field } : {}) };
}

export function setProperty(env: KubectlEnv, p: Parsed, file: string, save: Save, inv: Invocation): CommandResult {
  if (p.args.length !== 2) usageError(inv, `Unexpected args: [${p.args.join(' ')}]`);
  const [prop, value] = p.args as [string, string];
  const path = parsePath(prop);
  const raw = readRaw(env.fs, file);
  if (!path.list) raw['current-context'] = value;
  else {
    if (path.name === undefined || path.field === undefined) throw new KubectlError(`can't set a map to a value: map[${path.name ?? ''}]`);
    const spec = FIELDS[path.list]!;
    const m = entry(raw, path.list, spec.inner, path.name);
    const type = spec.fields[path.field]!;
    if (type === 'bool') {
      const b = parseBool(value);
      if (b === undefined) throw new KubectlError(`strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
      m[path.field] = b;
    } else if (type === 'bytes') {
      if (bool(p.flags, 'set-raw-bytes')) m[path.field] = Buffer.from(value).toString('base64');
      else {
        const bad = /[^A-Za-z0-9+/=]/.exec(value);
        if (bad) throw new KubectlError(`error decoding input value: illegal base64 data at input byte ${bad.index}`);
        m[path.field] = value;
      }
    } else if (type === 'strings') m[path.field] = value.split(',');
    else m[path.field] = value;
  }
  save(env, file, raw);
  return ok(`Property "${prop}" set.\n`);
}

/** strconv.ParseBool. */
function parseBool(v: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

export function unsetProperty(env: KubectlEnv, p: Parsed, file: string, save: Save, inv: Invocation): CommandResult {
  if (p.args.length !== 1) usageError(inv, `Unexpected args: [${p.args.join(' ')}]`);
  const prop = p.args[0]!;
  const path = parsePath(prop);
  const raw = readRaw(env.fs, file);
  if (!path.list) delete raw['current-context'];
  else if (path.name === undefined) delete (raw as Record<string, unknown>)[path.list];
  else {
    const entries = (raw[path.list] as Entry[] | undefined) ?? [];
    if (path.field === undefined) (raw as Record<string, unknown>)[path.list] = entries.filter((e) => e.name !== path.name);
    else {
      const inner = entries.find((e) => e.name === path.name)?.[FIELDS[path.list]!.inner] as Fields | undefined;
      if (inner) delete inner[path.field];
    }
  }
  save(env, file, raw);
  return ok(`Property "${prop}" unset.\n`);
}
