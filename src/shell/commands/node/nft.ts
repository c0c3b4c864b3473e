/**
 * `nft` on a node (nftables 1.0.x, src/main.c and the `list` commands of src/parser_bison.y /
 * src/rule.c do_command_list): the listing commands a candidate uses to see what kube-proxy's
 * nftables mode wrote. The tables themselves are printed by sim/net/nft-list.ts.
 *
 *   nft list ruleset [FAMILY] | tables [FAMILY] | table [FAMILY] NAME | chains [FAMILY]
 *   nft list chain [FAMILY] TABLE CHAIN | sets|maps [FAMILY] | set|map [FAMILY] TABLE NAME
 *   nft -v | --version
 *
 * Only root may read the kernel's ruleset ("you must be root", as nft says when netlink refuses).
 * A missing table, chain or set is nft's ENOENT with its caret line under the name. Commands that
 * change the ruleset (add, delete, flush, -f) are not simulated and say so.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { liveAffinity, type NftTable } from '../../../sim/net/kube-proxy/nftables.js';
import { listChain, listChainHeads, listSet, listSets, listTable } from '../../../sim/net/nft-list.js';
import { nodeNftAffinity, nodeNftables } from '../../../sim/node/runtime.js';
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
  if (args[0] !== 'list') return fail(`nft: "${args[0] ?? ''}" is not simulated by cka-lab: only nft list commands are\n`);
  const tables = env.host.data.state.nftables === undefined ? [] : nodeNftables(env.host).tables;
  const affinity = nodeNftAffinity(env.host);
  return nftList(args, tables, (t) => (t.family === 'ip' ? liveAffinity(t, affinity, ctx.now()) : new Map()));
};

/** The live elements of a table's dynamic sets, by set name. */
export type DynamicOf = (t: NftTable) => ReadonlyMap<string, ReadonlyMap<string, number>>;

/** `nft list …` (the words after `nft`) over the node's tables. */
export function nftList(words: readonly string[], tables: readonly NftTable[], dynamicOf: DynamicOf): CommandResult {
  const what = words[1];
  // an optional family before the names
  let i = 2;
  let family: string | undefined;
  if (FAMILIES.includes(words[i] ?? '')) family = words[i++];
  const inFamily = tables.filter((t) => family === undefined || t.family === family);
  const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
  const findTable = (at: number): NftTable | undefined => tables.find((t) => t.family === (family ?? 'ip') && t.name === words[at]);
  switch (what) {
    case 'ruleset':
      return i === words.length ? ok(inFamily.map((t) => listTable(t, { dynamic: dynamicOf(t) })).join('')) : located('syntax error, unexpected string, expecting end of file or newline or semicolon', words, i);
    case 'tables':
      return ok(inFamily.map((t) => `table ${t.family} ${t.name}\n`).join(''));
    case 'chains':
      return ok(inFamily.map((t) => listChainHeads(t)).join(''));
    case 'sets':
    case 'maps':
      return ok(inFamily.map((t) => listSets(t, what === 'maps' ? 'map' : 'set', { dynamic: dynamicOf(t) })).join(''));
    case 'table': {
      if (words[i] === undefined) return located('syntax error, unexpected newline, expecting string', words, words.length);
      const t = findTable(i);
      return t ? ok(listTable(t, { dynamic: dynamicOf(t) })) : located('No such file or directory', words, i);
    }
    case 'chain': {
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
