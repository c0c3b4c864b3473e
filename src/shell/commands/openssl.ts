/**
 * `openssl` (OpenSSL 3.0): the subcommands a CKA candidate uses, one file each under openssl/,
 * dispatched from this table.
 */
import type { CommandContext, CommandFn, CommandResult } from '../types.js';
import { genrsa } from './openssl/genrsa.js';
import { req } from './openssl/req.js';
import { x509 } from './openssl/x509.js';
import { DIGEST_COMMANDS, dgst, digestCommand } from './openssl/dgst.js';
import { ec, pkey, rsa } from './openssl/pkey.js';
import { ecparam } from './openssl/ecparam.js';
import { genpkey } from './openssl/genpkey.js';

const SUBCOMMANDS: Record<string, (ctx: CommandContext, argv: readonly string[]) => CommandResult> = {
  genrsa,
  req,
  x509,
  dgst,
  rsa,
  pkey,
  ec,
  ecparam,
  genpkey,
  ...Object.fromEntries(DIGEST_COMMANDS.map((d) => [d, digestCommand(d)])),
};

export const openssl: CommandFn = (ctx) => {
  const sub = ctx.argv[1];
  if (sub === undefined) return { stdout: '', stderr: 'cka-lab: the interactive openssl prompt is not simulated; run `openssl x509|req|genrsa|genpkey|ecparam|rsa|ec|pkey|dgst …`\n', exitCode: 1 };
  const fn = SUBCOMMANDS[sub];
  if (!fn) return { stdout: '', stderr: `Invalid command '${sub}'; type "help" for a list.\n`, exitCode: 1 };
  return fn(ctx, ctx.argv.slice(2));
};
