/**
 * any (coredns v1.13.1 plugin/any/any.go): RFC 8482 — an ANY query is answered with a single
 * synthesized HINFO record ("ANY obsoleted" "See RFC 8482", TTL 8482); other types pass on.
 * setup.go reads no arguments at all (extra tokens are ignored, as upstream does).
 */
import { replyTo } from '../message.js';
import { nextOrFailure, type PluginDef } from '../plugin.js';

export const anyPlugin: PluginDef = {
  name: 'any',
  setup() {
    return {
      name: 'any',
      serve(req, next) {
        const q = req.msg.question[0];
        if (q?.type !== 'ANY') return nextOrFailure('any', next, req);
        const reply = replyTo(req.msg);
        reply.answer = [{ name: q.name, ttl: 8482, class: 'IN', type: 'HINFO', cpu: 'ANY obsoleted', os: 'See RFC 8482' }];
        return { rcode: 'NOERROR', reply };
      },
    };
  },
};
