/**
 * `kubectl api-resources` (k8s.io/kubectl pkg/cmd/apiresources/apiresources.go): the simulated
 * discovery in server order, columns NAME SHORTNAMES APIVERSION NAMESPACED KIND (reference §7);
 * `--namespaced`, `--api-group`, `-o name`, `--no-headers`.
 */
import type { Verb } from '../context.js';
import { apiVersionOf } from '../../../sim/api/registry.js';
import { errorResult, KubectlError } from '../errors.js';
import { bool, str } from '../flags.js';
import { renderRows } from '../../printers/tabwriter.js';

export const apiResourcesVerb: Verb = {
  name: 'api-resources',
  run(inv, env) {
    try {
      const p = inv.parsed;
      const output = str(p.flags, 'output');
      if (output !== undefined && output !== 'name') throw new KubectlError(`--output ${output} is not available`);
      env.api.ensureUp();
      let list = [...env.cluster.discovery().resources];
      if (p.changed.has('namespaced')) list = list.filter((r) => r.namespaced === bool(p.flags, 'namespaced'));
      const group = str(p.flags, 'api-group');
      if (group !== undefined) list = list.filter((r) => r.group === group);
      const sortBy = str(p.flags, 'sort-by');
      if (sortBy === 'name') list.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
      else if (sortBy === 'kind') list.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
      else if (sortBy !== undefined) throw new KubectlError(`--sort-by accepts only name or kind`);
      if (output === 'name') return { stdout: list.map((r) => `${r.group ? `${r.resource}.${r.group}` : r.resource}\n`).join(''), stderr: '', exitCode: 0 };
      const rows = list.map((r) => [r.resource, r.shortNames.join(','), apiVersionOf(r), String(r.namespaced), r.kind]);
      const header = ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'];
      return { stdout: renderRows(bool(p.flags, 'no-headers') ? rows : [header, ...rows]), stderr: '', exitCode: 0 };
    } catch (e) {
      return errorResult(e, 'api-resources');
    }
  },
};
