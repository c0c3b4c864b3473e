/**
 * log (plugin/log): one line per query in CoreDNS's common format,
 * `[INFO] {remote}:{port} - {id} "{type} {class} {name} {proto} {size} {do} {bufsize}" {rcode} {rflags} {rsize} {duration}`.
 * A failing chain that wrote nothing gets its error reply written here (log.go ServeDNS).
 * The line is built after the reply went out (plugin/pkg/replacer/replacer.go New): {rflags} are the
 * flags of the reply as the scrub writer left it (TC included), {rsize} its length before (the
 * dnstest.Recorder adds it up on the way through), {bufsize} request.Size (65535 over TCP) and an
 * IPv6 {remote} is bracketed (addrToRFC3986).
 */
import { flagsText, isSubdomain, replyTo, uncompressedSize, wireSize, type DnsMessage } from '../message.js';
import { normalizeZone, type PluginDef } from '../plugin.js';
import { requestSize, scrub } from '../scrub.js';

/** {rsize}: what the recorder measured, before the scrub writer added the request's OPT. */
function rsize(reply: DnsMessage): number {
  if (reply.ownOpt || !reply.edns) return uncompressedSize(reply);
  const { edns: _opt, ...rest } = reply;
  return uncompressedSize(rest);
}

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
          const { ip, port, proto } = req.client;
          const remote = ip.includes(':') ? `[${ip}]` : ip;
          const sent = scrub(reply, req.msg, proto, ip);
          ctx.log(
            `[INFO] ${remote}:${port} - ${req.msg.id} "${q.type} ${q.class} ${q.name} ${proto} ${wireSize(req.msg)} ${req.msg.edns?.do ?? false} ${requestSize(req.msg, proto)}" ${reply.rcode} ${flagsText(sent.flags)} ${rsize(reply)} ${dur}s`,
          );
        }
        return r;
      },
    };
  },
};
