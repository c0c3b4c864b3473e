/**
 * log (plugin/log): one line per query in CoreDNS's common format,
 * `[INFO] {remote}:{port} - {id} "{type} {class} {name} {proto} {size} {do} {bufsize}" {rcode} {rflags} {rsize} {duration}`.
 * A failing chain that wrote nothing gets its error reply written here (log.go ServeDNS).
 */
import { flagsText, isSubdomain, replyTo, wireSize } from '../message.js';
import { normalizeZone, type PluginDef } from '../plugin.js';

export const logPlugin: PluginDef = {
  name: 'log',
  setup(c, ctx) {
    const names: string[] = [];
    while (c.next()) {
      const args = c.remainingArgs();
      // The last argument is a format when it contains `{`; the others are names.
      for (const a of args) if (!a.includes('{') && a !== '{common}' && a !== '{combined}') names.push(normalizeZone(a));
      while (c.nextBlock()) {
        if (c.val() !== 'class') throw c.err(`unknown property '${c.val()}'`);
        const cls = c.remainingArgs();
        if (cls.length === 0) throw c.argErr();
        for (const x of cls) if (!['all', 'denial', 'error', 'success'].includes(x.toLowerCase())) throw c.err(`unknown class: ${x}`);
      }
    }
    if (names.length === 0) names.push('.');
    return {
      name: 'log',
      serve(req, next) {
        let r = next(req);
        let reply = r.reply;
        if (!reply && r.rcode !== 'NOERROR') {
          reply = replyTo(req.msg, r.rcode);
          r = { ...r, reply };
        }
        const q = req.msg.question[0];
        if (q && reply && names.some((n) => isSubdomain(n, q.name))) {
          const micros = 50 + ctx.random.int(900);
          const dur = (req.elapsed.ms / 1000 + micros / 1e6 + ctx.random.int(1000) / 1e9).toString();
          ctx.log(
            `[INFO] ${req.client.ip}:${req.client.port} - ${req.msg.id} "${q.type} ${q.class} ${q.name} ${req.client.proto} ${wireSize(req.msg)} ${req.msg.edns?.do ?? false} ${req.msg.edns?.udpSize ?? 512}" ${reply.rcode} ${flagsText(reply.flags)} ${wireSize(reply)} ${dur}s`,
          );
        }
        return r;
      },
    };
  },
};
