/**
 * The `iptables` command against a node's ruleset: `-t`, `-A -I -D -R -C -F -N -X -P -Z -E -S -L`
 * with `-n -v -x --line-numbers`, returning what the binary prints and its exit status.
 *
 * Emulates iptables-nft 1.8.x: iptables/xtables.c / xshared.c (do_parse, option letters, the
 * generic "cannot use -X with -Y" / "Illegal option" checks), iptables/nft.c (nft_strerror table:
 * "No chain/target/match by that name", "Bad rule (does a matching rule exist in that chain?)",
 * "Index of deletion too big", …; printed by xtables_main as `iptables: <text>.`, exit 1), and
 * xtables_error(PARAMETER_PROBLEM) → `iptables v1.8.7 (nf_tables): <msg>` + "Try …" line, exit 2.
 */
import type { Chain, IptablesState, Policy, Rule, Table, TableName } from './iptables.js';
import {
  TABLE_NAMES,
  bumpRev,
  addUserChain,
  ownChain,
  chainReferences,
  deleteChain,
  ensureTable,
  familyOfState,
  findChain,
  strcmp,
} from './iptables.js';
import { parseRuleArgs } from './rule-parse.js';
import type { Family } from './ipv6.js';
import type { IptablesFlavor } from './render.js';
import { DEFAULT_FLAVOR, formatRuleBody, programBanner, renderList, renderListRules, renderSave } from './render.js';
import { applyRestore } from './restore.js';
import { STANDARD_TARGETS, findTarget } from './extensions.js';

export interface IptablesResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface IptablesCmdOptions {
  flavor?: IptablesFlavor;
  /** Commands need root; the shell passes whether the user ran them through sudo / as root. */
  root?: boolean;
}

type Command = 'A' | 'I' | 'D' | 'R' | 'C' | 'F' | 'N' | 'X' | 'P' | 'Z' | 'E' | 'S' | 'L';

const LONG_COMMANDS: Readonly<Record<string, Command>> = {
  '--append': 'A',
  '--insert': 'I',
  '--delete': 'D',
  '--replace': 'R',
  '--check': 'C',
  '--flush': 'F',
  '--new-chain': 'N',
  '--new': 'N',
  '--delete-chain': 'X',
  '--policy': 'P',
  '--zero': 'Z',
  '--rename-chain': 'E',
  '--list-rules': 'S',
  '--list': 'L',
};

/** Commands whose chain argument is optional. */
const OPTIONAL_CHAIN: ReadonlySet<Command> = new Set(['F', 'X', 'Z', 'S', 'L']);
/** Commands that take a rule specification. */
const TAKES_RULE: ReadonlySet<Command> = new Set(['A', 'I', 'D', 'R', 'C']);

interface Parsed {
  cmd: Command;
  table: TableName;
  chain?: string;
  /** rule number for -I/-D/-R/-S/-L/-Z, new name for -E, policy for -P */
  extra?: string;
  numeric: boolean;
  verbose: boolean;
  exact: boolean;
  lineNumbers: boolean;
  rule: string[];
}

function tryHelp(flavor: IptablesFlavor, msg: string): IptablesResult {
  return {
    stdout: '',
    stderr: `${programBanner(flavor)}: ${msg}\nTry \`${flavor.prog ?? 'iptables'} -h' or '${flavor.prog ?? 'iptables'} --help' for more information.\n`,
    exitCode: 2,
  };
}

function nftErr(flavor: IptablesFlavor, text: string): IptablesResult {
  return { stdout: '', stderr: `${flavor.prog ?? 'iptables'}: ${text}.\n`, exitCode: 1 };
}

function ok(stdout = ''): IptablesResult {
  return { stdout, stderr: '', exitCode: 0 };
}

function parseArgv(argv: readonly string[], flavor: IptablesFlavor): Parsed | IptablesResult {
  let cmd: Command | undefined;
  let table: string = 'filter';
  let chain: string | undefined;
  let extra: string | undefined;
  let numeric = false;
  let verbose = false;
  let exact = false;
  let lineNumbers = false;
  const rule: string[] = [];

  const setCmd = (c: Command): IptablesResult | undefined => {
    if (cmd !== undefined && cmd !== c) return tryHelp(flavor, `Cannot use -${c} with -${cmd}\n`);
    cmd = c;
    return undefined;
  };

  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const takeCommandArgs = (c: Command): IptablesResult | undefined => {
      const bad = setCmd(c);
      if (bad) return bad;
      const next = argv[i + 1];
      const hasNext = next !== undefined && !next.startsWith('-') && next !== '!';
      if (!hasNext) {
        if (OPTIONAL_CHAIN.has(c)) return undefined;
        return tryHelp(flavor, `option "-${c}" requires an argument`);
      }
      chain = next;
      i++;
      if (c === 'E' || c === 'P') {
        const v = argv[i + 1];
        if (v === undefined) return tryHelp(flavor, `-${c} requires a ${c === 'P' ? 'chain and a policy' : 'old-chain-name and new-chain-name'}`);
        extra = v;
        i++;
      } else if (c === 'I' || c === 'D' || c === 'R' || c === 'L' || c === 'S' || c === 'Z') {
        const v = argv[i + 1];
        if (v !== undefined && /^[0-9]+$/.test(v)) {
          extra = v;
          i++;
        } else if (c === 'R') return tryHelp(flavor, '-R requires a rule number');
      }
      return undefined;
    };

    if (a === '-t' || a === '--table') {
      const v = argv[i + 1];
      if (v === undefined) return tryHelp(flavor, `option "${a}" requires an argument`);
      table = v;
      i++;
      continue;
    }
    if (a.startsWith('-t') && a.length > 2 && !a.startsWith('--')) {
      table = a.slice(2);
      continue;
    }
    if (a === '--line-numbers') {
      lineNumbers = true;
      continue;
    }
    if (a === '--numeric') {
      numeric = true;
      continue;
    }
    if (a === '--verbose') {
      verbose = true;
      continue;
    }
    if (a === '--exact') {
      exact = true;
      continue;
    }
    if (a === '-w' || a === '--wait' || a === '-W' || a === '--wait-interval') {
      const v = argv[i + 1];
      if (v !== undefined && /^[0-9.]+$/.test(v)) i++;
      continue;
    }
    const long = LONG_COMMANDS[a];
    if (long) {
      const r = takeCommandArgs(long);
      if (r) return r;
      continue;
    }
    if (/^-[A-Za-z]+$/.test(a) && /^-[nvxLSFZXNAIDRCPE]+$/.test(a) && !['-s', '-d', '-p', '-i', '-o', '-j', '-g', '-m', '-f', '-c'].includes(a)) {
      const letters = a.slice(1);
      for (let k = 0; k < letters.length; k++) {
        const l = letters[k] as string;
        if (l === 'n') numeric = true;
        else if (l === 'v') verbose = true;
        else if (l === 'x') exact = true;
        else {
          if (k !== letters.length - 1 && !OPTIONAL_CHAIN.has(l as Command)) {
            return tryHelp(flavor, `option "-${l}" requires an argument`);
          }
          if (k === letters.length - 1) {
            const r = takeCommandArgs(l as Command);
            if (r) return r;
          } else {
            const r = setCmd(l as Command);
            if (r) return r;
          }
        }
      }
      continue;
    }
    rule.push(a);
  }
  if (cmd === undefined) return tryHelp(flavor, 'no command specified');
  if (!(TABLE_NAMES as readonly string[]).includes(table)) {
    return {
      stdout: '',
      stderr: `${programBanner(flavor)}: table '${table}' does not exist\nPerhaps ${flavor.prog ?? 'iptables'} or your kernel needs to be upgraded.\n`,
      exitCode: 3,
    };
  }
  if (!TAKES_RULE.has(cmd) && rule.length > 0) {
    const first = rule[0] as string;
    if (first.startsWith('-')) return tryHelp(flavor, `Illegal option \`${first}' with this command\n`);
    return tryHelp(flavor, `Bad argument \`${first}'`);
  }
  const parsed: Parsed = { cmd, table: table as TableName, numeric, verbose, exact, lineNumbers, rule };
  if (chain !== undefined) parsed.chain = chain;
  if (extra !== undefined) parsed.extra = extra;
  return parsed;
}

function ruleNumber(s: string | undefined, flavor: IptablesFlavor): number | IptablesResult | undefined {
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) return tryHelp(flavor, `Invalid rule number \`${s}'`);
  return n;
}

function zero(c: Chain, rulenum?: number): void {
  if (rulenum === undefined) {
    c.counters = { packets: 0, bytes: 0 };
    c.rules = c.rules.map(zeroed);
  } else {
    const r = c.rules[rulenum - 1];
    if (r) c.rules[rulenum - 1] = zeroed(r);
  }
}

/**
 * `r` with zero counters, a new object: rules are replaced, never changed (a rule restored from a
 * line parsed before is frozen and shared by every ruleset that holds it, restore.ts PARSED).
 */
function zeroed(r: Rule): Rule {
  return { ...r, counters: { packets: 0, bytes: 0 } };
}

function validNewChainName(name: string, flavor: IptablesFlavor): IptablesResult | undefined {
  if (name.length > 28) return tryHelp(flavor, `chain name \`${name}' too long (must be under 29 chars)`);
  if (name.startsWith('-') || name.startsWith('!')) return tryHelp(flavor, `chain name not allowed to start with \`${name[0] ?? ''}'\n`);
  if (STANDARD_TARGETS.includes(name) || findTarget(name)) return tryHelp(flavor, 'chain name may not clash with target name\n');
  return undefined;
}

/**
 * Runs one `iptables` invocation (argv without the program name) against `state`, mutating it
 * when the command changes the ruleset.
 */
export function runIptables(state: IptablesState, argv: readonly string[], opts: IptablesCmdOptions = {}): IptablesResult {
  const flavor = familyFlavor(state, opts.flavor);
  const p = parseArgv(argv, flavor);
  if ('exitCode' in p) return p;
  if (opts.root === false) {
    return {
      stdout: '',
      stderr: `${programBanner(flavor)}: Could not fetch rule set generation id: Permission denied (you must be root)\n\n`,
      exitCode: 4,
    };
  }
  const table = ensureTable(state, p.table);
  const chain = p.chain === undefined ? undefined : findChain(table, p.chain);
  const num = ruleNumber(p.extra, flavor);
  if (typeof num === 'object') {
    if (p.cmd !== 'P' && p.cmd !== 'E') return num;
  }
  const rulenum = typeof num === 'number' ? num : undefined;
  if (p.cmd !== 'L' && p.cmd !== 'S') bumpRev(state);

  switch (p.cmd) {
    case 'L':
    case 'S': {
      if (p.chain !== undefined && !chain) return nftErr(flavor, 'No chain/target/match by that name');
      const family = familyOfState(state);
      const listOpts = { numeric: p.numeric, verbose: p.verbose, exact: p.exact, lineNumbers: p.lineNumbers, flavor, family };
      if (p.cmd === 'S') {
        const o: { chain?: string; rulenum?: number; verbose: boolean; family: Family } = { verbose: p.verbose, family };
        if (p.chain !== undefined) o.chain = p.chain;
        if (rulenum !== undefined) o.rulenum = rulenum;
        return ok(renderListRules(table, o));
      }
      const o: Parameters<typeof renderList>[1] = { ...listOpts };
      if (p.chain !== undefined) o.chain = p.chain;
      if (rulenum !== undefined) o.rulenum = rulenum;
      return ok(renderList(table, o));
    }
    case 'F':
      // (a chain shared with other rulesets is made the table's own first: ownChain)
      if (p.chain === undefined) {
        for (const c of table.chains) ownChain(table, c).rules = [];
        return ok();
      }
      if (!chain) return nftErr(flavor, 'No chain/target/match by that name');
      ownChain(table, chain).rules = [];
      return ok();
    case 'Z':
      if (p.chain === undefined) {
        for (const c of table.chains) zero(ownChain(table, c));
        return ok();
      }
      if (!chain) return nftErr(flavor, 'No chain/target/match by that name');
      if (rulenum !== undefined && rulenum > chain.rules.length) return nftErr(flavor, 'Index of counter too big');
      zero(ownChain(table, chain), rulenum);
      return ok();
    case 'N': {
      const name = p.chain as string;
      const bad = validNewChainName(name, flavor);
      if (bad) return bad;
      if (chain) return nftErr(flavor, 'Chain already exists');
      addUserChain(table, name);
      return ok();
    }
    case 'X':
      return deleteChains(table, p.chain, flavor);
    case 'P': {
      const policy = p.extra ?? '';
      if (!chain || !chain.builtin) return nftErr(flavor, 'Bad built-in chain name');
      if (policy !== 'ACCEPT' && policy !== 'DROP') return nftErr(flavor, 'Bad policy name');
      ownChain(table, chain).policy = policy as Policy;
      return ok();
    }
    case 'E': {
      const newName = p.extra ?? '';
      if (!chain) return nftErr(flavor, 'No chain/target/match by that name');
      if (chain.builtin) return nftErr(flavor, "Can't rename built-in chain"); // nft_chain_user_rename: EINVAL
      const bad = validNewChainName(newName, flavor);
      if (bad) return bad;
      if (findChain(table, newName)) return nftErr(flavor, 'File exists');
      const old = chain.name;
      deleteChain(table, old);
      const renamed = addUserChain(table, newName);
      // (the rules array of a shared chain is frozen: ownChain)
      renamed.rules = Object.isFrozen(chain.rules) ? chain.rules.slice() : chain.rules;
      // new rule and target objects: a rule and its parts may be shared, frozen, with other
      // rulesets (restore.ts PARSED)
      for (const c of table.chains)
        if (c.rules.some((r) => r.target?.name === old)) ownChain(table, c).rules = c.rules.map((r) => (r.target?.name === old ? { ...r, target: { ...r.target, name: newName } } : r));
      return ok();
    }
    default:
      return ruleCommand(table, p, chain, rulenum, flavor, familyOfState(state));
  }
}

function ruleCommand(
  table: Table,
  p: Parsed,
  found: Chain | undefined,
  rulenum: number | undefined,
  flavor: IptablesFlavor,
  family: Family,
): IptablesResult {
  // (the chain this command changes, the table's own: ownChain; -C only reads it)
  const chain = found && p.cmd !== 'C' ? ownChain(table, found) : found;
  if (p.cmd === 'D' && rulenum !== undefined) {
    if (p.rule.length > 0) return tryHelp(flavor, `Bad argument \`${p.rule[0] ?? ''}'`);
    if (!chain) return nftErr(flavor, 'No chain/target/match by that name');
    if (rulenum > chain.rules.length) return nftErr(flavor, 'Index of deletion too big');
    chain.rules.splice(rulenum - 1, 1);
    return ok();
  }
  const parsed = parseRuleArgs(p.rule, { chainExists: (n) => findChain(table, n)?.builtin === false, family });
  if (!parsed.ok) return tryHelp(flavor, parsed.message);
  const rule = parsed.rule;
  if (!chain) return nftErr(flavor, 'No chain/target/match by that name');
  if (rule.target?.kind === 'chain' && rule.target.name === chain.name) return nftErr(flavor, 'Loop found in table');
  const want = formatRuleBody(rule);
  switch (p.cmd) {
    case 'A':
      chain.rules.push(rule);
      return ok();
    case 'I': {
      const pos = rulenum ?? 1;
      if (pos > chain.rules.length + 1) return nftErr(flavor, 'Index of insertion too big');
      chain.rules.splice(pos - 1, 0, rule);
      return ok();
    }
    case 'R': {
      const pos = rulenum ?? 0;
      if (pos > chain.rules.length) return nftErr(flavor, 'Index of replacement too big');
      chain.rules[pos - 1] = rule;
      return ok();
    }
    case 'C':
    case 'D': {
      const at = chain.rules.findIndex((r) => formatRuleBody(r) === want);
      if (at < 0) return nftErr(flavor, 'Bad rule (does a matching rule exist in that chain?)');
      if (p.cmd === 'D') chain.rules.splice(at, 1);
      return ok();
    }
    default:
      return ok();
  }
}

/**
 * `-X [chain]`. The kernel refuses (EBUSY) to delete a chain that still has rules or is still
 * referenced; iptables-nft reports the failed batch object.
 */
function deleteChains(table: Table, name: string | undefined, flavor: IptablesFlavor): IptablesResult {
  const busy = (c: string): IptablesResult => ({
    stdout: '',
    stderr: `${programBanner(flavor)}:  CHAIN_USER_DEL failed (Device or resource busy): chain ${c}\n`,
    exitCode: 1,
  });
  if (name !== undefined) {
    const c = findChain(table, name);
    if (!c) return nftErr(flavor, 'No chain/target/match by that name');
    if (c.builtin) return nftErr(flavor, "Can't delete built-in chain");
    if (c.rules.length > 0 || chainReferences(table, name) > 0) return busy(name);
    deleteChain(table, name);
    return ok();
  }
  const users = table.chains.filter((c) => !c.builtin).sort((a, b) => strcmp(a.name, b.name));
  for (const c of users) {
    const externalRefs = table.chains
      .filter((o) => o.builtin)
      .reduce((n, o) => n + o.rules.filter((r) => r.target?.name === c.name).length, 0);
    if (c.rules.length > 0 || externalRefs > 0) return busy(c.name);
  }
  for (const c of users) deleteChain(table, c.name);
  return ok();
}

/** The flavor with ip6tables' program name when `state` is an IPv6 ruleset. */
function familyFlavor(state: IptablesState, flavor: IptablesFlavor | undefined): IptablesFlavor {
  const f = flavor ?? DEFAULT_FLAVOR;
  return familyOfState(state) === 'ipv6' && f.prog === undefined ? { ...f, prog: 'ip6tables' } : f;
}

/** `iptables-save [-t table] [-c]` (`ip6tables-save` on an IPv6 ruleset). */
export function runIptablesSave(
  state: IptablesState,
  argv: readonly string[],
  opts: IptablesCmdOptions & { now: number; prog?: string },
): IptablesResult {
  const flavor = opts.flavor ?? DEFAULT_FLAVOR;
  const family = familyOfState(state);
  const prog = opts.prog ?? (family === 'ipv6' ? 'ip6tables-save' : 'iptables-save');
  let table: string | undefined;
  let counters = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '-t' || a === '--table') {
      table = argv[i + 1];
      i++;
    } else if (a === '-c' || a === '--counters') counters = true;
    else
      return {
        stdout: '',
        stderr: `${programBanner(flavor, prog)}: Unknown arguments found on commandline\n`,
        exitCode: 1,
      };
  }
  if (table !== undefined && !(TABLE_NAMES as readonly string[]).includes(table)) {
    return { stdout: '', stderr: `${programBanner(flavor, prog)}: Cannot initialize: Table does not exist (do you need to insmod?)\n`, exitCode: 1 };
  }
  if (opts.root === false) {
    return { stdout: '', stderr: `${programBanner(flavor, prog)}: Could not fetch rule set generation id: Permission denied (you must be root)\n`, exitCode: 1 };
  }
  const saveOpts: Parameters<typeof renderSave>[1] = { flavor, now: opts.now, counters, family };
  if (opts.prog !== undefined) saveOpts.prog = opts.prog;
  if (table !== undefined) {
    saveOpts.table = table as TableName;
    ensureTable(state, table as TableName);
  }
  return ok(renderSave(state.tables, saveOpts));
}

/** `iptables-restore [-n|--noflush] [-c]` with the payload on stdin. */
export function runIptablesRestore(
  state: IptablesState,
  argv: readonly string[],
  stdin: string,
  opts: IptablesCmdOptions = {},
): IptablesResult {
  const noflush = argv.includes('-n') || argv.includes('--noflush');
  const counters = argv.includes('-c') || argv.includes('--counters');
  const r = applyRestore(state, stdin, { noflush, counters, flavor: opts.flavor ?? DEFAULT_FLAVOR });
  return r;
}

