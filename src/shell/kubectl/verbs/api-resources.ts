/**
 * `kubectl api-resources` (k8s.io/kubectl pkg/cmd/apiresources/apiresources.go, print_flags.go):
 * the simulated discovery filtered by `--namespaced`, `--api-group`, `--verbs` and `--categories`
 * (each must hold all the values given), sorted stably by API group, then by name (sortableResource:
 * `--sort-by=name|kind` compares that field first). Columns NAME SHORTNAMES APIVERSION NAMESPACED
 * KIND, and VERBS CATEGORIES with `-o wide`; `-o name` prints `resource.group`. `-o json|yaml|kyaml`
 * (matched case-insensitively, cli-runtime json_yaml_flags.go) print the flattened
 * metav1.APIResourceList RunAPIResources builds: `kind`/`apiVersion` from the first group's list,
 * an empty `groupVersion`, and each APIResource as aggregated discovery converts it
 * (client-go discovery/aggregated_discovery.go convertAPIResource: no storageVersionHash) with
 * `group`/`version` set from its group version.
 */
import type { Verb } from '../context.js';
import { apiVersionOf, categoriesOf, verbsOf, type ResourceInfo } from '../../../sim/api/registry.js';
import { errorResult, KubectlError } from '../errors.js';
import { bool, list as listFlag, str } from '../flags.js';
import { renderRows } from '../../printers/tabwriter.js';
import { marshalIndent } from '../../printers/json.js';
import { toYaml } from '../../printers/yaml.js';
import { toKyaml } from '../../printers/kyaml.js';
import { sortKeys, type Json } from '../../printers/serialize.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** sortableResource.Less: the chosen field (group by default), ties broken by name. */
export function sortResources(list: ResourceInfo[], sortBy: string | undefined): ResourceInfo[] {
  const field = (r: ResourceInfo): string => (sortBy === 'name' ? r.resource : sortBy === 'kind' ? r.kind : r.group);
  return list.sort((a, b) => cmp(field(a), field(b)) || cmp(a.resource, b.resource));
}

/** print_flags.go PrintFlags.AllowedFormats, as NoCompatiblePrinterError sorts them. */
const ALLOWED = 'json,kyaml,name,wide,yaml';

/** The printer PrintFlags.ToPrinter picks: json/yaml/kyaml in any case, then exactly '', wide or name. */
function printerFor(output: string): 'json' | 'yaml' | 'kyaml' | 'table' | 'wide' | 'name' {
  const lower = output.toLowerCase();
  if (lower === 'json' || lower === 'yaml' || lower === 'kyaml') return lower;
  if (output === '') return 'table';
  if (output === 'wide' || output === 'name') return output;
  throw new KubectlError(`unable to match a printer suitable for the output format "${output}", allowed formats are: ${ALLOWED}`);
}

/** metav1.APIResource in Go struct order (types.go): group/version/shortNames/categories omitempty. */
function apiResourceJson(r: ResourceInfo): Json {
  const out: { [key: string]: Json } = { name: r.resource, singularName: r.singular, namespaced: r.namespaced };
  if (r.group) out.group = r.group;
  if (r.version) out.version = r.version;
  out.kind = r.kind;
  out.verbs = [...verbsOf(r)];
  if (r.shortNames.length) out.shortNames = [...r.shortNames];
  const cats = categoriesOf(r);
  if (cats.length) out.categories = [...cats];
  return out;
}

/** The flattened list RunAPIResources prints; `resources` is null when the filters left nothing. */
export function apiResourceList(list: readonly ResourceInfo[]): Json {
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: '', resources: list.length ? list.map(apiResourceJson) : null };
}

export const apiResourcesVerb: Verb = {
  name: 'api-resources',
  run(inv, env) {
    try {
      const p = inv.parsed;
      const output = str(p.flags, 'output') ?? '';
      const printer = printerFor(output);
      const sortBy = str(p.flags, 'sort-by');
      if (sortBy !== undefined && sortBy !== '' && sortBy !== 'name' && sortBy !== 'kind') throw new KubectlError(`--sort-by accepts only name or kind`);
      env.api.ensureUp();
      let list = [...env.cluster.discovery().resources];
      if (p.changed.has('namespaced')) list = list.filter((r) => r.namespaced === bool(p.flags, 'namespaced'));
      if (p.changed.has('api-group')) {
        const group = str(p.flags, 'api-group') ?? '';
        list = list.filter((r) => r.group === group);
      }
      const verbs = listFlag(p.flags, 'verbs');
      if (verbs.length) list = list.filter((r) => verbs.every((v) => verbsOf(r).includes(v)));
      const cats = listFlag(p.flags, 'categories');
      if (cats.length) list = list.filter((r) => cats.every((c) => categoriesOf(r).includes(c)));
      sortResources(list, sortBy);
      if (printer === 'json') return { stdout: `${marshalIndent(apiResourceList(list))}\n`, stderr: '', exitCode: 0 };
      // sigs.k8s.io/yaml marshals through a map: keys sorted
      if (printer === 'yaml') return { stdout: toYaml(sortKeys(apiResourceList(list))), stderr: '', exitCode: 0 };
      if (printer === 'kyaml') return { stdout: toKyaml(apiResourceList(list)), stderr: '', exitCode: 0 };
      if (printer === 'name') return { stdout: list.map((r) => `${r.group ? `${r.resource}.${r.group}` : r.resource}\n`).join(''), stderr: '', exitCode: 0 };
      const wide = printer === 'wide';
      const rows = list.map((r) => {
        const row = [r.resource, r.shortNames.join(','), apiVersionOf(r), String(r.namespaced), r.kind];
        return wide ? [...row, verbsOf(r).join(','), categoriesOf(r).join(',')] : row;
      });
      const header = ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', ...(wide ? ['VERBS', 'CATEGORIES'] : [])];
      return { stdout: renderRows(bool(p.flags, 'no-headers') ? rows : [header, ...rows]), stderr: '', exitCode: 0 };
    } catch (e) {
      return errorResult(e, 'api-resources');
    }
  },
};
