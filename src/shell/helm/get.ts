/**
 * `helm get values|manifest|notes|hooks|metadata|all NAME` (helm v4.1.4 pkg/cmd/get_*.go): the
 * user-supplied values as YAML under "USER-SUPPLIED VALUES:" (`--all` for the computed ones), the
 * stored manifest, the notes, the hooks, the release's metadata, or all of it.
 */
import { type HelmArgs, bool, flag } from './args.js';
import { type HelmEnv, namespaceOf, requireApi } from './env.js';
import { history, type Release, userLabels } from './release.js';
import { hooksText, statusText } from './status-text.js';
import { HelmError } from './repo.js';
import { fromPlain, helmToYaml } from '../gotemplate/sprig.js';
import { coalesceValues, type Values } from './values.js';
import type { Chart } from './chart.js';

/** k8s.io/apimachinery labels.Set String: sorted `k=v` pairs joined by commas. */
function labelSet(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {})
    .sort()
    .map((k) => `${k}=${m![k]}`)
    .join(',');
}

/**
 * `helm get metadata` (helm v4.1.4 pkg/cmd/get_metadata.go WriteTable). LABELS are the release's
 * labels as storage read them: the last revision comes from Query, which keeps every label of the
 * Secret (name, owner, status, version, modifiedAt too), a `--revision N` from Get, which drops
 * the system ones (pkg/storage/driver/secrets.go; cfg.releaseContent picks Last or Get).
 */
function metadata(r: Release, byRevision: boolean): string {
  const md = r.chart.metadata as Chart['metadata'] & { annotations?: Record<string, string>; dependencies?: { name: string }[] };
  const method = r.apply_method === 'ssa' ? 'server-side apply' : r.apply_method === 'csa' ? 'client-side apply' : 'client-side apply (defaulted)';
  const deps = (md.dependencies ?? []).map((d) => d.name).sort().join(',');
  return (
    `NAME: ${r.name}\nCHART: ${md.name}\nVERSION: ${md.version}\nAPP_VERSION: ${md.appVersion ?? ''}\n` +
    `ANNOTATIONS: ${labelSet(md.annotations)}\nLABELS: ${labelSet(byRevision ? userLabels(r.labels) : r.labels)}\nDEPENDENCIES: ${deps}\nNAMESPACE: ${r.namespace}\n` +
    `REVISION: ${r.version}\nSTATUS: ${r.info.status}\nDEPLOYED_AT: ${r.info.last_deployed.replace(/\.\d+Z$/, 'Z')}\nAPPLY_METHOD: ${method}\n`
  );
}

/** The user-supplied and the computed values as `helm get values [--all]` prints them. */
function valuesYaml(r: Release): { user: string; computed: string } {
  const chart = { values: fromPlain(r.chart.values) as Values, dependencies: [], metadata: r.chart.metadata } as unknown as Chart;
  return {
    user: `${Object.keys(r.config ?? {}).length ? helmToYaml(fromPlain(r.config)) : 'null'}\n`,
    computed: `${helmToYaml(coalesceValues(chart, fromPlain(r.config) as Values))}\n`,
  };
}

export function get(env: HelmEnv, a: HelmArgs): string {
  const [what, name] = a.args;
  if (!what || !['values', 'manifest', 'notes', 'all', 'hooks', 'metadata'].includes(what)) throw new HelmError(`unknown command "${what ?? ''}" for "helm get"`);
  if (!name) throw new HelmError(`"helm get ${what}" requires 1 argument\n\nUsage:  helm get ${what} RELEASE_NAME [flags]`);
  const all = history(requireApi(env), namespaceOf(a), name);
  const rev = Number(flag(a, 'revision') ?? 0);
  const r = rev > 0 ? all.find((x) => x.version === rev) : all.at(-1);
  if (!r) throw new HelmError('release: not found');
  if (what === 'manifest') return r.manifest;
  if (what === 'notes') return r.info.notes ? `NOTES:\n${r.info.notes}\n` : '';
  if (what === 'values') return bool(a, 'all') ? `COMPUTED VALUES:\n${valuesYaml(r).computed}` : `USER-SUPPLIED VALUES:\n${valuesYaml(r).user}`;
  if (what === 'hooks') return hooksText(r.hooks ?? []);
  if (what === 'metadata') return metadata(r, rev > 0);
  // all: the status printer in debug mode, with the chart's metadata (v4.1.4 pkg/cmd/get_all.go)
  return statusText(r, { debug: true, showMetadata: true, values: valuesYaml(r) });
}
