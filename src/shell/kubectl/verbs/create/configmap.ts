/**
 * `kubectl create configmap` and the data sources it shares with `create secret generic`
 * (k8s.io/kubectl pkg/cmd/create/create_configmap.go, pkg/util/hash): --from-literal,
 * --from-file (file, key=file, directory), --from-env-file.
 */
import type { KObject } from '../../../../sim/api/types.js';
import { resolvePath } from '../../../../sim/node/vfs.js';
import type { KubectlEnv } from '../../context.js';
import { KubectlError } from '../../errors.js';
import { list } from '../../flags.js';
import { meta, type GenContext, type Generator } from './types.js';
import { readLocalFile } from '../../local-file.js';

const KEY = /^[-._a-zA-Z0-9]+$/;

const KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/**
 * One key of the data; the two commands word its refusals differently (create_configmap.go
 * addKeyFromLiteralToConfigMap: `%q is not a valid key name for a ConfigMap: %s`, `cannot add key
 * %q, another key by that name already exists in Data for ConfigMap %q`; create_secret.go
 * addKeyFromLiteralToSecret: `%q is not valid key name for a Secret %s`, `cannot add key %s,
 * another key by that name already exists`; checked with kubectl v1.35.2).
 */
function addKey(data: Record<string, string>, key: string, value: string, owner: string): void {
  const secret = owner.startsWith('Secret ');
  if (!KEY.test(key)) throw new KubectlError(secret ? `"${key}" is not valid key name for a Secret ${KEY_MSG}` : `"${key}" is not a valid key name for a ${owner.split(' ')[0]}: ${KEY_MSG}`);
  if (key in data) throw new KubectlError(secret ? `cannot add key ${key}, another key by that name already exists` : `cannot add key "${key}", another key by that name already exists in Data for ${owner}`);
  data[key] = value;
}

function readFile(env: KubectlEnv, path: string): string {
  const text = readLocalFile(env, path);
  if (text === undefined) throw new KubectlError(`error reading ${path}: no such file or directory`);
  return text;
}

/** Collect data from the literal/file/env-file flags; `owner` is `ConfigMap "x"` / `Secret "x"`. */
export function collectData(ctx: GenContext, owner: string): Record<string, string> {
  const data: Record<string, string> = {};
  const { env } = ctx;
  for (const src of list(ctx.p.flags, 'from-file')) {
    const eq = src.indexOf('=');
    const [key, path] = eq >= 0 ? [src.slice(0, eq), src.slice(eq + 1)] : [undefined, src];
    const abs = resolvePath(env.cwd, path);
    if (env.fs.isDir(abs)) {
      if (key !== undefined) throw new KubectlError('cannot give a key name for a directory path');
      for (const name of env.fs.list(abs)) if (env.fs.isFile(`${abs}/${name}`)) addKey(data, name, env.fs.read(`${abs}/${name}`), owner);
      continue;
    }
    addKey(data, key ?? path.split('/').pop()!, readFile(env, path), owner);
  }
  for (const lit of list(ctx.p.flags, 'from-literal')) {
    const eq = lit.indexOf('=');
    if (eq <= 0) throw new KubectlError(`invalid literal source ${lit}, expected key=value`);
    let value = lit.slice(eq + 1);
    if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) value = value.slice(1, -1);
    addKey(data, lit.slice(0, eq), value, owner);
  }
  for (const path of list(ctx.p.flags, 'from-env-file')) {
    for (const raw of readFile(env, path).split('\n')) {
      const line = raw.replace(/^\s+/, '');
      if (line === '' || line.startsWith('#')) continue;
      const eq = line.indexOf('=');
      if (eq < 0) {
        const v = env.env[line];
        if (v !== undefined) addKey(data, line, v, owner);
        continue;
      }
      addKey(data, line.slice(0, eq), line.slice(eq + 1), owner);
    }
  }
  return data;
}

/** Go marshals map keys sorted. */
export function sortedRecord(r: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(r).sort().map((k) => [k, r[k]!]));
}


export const configMapGenerator: Generator = {
  name: 'configmap',
  aliases: ['cm'],
  path: 'create configmap',
  errorPrefix: 'failed to create configmap: ',
  build(ctx) {
    const data = collectData(ctx, `ConfigMap "${ctx.name}"`);
    return {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: meta(ctx),
      ...(Object.keys(data).length > 0 ? { data: sortedRecord(data) } : {}),
    } as KObject;
  },
};
