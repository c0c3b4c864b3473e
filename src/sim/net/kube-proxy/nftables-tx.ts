/**
 * An nftables transaction on kube-proxy's `ip kube-proxy` table: the operations knftables sends
 * in one `nft -f` batch (sigs.k8s.io/knftables transaction.go: add / flush / delete of the table,
 * chains, rules, sets, maps and elements), applied all or nothing as the kernel does.
 *
 * Why a transaction and not a rebuilt table: kube-proxy's nftables proxier
 * (kubernetes pkg/proxy/nftables/proxier.go syncProxyRules) writes only what changed on a partial
 * sync, so what it leaves depends on what was there: a rule or element someone removed by hand in
 * a chain or map it does not touch stays removed. And, as in the kernel, deleting an element or
 * chain that is not there, or flushing or adding a rule to a missing chain, fails the whole batch
 * with ENOENT (nft's "Could not process rule: No such file or directory"), which makes the
 * proxier retry with a full sync.
 */
import type { NftChain, NftElement, NftFamily, NftRule, NftSetOrMap, NftState, NftTable } from './nftables.js';
import { kubeProxyTable } from './nftables.js';
import { priorityNumber } from '../nft-list.js';

export type NftOp =
  | { verb: 'add'; obj: 'table'; comment: string }
  | { verb: 'flush' | 'delete'; obj: 'table' }
  | { verb: 'add'; obj: 'chain'; name: string; base?: NftChain['base']; comment?: string }
  | { verb: 'flush' | 'delete'; obj: 'chain'; name: string }
  | { verb: 'add'; obj: 'rule'; chain: string; rule: NftRule; text: string; comment?: string }
  | { verb: 'add'; obj: 'set'; name: string; kind: 'set' | 'map'; type: string; comment?: string; flags?: string[]; timeout?: number }
  | { verb: 'flush' | 'delete'; obj: 'set'; name: string; kind: 'set' | 'map' }
  | { verb: 'add' | 'delete'; obj: 'element'; set: string; kind: 'set' | 'map'; elem: NftElement };

function quote(s: string): string {
  return `"${s}"`;
}

function elementText(e: NftElement): string {
  return `{ ${e.key.join(' . ')}${e.comment !== undefined ? ` comment ${quote(e.comment)}` : ''}${e.value !== undefined ? ` : ${e.value}` : ''} }`;
}

/** One operation as a line of the batch (knftables' transaction text, as its Fake.Dump prints objects). */
export function opText(op: NftOp, family: NftFamily = 'ip'): string {
  const PREFIX = `${family} kube-proxy`;
  switch (op.obj) {
    case 'table':
      return op.verb === 'add' ? `add table ${PREFIX} { comment ${quote(op.comment)} ; }` : `${op.verb} table ${PREFIX}`;
    case 'chain': {
      if (op.verb !== 'add') return `${op.verb} chain ${PREFIX} ${op.name}`;
      const parts: string[] = [];
      if (op.base) parts.push(`type ${op.base.type} hook ${op.base.hook} priority ${priorityNumber(op.base.priority)} ;`);
      if (op.comment !== undefined) parts.push(`comment ${quote(op.comment)} ;`);
      return `add chain ${PREFIX} ${op.name}${parts.length > 0 ? ` { ${parts.join(' ')} }` : ''}`;
    }
    case 'rule':
      return `add rule ${PREFIX} ${op.chain} ${op.text}${op.comment !== undefined ? ` comment ${quote(op.comment)}` : ''}`;
    case 'set': {
      if (op.verb !== 'add') return `${op.verb} ${op.kind} ${PREFIX} ${op.name}`;
      const parts = [`type ${op.type} ;`];
      if (op.flags !== undefined) parts.push(`flags ${op.flags.join(',')} ;`);
      if (op.timeout !== undefined) parts.push(`timeout ${op.timeout}s ;`);
      if (op.comment !== undefined) parts.push(`comment ${quote(op.comment)} ;`);
      return `add ${op.kind} ${PREFIX} ${op.name} { ${parts.join(' ')} }`;
    }
    case 'element':
      return `${op.verb} element ${PREFIX} ${op.set} ${op.verb === 'delete' ? `{ ${op.elem.key.join(' . ')} }` : elementText(op.elem)}`;
  }
}

/** The `add set|map` operation that declares `s`. */
export function setOp(s: NftSetOrMap): NftOp {
  return {
    verb: 'add',
    obj: 'set',
    name: s.name,
    kind: s.kind,
    type: s.type,
    ...(s.comment !== undefined ? { comment: s.comment } : {}),
    ...(s.flags !== undefined ? { flags: s.flags } : {}),
    ...(s.timeout !== undefined ? { timeout: s.timeout } : {}),
  };
}

/** The table as knftables' Fake.Dump lists it: table, sets and maps, chains, rules by chain, elements. */
export function dumpNftTable(t: NftTable): string[] {
  const f = t.family;
  const out = [opText({ verb: 'add', obj: 'table', comment: t.comment }, f)];
  for (const s of t.sets) out.push(opText(setOp(s), f));
  for (const c of t.chains) out.push(opText({ verb: 'add', obj: 'chain', name: c.name, ...(c.base ? { base: c.base } : {}), ...(c.comment !== undefined ? { comment: c.comment } : {}) }, f));
  for (const c of t.chains) for (const r of c.rules) out.push(opText({ verb: 'add', obj: 'rule', chain: c.name, rule: r.rule, text: r.text, ...(r.comment !== undefined ? { comment: r.comment } : {}) }, f));
  for (const s of t.sets) for (const e of s.elements) out.push(opText({ verb: 'add', obj: 'element', set: s.name, kind: s.kind, elem: e }, f));
  return out;
}

/**
 * A table's chains by name, kept per table object (a batch never changes a table: it makes a new
 * one), the new table's lookup made from the old one's and the batch's changes in time
 * proportional to the changes (a chain of at most LAYERS lookups, then one flat copy). A partial
 * sync at 10,000 Services changes a few of 70,000 chains; rebuilding the lookup and re-sorting
 * the chains at every batch cost more than the rest of the sync.
 */
interface ChainIndex {
  get(name: string): NftChain | undefined;
  depth: number;
  /** The layer's changes (a chain, or null for a deleted one) over `base`; none for a flat index. */
  over?: ReadonlyMap<string, NftChain | null>;
  base?: ChainIndex;
  /** The flat lookup at the bottom (a flat index's own). */
  map?: ReadonlyMap<string, NftChain>;
}

/**
 * (Flattening copies the whole lookup, 70,000 chains at 10,000 Services: after every 8th batch it
 * was a fifth of a partial sync. A lookup through 64 layers of a few changes each costs less.)
 */
const LAYERS = 64;
const CHAIN_INDEX = new WeakMap<NftTable, ChainIndex>();

function flatIndex(m: ReadonlyMap<string, NftChain>): ChainIndex {
  return { get: (n) => m.get(n), depth: 0, map: m };
}

function chainIndex(t: NftTable): ChainIndex {
  let i = CHAIN_INDEX.get(t);
  if (!i) {
    i = flatIndex(new Map(t.chains.map((c) => [c.name, c])));
    CHAIN_INDEX.set(t, i);
  }
  return i;
}

/** One flat copy of a layered index: the bottom map copied once, the layers' changes applied oldest first. */
function flatten(i: ChainIndex): Map<string, NftChain> {
  const overs: ReadonlyMap<string, NftChain | null>[] = [];
  let cur: ChainIndex | undefined = i;
  while (cur?.over && cur.base) {
    overs.push(cur.over);
    cur = cur.base;
  }
  const m = new Map(cur?.map ?? []);
  for (let k = overs.length - 1; k >= 0; k--) {
    for (const [n, c] of overs[k]!) {
      if (c) m.set(n, c);
      else m.delete(n);
    }
  }
  return m;
}

/** `base` with `changes` (a chain, or null for a deleted one). */
function layered(base: ChainIndex, changes: ReadonlyMap<string, NftChain | null>): ChainIndex {
  if (changes.size === 0) return base;
  const over = new Map(changes);
  if (base.depth >= LAYERS) {
    const m = flatten(base);
    for (const [n, c] of over) {
      if (c) m.set(n, c);
      else m.delete(n);
    }
    return flatIndex(m);
  }
  return { get: (n) => (over.has(n) ? (over.get(n) ?? undefined) : base.get(n)), depth: base.depth + 1, over, base };
}

/** A set being changed: its elements by key, made when an operation first touches it. */
interface SetWork {
  def: NftSetOrMap;
  elements?: Map<string, NftElement>;
}

/** A table being changed: what the batch touched, over the table it started from. */
interface Work {
  comment: string;
  /** The kernel's per-table handle counter: a chain or set created gets the next one. */
  lastHandle: number;
  base: NftTable | undefined;
  /** Chains the batch added, replaced (a copy with other rules) or deleted (null). */
  chains: Map<string, NftChain | null>;
  sets: Map<string, SetWork>;
  /** Sets in the table's (creation) order, their names. */
  setOrder: string[];
}

function toWork(t: NftTable): Work {
  return { comment: t.comment, lastHandle: t.lastHandle ?? 0, base: t, chains: new Map(), sets: new Map(t.sets.map((x) => [x.name, { def: x }])), setOrder: t.sets.map((x) => x.name) };
}

function emptyWork(comment: string): Work {
  return { comment, lastHandle: 0, base: undefined, chains: new Map(), sets: new Map(), setOrder: [] };
}

function getChain(w: Work, name: string): NftChain | undefined {
  if (w.chains.has(name)) return w.chains.get(name) ?? undefined;
  return w.base ? chainIndex(w.base).get(name) : undefined;
}

/** Each set's elements by key, kept per set object (a batch that changes a set makes a new one). */
const SET_KEYS = new WeakMap<NftSetOrMap, Map<string, NftElement>>();

function keyMap(def: NftSetOrMap): Map<string, NftElement> {
  let m = SET_KEYS.get(def);
  if (!m) {
    m = new Map(def.elements.map((e) => [e.key.join(' . '), e]));
    SET_KEYS.set(def, m);
  }
  return m;
}

/** The elements of a set the batch changes: a copy of its keyed elements, made when first touched. */
function setElements(s: SetWork): Map<string, NftElement> {
  return (s.elements ??= new Map(keyMap(s.def)));
}

/** Every chain of the batch's result (for the reference checks of a delete). */
function allChains(w: Work): NftChain[] {
  const out: NftChain[] = [];
  for (const c of w.base?.chains ?? []) if (!w.chains.has(c.name)) out.push(c);
  for (const c of w.chains.values()) if (c) out.push(c);
  return out;
}

const byName = (a: NftChain, b: NftChain): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Where chain `name` is in `chains`, sorted by name (it is there). */
function sortedIndex(chains: readonly NftChain[], name: string): number {
  let lo = 0;
  let hi = chains.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (chains[mid]!.name < name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where chain `name` is, or would go, in `chains`, sorted by name. */
function lowerBound(chains: readonly NftChain[], name: string): number {
  let lo = 0;
  let hi = chains.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (chains[mid]!.name < name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A batch that adds or deletes at most this many chains has them patched into a copy of the old list (see patched). */
const PATCH_MAX_CHANGES = 64;

/**
 * `old` (sorted by name) with the batch's chains replaced, deleted and added where they are or
 * go (binary searches), as the merge in fromWork would leave it: a partial sync at 10,000
 * Services adds an endpoint chain or two to 60,000, and the merge looked each of them up in the
 * batch's changes, a third of such a sync. Undefined when `old` is not in order (the merge then runs).
 */
function patched(old: readonly NftChain[], changes: ReadonlyMap<string, NftChain | null>, baseIndex: ChainIndex, added: NftChain[]): NftChain[] | undefined {
  const chains = old.slice();
  const gone: number[] = [];
  for (const [n, c] of changes) {
    if (!baseIndex.get(n)) continue;
    const i = lowerBound(chains, n);
    if (chains[i]?.name !== n) return undefined;
    if (c) chains[i] = c;
    else gone.push(i);
  }
  // (from the back, so the positions found still hold)
  gone.sort((a, b) => b - a);
  for (const i of gone) chains.splice(i, 1);
  added.sort(byName);
  for (const c of added) chains.splice(lowerBound(chains, c.name), 0, c);
  return chains;
}

/** Whether table `t` has chain `name` (through its kept index: no walk of a 60,000-chain list). */
export function tableHasChain(t: NftTable, name: string): boolean {
  return chainIndex(t).get(name) !== undefined;
}

/** The table the batch leaves: unchanged chains and sets shared with the old one, chains kept sorted by name. */
function fromWork(w: Work, family: NftFamily): NftTable {
  const old = w.base?.chains ?? [];
  const baseIndex = w.base ? chainIndex(w.base) : undefined;
  let chains: NftChain[];
  const added: NftChain[] = [];
  let deleted = false;
  for (const [n, c] of w.chains) {
    if (c === null) deleted = true;
    else if (!baseIndex?.get(n)) added.push(c);
  }
  // (a few chains added or deleted: patched into a copy, see patched)
  const patch = (deleted || added.length > 0) && w.chains.size <= PATCH_MAX_CHANGES && baseIndex ? patched(old, w.chains, baseIndex, added) : undefined;
  if (w.chains.size === 0) chains = old as NftChain[];
  else if (!deleted && added.length === 0) {
    // only rules changed: the same names in the same (sorted) places
    chains = old.slice();
    for (const c of w.chains.values()) if (c) chains[sortedIndex(chains, c.name)] = c;
  } else if (patch) chains = patch;
  else {
    added.sort(byName);
    chains = [];
    let a = 0;
    for (const c of old) {
      while (a < added.length && byName(added[a]!, c) < 0) chains.push(added[a++]!);
      if (!w.chains.has(c.name)) chains.push(c);
      else {
        const n = w.chains.get(c.name);
        if (n) chains.push(n);
      }
    }
    while (a < added.length) chains.push(added[a++]!);
  }
  const sets = w.setOrder.filter((n) => w.sets.has(n)).map((n) => {
    const x = w.sets.get(n)!;
    if (!x.elements) return x.def;
    const def = { ...x.def, elements: [...x.elements.values()] };
    SET_KEYS.set(def, x.elements);
    return def;
  });
  const t: NftTable = { family, name: 'kube-proxy', comment: w.comment, chains, sets, lastHandle: w.lastHandle };
  CHAIN_INDEX.set(t, w.base ? layered(chainIndex(w.base), w.chains) : flatIndex(new Map(chains.map((c) => [c.name, c]))));
  return t;
}

/** A copy of `c` whose rule list may be changed (chains the batch does not touch stay shared). */
function own(w: Work, touched: Set<string>, c: NftChain): NftChain {
  if (touched.has(c.name)) return c;
  const copy: NftChain = { ...c, rules: c.rules.slice() };
  w.chains.set(c.name, copy);
  touched.add(c.name);
  return copy;
}

/** The errno the kernel answers a refused operation with (nft prints its strerror). */
export type NftErrno = 'ENOENT' | 'EBUSY' | 'EINVAL';

const STRERROR: Record<NftErrno, string> = { ENOENT: 'No such file or directory', EBUSY: 'Device or resource busy', EINVAL: 'Invalid argument' };

/** `Error: Could not process rule: …`: nft's line for a batch the kernel refused. */
export function nftErrorLine(errno: NftErrno): string {
  return `Error: Could not process rule: ${STRERROR[errno]}`;
}

/** The chains' rules and the maps' verdicts that point at chain `name` (its use count in the kernel, nf_tables_delchain). */
function chainInUse(w: Work, name: string): boolean {
  for (const c of allChains(w)) {
    if (c.name === name) continue;
    for (const { rule: r } of c.rules) {
      if ((r.op === 'jump' || r.op === 'goto' || r.op === 'saddr-goto' || r.op === 'affinity-goto') && r.chain === name) return true;
      if (r.op === 'numgen' && r.chains.includes(name)) return true;
      if (r.op === 'fib-saddr-local' && typeof r.then !== 'string' && ('goto' in r.then ? r.then.goto : r.then.jump) === name) return true;
    }
  }
  for (const x of w.sets.values()) for (const e of x.elements ? x.elements.values() : x.def.elements) if (e.value === `goto ${name}` || e.value === `jump ${name}`) return true;
  return false;
}

/** The rules that look up set or map `name` (nf_tables_delset refuses a bound set). */
function setInUse(w: Work, name: string): boolean {
  for (const c of allChains(w)) {
    for (const { rule: r } of c.rules) {
      if (r.op === 'vmap' && (r.map === name || r.daddrSet === name)) return true;
      if ((r.op === 'daddr-set-reject' || r.op === 'affinity-goto' || r.op === 'affinity-update') && r.set === name) return true;
    }
  }
  return false;
}

/** Applies one operation; the errno (the batch then changes nothing) or the table as it now is. */
function apply(w: Work | undefined, op: NftOp, touched: Set<string>): { w?: Work; errno?: NftErrno } {
  if (op.obj === 'table') {
    if (op.verb === 'add') return { w: w ?? emptyWork(op.comment) };
    if (!w) return { errno: 'ENOENT' };
    if (op.verb === 'delete') return {};
    for (const c of allChains(w)) own(w, touched, c).rules.length = 0;
    return { w };
  }
  if (!w) return { errno: 'ENOENT' };
  const fail = { errno: 'ENOENT' as const };
  switch (op.obj) {
    case 'chain': {
      const c = getChain(w, op.name);
      if (op.verb === 'add') {
        if (!c) {
          const n: NftChain = { name: op.name, rules: [], handle: ++w.lastHandle };
          if (op.base) n.base = op.base;
          if (op.comment !== undefined) n.comment = op.comment;
          w.chains.set(op.name, n);
          touched.add(op.name);
        }
        return { w };
      }
      if (!c) return fail;
      if (op.verb === 'delete') {
        if (chainInUse(w, op.name)) return { errno: 'EBUSY' };
        w.chains.set(op.name, null);
      } else own(w, touched, c).rules.length = 0;
      return { w };
    }
    case 'rule': {
      const c = getChain(w, op.chain);
      if (!c) return fail;
      const r: NftChain['rules'][number] = { rule: op.rule, text: op.text };
      if (op.comment !== undefined) r.comment = op.comment;
      own(w, touched, c).rules.push(r);
      return { w };
    }
    case 'set': {
      const s = w.sets.get(op.name);
      if (op.verb === 'add') {
        if (!s) {
          const def: NftSetOrMap = { name: op.name, kind: op.kind, type: op.type, elements: [], handle: ++w.lastHandle };
          if (op.comment !== undefined) def.comment = op.comment;
          if (op.flags !== undefined) def.flags = op.flags;
          if (op.timeout !== undefined) def.timeout = op.timeout;
          w.sets.set(op.name, { def, elements: new Map() });
          w.setOrder.push(op.name);
        }
        return { w };
      }
      if (!s) return fail;
      if (op.verb === 'delete') {
        if (setInUse(w, op.name)) return { errno: 'EBUSY' };
        w.sets.delete(op.name);
        w.setOrder = w.setOrder.filter((n) => n !== op.name);
      } else s.elements = new Map();
      return { w };
    }
    case 'element': {
      const s = w.sets.get(op.set);
      if (!s) return fail;
      const key = op.elem.key.join(' . ');
      const els = setElements(s);
      if (op.verb === 'delete') {
        if (!els.has(key)) return fail;
        els.delete(key);
      } else {
        // a map element needs its verdict; a set's has none
        if ((s.def.kind === 'map') !== (op.elem.value !== undefined)) return { errno: 'EINVAL' };
        els.set(key, op.elem);
      }
      return { w };
    }
  }
}

/**
 * Runs `ops` as one batch on the node's `ip kube-proxy` (or `ip6 kube-proxy`) table, all or
 * nothing as the kernel commits a batch: on a refusal, the errno and the index of the operation
 * (the table is then as it was).
 */
export function runNftBatch(st: NftState, ops: readonly NftOp[], family: NftFamily = 'ip'): { errno: NftErrno; index: number } | undefined {
  if (ops.length === 0) return undefined;
  const before = kubeProxyTable(st, family);
  let w: Work | undefined = before ? toWork(before) : undefined;
  const touched = new Set<string>();
  for (let i = 0; i < ops.length; i++) {
    const r = apply(w, ops[i]!, touched);
    if (r.errno !== undefined) return { errno: r.errno, index: i };
    w = r.w;
  }
  st.rev = (st.rev ?? 0) + 1;
  if (!w) {
    st.tables = st.tables.filter((t) => t !== before);
    return undefined;
  }
  const after = fromWork(w, family);
  // the table keeps its place in the kernel's list (nft lists tables in creation order)
  st.tables = before ? st.tables.map((t) => (t === before ? after : t)) : [...st.tables, after];
  return undefined;
}

/** runNftBatch for kube-proxy's transactions: undefined, or nft's error and the refused line (what the proxier logs). */
export function runNftTransaction(st: NftState, ops: readonly NftOp[], family: NftFamily = 'ip'): string | undefined {
  const r = runNftBatch(st, ops, family);
  return r === undefined ? undefined : `${nftErrorLine(r.errno)}\n${opText(ops[r.index]!, family)}`;
}
