/** health (plugin/health): `/health` on :8080 answers OK while the process runs; lameduck delays shutdown. */
import { parseGoDuration, type PluginDef } from '../plugin.js';
import { CorefileError } from '../corefile/dispenser.js';
import { splitHostPortError } from './util.js';

export const healthPlugin: PluginDef = {
  name: 'health',
  setup(c) {
    let addr = ':8080';
    let lameduckMs = 0;
    let first = true;
    while (c.next()) {
      const args = c.remainingArgs();
      if (args.length > 1) throw c.argErr();
      if (first && args[0] !== undefined) {
        addr = args[0];
        const e = splitHostPortError(addr);
        if (e) throw new CorefileError(e);
      }
      while (c.nextBlock()) {
        if (c.val() !== 'lameduck') throw c.argErr();
        const a = c.remainingArgs();
        if (a.length !== 1) throw c.argErr();
        const d = parseGoDuration(a[0] ?? '');
        if (d === undefined) throw new CorefileError(`unable to parse lameduck duration value: '${a[0] ?? ''}' : time: invalid duration "${a[0] ?? ''}"`);
        lameduckMs = d;
      }
      first = false;
    }
    return { name: 'health', health: { addr, lameduckMs } };
  },
};
