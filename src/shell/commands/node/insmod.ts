/**
 * `insmod FILE [PARAMS]` (kmod 31 tools/insmod.c): load one module file, given by path (it does
 * not search /lib/modules or load dependencies, which modprobe does). Errors as kmod words them:
 * a missing file `could not load module F: No such file or directory`; init_module(2)'s errno
 * through mod_strerror (ENOENT `Unknown symbol in module` when a dependency is not loaded,
 * ENOEXEC `Invalid module format` for a file that is no module, EEXIST `File exists` when it is
 * loaded, EPERM `Operation not permitted` without root).
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { resolvePath } from '../../../sim/node/vfs.js';
import { insertModule, KERNEL_MODULES, modulePath } from '../../../sim/node/runtime.js';
import { isRoot, nodeEnv, notInstalled } from './host.js';
import { kmodBadOption, kmodError } from './kmod-log.js';

export const insmod: CommandFn = (ctx): CommandResult => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args: string[] = [];
  for (const a of ctx.argv.slice(1)) {
    if (['-f', '--force', '-s', '--syslog', '-v', '--verbose'].includes(a)) continue;
    if (a.startsWith('-') && a !== '-' && args.length === 0) return { stdout: '', stderr: kmodBadOption('insmod', a), exitCode: 1 };
    args.push(a);
  }
  const file = args[0];
  const fail = (msg: string): CommandResult => ({ stdout: '', stderr: kmodError('insmod', msg), exitCode: 1 });
  if (file === undefined) return fail('missing filename.');
  if (file === '-') return fail('this tool does not support loading from stdin!');
  // /lib is /usr/lib on Ubuntu 24.04 (usrmerge)
  const abs = ctx.fs.follow(resolvePath(ctx.cwd, file)).replace(/^\/usr\/lib\//, '/lib/');
  if (!ctx.fs.isFile(abs)) return fail(`could not load module ${file}: No such file or directory`);
  const name = Object.keys(KERNEL_MODULES).find((m) => modulePath(env.host, m) === abs);
  if (!isRoot(ctx)) return fail(`could not insert module ${file}: Operation not permitted`);
  if (!name) return fail(`could not insert module ${file}: Invalid module format`);
  // parameters the module does not declare: the kernel's parse_args answers ENOENT (none are simulated)
  if (args.length > 1) return fail(`could not insert module ${file}: Unknown symbol in module`);
  const errno = insertModule(env.host, name);
  if (errno === 'EEXIST') return fail(`could not insert module ${file}: File exists`);
  if (errno === 'ENOENT') return fail(`could not insert module ${file}: Unknown symbol in module`);
  env.cluster.touchHosts();
  return { stdout: '', stderr: '', exitCode: 0 };
};
