/**
 * What kubectl sends the API server about who it is (client-go tools/clientcmd
 * client_config.go, rest/config.go): the current context's user (or --context/--user), its
 * client certificate (`client-certificate-data`, or the file `client-certificate` names) and
 * bearer token (`token`, `tokenFile`), the --token/--client-certificate overrides, and the
 * impersonation headers from --as/--as-group.
 */
import { parseYamlMemo as parseYaml } from '../../util/yaml-memo.js';
import type { ClientContext } from '../../sim/apiserver.js';
import type { KubectlEnv } from './context.js';
import { list, str, type Parsed } from './flags.js';
import { kubeconfigPath } from './kubeconfig.js';

interface RawUser {
  'client-certificate-data'?: string;
  'client-certificate'?: string;
  token?: string;
  tokenFile?: string;
}

interface RawConfig {
  'current-context'?: string;
  contexts?: { name: string; context?: { user?: string } }[];
  users?: { name: string; user?: RawUser }[];
}

/** kubectl verbs whose writes are PATCH requests (apply, patch, edit, label, …) rather than PUT. */
const PATCHING = new Set(['apply', 'patch', 'edit', 'label', 'annotate', 'set', 'scale', 'taint', 'cordon', 'uncordon', 'drain', 'rollout', 'autoscale']);

function resolvePath(path: string, base: string): string {
  return path.startsWith('/') ? path : `${base.replace(/\/[^/]*$/, '')}/${path}`;
}

/**
 * The client context of one kubectl run, or undefined when no kubeconfig can be read (kubectl
 * then has no server to talk to at all; the lab leaves such runs to the control plane's client).
 */
export function clientContext(env: KubectlEnv, p: Parsed, words: string): ClientContext | undefined {
  const f = p.flags;
  const path = kubeconfigPath(env.env, str(f, 'kubeconfig'));
  const text = env.fs.tryRead(path);
  if (text === undefined) return undefined;
  let raw: RawConfig;
  try {
    raw = (parseYaml(text) ?? {}) as RawConfig;
  } catch {
    return undefined;
  }
  const ctxName = str(f, 'context') || raw['current-context'] || '';
  const userName = str(f, 'user') || raw.contexts?.find((c) => c.name === ctxName)?.context?.user || '';
  const u: RawUser = raw.users?.find((x) => x.name === userName)?.user ?? {};
  let clientCertificate: string | undefined;
  const certFlag = str(f, 'client-certificate');
  if (certFlag) clientCertificate = env.fs.tryRead(resolvePath(certFlag, `${env.cwd}/`)) ?? '';
  else if (u['client-certificate-data']) clientCertificate = Buffer.from(u['client-certificate-data'], 'base64').toString('utf8');
  else if (u['client-certificate']) clientCertificate = env.fs.tryRead(resolvePath(u['client-certificate'], path)) ?? '';
  const token = str(f, 'token') || u.token || (u.tokenFile ? env.fs.tryRead(resolvePath(u.tokenFile, path))?.trim() : undefined);
  const as = str(f, 'as');
  const asGroups = list(f, 'as-group');
  const top = words.split(' ')[0] ?? '';
  return {
    credentials: { ...(clientCertificate !== undefined ? { clientCertificate } : {}), ...(token ? { token } : {}) },
    ...(as ? { impersonate: { user: as, groups: asGroups } } : {}),
    updateVerb: PATCHING.has(top) ? 'patch' : 'update',
  };
}
