/**
 * rewrite (plugin/rewrite), the `name` rule: `rewrite [continue|stop] name [exact|prefix|suffix|substring|regex]
 * FROM TO [answer auto | answer name FROM TO]`. The question is rewritten before later plugins and
 * restored in the reply; exact rules and `answer auto` rewrite the answer owner names back.
 */
import { fqdn, type RR } from '../message.js';
import { nextOrFailure, type PluginDef } from '../plugin.js';
import { CorefileError } from '../corefile/dispenser.js';
import { LinearRegExp } from '../../../util/regex/index.js';

/** CoreDNS compiles rewrite patterns with Go's regexp (RE2): linear time here too; undefined when it does not parse. */
function regexOf(src: string): RegExp | undefined {
  try {
    return new LinearRegExp(src, '', 're2');
  } catch {
    return undefined;
  }
}

type Match = 'exact' | 'prefix' | 'suffix' | 'substring' | 'regex';

interface NameRule {
  match: Match;
  from: string;
  to: string;
  answer?: { auto: true } | { from: RegExp; to: string };
}

function applyRule(rule: NameRule, name: string): string | undefined {
  const n = name.toLowerCase();
  switch (rule.match) {
    case 'exact':
      return n === rule.from ? rule.to : undefined;
    case 'prefix':
      return n.startsWith(rule.from) ? rule.to + n.slice(rule.from.length) : undefined;
    case 'suffix':
      return n.endsWith(rule.from) ? n.slice(0, n.length - rule.from.length) + rule.to : undefined;
    case 'substring':
      return n.includes(rule.from) ? n.split(rule.from).join(rule.to) : undefined;
    case 'regex': {
      const m = regexOf(rule.from)?.exec(n);
      if (!m) return undefined;
      return rule.to.replace(/\{(\d+)\}/g, (_, d: string) => m[Number(d)] ?? '');
    }
  }
}

export const rewritePlugin: PluginDef = {
  name: 'rewrite',
  setup(c) {
    const rules: NameRule[] = [];
    while (c.next()) {
      let args = c.remainingArgs();
      if (args.length === 0) throw c.argErr();
      if (args[0] === 'continue' || args[0] === 'stop') args = args.slice(1);
      const field = args[0] ?? '';
      if (field !== 'name') {
        if (['type', 'class', 'ttl', 'edns0', 'cname', 'rcode'].includes(field)) throw new CorefileError(`rewrite field '${field}' is not supported by cka-lab`);
        throw new CorefileError(`invalid rule type "${field}"`);
      }
      const rest = args.slice(1);
      if (rest.length < 2) throw new CorefileError('too few arguments for a name rule');
      let match: Match = 'exact';
      let from: string;
      let to: string;
      let tail: string[];
      if (['exact', 'prefix', 'suffix', 'substring', 'regex'].includes((rest[0] ?? '').toLowerCase()) && rest.length >= 3) {
        match = (rest[0] ?? '').toLowerCase() as Match;
        from = rest[1] ?? '';
        to = rest[2] ?? '';
        tail = rest.slice(3);
      } else {
        from = rest[0] ?? '';
        to = rest[1] ?? '';
        tail = rest.slice(2);
      }
      if (match === 'exact') {
        from = fqdn(from.toLowerCase());
        to = fqdn(to.toLowerCase());
      }
      const rule: NameRule = { match, from, to };
      if (tail.length > 0) {
        if (tail[0] !== 'answer') throw new CorefileError(`invalid argument "${tail[0] ?? ''}" for name rule`);
        if (tail[1] === 'auto') rule.answer = { auto: true };
        else if (tail[1] === 'name' && tail.length === 4) rule.answer = { from: regexOf(tail[2] ?? '') ?? /$^/, to: tail[3] ?? '' };
        else throw new CorefileError('invalid answer rewrite rule');
      }
      rules.push(rule);
    }
    return {
      name: 'rewrite',
      serve(req, next) {
        const q = req.msg.question[0];
        if (!q) return nextOrFailure('rewrite', next, req);
        let name = q.name;
        let applied: NameRule | undefined;
        for (const r of rules) {
          const out = applyRule(r, name);
          if (out !== undefined) {
            name = fqdn(out);
            applied = r;
            break;
          }
        }
        if (!applied) return nextOrFailure('rewrite', next, req);
        const original = q.name;
        const rewritten = { ...req.msg, question: [{ ...q, name }] };
        const res = nextOrFailure('rewrite', next, { ...req, msg: rewritten });
        if (!res.reply) return res;
        res.reply.id = req.msg.id;
        res.reply.question = req.msg.question.map((x) => ({ ...x }));
        const back = (rr: RR): RR => {
          if (applied.match === 'exact' || (applied.answer && 'auto' in applied.answer)) {
            return rr.name.toLowerCase() === name.toLowerCase() ? { ...rr, name: original } : rr;
          }
          if (applied.answer && 'from' in applied.answer) {
            const a = applied.answer;
            const m = a.from.exec(rr.name);
            return m ? { ...rr, name: a.to.replace(/\{(\d+)\}/g, (_, d: string) => m[Number(d)] ?? '') } : rr;
          }
          return rr;
        };
        res.reply.answer = res.reply.answer.map(back);
        return res;
      },
    };
  },
};
