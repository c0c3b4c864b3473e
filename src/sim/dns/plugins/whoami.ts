/** whoami (plugin/whoami): answers with the client's address (A/AAAA) and port/transport (SRV) in Additional. */
import { parseIPv4, replyTo } from '../message.js';
import type { PluginDef } from '../plugin.js';

export const whoamiPlugin: PluginDef = {
  name: 'whoami',
  setup(c) {
    while (c.next()) if (c.nextArg()) throw c.argErr();
    return {
      name: 'whoami',
      serve(req) {
        const reply = replyTo(req.msg);
        reply.flags.aa = true;
        const q = req.msg.question[0];
        const name = q?.name ?? '.';
        const ip = req.client.ip;
        reply.additional.push(
          parseIPv4(ip) ? { name, ttl: 0, class: 'IN', type: 'A', address: ip } : { name, ttl: 0, class: 'IN', type: 'AAAA', address: ip },
          { name: `_${req.client.proto}.${name}`, ttl: 0, class: 'IN', type: 'SRV', priority: 0, weight: 0, port: req.client.port, target: '.' },
        );
        return { rcode: 'NOERROR', reply };
      },
    };
  },
};
