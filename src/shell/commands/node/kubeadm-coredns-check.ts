/**
 * The CoreDNSUnsupportedPlugins preflight check of `kubeadm upgrade apply`
 * (kubernetes/kubernetes cmd/kubeadm/app/phases/upgrade/preflight.go checkUnsupportedPlugins, run
 * by cmd/phases/upgrade/apply/preflight.go before the cluster health checks): the Corefile of the
 * kube-system/coredns ConfigMap is read with github.com/coredns/corefile-migration
 * (migration.Unsupported(current, current, corefile), migrate.go getStatus at 1dc6c9e), and every
 * plugin the migration tool does not know in the running CoreDNS version, and every option it does
 * not know in a plugin it knows, becomes a Notice (`Plugin "x" is unsupported by this migration
 * tool in 1.12.1.`, `Option "y" in plugin "z" …`; notice.go ToString). kubeadm then prints its
 * explanation on stdout and fails the check with `CoreDNS cannot migrate the following
 * plugins:\n[…]` (the notices as Go prints a []string) — a preflight error
 * (preflight.RunChecks: `[ERROR CoreDNSUnsupportedPlugins]: …`), or, with
 * `--ignore-preflight-errors=CoreDNSUnsupportedPlugins|all`, a `[WARNING …]` line on stderr.
 *
 * The plugin table is corefile-migration's plugins_1_12_0 (= plugins_1_13_0), which its versions.go
 * uses for CoreDNS 1.12.0 to 1.13.2 — the CoreDNS of kubeadm v1.34 (1.12.1) and v1.35 (1.13.1). A
 * CoreDNS image outside that range, or a cluster without the ConfigMap, is not checked by the lab.
 * The Corefile is read as corefile/corefile.go New reads it: caddyfile tokens, depth 0 a server's
 * keys, depth 1 a plugin, depth 2 an option (its first token the name); deeper levels are ignored.
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { ConfigMap, Deployment } from '../../../sim/api/types.js';
import { tokenize } from '../../../sim/dns/corefile/lexer.js';

interface PluginRule {
  named: readonly string[];
  /** patternOptions: Go regexp.MatchString, unanchored. */
  pattern?: readonly RegExp[];
}

/** plugins.go, the versions plugins_1_12_0 names (errors v3, log v1, health v1, kubernetes v8, …). */
const PLUGINS_1_12_0: Readonly<Record<string, PluginRule>> = {
  errors: { named: ['consolidate', 'stacktrace'] },
  log: { named: ['class'] },
  health: { named: ['lameduck'] },
  ready: { named: [] },
  autopath: { named: [] },
  kubernetes: { named: ['endpoint', 'tls', 'kubeconfig', 'namespaces', 'labels', 'pods', 'endpoint_pod_names', 'ttl', 'noendpoints', 'fallthrough', 'ignore'] },
  k8s_external: { named: ['apex', 'ttl', 'fallthrough'] },
  prometheus: { named: [] },
  forward: { named: ['except', 'force_tcp', 'prefer_udp', 'expire', 'max_fails', 'tls', 'tls_servername', 'policy', 'health_check', 'max_concurrent', 'next', 'failfast_all_unhealthy_upstreams'] },
  cache: { named: ['success', 'denial', 'prefetch', 'serve_stale', 'disable', 'servfail', 'keepttl'] },
  loop: { named: [] },
  reload: { named: [] },
  loadbalance: { named: [] },
  hosts: { named: ['ttl', 'no_reverse', 'reload', 'fallthrough'], pattern: [/\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}/, /[0-9A-Fa-f]{1,4}:[:0-9A-Fa-f]+:[0-9A-Fa-f]{1,4}/] },
  rewrite: { named: ['type', 'class', 'name', 'answer name', 'edns0', 'ttl', 'cname_target'] },
  transfer: { named: ['to'] },
};

const MODELLED_VERSIONS = new Set(['1.12.0', '1.12.1', '1.12.2', '1.12.3', '1.12.4', '1.13.0', '1.13.1', '1.13.2']);

interface ParsedPlugin {
  name: string;
  options: string[];
}

/** corefile.New: the plugins of every server block with their options' names. */
function corefilePlugins(text: string): ParsedPlugin[] {
  const tokens = tokenize(text, 'migration');
  const plugins: ParsedPlugin[] = [];
  let depth = 0;
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i]!;
    i++;
    if (t.text === '{') {
      depth++;
      continue;
    }
    if (t.text === '}') {
      depth--;
      continue;
    }
    // RemainingArgs: the rest of the line, up to a `{`, which is left for the next round
    while (i < tokens.length && tokens[i]!.line === t.line && tokens[i]!.text !== '{') i++;
    if (depth === 1) plugins.push({ name: t.text, options: [] });
    else if (depth === 2 && plugins.length > 0) plugins[plugins.length - 1]!.options.push(t.text);
  }
  return plugins;
}

/** migration.Unsupported(v, v, corefile) as Notice.ToString texts; undefined when the lab does not model `v`. */
export function unsupportedNotices(version: string, corefile: string): string[] | undefined {
  if (!MODELLED_VERSIONS.has(version)) return undefined;
  const out: string[] = [];
  for (const p of corefilePlugins(corefile)) {
    const rule = PLUGINS_1_12_0[p.name];
    if (!rule) {
      out.push(`Plugin "${p.name}" is unsupported by this migration tool in ${version}.`);
      continue;
    }
    for (const o of p.options) {
      if (rule.named.includes(o) || (rule.pattern ?? []).some((re) => re.test(o))) continue;
      out.push(`Option "${o}" in plugin "${p.name}" is unsupported by this migration tool in ${version}.`);
    }
  }
  return out;
}

const EXPLANATION =
  '[preflight] The corefile contains plugins that kubeadm/CoreDNS does not know how to migrate. Each plugin listed should be manually verified for compatibility with the newer version of CoreDNS. Once ready, the upgrade can be initiated by skipping the preflight check. During the upgrade, kubeadm will migrate the configuration while leaving the listed plugin configs untouched, but cannot guarantee that they will work with the newer version of CoreDNS.\n';

/**
 * The check's outcome: what kubeadm prints on stdout, and its error text (the `%s` of the notices
 * as a Go []string), or nothing when the Corefile passes or is not checked.
 */
export function coreDNSUnsupportedPlugins(c: Cluster): { stdout: string; error: string } | undefined {
  const corefile = c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'coredns')?.data?.['Corefile'];
  if (corefile === undefined) return undefined;
  // dns.DeployedDNSAddon: the one Deployment labelled k8s-app=kube-dns, its first container's image tag
  const deployments = c.store.list<Deployment>('Deployment', 'kube-system').filter((d) => d.metadata.labels?.['k8s-app'] === 'kube-dns');
  if (deployments.length !== 1) return undefined;
  const image = deployments[0]!.spec.template.spec?.containers[0]?.image ?? '';
  const version = (image.split(':').at(-1) ?? '').replace(/^v+/, '');
  const notices = unsupportedNotices(version, corefile);
  if (!notices || notices.length === 0) return undefined;
  return { stdout: EXPLANATION, error: `CoreDNS cannot migrate the following plugins:\n[${notices.join(' ')}]` };
}

/** validation.ValidateIgnorePreflightErrors: the lower-cased names of --ignore-preflight-errors (comma lists, repeated flags). */
export function ignoredPreflightErrors(args: readonly string[]): Set<string> {
  const out = new Set<string>();
  args.forEach((a, i) => {
    let v: string | undefined;
    if (a.startsWith('--ignore-preflight-errors=')) v = a.slice('--ignore-preflight-errors='.length);
    else if (a === '--ignore-preflight-errors') v = args[i + 1];
    for (const name of (v ?? '').split(',')) if (name.trim()) out.add(name.trim().toLowerCase());
  });
  return out;
}
