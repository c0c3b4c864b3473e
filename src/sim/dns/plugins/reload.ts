/**
 * reload (plugin/reload/setup.go): `reload [INTERVAL] [JITTER]`, defaults 30s/15s, minimum 2s/1s,
 * jitter capped at INTERVAL/2. Only the first line counts. The check itself lives in the server.
 */
import { parseGoDuration, type PluginDef } from '../plugin.js';
import { CorefileError } from '../corefile/dispenser.js';
import { durationError } from './util.js';

export const reloadPlugin: PluginDef = {
  name: 'reload',
  setup(c) {
    let intervalMs = 30000;
    let jitterMs = 15000;
    let i = 0;
    while (c.next()) {
      if (i++ > 0) break;
      const args = c.remainingArgs();
      if (args.length > 2) throw c.argErr();
      if (args[0] !== undefined) {
        const d = parseGoDuration(args[0]);
        if (d === undefined) throw durationError(args[0]);
        intervalMs = d;
      }
      if (intervalMs < 2000) throw new CorefileError('interval value must be greater or equal to 2s');
      if (args[1] !== undefined) {
        const j = parseGoDuration(args[1]);
        if (j === undefined) throw durationError(args[1]);
        jitterMs = j;
        if (jitterMs < 1000) throw new CorefileError('jitter value must be greater or equal to 1s');
      }
      if (jitterMs > intervalMs / 2) jitterMs = intervalMs / 2;
    }
    return { name: 'reload', reload: { intervalMs, jitterMs } };
  },
};
