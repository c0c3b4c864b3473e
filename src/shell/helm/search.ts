/**
 * `helm search repo [KEYWORD] [--versions] [--version CONSTRAINT]` (helm pkg/cmd/search_repo.go,
 * pkg/cmd/search/search.go): the newest version of each chart (every version with --versions),
 * matched against "REPO/NAME", description and keywords; sorted by match position then name,
 * descriptions cut to 50 columns. `-o json|yaml` writes repoSearchWriter's repoChartElement list
 * {name, version, app_version, description} (an empty list is `[]`, not "No results found");
 * `--fail-on-no-result` turns an empty answer into `Error: no results found` in every format;
 * `--max-col-width` (a uint, default 50) is the table's uitable.MaxColWidth.
 */
import { type HelmArgs, bool, flag, HelmUsageError } from './args.js';
import type { HelmEnv } from './env.js';
import { HelmError, type IndexVersion, loadIndex, readRepos } from './repo.js';
import { pickVersion } from './source.js';
import { compareSemver, parseSemver, semverSatisfies } from '../gotemplate/sprig.js';
import { uitable } from './table.js';
import { encodeJSON, encodeYAML, listFormat } from './list.js';

interface Hit {
  name: string;
  v: IndexVersion;
  score: number;
}

const semverOf = (s: string) => parseSemver(s) ?? { major: 0, minor: 0, patch: 0, pre: '' };

/**
 * `helm search hub` (helm pkg/cmd/search_hub.go): the lab has no network, so the monocular
 * client's request to the Artifact Hub (or --endpoint) fails and helm answers with its own
 * wrapper text (`unable to perform search against "https://hub.helm.sh"`), after the --output
 * flag was parsed.
 */
function searchHub(a: HelmArgs): never {
  listFormat(a);
  throw new HelmError(`unable to perform search against ${JSON.stringify(flag(a, 'endpoint') ?? 'https://hub.helm.sh')}`);
}

/** pflag's UintVar: strconv.ParseUint(s, 0, 64) (base prefixes and `_` allowed, no sign). */
function goUintFlag(value: string, flagName: string): number {
  const m = /^(0[xX](?:_?[0-9a-fA-F])+|0[bB](?:_?[01])+|0[oO](?:_?[0-7])+|0(?:_?[0-7])*|[1-9](?:_?[0-9])*)$/.exec(value);
  const err = (why: string): HelmUsageError => new HelmUsageError(`invalid argument "${value}" for "${flagName}" flag: strconv.ParseUint: parsing ${JSON.stringify(value)}: ${why}`);
  if (!m) throw err('invalid syntax');
  const digits = m[1]!.replaceAll('_', '');
  const n = /^0[0-7]/.test(digits) ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits);
  if (n > 2n ** 64n - 1n) throw err('value out of range');
  return Number(n);
}

export function search(env: HelmEnv, a: HelmArgs): string {
  const [sub, term] = a.args;
  if (sub === 'hub') searchHub(a);
  if (sub !== 'repo') throw new HelmError(sub ? `unknown command "${sub}" for "helm search"` : 'requires a subcommand: hub, repo');
  const { output } = listFormat(a);
  const width = goUintFlag(flag(a, 'max-col-width') ?? '50', '--max-col-width');
  const repos = readRepos(env.fs, env.home);
  if (repos.length === 0) throw new HelmError('no repositories configured');
  const constraint = flag(a, 'version');
  const hits: Hit[] = [];
  for (const r of repos) {
    const idx = loadIndex(env.fs, env.home, r.name);
    for (const [chart, versions] of Object.entries(idx?.entries ?? {})) {
      const name = `${r.name}/${chart}`;
      let chosen: IndexVersion[];
      if (bool(a, 'versions')) chosen = versions.filter((v) => !constraint || semverSatisfies(constraint, v.version));
      else {
        const v = pickVersion(versions, constraint);
        chosen = v ? [v] : [];
      }
      for (const v of chosen) {
        let score = 0;
        if (term) {
          const text = [name, v.description ?? '', ...(v.keywords ?? [])].join(' ').toLowerCase();
          score = text.indexOf(term.toLowerCase());
          if (score < 0) continue;
        }
        hits.push({ name, v, score });
      }
    }
  }
  if (hits.length === 0 && bool(a, 'fail-on-no-result')) throw new HelmError('no results found');
  if (output === 'table' && hits.length === 0) return 'No results found\n';
  hits.sort((x, y) => x.score - y.score || (x.name === y.name ? compareSemver(semverOf(y.v.version), semverOf(x.v.version)) : x.name < y.name ? -1 : 1));
  if (output !== 'table') {
    const elements = hits.map((h) => ({ name: h.name, version: h.v.version, app_version: String(h.v.appVersion ?? ''), description: h.v.description ?? '' }));
    return output === 'json' ? encodeJSON(elements) : encodeYAML(elements);
  }
  return uitable([['NAME', 'CHART VERSION', 'APP VERSION', 'DESCRIPTION'], ...hits.map((h) => [h.name, h.v.version, String(h.v.appVersion ?? ''), h.v.description ?? ''])], width);
}
