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

/** A table being changed: chains and elements by name and key, so each operation is O(1). */
interface Work {
  comment: string;
  /** The kernel's per-table handle counter: a chain or set created gets the next one. */
  lastHandle: number;
  chains: Map<string, NftChain>;
  sets: Map<string, { def: NftSetOrMap; elements: Map<string, NftElement> }>;
}

function toWork(t: NftTable): Work {
  return {
    comment: t.comment,
    lastHandle: t.lastHandle ?? 0,
    chains: new Map(t.chains.map((c) => [c.name, c])),
    sets: new Map(t.sets.map((s) => [s.name, { def: s, elements: new Map(s.elements.map((e) => [e.key.join(' . '), e])) }])),
  };
}

function fromWork(w: Work, family: NftFamily): NftTable {
  const byName = (a: NftChain, b: NftChain): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return {
    family,
    name: 'kube-proxy',
    comment: w.comment,
    chains: [...w.chains.values()].sort(byName),
    sets: [...w.sets.values()].map(({ def, elements }) => ({ ...def, elements: [...elements.values()] })),
    lastHandle: w.lastHandle,
  };
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
  for (const c of w.chains.values()) {
    if (c.name === name) continue;
    for (const { rule: r } of c.rules) {
      if ((r.op === 'jump' || r.op === 'goto' || r.op === 'saddr-goto' || r.op === 'affinity-goto') && r.chain === name) return true;
      if (r.op === 'numgen' && r.chains.includes(name)) return true;
      if (r.op === 'fib-saddr-local' && typeof r.then !== 'string' && ('goto' in r.then ? r.then.goto : r.then.jump) === name) return true;
    }
  }
  for (const { elements } of w.sets.values()) for (const e of elements.values()) if (e.value === `goto ${name}` || e.value === `jump ${name}`) return true;
  return false;
}

/** The rules that look up set or map `name` (nf_tables_delset refuses a bound set). */
function setInUse(w: Work, name: string): boolean {
  for (const c of w.chains.values()) {
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
    if (op.verb === 'add') return { w: w ?? { comment: op.comment, lastHandle: 0, chains: new Map(), sets: new Map() } };
    if (!w) return { errno: 'ENOENT' };
    if (op.verb === 'delete') return {};
    for (const c of w.chains.values()) own(w, touched, c).rules.length = 0;
    return { w };
  }
  if (!w) return { errno: 'ENOENT' };
  const fail = { errno: 'ENOENT' as const };
  switch (op.obj) {
    case 'chain': {
      const c = w.chains.get(op.name);
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
        w.chains.delete(op.name);
      } else own(w, touched, c).rules.length = 0;
      return { w };
    }
    case 'rule': {
      const c = w.chains.get(op.chain);
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
        }
        return { w };
      }
      if (!s) return fail;
      if (op.verb === 'delete') {
        if (setInUse(w, op.name)) return { errno: 'EBUSY' };
        w.sets.delete(op.name);
      } else s.elements = new Map();
      return { w };
    }
    case 'element': {
      const s = w.sets.get(op.set);
      if (!s) return fail;
      const key = op.elem.key.join(' . ');
      if (op.verb === 'delete') {
        if (!s.elements.has(key)) return fail;
        s.elements.delete(key);
      } else {
        // a map element needs its verdict; a set's has none
        if ((s.def.kind === 'map') !== (op.elem.value !== undefined)) return { errno: 'EINVAL' };
        s.elements.set(key, op.elem);
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
