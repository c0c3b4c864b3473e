/** ready (plugin/ready): `/ready` on :8181 is 200 once every readiness-reporting plugin is ready. */
import { ERR_ONCE, type PluginDef } from '../plugin.js';
import { CorefileError } from '../corefile/dispenser.js';
import { splitHostPortError } from './util.js';

export const readyPlugin: PluginDef = {
  name: 'ready',
  setup(c) {
    let addr = ':8181';
    let i = 0;
    while (c.next()) {
      if (i++ > 0) throw new CorefileError(ERR_ONCE);
      const args = c.remainingArgs();
      if (args.length > 1) throw c.argErr();
      if (args[0] !== undefined) {
        addr = args[0];
        const e = splitHostPortError(addr);
        if (e) throw new CorefileError(e);
      }
    }
    return { name: 'ready', readyAddr: addr };
  },
};
