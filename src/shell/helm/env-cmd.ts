/**
 * `helm env [NAME]` (helm pkg/cmd/env.go, pkg/cli/environment.go EnvVars): the HELM_* settings,
 * sorted, as NAME="VALUE"; with a NAME only its value (empty for one helm does not know).
 * Paths follow the user's HOME (helmpath's XDG defaults) unless HELM_*_HOME are set; HELM_BIN is
 * `helm` as the shell found it on PATH; KUBECONFIG appears only with --kubeconfig.
 */
import { type HelmArgs, flag } from './args.js';
import { HelmError } from './repo.js';

export function helmEnvVars(home: string, vars: Readonly<Record<string, string>>, a: HelmArgs): Record<string, string> {
  const v = (k: string, d: string): string => vars[k] ?? d;
  const cache = v('HELM_CACHE_HOME', vars['XDG_CACHE_HOME'] ? `${vars['XDG_CACHE_HOME']}/helm` : `${home}/.cache/helm`);
  const config = v('HELM_CONFIG_HOME', vars['XDG_CONFIG_HOME'] ? `${vars['XDG_CONFIG_HOME']}/helm` : `${home}/.config/helm`);
  const data = v('HELM_DATA_HOME', vars['XDG_DATA_HOME'] ? `${vars['XDG_DATA_HOME']}/helm` : `${home}/.local/share/helm`);
  const debug = flag(a, 'debug') ?? vars['HELM_DEBUG'];
  const qps = Number.parseFloat(flag(a, 'qps') ?? vars['HELM_QPS'] ?? '0');
  const out: Record<string, string> = {
    HELM_BIN: 'helm',
    HELM_BURST_LIMIT: flag(a, 'burst-limit') ?? v('HELM_BURST_LIMIT', '100'),
    HELM_CACHE_HOME: cache,
    HELM_CONFIG_HOME: config,
    HELM_CONTENT_CACHE: v('HELM_CONTENT_CACHE', `${cache}/content`),
    HELM_DATA_HOME: data,
    HELM_DEBUG: String(debug !== undefined && /^(1|t|true)$/i.test(debug)),
    HELM_KUBEAPISERVER: flag(a, 'kube-apiserver') ?? v('HELM_KUBEAPISERVER', ''),
    HELM_KUBEASGROUPS: (flag(a, 'kube-as-group') ?? v('HELM_KUBEASGROUPS', '')),
    HELM_KUBEASUSER: flag(a, 'kube-as-user') ?? v('HELM_KUBEASUSER', ''),
    HELM_KUBECAFILE: flag(a, 'kube-ca-file') ?? v('HELM_KUBECAFILE', ''),
    HELM_KUBECONTEXT: flag(a, 'kube-context') ?? v('HELM_KUBECONTEXT', ''),
    HELM_KUBEINSECURE_SKIP_TLS_VERIFY: flag(a, 'kube-insecure-skip-tls-verify') === 'true' ? 'true' : 'false',
    HELM_KUBETLS_SERVER_NAME: flag(a, 'kube-tls-server-name') ?? v('HELM_KUBETLS_SERVER_NAME', ''),
    HELM_KUBETOKEN: flag(a, 'kube-token') ?? v('HELM_KUBETOKEN', ''),
    HELM_MAX_HISTORY: v('HELM_MAX_HISTORY', '10'),
    HELM_NAMESPACE: flag(a, 'namespace') ?? v('HELM_NAMESPACE', 'default'),
    HELM_PLUGINS: v('HELM_PLUGINS', `${data}/plugins`),
    HELM_QPS: (Number.isFinite(qps) ? qps : 0).toFixed(2),
    HELM_REGISTRY_CONFIG: flag(a, 'registry-config') ?? v('HELM_REGISTRY_CONFIG', `${config}/registry/config.json`),
    HELM_REPOSITORY_CACHE: flag(a, 'repository-cache') ?? v('HELM_REPOSITORY_CACHE', `${cache}/repository`),
    HELM_REPOSITORY_CONFIG: flag(a, 'repository-config') ?? v('HELM_REPOSITORY_CONFIG', `${config}/repositories.yaml`),
  };
  const kubeconfig = flag(a, 'kubeconfig');
  if (kubeconfig) out['KUBECONFIG'] = kubeconfig;
  return out;
}

export function envCmd(home: string, vars: Readonly<Record<string, string>>, a: HelmArgs): string {
  if (a.args.length > 1) throw new HelmError(`"helm env" accepts at most 1 argument\n\nUsage:  helm env [flags]`);
  const all = helmEnvVars(home, vars, a);
  if (a.args.length === 1) return `${all[a.args[0]!] ?? ''}\n`;
  return Object.keys(all)
    .sort()
    .map((k) => `${k}=${JSON.stringify(all[k])}\n`)
    .join('');
}
