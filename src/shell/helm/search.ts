/**
 * `helm search repo [KEYWORD] [--versions] [--version CONSTRAINT]` (helm pkg/cmd/search_repo.go,
 * pkg/cmd/search/search.go): the newest version of each chart (every version with --versions),
 * matched against "REPO/NAME", description and keywords; sorted by match position then name,
 * descriptions cut to 50 columns. `-o json|yaml` writes repoSearchWriter's repoChartElement list
 * {name, version, app_version, description} (an empty list is `[]`, not "No results found").
 */
import { type HelmArgs, bool, flag } from './args.js';
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

export function search(env: HelmEnv, a: HelmArgs): string {
  const [sub, term] = a.args;
  if (sub === 'hub') searchHub(a);
  if (sub !== 'repo') throw new HelmError(sub ? `unknown command "${sub}" for "helm search"` : 'requires a subcommand: hub, repo');
  const { output } = listFormat(a);
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
  if (output === 'table' && hits.length === 0) return 'No results found\n';
  hits.sort((x, y) => x.score - y.score || (x.name === y.name ? compareSemver(semverOf(y.v.version), semverOf(x.v.version)) : x.name < y.name ? -1 : 1));
  if (output !== 'table') {
    const elements = hits.map((h) => ({ name: h.name, version: h.v.version, app_version: String(h.v.appVersion ?? ''), description: h.v.description ?? '' }));
    return output === 'json' ? encodeJSON(elements) : encodeYAML(elements);
  }
  return uitable([['NAME', 'CHART VERSION', 'APP VERSION', 'DESCRIPTION'], ...hits.map((h) => [h.name, h.v.version, String(h.v.appVersion ?? ''), h.v.description ?? ''])], 50);
}
