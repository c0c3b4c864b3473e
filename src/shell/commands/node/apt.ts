/**
 * `apt` (apt 2.7, Ubuntu 24.04): `update`, `install` and `upgrade` as apt-get does them (apt adds
 * the "N packages can be upgraded" summary to update), and `list --installed|--upgradable [PKG…]`
 * in apt's `name/archive,now version arch [state]` layout (apt-private/private-list.cc). The
 * pkgs.k8s.io repositories are flat (suite `/`), so their archive shows as `unknown`.
 */
import type { CommandFn } from '../../types.js';
import { nodeEnv, notInstalled } from './host.js';
import { aptGetMain } from './apt-get.js';
import { candidate, pkgState } from './apt-lib.js';
import { availableVersions, compareVersions } from '../../../sim/node/packages.js';

export const apt: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  if (args[0] !== 'list') return aptGetMain(ctx, true);
  const st = pkgState(env.cluster, env.host);
  const installedOnly = args.includes('--installed');
  const upgradableOnly = args.includes('--upgradable');
  const patterns = args.slice(1).filter((a) => !a.startsWith('-'));
  const names = new Set([...Object.keys(st.installed), ...st.lists.flatMap((l) => Object.keys(l.versions))]);
  const match = (n: string): boolean => patterns.length === 0 || patterns.some((p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(n));
  let out = 'Listing... Done\n';
  for (const n of [...names].sort()) {
    if (!match(n)) continue;
    const inst = st.installed[n];
    const cand = candidate(st, n);
    const newer = inst && cand && compareVersions(cand.version, inst) > 0 ? cand.version : undefined;
    if (installedOnly && !inst) continue;
    if (upgradableOnly && !newer) continue;
    if (upgradableOnly) {
      out += `${n}/unknown ${newer} amd64 [upgradable from: ${inst}]\n`;
      continue;
    }
    if (inst) {
      const inArchive = availableVersions(st, n).some((a) => a.version === inst);
      out += `${n}/${inArchive ? 'unknown,' : ''}now ${inst} amd64 [installed${newer ? `,upgradable to: ${newer}` : inArchive ? '' : ',local'}]\n`;
    } else if (cand) out += `${n}/unknown ${cand.version} amd64\n`;
  }
  return { stdout: out, stderr: '', exitCode: 0 };
};
