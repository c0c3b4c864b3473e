/**
 * `nft` on a node (nftables 1.0.x, src/main.c and the `list` commands of src/parser_bison.y /
 * src/rule.c do_command_list): the listing commands a candidate uses to see what kube-proxy's
 * nftables mode wrote. The tables themselves are printed by sim/net/nft-list.ts.
 *
 *   nft list ruleset [FAMILY] | tables [FAMILY] | table [FAMILY] NAME | chains [FAMILY]
 *   nft list chain [FAMILY] TABLE CHAIN | sets|maps [FAMILY] | set|map [FAMILY] TABLE NAME
 *   nft add|delete element [FAMILY] TABLE SET { KEY [: VERDICT], … }
 *   nft flush|delete chain|set|map [FAMILY] TABLE NAME | flush|delete table [FAMILY] TABLE
 *   nft -v | --version
 *
 * The tables iptables-nft keeps for the node's iptables rules (`ip filter`, `ip nat`, …) are listed
 * first, as nft decodes them (sim/net/nft-xlate.ts), with nft's "managed by iptables-nft" warnings
 * on stderr; they are read-only here (change them with iptables).
 *
 * Only root may read or change the kernel's ruleset ("you must be root", as nft says when netlink
 * refuses). The edits apply to kube-proxy's tables as one batch each, refused as the kernel
 * refuses them (sim/net/kube-proxy/nftables-tx.ts): a missing object is ENOENT, a chain or set
 * still referenced is EBUSY, a map element without its verdict EINVAL, each printed with nft's
 * caret line under the object. kube-proxy does not notice such edits: they last until it writes
 * the same objects again (a full sync: its restart, a failed sync, the hourly one). Rules cannot
 * be added by hand here, `flush ruleset` (which would also empty iptables-nft's tables) and `-f`
 * are not simulated; each says so.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { liveAffinity, newNftState, type NftElement, type NftFamily, type NftState, type NftTable } from '../../../sim/net/kube-proxy/nftables.js';
import { nftErrorLine, runNftBatch, type NftOp } from '../../../sim/net/kube-proxy/nftables-tx.js';
import { listChain, listChainHeads, listSet, listSets, listTable } from '../../../sim/net/nft-list.js';
import { nodeIptables, nodeNftAffinity, nodeNftables } from '../../../sim/node/runtime.js';
import { iptablesNftTables, iptablesNftWarnings, renderListedTables, type ListedTable } from '../../../sim/net/nft-xlate.js';
import { isRoot, nodeEnv, notInstalled } from './host.js';

/** Ubuntu 24.04's nftables 1.0.9 (`nft -v`). */
const VERSION = 'nftables v1.0.9 (Old Doc Yak #3)\n';
const FAMILIES = ['ip', 'ip6', 'inet', 'arp', 'bridge', 'netdev'];

function fail(stderr: string): CommandResult {
  return { stdout: '', stderr, exitCode: 1 };
}

/** nft's error for a word of the command line: the message, the line, a caret run under the word. */
function located(msg: string, words: readonly string[], at: number): CommandResult {
  // past the last word: the caret sits on the newline right after it
  const col = at >= words.length ? words.join(' ').length : words.slice(0, at).reduce((n, w) => n + w.length + 1, 0);
  return fail(`Error: ${msg}\n${words.join(' ')}\n${' '.repeat(col)}${'^'.repeat(Math.max(1, words[at]?.length ?? 1))}\n`);
}

export const nft: CommandFn = (ctx): CommandResult => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  if (args.some((a) => a === '-v' || a === '--version')) return { stdout: VERSION, stderr: '', exitCode: 0 };
  const opt = args.find((a) => a.startsWith('-'));
  if (opt !== undefined) return fail(`nft: option ${opt} is not simulated by cka-lab (only listing without options is)\n`);
  if (args.length === 0) return fail('nft: no command specified\n');
  if (!isRoot(ctx)) return fail('Operation not permitted (you must be root)\nnetlink: Error: cache initialization failed: Operation not permitted\n');
  if ((args[0] === 'add' || args[0] === 'delete' || args[0] === 'flush') && ['filter', 'nat', 'mangle', 'raw'].includes(args[2] === 'ip' ? (args[3] ?? '') : (args[2] ?? ''))) {
    return fail(`nft: changing iptables-nft's tables with nft is not simulated by cka-lab: use iptables\n`);
  }
  if (args[0] === 'add' || args[0] === 'delete' || args[0] === 'flush') {
    // a node without nftables state keeps none: every edit there fails (no such table)
    const r = nftEdit(args, env.host.data.state.nftables ?? newNftState());
    if (r.exitCode === 0) ctx.cluster?.touchHosts();
    return r;
  }
  if (args[0] !== 'list') return fail(`nft: "${args[0] ?? ''}" is not simulated by cka-lab: only nft list, add/delete element and flush/delete of chains, sets, maps and tables are\n`);
  const tables = env.host.data.state.nftables === undefined ? [] : nodeNftables(env.host).tables;
  const affinity = nodeNftAffinity(env.host);
  const ipt = nodeIptables(env.host);
  return nftList(args, tables, (t) => (t.family === 'ip' ? liveAffinity(t, affinity, ctx.now()) : new Map()), { tables: iptablesNftTables(ipt), warnings: iptablesNftWarnings(ipt) });
};

/** The tables iptables-nft keeps (sim/net/nft-xlate.ts), listed before kube-proxy's: the kubelet made them at boot. */
export interface XtTables {
  tables: readonly ListedTable[];
  /** nft's stderr warnings for the tables that hold iptables compat expressions. */
  warnings: string;
}

/** The live elements of a table's dynamic sets, by set name. */
export type DynamicOf = (t: NftTable) => ReadonlyMap<string, ReadonlyMap<string, number>>;

/** `nft list …` (the words after `nft`) over the node's tables. */
export function nftList(words: readonly string[], tables: readonly NftTable[], dynamicOf: DynamicOf, xt: XtTables = { tables: [], warnings: '' }): CommandResult {
  const what = words[1];
  // an optional family before the names
  let i = 2;
  let family: string | undefined;
  if (FAMILIES.includes(words[i] ?? '')) family = words[i++];
  const inFamily = tables.filter((t) => family === undefined || t.family === family);
  const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
  const findTable = (at: number): NftTable | undefined => tables.find((t) => t.family === (family ?? 'ip') && t.name === words[at]);
  const xtIn = xt.tables.filter((t) => family === undefined || t.family === family);
  const findXt = (at: number): ListedTable | undefined => xt.tables.find((t) => t.family === (family ?? 'ip') && t.name === words[at]);
  if (what === undefined) return located('syntax error, unexpected newline', words, words.length);
  // the parser wants a table (and an object name) before it looks anything up
  const names = what === 'table' ? 1 : what === 'chain' || what === 'set' || what === 'map' ? 2 : 0;
  if (words.length < i + names) return located('syntax error, unexpected newline, expecting string', words, words.length);
  switch (what) {
    case 'ruleset':
      if (i !== words.length) return located('syntax error, unexpected string, expecting end of file or newline or semicolon', words, i);
      return { stdout: renderListedTables(xtIn) + inFamily.map((t) => listTable(t, { dynamic: dynamicOf(t) })).join(''), stderr: xtIn.length > 0 ? xt.warnings : '', exitCode: 0 };
    case 'tables':
      return ok([...xtIn, ...inFamily].map((t) => `table ${t.family} ${t.name}\n`).join(''));
    case 'chains':
      return ok(xtIn.map((t) => `table ${t.family} ${t.name} {\n${t.chains.map((c) => `\tchain ${c.name} {\n${c.lines.filter((l) => l.startsWith('type ')).map((l) => `\t\t${l}\n`).join('')}\t}\n`).join('')}}\n`).join('') + inFamily.map((t) => listChainHeads(t)).join(''));
    case 'sets':
    case 'maps':
      return ok(inFamily.map((t) => listSets(t, what === 'maps' ? 'map' : 'set', { dynamic: dynamicOf(t) })).join(''));
    case 'table': {
      const x = findXt(i);
      if (x) return { stdout: renderListedTables([x]), stderr: xt.warnings.split('\n').filter((l) => l.endsWith(`table ip ${x.name} is managed by iptables-nft, do not touch!`)).map((l) => `${l}\n`).join(''), exitCode: 0 };
      const t = findTable(i);
      return t ? ok(listTable(t, { dynamic: dynamicOf(t) })) : located('No such file or directory', words, i);
    }
    case 'chain': {
      const x = findXt(i);
      const xc = x?.chains.find((c) => c.name === words[i + 1]);
      if (x) return xc ? ok(renderListedTables([{ ...x, chains: [xc] }])) : located('No such file or directory', words, i + 1);
      const t = findTable(i);
      if (!t) return located('No such file or directory', words, i);
      const c = t.chains.find((x) => x.name === words[i + 1]);
      return c ? ok(listChain(t, c)) : located('No such file or directory', words, i + 1);
    }
    case 'set':
    case 'map': {
      const t = findTable(i);
      if (!t) return located('No such file or directory', words, i);
      const s = t.sets.find((x) => x.name === words[i + 1] && x.kind === what);
      return s ? ok(listSet(t, s, { dynamic: dynamicOf(t) })) : located('No such file or directory', words, i + 1);
    }
    default:
      return located('syntax error, unexpected string', words, 1);
  }
}

/** One element of `{ … }` as typed: its key fields, comment and verdict, and where its key starts in the element text. */
interface TypedElement {
  elem: NftElement;
  keyText: string;
  offset: number;
}

/** `{ k1 . k2 [comment "c"] [: verdict], … }` → elements; undefined when it is not one. */
function parseElements(text: string): TypedElement[] | undefined {
  const m = /^\{(.*)\}$/.exec(text);
  if (!m) return undefined;
  const out: TypedElement[] = [];
  let pos = 1;
  for (const part of (m[1] ?? '').split(',')) {
    const lead = part.length - part.trimStart().length;
    const t = part.trim();
    const pm = /^(.+?)(?:\s+comment\s+"([^"]*)")?(?:\s*:\s*(.+))?$/.exec(t);
    if (!pm || t === '') return undefined;
    const keyText = (pm[1] ?? '').trim();
    const elem: NftElement = { key: keyText.split(/\s+\.\s+/) };
    if (pm[2] !== undefined) elem.comment = pm[2];
    if (pm[3] !== undefined) elem.value = pm[3].trim().replace(/\s+/g, ' ');
    out.push({ elem, keyText, offset: pos + lead });
    pos += part.length + 1;
  }
  return out;
}

/** `nft add|delete element`, `nft flush|delete chain|set|map|table` on kube-proxy's tables. */
export function nftEdit(words: readonly string[], st: NftState): CommandResult {
  const [verb, obj] = words;
  if (obj === 'ruleset') return fail(`nft: "${verb} ruleset" is not simulated by cka-lab: it would also empty the tables iptables-nft keeps for the iptables rules\n`);
  let i = 2;
  let family: NftFamily = 'ip';
  if (FAMILIES.includes(words[i] ?? '')) family = words[i++] as NftFamily;
  const tableAt = i;
  const table = words[tableAt];
  if (table === undefined) return located(`syntax error, unexpected newline, expecting ${verb === 'delete' && obj === 'table' ? 'handle or string' : 'string'}`, words, words.length);
  if (obj !== 'table' && words[tableAt + 1] === undefined) return located('syntax error, unexpected newline, expecting string', words, words.length);
  if (obj === 'element' && words[tableAt + 2] === undefined) return located("syntax error, unexpected newline, expecting '{' or '$'", words, words.length);
  if (obj === 'element' && !/^\{.*\}$/.test(words.slice(tableAt + 2).join(' '))) return fail(`Error: syntax error, unexpected end of file\n${words.join(' ')}\n^\n`);
  const t = st.tables.find((x) => x.family === family && x.name === table);
  const refused = (errno: Parameters<typeof nftErrorLine>[0], at: number, col?: number, len?: number): CommandResult => {
    const line = words.join(' ');
    const c = col ?? (at >= words.length ? line.length : words.slice(0, at).reduce((n, w) => n + w.length + 1, 0));
    return fail(`${nftErrorLine(errno)}\n${line}\n${' '.repeat(c)}${'^'.repeat(Math.max(1, len ?? words[at]?.length ?? 1))}\n`);
  };
  if (!t) return refused('ENOENT', tableAt);
  const run = (ops: NftOp[], onError: (index: number, errno: Parameters<typeof nftErrorLine>[0]) => CommandResult): CommandResult => {
    const r = runNftBatch(st, ops, family);
    return r === undefined ? { stdout: '', stderr: '', exitCode: 0 } : onError(r.index, r.errno);
  };
  if (obj === 'table') {
    if (verb !== 'flush' && verb !== 'delete') return fail('nft: only flush and delete of a table are simulated by cka-lab\n');
    if (words.length > tableAt + 1) return located('syntax error, unexpected string, expecting end of file or newline or semicolon', words, tableAt + 1);
    return run([{ verb, obj: 'table' }], (_, errno) => refused(errno, tableAt));
  }
  const nameAt = tableAt + 1;
  const name = words[nameAt];
  if (name === undefined) return located('syntax error, unexpected newline, expecting string', words, words.length);
  if (obj === 'chain' || obj === 'set' || obj === 'map') {
    if (verb !== 'flush' && verb !== 'delete') return fail(`nft: "${verb} ${obj}" is not simulated by cka-lab: kube-proxy creates its own\n`);
    if (words.length > nameAt + 1) return located('syntax error, unexpected string, expecting end of file or newline or semicolon', words, nameAt + 1);
    const kind = obj === 'chain' ? undefined : obj;
    if (kind !== undefined && !t.sets.some((x) => x.name === name && x.kind === kind)) return refused('ENOENT', nameAt);
    const op: NftOp = kind === undefined ? { verb, obj: 'chain', name } : { verb, obj: 'set', name, kind };
    return run([op], (_, errno) => refused(errno, nameAt));
  }
  if (obj === 'element') {
    if (verb === 'flush') return located('syntax error, unexpected element', words, 1);
    const set = t.sets.find((x) => x.name === name);
    if (!set) return refused('ENOENT', nameAt);
    const text = words.slice(nameAt + 1).join(' ');
    const els = parseElements(text);
    if (!els || els.length === 0) return located('syntax error, unexpected end of file, expecting \'{\'', words, words.length);
    const fields = (set.kind === 'map' ? (set.type.split(' : ')[0] ?? '') : set.type).split(' . ').length;
    const base = words.slice(0, nameAt + 1).join(' ').length + 1;
    const bad = els.find((e) => e.elem.key.length !== fields);
    if (bad) return fail(`Error: ${bad.keyText} does not have the ${fields} field${fields === 1 ? '' : 's'} of ${set.kind} ${set.name} (${set.type}) (cka-lab)\n`);
    const ops: NftOp[] = els.map((e) => ({ verb: verb === 'add' ? 'add' : 'delete', obj: 'element', set: set.name, kind: set.kind, elem: e.elem }));
    return run(ops, (index, errno) => {
      const e = els[index]!;
      return refused(errno, 0, base + e.offset, e.keyText.length);
    });
  }
  return fail(`nft: "${verb} ${obj ?? ''}" is not simulated by cka-lab: only add/delete element and flush/delete of chains, sets, maps and tables are\n`);
}
