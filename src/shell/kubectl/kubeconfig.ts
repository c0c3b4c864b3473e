/**
 * kubeconfig handling (client-go tools/clientcmd): the file at $KUBECONFIG or ~/.kube/config on
 * the machine kubectl runs on, the current context and its namespace.
 */
import { stringify } from 'yaml';
import { parseYamlMemo as parseYaml, parseYamlShared } from '../../util/yaml-memo.js';
import type { KubectlFiles } from './context.js';
import { KubectlError } from './errors.js';
import type { Kubeconfig } from './context.js';

export function kubeconfigPath(env: Record<string, string>, flag?: string): string {
  if (flag) return flag;
  const v = env['KUBECONFIG'];
  if (v) return v.split(':')[0]!;
  return `${env['HOME'] ?? '/root'}/.kube/config`;
}

interface RawConfig {
  'current-context'?: string;
  contexts?: { name: string; context: { cluster: string; user: string; namespace?: string } }[];
  clusters?: { name: string; cluster: { server: string } }[];
  users?: { name: string }[];
  [k: string]: unknown;
}

/** The file's parse, the caller's own copy (`kubectl config set-…` edits it and writes it back). */
export function readRaw(fs: KubectlFiles, path: string): RawConfig {
  return parseRaw(fs, path, parseYaml);
}

/**
 * readRaw for a caller that only reads: the memoised parse itself, shared (parseYamlShared). Every
 * kubectl line reads its namespace from the kubeconfig; copying the parse was most of that.
 */
function readRawShared(fs: KubectlFiles, path: string): Readonly<RawConfig> {
  return parseRaw(fs, path, parseYamlShared);
}

function parseRaw(fs: KubectlFiles, path: string, parse: (text: string) => unknown): RawConfig {
  const text = fs.tryRead(path);
  if (text === undefined) throw new KubectlError(`stat ${path}: no such file or directory`);
  try {
    return (parse(text) ?? {}) as RawConfig;
  } catch (e) {
    throw new KubectlError(`error loading config file "${path}": ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
}

export function writeRaw(fs: KubectlFiles, path: string, raw: RawConfig): void {
  fs.write(path, stringify(raw), 0o600);
}

export function readKubeconfig(fs: KubectlFiles, path: string): Kubeconfig {
  const raw = readRawShared(fs, path);
  return {
    currentContext: raw['current-context'] ?? '',
    contexts: (raw.contexts ?? []).map((c) => ({ name: c.name, cluster: c.context?.cluster ?? '', user: c.context?.user ?? '', ...(c.context?.namespace ? { namespace: c.context.namespace } : {}) })),
    clusters: (raw.clusters ?? []).map((c) => ({ name: c.name, server: c.cluster?.server ?? '' })),
    users: (raw.users ?? []).map((u) => ({ name: u.name })),
  };
}

/** The namespace a command uses: -n, else the current context's namespace, else "default". */
export function effectiveNamespace(fs: KubectlFiles, env: Record<string, string>, flagNs: string | undefined, kubeconfigFlag?: string, contextFlag?: string): string {
  if (flagNs) return flagNs;
  try {
    const kc = readKubeconfig(fs, kubeconfigPath(env, kubeconfigFlag));
    const ctx = kc.contexts.find((c) => c.name === (contextFlag ?? kc.currentContext));
    return ctx?.namespace ?? 'default';
  } catch {
    return 'default';
  }
}
