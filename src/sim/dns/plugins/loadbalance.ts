/** loadbalance (plugin/loadbalance): shuffles the A, AAAA and MX records of a reply, CNAMEs kept first. */
import type { RR } from '../message.js';
import type { PluginDef } from '../plugin.js';
import { CorefileError } from '../corefile/dispenser.js';

export const loadbalancePlugin: PluginDef = {
  name: 'loadbalance',
  setup(c, ctx) {
    while (c.next()) {
      const args = c.remainingArgs();
      if (args.length > 1) throw c.argErr();
      if (args[0] !== undefined && args[0] !== 'round_robin') throw new CorefileError(`unknown policy: ${args[0]}`);
    }
    const shuffle = (rrs: RR[]): RR[] => {
      const lead = rrs.filter((r) => r.type === 'CNAME');
      const addr: RR[] = rrs.filter((r) => r.type === "A" || r.type === "AAAA" || r.type === "MX");
      const rest = rrs.filter((r) => r.type !== 'CNAME' && r.type !== 'A' && r.type !== 'AAAA' && r.type !== 'MX');
      for (let i = addr.length - 1; i > 0; i--) {
        const j = ctx.random.int(i + 1);
        const t = addr[i] as RR;
        addr[i] = addr[j] as RR;
        addr[j] = t;
      }
      return [...lead, ...rest, ...addr];
    };
    return {
      name: 'loadbalance',
      serve(req, next) {
        const r = next(req);
        if (r.reply && r.reply.answer.length > 1) r.reply.answer = shuffle(r.reply.answer);
        return r;
      },
    };
  },
};
