/**
 * `kubectl api-resources` (k8s.io/kubectl pkg/cmd/apiresources/apiresources.go, print_flags.go):
 * the simulated discovery filtered by `--namespaced`, `--api-group`, `--verbs` and `--categories`
 * (each must hold all the values given), sorted stably by API group, then by name (sortableResource:
 * `--sort-by=name|kind` compares that field first). Columns NAME SHORTNAMES APIVERSION NAMESPACED
 * KIND, and VERBS CATEGORIES with `-o wide`; `-o name` prints `resource.group`.
 */
import type { Verb } from '../context.js';
import { apiVersionOf, categoriesOf, verbsOf, type ResourceInfo } from '../../../sim/api/registry.js';
import { errorResult, KubectlError } from '../errors.js';
import { bool, list as listFlag, str } from '../flags.js';
import { renderRows } from '../../printers/tabwriter.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** sortableResource.Less: the chosen field (group by default), ties broken by name. */
export function sortResources(list: ResourceInfo[], sortBy: string | undefined): ResourceInfo[] {
  const field = (r: ResourceInfo): string => (sortBy === 'name' ? r.resource : sortBy === 'kind' ? r.kind : r.group);
  return list.sort((a, b) => cmp(field(a), field(b)) || cmp(a.resource, b.resource));
}

export const apiResourcesVerb: Verb = {
  name: 'api-resources',
  run(inv, env) {
    try {
      const p = inv.parsed;
      const output = str(p.flags, 'output') ?? '';
      if (output !== '' && output !== 'name' && output !== 'wide') throw new KubectlError(`--output ${output} is not available`);
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
      if (output === 'name') return { stdout: list.map((r) => `${r.group ? `${r.resource}.${r.group}` : r.resource}\n`).join(''), stderr: '', exitCode: 0 };
      const wide = output === 'wide';
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
