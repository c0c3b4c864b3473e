/**
 * Pure data model of a host's iptables ruleset: tables → chains → rules.
 *
 * Rules are stored already parsed and normalised (see rule-parse.ts), in the form the kernel keeps
 * them, so that every printer (iptables-save, `-S`, `-L`) re-prints them the way the iptables binary
 * does rather than echoing what was typed. Everything here is plain JSON (no classes, no Maps), so
 * a node's ruleset survives the session snapshot unchanged.
 *
 * Emulates: libiptc / iptables-nft cache layout (netfilter iptables `libiptc/libiptc.c`,
 * `iptables/nft-cache.c`): built-in chains in hook order, user chains kept sorted by strcmp.
 */

import type { Family } from './ipv6.js';

export type TableName = 'filter' | 'nat' | 'mangle' | 'raw';

export const TABLE_NAMES: readonly TableName[] = ['filter', 'nat', 'mangle', 'raw'];

/** Built-in chains of each table, in hook order (NF_INET_PRE_ROUTING … POST_ROUTING). */
export const BUILTIN_CHAINS: Readonly<Record<TableName, readonly string[]>> = {
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
  mangle: ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'],
  raw: ['PREROUTING', 'OUTPUT'],
};

export interface Counters {
  packets: number;
  bytes: number;
}

/** `[!] -s/-d addr/prefix`; addr is the already-masked network address. */
export interface AddrMatch {
  addr: string;
  prefix: number;
  neg: boolean;
}

export interface IfaceMatch {
  name: string;
  neg: boolean;
}

/** Protocol as iptables stores it: a number (0 = all). */
export interface ProtoMatch {
  num: number;
  neg: boolean;
}

/** One option of a match or target, normalised: `flag` without dashes, values already canonical. */
export interface ExtOption {
  flag: string;
  neg: boolean;
  values: string[];
}

/** `-m module …` (or an implicitly loaded protocol match). Options are in save order. */
export interface Match {
  module: string;
  options: ExtOption[];
}

/** `-j NAME …` or `-g NAME`. `kind` says whether it is a verdict, a user chain or an extension. */
export interface Target {
  name: string;
  kind: 'standard' | 'chain' | 'extension';
  goto: boolean;
  options: ExtOption[];
}

/**
 * A rule in a chain. Writers replace a rule rather than change it in place, except for its
 * counters (the packet path, `-Z`) and `-E`'s new target: iptables-restore hands a rule object
 * back to the chain it rewrites when it is the same line's with those untouched (restore.ts PROVENANCE).
 */
export interface Rule {
  src?: AddrMatch;
  dst?: AddrMatch;
  inIface?: IfaceMatch;
  outIface?: IfaceMatch;
  proto?: ProtoMatch;
  fragment?: { neg: boolean };
  matches: Match[];
  target?: Target;
  counters: Counters;
}

export type Policy = 'ACCEPT' | 'DROP';

export interface Chain {
  name: string;
  builtin: boolean;
  /** Only for built-in chains. */
  policy?: Policy;
  /** Policy counters (built-ins only; user chains print `- [0:0]`). */
  counters: Counters;
  rules: Rule[];
}

export interface Table {
  name: TableName;
  /** Built-ins first in hook order, then user chains sorted by strcmp (kept sorted on insert). */
  chains: Chain[];
}

export interface IptablesState {
  tables: Partial<Record<TableName, Table>>;
  /**
   * `ipv6` for ip6tables' ruleset (a separate set of tables in the kernel: nft's `ip6` family);
   * absent for iptables' (IPv4). Parsers and printers take the family from here.
   */
  family?: 'ipv6';
  /**
   * Counts the writes of `iptables` and `iptables-restore` (whoever runs them): a writer that
   * remembers the count after its own write knows, when it changed, that someone else wrote since
   * (kube-proxy's partial syncs leave such edits in place until a full sync).
   */
  rev?: number;
}

/** Counts a write to the ruleset (IptablesState.rev). */
export function bumpRev(state: IptablesState): void {
  state.rev = (state.rev ?? 0) + 1;
}

/** A ruleset with the filter, nat and mangle tables present and empty (a fresh kubeadm node). */
export function newIptablesState(tables: readonly TableName[] = ['filter', 'nat', 'mangle'], family: Family = 'ipv4'): IptablesState {
  const state: IptablesState = family === 'ipv6' ? { tables: {}, family: 'ipv6' } : { tables: {} };
  for (const t of tables) state.tables[t] = newTable(t);
  return state;
}

export function newTable(name: TableName): Table {
  return {
    name,
    chains: BUILTIN_CHAINS[name].map((c) => ({
      name: c,
      builtin: true,
      policy: 'ACCEPT' as Policy,
      counters: { packets: 0, bytes: 0 },
      rules: [],
    })),
  };
}

/** The table, created on first use (iptables-nft creates a table when something touches it). */
export function ensureTable(state: IptablesState, name: TableName): Table {
  let t = state.tables[name];
  if (!t) {
    t = newTable(name);
    state.tables[name] = t;
  }
  return t;
}

/**
 * Chain lookup by name through an index kept beside the (plain JSON) table: a 10,000-Service
 * ruleset has ~60,000 chains, and a linear find per restore line is quadratic. The index is keyed
 * on the chains array and rebuilt when the array is replaced or changes size behind our back.
 */
const chainIndexes = new WeakMap<Chain[], Map<string, Chain>>();

function chainIndex(table: Table): Map<string, Chain> {
  let idx = chainIndexes.get(table.chains);
  if (!idx || idx.size !== table.chains.length) {
    idx = new Map(table.chains.map((c) => [c.name, c]));
    chainIndexes.set(table.chains, idx);
  }
  return idx;
}

/**
 * Moves the index of `from` (a table's chains array being replaced) to `to`, applying `changes`
 * (chain name → the chain now, or null when gone): iptables-restore commits a new array on every
 * write, and rebuilding a 60,000-chain index for it was most of a partial sync. `from` loses its
 * index (it is rebuilt should anyone still look there).
 */
export function moveChainIndex(from: Chain[], to: Chain[], changes: ReadonlyMap<string, Chain | null>): void {
  const idx = chainIndexes.get(from);
  if (!idx) return;
  chainIndexes.delete(from);
  for (const [n, c] of changes) {
    if (c) idx.set(n, c);
    else idx.delete(n);
  }
  if (idx.size === to.length) chainIndexes.set(to, idx);
}

/**
 * `chain` (of `table`) to change: itself, or when it is frozen (a chain iptables-restore shares
 * between rulesets, restore.ts ChainTemplate) a copy of it put in its place, which the table then
 * holds alone. Every writer of a chain's rules, counters or policy goes through this first.
 */
export function ownChain(table: Table, chain: Chain): Chain {
  if (!Object.isFrozen(chain)) return chain;
  const copy: Chain = { ...chain, counters: { ...chain.counters }, rules: chain.rules.slice() };
  const at = table.chains.indexOf(chain);
  if (at >= 0) {
    table.chains[at] = copy;
    const idx = chainIndexes.get(table.chains);
    if (idx && idx.get(chain.name) === chain) idx.set(chain.name, copy);
  }
  return copy;
}

export function findChain(table: Table, name: string): Chain | undefined {
  const c = chainIndex(table).get(name);
  return c && c.name === name ? c : undefined;
}

/** strcmp order (byte order), as libiptc's iptc_insert_chain and nft_cache_sort_chains use. */
export function strcmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Adds an empty user chain in sorted position; returns the existing one if present. */
export function addUserChain(table: Table, name: string): Chain {
  const existing = findChain(table, name);
  if (existing) return existing;
  const chain: Chain = { name, builtin: false, counters: { packets: 0, bytes: 0 }, rules: [] };
  const idx = chainIndex(table);
  // binary search among the user chains (built-ins come first)
  let lo = 0;
  while (lo < table.chains.length && table.chains[lo]?.builtin) lo++;
  let hi = table.chains.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (strcmp(table.chains[mid]?.name ?? '', name) < 0) lo = mid + 1;
    else hi = mid;
  }
  table.chains.splice(lo, 0, chain);
  idx.set(name, chain);
  return chain;
}

/**
 * Adds a user chain at the end, leaving the table unsorted until sortUserChains(): for
 * iptables-restore, which declares thousands of chains in one transaction (a splice per chain
 * into a 60,000-chain table is quadratic).
 */
export function appendUserChain(table: Table, name: string): Chain {
  const existing = findChain(table, name);
  if (existing) return existing;
  const chain: Chain = { name, builtin: false, counters: { packets: 0, bytes: 0 }, rules: [] };
  const idx = chainIndex(table);
  table.chains.push(chain);
  idx.set(name, chain);
  return chain;
}

/** Restores the invariant: built-ins first (in their order), then user chains by strcmp. */
export function sortUserChains(table: Table): void {
  const builtins = table.chains.filter((c) => c.builtin);
  const users = table.chains.filter((c) => !c.builtin).sort((a, b) => strcmp(a.name, b.name));
  table.chains.length = 0;
  for (const c of builtins) table.chains.push(c);
  for (const c of users) table.chains.push(c);
}

export function deleteChain(table: Table, name: string): void {
  table.chains = table.chains.filter((c) => c.name !== name);
}

/** Number of rules in the table that jump or go to `name` (the `(N references)` of `-L`). */
export function chainReferences(table: Table, name: string): number {
  let n = 0;
  for (const c of table.chains) for (const r of c.rules) if (r.target?.name === name) n++;
  return n;
}

export function isBuiltinChainName(table: TableName, name: string): boolean {
  return BUILTIN_CHAINS[table].includes(name);
}

/** The family of a ruleset (IptablesState.family). */
export function familyOfState(state: IptablesState): Family {
  return state.family === 'ipv6' ? 'ipv6' : 'ipv4';
}

/** Deep copy through JSON, for callers that want to try something without mutating. */
export function cloneState(state: IptablesState): IptablesState {
  return JSON.parse(JSON.stringify(state)) as IptablesState;
}
