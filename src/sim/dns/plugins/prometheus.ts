/** prometheus (plugin/metrics): exposes /metrics, default localhost:9153 (kubeadm `:9153`). No query effect. */
import { ERR_ONCE, type PluginDef } from '../plugin.js';
import { CorefileError } from '../corefile/dispenser.js';
import { splitHostPortError } from './util.js';

export const prometheusPlugin: PluginDef = {
  name: 'prometheus',
  setup(c) {
    let addr = 'localhost:9153';
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
      while (c.nextBlock()) throw c.err(`unknown property '${c.val()}'`);
    }
    return { name: 'prometheus', prometheusAddr: addr };
  },
};
