/**
 * template (plugin/template), basic form: `template CLASS TYPE [ZONE...] { match REGEX...
 * answer RR  additional RR  authority RR  rcode CODE  fallthrough [ZONES...] }`. Supports the
 * template fields {{ .Name }}, {{ .Zone }}, {{ .Type }}, {{ .Class }}, {{ index .Match N }} and
 * {{ .Group.NAME }}. A zone match without a regex match is SERVFAIL unless fallthrough covers it.
 */
import { isQType, replyTo, type RR, type Rcode } from '../message.js';
import { fallZones, matchZone, nextOrFailure, normalizeZone, type PluginDef } from '../plugin.js';
import { LinearRegExp } from '../../../util/regex/index.js';

/** Parse one zone-file style record: `name [ttl] [IN] TYPE rdata`. */
export function parseRR(text: string): RR | undefined {
  const f = text.trim().split(/\s+/);
  const name = f.shift();
  if (!name) return undefined;
  let ttl = 3600;
  if (/^\d+$/.test(f[0] ?? '')) ttl = Number(f.shift());
  if ((f[0] ?? '').toUpperCase() === 'IN') f.shift();
  const type = (f.shift() ?? '').toUpperCase();
  const base = { name: name.endsWith('.') ? name : `${name}.`, ttl, class: 'IN' as const };
  const d = (s: string | undefined): string => (s === undefined ? '' : s.endsWith('.') ? s : `${s}.`);
  switch (type) {
    case 'A':
      return { ...base, type: 'A', address: f[0] ?? '' };
    case 'AAAA':
      return { ...base, type: 'AAAA', address: f[0] ?? '' };
    case 'CNAME':
      return { ...base, type: 'CNAME', target: d(f[0]) };
    case 'PTR':
      return { ...base, type: 'PTR', target: d(f[0]) };
    case 'NS':
      return { ...base, type: 'NS', target: d(f[0]) };
    case 'MX':
      return { ...base, type: 'MX', preference: Number(f[0]), exchange: d(f[1]) };
    case 'SRV':
      return { ...base, type: 'SRV', priority: Number(f[0]), weight: Number(f[1]), port: Number(f[2]), target: d(f[3]) };
    case 'TXT':
      return { ...base, type: 'TXT', texts: [f.join(' ').replace(/^"|"$/g, '')] };
    default:
      return undefined;
  }
}

interface Tmpl {
  cls: string;
  type: string;
  zones: string[];
  regex: RegExp[];
  answer: string[];
  additional: string[];
  authority: string[];
  rcode: Rcode;
  fall: string[];
}

const RCODES: Rcode[] = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];

function render(t: string, vars: { name: string; zone: string; type: string; cls: string; match: RegExpExecArray }): string {
  return t.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
    if (expr === '.Name') return vars.name;
    if (expr === '.Zone') return vars.zone;
    if (expr === '.Type') return vars.type;
    if (expr === '.Class') return vars.cls;
    const idx = /^index \.Match (\d+)$/.exec(expr);
    if (idx) return vars.match[Number(idx[1])] ?? '';
    const grp = /^\.Group\.(\w+)$/.exec(expr);
    if (grp) return vars.match.groups?.[grp[1] ?? ''] ?? '';
    return '';
  });
}

export const templatePlugin: PluginDef = {
  name: 'template',
  setup(c, ctx) {
    const templates: Tmpl[] = [];
    while (c.next()) {
      const args = c.remainingArgs();
      if (args.length < 2) throw c.argErr();
      const cls = (args[0] ?? '').toUpperCase();
      const type = (args[1] ?? '').toUpperCase();
      if (!['IN', 'CH', 'ANY'].includes(cls)) throw c.err(`invalid query class ${args[0] ?? ''}`);
      if (type !== 'ANY' && !isQType(type)) throw c.err(`invalid RR class ${args[1] ?? ''}`);
      const t: Tmpl = {
        cls,
        type,
        zones: args.length > 2 ? args.slice(2).map(normalizeZone) : [...ctx.zones],
        regex: [],
        answer: [],
        additional: [],
        authority: [],
        rcode: 'NOERROR',
        fall: [],
      };
      while (c.nextBlock()) {
        const v = c.val();
        const a = c.remainingArgs();
        if (v === 'match') {
          if (a.length === 0) throw c.argErr();
          for (const r of a) {
            try {
              t.regex.push(new LinearRegExp(r, '', 're2'));
            } catch {
              throw c.err(`could not parse regex: ${r}`);
            }
          }
        } else if (v === 'answer' || v === 'additional' || v === 'authority') {
          if (a.length === 0) throw c.argErr();
          t[v].push(...a);
        } else if (v === 'rcode') {
          const rc = (a[0] ?? '').toUpperCase() as Rcode;
          if (a.length !== 1 || !RCODES.includes(rc)) throw c.err(`unknown rcode ${a[0] ?? ''}`);
          t.rcode = rc;
        } else if (v === 'fallthrough') t.fall = fallZones(a);
        else if (v === 'upstream') continue;
        else throw c.argErr();
      }
      if (t.regex.length === 0) t.regex.push(/.*/);
      templates.push(t);
    }
    return {
      name: 'template',
      serve(req, next) {
        const q = req.msg.question[0];
        if (!q) return nextOrFailure('template', next, req);
        for (const t of templates) {
          const zone = matchZone(t.zones, q.name);
          if (zone === undefined) continue;
          if ((t.type !== 'ANY' && t.type !== q.type) || (t.cls !== 'ANY' && t.cls !== q.class)) continue;
          let m: RegExpExecArray | null = null;
          for (const re of t.regex) if ((m = re.exec(q.name)) !== null) break;
          if (!m) {
            if (matchZone(t.fall, q.name) !== undefined) return nextOrFailure('template', next, req);
            return { rcode: 'SERVFAIL' };
          }
          const vars = { name: q.name, zone, type: q.type, cls: q.class, match: m };
          const rrs = (list: string[]): RR[] => list.flatMap((x) => parseRR(render(x, vars)) ?? []);
          const reply = replyTo(req.msg, t.rcode);
          reply.flags.aa = true;
          reply.answer = rrs(t.answer);
          reply.additional = rrs(t.additional);
          reply.authority = rrs(t.authority);
          return { rcode: t.rcode, reply };
        }
        return nextOrFailure('template', next, req);
      },
    };
  },
};
