/**
 * `modinfo [-F FIELD | -n | -m] MODULE…` (kmod 31 tools/modinfo.c): where a module's file lies and
 * the fields kmod derives without reading the module's bytes: `filename` (-n), `name`, `depends`
 * (modules.dep, comma-separated), `intree`, `retpoline` and `vermagic` (Ubuntu's 6.8 generic
 * build: `KVER SMP preempt mod_unload modversions `). An unknown name is kmod's
 * `Module NAME not found.` (modinfo_alias_do), exit 1. The full listing also shows the
 * module's description, authors, srcversion and signature, which are bytes of Ubuntu's build this
 * lab does not carry: it is refused with a note instead of being made up.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { resolvePath } from '../../../sim/node/vfs.js';
import { KERNEL_MODULES, modulePath } from '../../../sim/node/runtime.js';
import type { Host } from '../../../sim/node/host.js';
import { nodeEnv, notInstalled } from './host.js';
import { kmodBadOption, kmodError } from './kmod-log.js';

const KNOWN_FIELDS = ['filename', 'name', 'depends', 'intree', 'retpoline', 'vermagic'];

function field(host: Host, name: string, f: string): string | undefined {
  switch (f) {
    case 'filename':
      return modulePath(host, name);
    case 'name':
      return name;
    case 'depends':
      return KERNEL_MODULES[name]!.deps.join(',');
    case 'intree':
    case 'retpoline':
      return 'Y';
    case 'vermagic':
      return `${host.data.os.kernel} SMP preempt mod_unload modversions `;
  }
  return undefined;
}

export const modinfo: CommandFn = (ctx): CommandResult => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  let want: string | undefined;
  let sep = '\n';
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-n' || a === '--filename') want = 'filename';
    else if (a === '-F' || a === '--field') want = args[++i];
    else if (a.startsWith('--field=')) want = a.slice(8);
    else if (a.startsWith('-F') && a.length > 2) want = a.slice(2);
    else if (a === '-0' || a === '--null') sep = '\0';
    else if (a === '-m' || a === '--modname') continue;
    else if (a === '-a' || a === '--author') want = 'author';
    else if (a === '-d' || a === '--description') want = 'description';
    else if (a === '-l' || a === '--license') want = 'license';
    else if (a === '-p' || a === '--parameters') want = 'parm';
    else if (a.startsWith('-') && a !== '-') return { stdout: '', stderr: kmodBadOption('modinfo', a), exitCode: 1 };
    else names.push(a);
  }
  if (names.length === 0) return { stdout: '', stderr: kmodError('modinfo', 'missing module or filename.'), exitCode: 1 };
  let out = '';
  let err = '';
  let status = 0;
  for (const n of names) {
    const abs = resolvePath(ctx.cwd, n).replace(/^\/usr\/lib\//, '/lib/');
    const byPath = n.includes('/') || /\.ko(\.(zst|xz|gz))?$/.test(n) ? Object.keys(KERNEL_MODULES).find((m) => modulePath(env.host, m) === abs) : undefined;
    const name = byPath ?? (KERNEL_MODULES[n.replace(/-/g, '_')] ? n.replace(/-/g, '_') : undefined);
    if (!name) {
      err += kmodError('modinfo', n.includes('/') && ctx.fs.isFile(abs) ? `could not get modinfo from '${n}': Invalid argument` : `Module ${n} not found.`);
      status = 1;
      continue;
    }
    if (want === undefined || !KNOWN_FIELDS.includes(want)) {
      const shown = want === undefined ? 'the full listing' : `the ${want} field`;
      err += `modinfo: cka-lab does not carry ${shown} of Ubuntu's module build; try -F ${KNOWN_FIELDS.join('|')} or -n\n`;
      status = 1;
      continue;
    }
    out += `${field(env.host, name, want)!}${sep}`;
  }
  return { stdout: out, stderr: err, exitCode: status };
};
