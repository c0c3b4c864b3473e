/**
 * errors (plugin/errors): logs every error a later plugin returns as
 * `[ERROR] plugin/errors: <rcode> <qname> <QTYPE>: <err>`.
 */
import { RCODE_NUMBER } from '../message.js';
import { ERR_ONCE, type PluginDef } from '../plugin.js';
import { CorefileError } from '../corefile/dispenser.js';

export const errorsPlugin: PluginDef = {
  name: 'errors',
  setup(c, ctx) {
    let i = 0;
    while (c.next()) {
      if (i++ > 0) throw new CorefileError(ERR_ONCE);
      const args = c.remainingArgs();
      if (args.length === 1 && args[0] !== 'stdout') throw c.err(`invalid log file: ${args[0] ?? ''}`);
      if (args.length > 1) throw c.argErr();
      while (c.nextBlock()) {
        const v = c.val();
        if (v === 'stacktrace') continue;
        if (v !== 'consolidate') throw c.syntaxErr('consolidate');
        const a = c.remainingArgs();
        if (a.length < 2 || a.length > 3) throw c.argErr();
      }
    }
    return {
      name: 'errors',
      serve(req, next) {
        const r = next(req);
        if (r.error !== undefined) {
          const q = req.msg.question[0];
          ctx.log(`[ERROR] plugin/errors: ${RCODE_NUMBER[r.rcode]} ${q?.name ?? '.'} ${q?.type ?? ''}: ${r.error}`);
        }
        return r;
      },
    };
  },
};
