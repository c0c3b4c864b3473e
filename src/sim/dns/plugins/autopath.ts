/**
 * autopath (coredns v1.13.1 plugin/autopath/setup.go, autopath.go, cname.go): the server walks
 * the client's search path itself. A query whose name lies in the first search domain is retried
 * as <base>.<each domain> down the chain until one is not NXDOMAIN; that reply is returned with a
 * CNAME from the asked name to the name that answered. `@kubernetes` takes the path from the
 * kubernetes plugin (plugin/kubernetes/autopath.go), which only knows the sending pod with
 * `pods verified`: otherwise, as upstream, autopath silently does nothing.
 */
import { CorefileError } from '../corefile/dispenser.js';
import type { DnsMessage, RR } from '../message.js';
import { parseResolvConf } from '../resolv-conf.js';
import { matchZone, nextOrFailure, normalizeZone, type PluginDef, type Result } from '../plugin.js';

/** autopath.go firstInSearchPath. */
export function firstInSearchPath(name: string, search: string[]): boolean {
  const first = search[0];
  if (first === undefined) return false;
  const n = name.toLowerCase();
  return n === first || first === '.' || n.endsWith(`.${first}`);
}

/** cname.go cnamer: a CNAME from the original name to the first answer owned by another name. */
function cnamer(m: DnsMessage, original: string): DnsMessage {
  const answer: RR[] = [...m.answer];
  const other = answer.find((a) => a.name.toLowerCase() !== original.toLowerCase());
  if (other) answer.unshift({ name: original, ttl: other.ttl, class: 'IN', type: 'CNAME', target: other.name });
  return { ...m, answer, question: m.question.map((q, i) => (i === 0 ? { ...q, name: original } : q)) };
}

/** plugin.ClientWrite: the plugin wrote a reply itself (not SERVFAIL/REFUSED/FORMERR/NOTIMP). */
function clientWrite(r: Result): boolean {
  return r.reply !== undefined && !['SERVFAIL', 'REFUSED', 'FORMERR', 'NOTIMP'].includes(r.rcode);
}

export const autopathPlugin: PluginDef = {
  name: 'autopath',
  setup(c, ctx) {
    let zones: string[] = [];
    let mw = '';
    let search: string[] = [];
    while (c.next()) {
      const args = c.remainingArgs();
      const resolv = args[args.length - 1];
      if (resolv === undefined) throw new CorefileError('no resolv-conf specified');
      if (resolv.startsWith('@')) mw = resolv.slice(1);
      else {
        const text = ctx.readFile(resolv);
        if (text === undefined) throw new CorefileError(`failed to parse "${resolv}": open ${resolv}: no such file or directory`);
        search = [...parseResolvConf(text).searches.map(normalizeZone), ''];
      }
      const z = args.slice(0, -1);
      zones = z.length > 0 ? z.map(normalizeZone) : [...ctx.zones];
    }
    let searchFunc: ((qname: string, ip: string) => string[] | undefined) | undefined;
    return {
      name: 'autopath',
      startupCheck() {
        if (mw === '') return undefined;
        const m = ctx.handler(mw);
        if (!m) return undefined;
        if (!m.autoPath) return `plugin/autopath: ${mw} does not implement the AutoPather interface`;
        searchFunc = m.autoPath.bind(m);
        return undefined;
      },
      serve(req, next) {
        const q = req.msg.question[0];
        if (!q) return nextOrFailure('autopath', next, req);
        const name = q.name.toLowerCase();
        if (matchZone(zones, name) === undefined) return nextOrFailure('autopath', next, req);
        const path = searchFunc ? (searchFunc(name, req.client.ip) ?? []) : search;
        if (path.length === 0 || !firstInSearchPath(name, path)) return nextOrFailure('autopath', next, req);
        const orig = q.name;
        const first = path[0] ?? '';
        const base = orig.slice(0, orig.length - first.length).replace(/\.$/, '');
        const original = req.msg;
        let firstResult: Result | undefined;
        for (const s of path) {
          const qname = s === '' ? `${base}.` : `${base}.${s}`;
          req.msg = { ...original, question: original.question.map((x, i) => (i === 0 ? { ...x, name: qname } : x)) };
          const r = nextOrFailure('autopath', next, req);
          firstResult ??= r;
          if (!clientWrite(r) || r.reply?.rcode === 'NXDOMAIN') continue;
          req.msg = original;
          return { ...r, reply: cnamer(r.reply as DnsMessage, orig) };
        }
        req.msg = original;
        return firstResult ?? nextOrFailure('autopath', next, req);
      },
    };
  },
};
