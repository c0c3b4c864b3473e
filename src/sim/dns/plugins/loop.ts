/**
 * loop (plugin/loop): at startup sends `<rand>.<rand>.<zone>` HINFO to its own server; if that
 * probe comes back through the chain more than twice, the process exits with
 * `[FATAL] plugin/loop: Loop (<from> -> :53) detected for zone "<zone>", see … Query: "HINFO <name>"`.
 */
import { ERR_ONCE, FatalError, nextOrFailure, type PluginDef } from '../plugin.js';
import { CorefileError } from '../corefile/dispenser.js';

function randDigits(n: () => number): string {
  // Go's rand.Int63 printed in decimal: up to 19 digits.
  let s = String(1 + n() % 9);
  for (let i = 0; i < 18; i++) s += String(n() % 10);
  return s;
}

export const loopPlugin: PluginDef = {
  name: 'loop',
  setup(c, ctx) {
    let i = 0;
    while (c.next()) {
      if (i++ > 0) throw new CorefileError(ERR_ONCE);
      if (c.nextArg()) throw c.argErr();
    }
    const zone = ctx.zones[0] ?? '.';
    const r = (): number => ctx.random.nextU32();
    const probe = `${randDigits(r)}.${randDigits(r)}.${zone === '.' ? '' : zone}`;
    let seen = 0;
    let disabled = false;
    return {
      name: 'loop',
      onStartup(send) {
        send(probe, 'HINFO');
        // The real plugin disables itself 2 s after the first successful send.
        disabled = true;
      },
      serve(req, next) {
        const q = req.msg.question[0];
        if (!disabled && q && q.type === 'HINFO' && q.name.toLowerCase() === probe.toLowerCase()) {
          seen++;
          if (seen > 2) {
            throw new FatalError(
              `[FATAL] plugin/loop: Loop (${req.client.ip}:${req.client.port} -> :53) detected for zone "${zone}", see https://coredns.io/plugins/loop#troubleshooting. Query: "HINFO ${probe}"`,
            );
          }
        }
        return nextOrFailure('loop', next, req);
      },
    };
  },
};
