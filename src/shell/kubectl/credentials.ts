/**
 * What kubectl sends the API server about who it is (client-go tools/clientcmd
 * client_config.go, rest/config.go): the current context's user (or --context/--user), its
 * client certificate (`client-certificate-data`, or the file `client-certificate` names) and
 * bearer token (`token`, `tokenFile`), the --token/--client-certificate overrides, and the
 * impersonation headers from --as/--as-group.
 */
import { parseYamlShared } from '../../util/yaml-memo.js';
import { remember } from '../../util/bounded-map.js';
import type { ClientContext } from '../../sim/apiserver.js';
import { parseServer } from '../../sim/dial.js';
import type { KubectlEnv } from './context.js';
import { list, str, type Parsed } from './flags.js';
import { kubeconfigPath } from './kubeconfig.js';

interface RawUser {
  'client-certificate-data'?: string;
  'client-certificate'?: string;
  token?: string;
  tokenFile?: string;
}

interface RawCluster {
  server?: string;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
}

interface RawConfig {
  'current-context'?: string;
  contexts?: { name: string; context?: { user?: string; cluster?: string } }[];
  clusters?: { name: string; cluster?: RawCluster }[];
  users?: { name: string; user?: RawUser }[];
}

/** The client settings kubectl reports before any request (client-go clientcmd, rest.TLSConfigFor). */
export class ClientConfigError extends Error {}

/** kubectl verbs whose writes are PATCH requests (apply, patch, edit, label, …) rather than PUT. */
const PATCHING = new Set(['apply', 'patch', 'edit', 'label', 'annotate', 'set', 'scale', 'taint', 'cordon', 'uncordon', 'drain', 'rollout', 'autoscale']);

const DECODED = new Map<string, string>();

/**
 * A kubeconfig's `*-data` field as text (base64 decoded, read as UTF-8), memoised by the field's
 * text: a pure function of it, and the same few certificates are decoded on every kubectl line.
 */
function fromBase64(data: string): string {
  return DECODED.get(data) ?? remember(DECODED, data, Buffer.from(data, 'base64').toString('utf8'), 16);
}

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
    // read, never changed: the memoised parse itself (every kubectl line reads the kubeconfig)
    raw = (parseYamlShared(text) ?? {}) as RawConfig;
  } catch {
    return undefined;
  }
  const ctxName = str(f, 'context') || raw['current-context'] || '';
  const userName = str(f, 'user') || raw.contexts?.find((c) => c.name === ctxName)?.context?.user || '';
  const u: RawUser = raw.users?.find((x) => x.name === userName)?.user ?? {};
  let clientCertificate: string | undefined;
  const certFlag = str(f, 'client-certificate');
  if (certFlag) clientCertificate = env.fs.tryRead(resolvePath(certFlag, `${env.cwd}/`)) ?? '';
  else if (u['client-certificate-data']) clientCertificate = fromBase64(u['client-certificate-data']);
  else if (u['client-certificate']) clientCertificate = env.fs.tryRead(resolvePath(u['client-certificate'], path)) ?? '';
  const token = str(f, 'token') || u.token || (u.tokenFile ? env.fs.tryRead(resolvePath(u.tokenFile, path))?.trim() : undefined);
  const found = endpointOf(env, raw, p, ctxName, path);
  const top = words.split(' ')[0] ?? '';
  if (found instanceof ClientConfigError && buildsClient(top, p)) throw found;
  const endpoint = found instanceof ClientConfigError ? undefined : found;
  const as = str(f, 'as');
  const asGroups = list(f, 'as-group');
  return {
    credentials: { ...(clientCertificate !== undefined ? { clientCertificate } : {}), ...(token ? { token } : {}) },
    ...(as ? { impersonate: { user: as, groups: asGroups } } : {}),
    updateVerb: PATCHING.has(top) ? 'patch' : 'update',
    // the verb's --field-manager (its default names the verb: kubectl-edit, kubectl-create …);
    // a request without one is named from kubectl's User-Agent, `kubectl`
    fieldManager: str(f, 'field-manager') || 'kubectl',
    ...(endpoint ? { endpoint } : {}),
  };
}

/** Commands that never build a REST client (so a broken cluster entry does not stop them): kubeconfig editing, completion, kustomize, `version --client`. */
function buildsClient(top: string, p: Parsed): boolean {
  if (top === 'config' || top === 'completion' || top === 'kustomize' || top === 'options' || top === 'help') return false;
  return !(top === 'version' && p.flags['client'] === true);
}

/**
 * The server the context's cluster entry names (or --server, --cluster), its CA
 * (`certificate-authority-data`, the file `certificate-authority` names, or --certificate-authority)
 * and TLS options, as client-go builds rest.Config; the settings it refuses (an unreadable CA file,
 * a CA that is not PEM, a CA together with insecure-skip-tls-verify) are ClientConfigErrors. The
 * discovery of the cluster's own endpoint is taken as cached (kubectl has talked to it before);
 * any other server's is not.
 */
function endpointOf(env: KubectlEnv, raw: RawConfig, p: Parsed, ctxName: string, path: string): NonNullable<ClientContext['endpoint']> | ClientConfigError | undefined {
  const f = p.flags;
  const clusterName = str(f, 'cluster') || raw.contexts?.find((c) => c.name === ctxName)?.context?.cluster || '';
  const found = Array.isArray(raw.clusters) ? raw.clusters.find((x) => x?.name === clusterName)?.cluster : undefined;
  // a hand-edited kubeconfig may hold anything: only strings (and a boolean) are taken
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  // (member by member: five conditional spreads were a third of this function's time on every line)
  const cl: RawCluster = {};
  const server0 = text(found?.server);
  if (server0) cl.server = server0;
  const caFile0 = text(found?.['certificate-authority']);
  if (caFile0) cl['certificate-authority'] = caFile0;
  const caData0 = text(found?.['certificate-authority-data']);
  if (caData0) cl['certificate-authority-data'] = caData0;
  if (found?.['insecure-skip-tls-verify'] === true) cl['insecure-skip-tls-verify'] = true;
  const tlsName0 = text(found?.['tls-server-name']);
  if (tlsName0) cl['tls-server-name'] = tlsName0;
  const server = str(f, 'server') || cl.server;
  if (!server) return undefined;
  const flagInsecure = p.changed.has('insecure-skip-tls-verify') && f['insecure-skip-tls-verify'] === true;
  const insecure = p.changed.has('insecure-skip-tls-verify') ? flagInsecure : cl['insecure-skip-tls-verify'] === true;
  let caPem: string | undefined;
  const caFlag = str(f, 'certificate-authority');
  // client_config.go: --insecure-skip-tls-verify on the command line drops the kubeconfig's CA
  const caFile = caFlag ? resolvePath(caFlag, `${env.cwd}/`) : cl['certificate-authority'] && !cl['certificate-authority-data'] && !flagInsecure ? resolvePath(cl['certificate-authority'], path) : undefined;
  if (caFile !== undefined) {
    caPem = env.fs.tryRead(caFile);
    // clientcmd validateClusterInfo: the file is read when the config is built
    if (caPem === undefined) return new ClientConfigError(`unable to read certificate-authority ${caFile} for ${clusterName} due to open ${caFile}: no such file or directory`);
  } else if (cl['certificate-authority-data'] && !flagInsecure) caPem = fromBase64(cl['certificate-authority-data']);
  if (insecure && caPem !== undefined) return new ClientConfigError('specifying a root certificates file with the insecure flag is not allowed');
  // rest.TLSConfigFor → rootCertPool: x509.CertPool.AppendCertsFromPEM found no certificate
  if (caPem !== undefined && !/-----BEGIN CERTIFICATE-----/.test(caPem)) return new ClientConfigError('unable to load root certificates: unable to parse bytes as PEM block');
  const tlsServerName = str(f, 'tls-server-name') || cl['tls-server-name'];
  const from = env.host ?? env.cluster.meta.workstation;
  const own = parseServer(server);
  const cp = env.cluster.host(env.cluster.meta.controlPlane);
  const discoveryCached = own !== undefined && cp !== undefined && own.hostPort === `${cp.ip}:6443`;
  return { server, insecure, from, discoveryCached, ...(caPem !== undefined ? { caPem } : {}), ...(tlsServerName ? { tlsServerName } : {}) };
}
