/**
 * header (coredns v1.13.1 plugin/header/setup.go, header.go, handler.go): `query` rules set or
 * clear aa/ra/rd on the incoming query, `response` rules on the reply a later plugin writes (an
 * error reply the server writes itself is not rewritten, as the wrapped writer never sees it).
 */
import { CorefileError } from '../corefile/dispenser.js';
import type { Flags } from '../message.js';
import { nextOrFailure, type PluginDef } from '../plugin.js';

interface Rule {
  flag: 'aa' | 'ra' | 'rd';
  state: boolean;
}

/** header.go newRules. */
function newRules(key: string, args: string[]): Rule[] {
  if (key === '') throw new CorefileError('setting up rule: no flag action provided');
  if (args.length < 1) throw new CorefileError('setting up rule: invalid length for flags, at least one should be provided');
  const action = key.toLowerCase();
  if (action !== 'set' && action !== 'clear') throw new CorefileError(`setting up rule: unknown flag action=${action}, should be set or clear`);
  return args.map((a) => {
    const flag = a.toLowerCase();
    if (flag !== 'aa' && flag !== 'ra' && flag !== 'rd') throw new CorefileError(`setting up rule: unknown/unsupported flag=${flag}`);
    return { flag, state: action === 'set' };
  });
}

function apply(flags: Flags, rules: Rule[]): Flags {
  const f = { ...flags };
  for (const r of rules) f[r.flag] = r.state;
  return f;
}

export const headerPlugin: PluginDef = {
  name: 'header',
  setup(c) {
    let query: Rule[] = [];
    let response: Rule[] = [];
    let parsed = false;
    while (!parsed && c.next()) {
      query = [];
      response = [];
      while (c.nextBlock()) {
        const selector = c.val().toLowerCase();
        if (selector !== 'query' && selector !== 'response')
          throw new CorefileError(`setting up rule: invalid selector=${selector} should be query or response`);
        const action = c.nextArg() ? c.val() : '';
        const rules = newRules(action, c.remainingArgs());
        if (selector === 'response') response.push(...rules);
        else query.push(...rules);
      }
      parsed = query.length > 0 || response.length > 0;
    }
    if (!parsed) throw c.argErr();
    return {
      name: 'header',
      serve(req, next) {
        if (query.length > 0) req.msg = { ...req.msg, flags: apply(req.msg.flags, query) };
        const res = nextOrFailure('header', next, req);
        if (!res.reply || response.length === 0) return res;
        return { ...res, reply: { ...res.reply, flags: apply(res.reply.flags, response) } };
      },
    };
  },
};
