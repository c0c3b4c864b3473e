/**
 * bufsize (coredns v1.13.1 plugin/bufsize/setup.go, bufsize.go): caps the EDNS0 UDP size of
 * incoming queries (default 1232, allowed 512–4096) before the rest of the chain sees them; the
 * reply's OPT carries the capped size (request.SizeAndDo copies it). Every parse error is wrapped
 * twice in upstream (parse returns plugin.Error, setup wraps it again), hence the doubled prefix.
 */
import { CorefileError } from '../corefile/dispenser.js';
import { nextOrFailure, type PluginDef } from '../plugin.js';

export const bufsizePlugin: PluginDef = {
  name: 'bufsize',
  setup(c) {
    const twice = (): CorefileError => new CorefileError(`plugin/bufsize: ${c.argErr().message}`);
    let size = -1;
    if (!c.next()) throw twice();
    const args = c.remainingArgs();
    if (args.length === 0) size = 1232;
    else if (args.length === 1) {
      const a = args[0] ?? '';
      const n = /^[+-]?\d+$/.test(a) ? Number(a) : NaN;
      if (!Number.isInteger(n) || n < 512 || n > 4096) throw twice();
      size = n;
    } else throw twice();
    return {
      name: 'bufsize',
      serve(req, next) {
        const edns = req.msg.edns;
        if (edns && edns.udpSize > size) req.msg = { ...req.msg, edns: { ...edns, udpSize: size } };
        return nextOrFailure('bufsize', next, req);
      },
    };
  },
};
