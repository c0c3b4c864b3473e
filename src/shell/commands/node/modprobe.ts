/**
 * `modprobe` (kmod 31, tools/modprobe.c): load a kernel module and what it depends on, `-r` to
 * unload, `-a` for several names. The modules live in the node's kernel state
 * (sim/node/runtime.ts); loading br_netfilter makes /proc/sys/net/bridge/* appear, so the bridge
 * sysctls kubeadm's install guide sets only exist once it is loaded, as on a real node.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { KERNEL_MODULES, loadModule, loadedModules, unloadModule } from '../../../sim/node/runtime.js';
import { isRoot, nodeEnv, notInstalled } from './host.js';

export const modprobe: CommandFn = (ctx): CommandResult => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const { host, cluster } = env;
  let remove = false;
  let all = false;
  const names: string[] = [];
  for (const a of ctx.argv.slice(1)) {
    if (a === '-r' || a === '--remove') remove = true;
    else if (a === '-a' || a === '--all') all = true;
    else if (a === '-v' || a === '--verbose' || a === '-q' || a === '--quiet' || a === '-b' || a === '--use-blacklist') continue;
    else if (a.startsWith('-') && /^-[rav]+$/.test(a)) {
      remove ||= a.includes('r');
      all ||= a.includes('a');
    } else if (a.startsWith('-')) return { stdout: '', stderr: `modprobe: unrecognized option '${a}'\nmodprobe: ERROR: Error: unknown option, please see -h for help.\n`, exitCode: 1 };
    else names.push(a);
  }
  if (names.length === 0) return { stdout: '', stderr: 'modprobe: ERROR: missing parameters. See -h.\n', exitCode: 1 };
  // without -a (and -r, which takes several names), the words after the module are its parameters
  const mods = all || remove ? names : names.slice(0, 1);
  const params = all || remove ? [] : names.slice(1);
  let err = '';
  for (const name of mods) {
    const id = name.replace(/-/g, '_');
    if (!KERNEL_MODULES[id]) {
      if (remove && !loadedModules(host).includes(id)) {
        err += `modprobe: FATAL: Module ${name} not found.\n`;
        return { stdout: '', stderr: err, exitCode: 1 };
      }
      err += `modprobe: FATAL: Module ${name} not found in directory /lib/modules/${host.data.os.kernel}\n`;
      return { stdout: '', stderr: err, exitCode: 1 };
    }
    if (remove) {
      if (!loadedModules(host).includes(id)) continue;
      if (!isRoot(ctx)) return { stdout: '', stderr: `${err}modprobe: ERROR: could not remove '${id}': Operation not permitted\n`, exitCode: 1 };
      const r = unloadModule(host, id);
      if (r.inUse) return { stdout: '', stderr: `${err}modprobe: FATAL: Module ${r.inUse} is in use.\n`, exitCode: 1 };
    } else {
      if (loadedModules(host).includes(id)) continue;
      if (!isRoot(ctx)) return { stdout: '', stderr: `${err}modprobe: ERROR: could not insert '${id}': Operation not permitted\n`, exitCode: 1 };
      if (params.length) return { stdout: '', stderr: `modprobe: ERROR: could not insert '${id}': Unknown symbol in module, or unknown parameter (see dmesg)\n`, exitCode: 1 };
      loadModule(host, id);
    }
  }
  cluster.touchHosts();
  return { stdout: '', stderr: err, exitCode: 0 };
};
