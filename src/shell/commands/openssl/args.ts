/**
 * OpenSSL 3.0's option handling (apps/lib/opt.c): options take one dash or two, a value is the
 * next word, and an unknown option stops the command with `<cmd>: Unknown option or cipher`.
 */
import type { CommandContext, CommandResult } from '../../types.js';
import { resolvePath } from '../../../sim/node/vfs.js';

export interface OptSpec {
  /** Options that take a value. */
  values: readonly string[];
  /** Flags. */
  flags: readonly string[];
}

export type Opts = { ok: true; values: Map<string, string>; flags: string[]; order: string[]; args: string[] } | { ok: false; result: CommandResult };

export function parseOpts(cmd: string, argv: readonly string[], spec: OptSpec): Opts {
  const values = new Map<string, string>();
  const flags: string[] = [];
  const order: string[] = [];
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-') || a === '-') {
      args.push(a);
      continue;
    }
    const name = a.replace(/^--?/, '');
    if (spec.values.includes(name)) {
      const v = argv[i + 1];
      if (v === undefined) return { ok: false, result: { stdout: '', stderr: `${cmd}: Option -${name} needs a value\n${cmd}: Use -help for summary.\n`, exitCode: 1 } };
      values.set(name, v);
      order.push(name);
      i++;
    } else if (spec.flags.includes(name)) {
      flags.push(name);
      order.push(name);
    } else return { ok: false, result: { stdout: '', stderr: `${cmd}: Unknown option or cipher: ${a}\n${cmd}: Use -help for summary.\n`, exitCode: 1 } };
  }
  return { ok: true, values, flags, order, args };
}

/** The error queue prefix (thread id) OpenSSL prints before each error line. */
const TID = '40C7C49B9D7F0000';

/** A file that cannot be opened for reading, as the OSSL_STORE loader reports it. */
export function cannotOpen(what: string, path: string): string {
  return (
    `Could not open file or uri for loading ${what} from ${path}\n` +
    `${TID}:error:16000069:STORE routines:ossl_store_get0_loader_int:unregistered scheme:../crypto/store/store_register.c:237:scheme=file\n` +
    `${TID}:error:80000002:system library:file_open:No such file or directory:../providers/implementations/storemgmt/file_store.c:266:calling stat(${path})\n`
  );
}

export function readFile(ctx: CommandContext, path: string): string | undefined {
  const p = resolvePath(ctx.cwd, path);
  return ctx.fs.isFile(p) ? ctx.fs.read(p) : undefined;
}

export function writeFile(ctx: CommandContext, path: string, text: string, mode?: number): void {
  ctx.fs.write(resolvePath(ctx.cwd, path), text, mode);
}

export function fail(stderr: string): CommandResult {
  return { stdout: '', stderr, exitCode: 1 };
}
