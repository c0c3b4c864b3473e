/**
 * `iptables-restore [--noflush]`: applies a save-format payload atomically. kube-proxy writes its
 * rules this way (`iptables-restore --noflush --counters`), so its chains are replaced while
 * chains and rules it does not declare (CNI, user rules in built-in chains) survive.
 *
 * Emulates: iptables/iptables-restore.c / xtables-restore.c: `*table`, `:CHAIN POLICY [p:b]`
 * (declaring an existing user chain flushes it even with --noflush, nft_chain_restore),
 * `-A/-I/-D/-N/-X/-F` command lines, `COMMIT`; the whole payload is applied or nothing is.
 */
import type { IptablesState, Policy, TableName } from './iptables.js';
import { TABLE_NAMES, addUserChain, appendUserChain, chainReferences, cloneState, deleteChain, ensureTable, findChain, newTable, sortUserChains } from './iptables.js';
import { parseRuleArgs, tokenizeRuleLine } from './rule-parse.js';
import type { IptablesFlavor } from './render.js';
import { DEFAULT_FLAVOR, formatRuleBody, programBanner } from './render.js';

export interface RestoreResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface RestoreOptions {
  noflush?: boolean;
  /** Restore the `[p:b]` counters (`-c`/`--counters`). */
  counters?: boolean;
  flavor?: IptablesFlavor;
}

/** Applies `payload` to `state` in place when every line is valid; otherwise leaves it untouched. */
export function applyRestore(state: IptablesState, payload: string, opts: RestoreOptions = {}): RestoreResult {
  const flavor = opts.flavor ?? DEFAULT_FLAVOR;
  const banner = programBanner(flavor, 'iptables-restore');
  const work = cloneState(state);
  let table: TableName | undefined;
  const lines = payload.split('\n');

  const lineErr = (n: number, msg: string): RestoreResult => ({
    stdout: '',
    stderr: `${banner}: ${msg}\nError occurred at line: ${n}\nTry \`iptables-restore -h' or 'iptables-restore --help' for more information.\n`,
    exitCode: 2,
  });

  for (let idx = 0; idx < lines.length; idx++) {
    const n = idx + 1;
    const line = (lines[idx] as string).trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('*')) {
      const name = line.slice(1);
      if (!(TABLE_NAMES as readonly string[]).includes(name)) return lineErr(n, `table '${name}' does not exist`);
      table = name as TableName;
      const t = ensureTable(work, table);
      if (!opts.noflush) work.tables[table] = newTable(t.name);
      continue;
    }
    if (table === undefined) return lineErr(n, 'no command specified');
    const t = ensureTable(work, table);
    if (line === 'COMMIT') {
      sortUserChains(t);
      table = undefined;
      continue;
    }
    if (line.startsWith(':')) {
      const m = /^:(\S+)\s+(\S+)(?:\s+\[(\d+):(\d+)\])?$/.exec(line);
      if (!m) return lineErr(n, `Bad chain line: ${line}`);
      const [, name = '', policy = '-', p, b] = m;
      const existing = findChain(t, name);
      if (existing?.builtin) {
        if (policy !== 'ACCEPT' && policy !== 'DROP') return lineErr(n, `Can't set policy \`${policy}' on \`${name}'`);
        existing.policy = policy as Policy;
        if (opts.counters && p !== undefined && b !== undefined) existing.counters = { packets: Number(p), bytes: Number(b) };
        continue;
      }
      if (policy !== '-') return lineErr(n, `Can't set policy \`${policy}' on \`${name}'`);
      const c = appendUserChain(t, name);
      c.rules = [];
      continue;
    }
    const args = tokenizeRuleLine(line);
    const cmd = args[0];
    const chain = args[1];
    if (chain === undefined) return lineErr(n, `option "${cmd ?? ''}" requires an argument`);
    switch (cmd) {
      case '-N':
        if (findChain(t, chain)) return lineErr(n, 'Chain already exists');
        addUserChain(t, chain);
        continue;
      case '-X': {
        const c = findChain(t, chain);
        if (!c) return lineErr(n, 'No chain/target/match by that name');
        // the kernel refuses to delete a chain that still has rules or is still jumped to (EBUSY),
        // which fails the whole transaction; the wording follows `iptables -X` (iptables-cmd.ts
        // deleteChains) with the line number restore adds — not checked against a real run
        if (c.rules.length > 0 || chainReferences(t, chain) > 0)
          return { stdout: '', stderr: `${banner}: line ${n}: CHAIN_USER_DEL failed (Device or resource busy): chain ${chain}\n`, exitCode: 1 };
        deleteChain(t, chain);
        continue;
      }
      case '-F': {
        const c = findChain(t, chain);
        if (!c) return lineErr(n, 'No chain/target/match by that name');
        c.rules = [];
        continue;
      }
      case '-A':
      case '-I':
      case '-D': {
        const c = findChain(t, chain);
        if (!c) return lineErr(n, 'No chain/target/match by that name');
        let rest = args.slice(2);
        let pos: number | undefined;
        if (cmd !== '-A' && rest[0] !== undefined && /^[0-9]+$/.test(rest[0])) {
          pos = Number(rest[0]);
          rest = rest.slice(1);
        }
        if (cmd === '-D' && pos !== undefined) {
          if (pos < 1 || pos > c.rules.length) return lineErr(n, 'Index of deletion too big');
          c.rules.splice(pos - 1, 1);
          continue;
        }
        const parsed = parseRuleArgs(rest, { chainExists: (x) => findChain(t, x)?.builtin === false });
        if (!parsed.ok) return lineErr(n, parsed.message.replace(/\n$/, ''));
        if (!opts.counters) parsed.rule.counters = { packets: 0, bytes: 0 };
        if (cmd === '-A') c.rules.push(parsed.rule);
        else if (cmd === '-I') c.rules.splice((pos ?? 1) - 1, 0, parsed.rule);
        else {
          const want = formatRuleBody(parsed.rule);
          const at = c.rules.findIndex((r) => formatRuleBody(r) === want);
          if (at < 0) return lineErr(n, 'Bad rule (does a matching rule exist in that chain?)');
          c.rules.splice(at, 1);
        }
        continue;
      }
      default:
        return lineErr(n, `Bad argument \`${cmd ?? ''}'`);
    }
  }
  if (table !== undefined) {
    return {
      stdout: '',
      stderr: `${banner}: COMMIT expected at line ${lines.length}\n`,
      exitCode: 1,
    };
  }
  state.tables = work.tables;
  return { stdout: '', stderr: '', exitCode: 0 };
}
