/**
 * `rmmod MODULE…` (kmod 31 tools/rmmod.c): unload exactly the named modules, nothing they depend
 * on (unlike `modprobe -r`). check_module_inuse refuses a module that is not loaded (`Module X is
 * not currently loaded`) or that others hold (`Module X is in use by: A B`), each counted as a
 * failure while the rest go on; delete_module(2) needs root (`could not remove module X:
 * Operation not permitted`). Loaded state is the node's (sim/node/runtime.ts), as for modprobe.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { loadedModules, moduleHolders, removeModule } from '../../../sim/node/runtime.js';
import { isRoot, nodeEnv, notInstalled } from './host.js';
import { kmodBadOption, kmodError } from './kmod-log.js';

export const rmmod: CommandFn = (ctx): CommandResult => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const names: string[] = [];
  for (const a of ctx.argv.slice(1)) {
    if (['-f', '--force', '-s', '--syslog', '-v', '--verbose'].includes(a)) continue;
    if (a.startsWith('-') && a !== '-') return { stdout: '', stderr: kmodBadOption('rmmod', a), exitCode: 1 };
    names.push(a);
  }
  if (names.length === 0) return { stdout: '', stderr: kmodError('rmmod', 'missing module name.'), exitCode: 1 };
  let err = '';
  let failed = 0;
  for (const arg of names) {
    // kmod_module_new_from_name: a path's basename without .ko*, dashes as underscores
    const name = arg.replace(/^.*\//, '').replace(/\.ko(\.(zst|xz|gz))?$/, '').replace(/-/g, '_');
    if (!loadedModules(env.host).includes(name)) {
      err += kmodError('rmmod', `Module ${name} is not currently loaded`);
      failed++;
      continue;
    }
    const holders = moduleHolders(env.host, name);
    if (holders.length > 0) {
      err += kmodError('rmmod', `Module ${name} is in use by:`).replace(/\n$/, '') + holders.map((h) => ` ${h}`).join('') + '\n';
      failed++;
      continue;
    }
    if (!isRoot(ctx)) {
      err += kmodError('rmmod', `could not remove module ${arg}: Operation not permitted`);
      failed++;
      continue;
    }
    removeModule(env.host, name);
  }
  env.cluster.touchHosts();
  return { stdout: '', stderr: err, exitCode: failed ? 1 : 0 };
};
