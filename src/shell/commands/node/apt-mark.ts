/**
 * `apt-mark hold|unhold|showhold [PKG…]` (apt 2.7 cmdline/apt-mark.cc): holds keep apt from
 * changing a package; kubeadm's install guide holds kubeadm, kubelet and kubectl.
 */
import type { CommandFn } from '../../types.js';
import { isRoot, nodeEnv, notInstalled } from './host.js';
import { knownPackage, pkgState } from './apt-lib.js';

export const aptMark: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const st = pkgState(env.cluster, env.host);
  const [verb, ...pkgs] = ctx.argv.slice(1).filter((a) => !a.startsWith('-'));
  if (verb === 'showhold') return { stdout: [...st.held].sort().filter((p) => pkgs.length === 0 || pkgs.includes(p)).map((p) => `${p}\n`).join(''), stderr: '', exitCode: 0 };
  if (verb !== 'hold' && verb !== 'unhold') return { stdout: '', stderr: verb ? `E: Invalid operation ${verb}\n` : 'E: No packages found\n', exitCode: 100 };
  if (pkgs.length === 0) return { stdout: '', stderr: 'E: No packages found\n', exitCode: 100 };
  const unknown = pkgs.find((p) => !knownPackage(st, p));
  if (unknown) return { stdout: '', stderr: `E: Unable to locate package ${unknown}\n`, exitCode: 100 };
  if (!isRoot(ctx)) return { stdout: '', stderr: 'dpkg: error: requested operation requires superuser privilege\nE: Executing dpkg failed. Are you root?\n', exitCode: 100 };
  let out = '';
  for (const p of pkgs) {
    const isHeld = st.held.includes(p);
    if (verb === 'hold') {
      out += isHeld ? `${p} was already set on hold.\n` : `${p} set on hold.\n`;
      if (!isHeld) st.held.push(p);
    } else {
      out += isHeld ? `Canceled hold on ${p}.\n` : `${p} was already not on hold.\n`;
      st.held = st.held.filter((x) => x !== p);
    }
  }
  return { stdout: out, stderr: '', exitCode: 0 };
};
