/**
 * find (GNU findutils 4.9, find/parser.c and find/pred.c) over the host's Vfs: starting points,
 * then an expression of tests (-name -iname -path -ipath -type -newer -mtime -mmin -size -empty
 * -perm -user -group -true -false), operators (! -not -a -and -o -or, parentheses), global
 * options (-maxdepth -mindepth -depth) and actions (-print -print0 -exec … \; and {} + -delete
 * -prune -quit). With no action the whole expression is followed by -print. Directories are walked
 * in name order (a real disk's readdir order is its own), symlinks are not followed. Error texts
 * are findutils' (with its ‘’ quotes, as in a UTF-8 locale).
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { segmentRegExp } from '../parse/glob.js';
import { shellExtras } from './types.js';
import { Out } from './util.js';
import { busyboxUsageError, isBusybox } from './busybox.js';

type Node =
  | { op: 'and' | 'or'; left: Node; right: Node }
  | { op: 'not'; expr: Node }
  | { op: 'test'; name: string; test: (e: Entry) => boolean }
  | { op: 'action'; name: string; args: string[]; batch?: boolean };

interface Entry {
  path: string;
  abs: string;
  depth: number;
  type: 'f' | 'd' | 'l';
}

class FindError extends Error {}
/** -quit: find stops at once, nothing after it in the expression runs. */
class QuitSignal {}

const GLOBAL = new Set(['-maxdepth', '-mindepth', '-depth', '-d', '-mount', '-xdev', '-noleaf', '-ignore_readdir_race', '-follow']);
const ACTIONS = new Set(['-print', '-print0', '-exec', '-execdir', '-ok', '-delete', '-prune', '-quit', '-ls', '-fprint', '-printf']);

/** `-mtime +N` / `-N` / `N` (days are floored, as pred_timewindow does). */
function compareNum(spec: string, v: number, pred: string): boolean {
  const m = /^([+-]?)(\d+)$/.exec(spec);
  if (!m) throw new FindError(`find: invalid argument \`${spec}' to \`${pred}'`);
  const n = Number(m[2]);
  return m[1] === '+' ? v > n : m[1] === '-' ? v < n : v === n;
}

function sizeTest(spec: string, bytes: number): boolean {
  const m = /^([+-]?)(\d+)([bcwkMG]?)$/.exec(spec);
  if (!m) throw new FindError(`find: invalid -size type \`${spec.replace(/^[+-]?\d+/, '')}'`);
  const unit = { b: 512, c: 1, w: 2, k: 1024, M: 1024 ** 2, G: 1024 ** 3, '': 512 }[m[3] as 'b'];
  const units = Math.ceil(bytes / unit);
  const n = Number(m[2]);
  return m[1] === '+' ? units > n : m[1] === '-' ? units < n : units === n;
}

function parsePerm(spec: string): { mode: number; kind: 'exact' | 'all' | 'any' } {
  const kind = spec.startsWith('-') ? 'all' : spec.startsWith('/') ? 'any' : 'exact';
  const body = kind === 'exact' ? spec : spec.slice(1);
  if (!/^[0-7]{1,4}$/.test(body)) throw new FindError(`find: invalid mode ‘${spec}’`);
  return { mode: parseInt(body, 8), kind };
}

/**
 * BusyBox find's words (findutils/find.c, busybox 1.36.1): `-name requires an argument`, `invalid
 * argument 'x' to '-type'`, xatoi_positive's `invalid number 'x'`, `unpaired '('`, and an unknown
 * word is `unrecognized: WORD` followed by the usage (bb_show_usage, status 1).
 */
const BB_WORDS: Array<[RegExp, (m: RegExpMatchArray) => string]> = [
  [/^find: missing argument to `(.*)'$/, (m) => `find: ${m[1]} requires an argument`],
  [/^find: Unknown argument to -type: (.*)$/, (m) => `find: invalid argument '${m[1]}' to '-type'`],
  [/^find: Expected a positive decimal integer argument to -\w+, but got \u2018(.*)\u2019$/, (m) => `find: invalid number '${m[1]}'`],
  [/^find: invalid expression; I was expecting to find a '\)'.*$/, () => "find: unpaired '('"],
];

export const find: CommandFn = async (ctx) => {
  const fs = ctx.fs;
  const args = ctx.argv.slice(1);
  const out = new Out();
  const bb = isBusybox(ctx);
  if (bb && args[0] === '--help') return busyboxUsageError('find', 0);
  let i = 0;
  const starts: string[] = [];
  while (i < args.length && !(args[i]!.startsWith('-') && args[i]!.length > 1) && args[i] !== '(' && args[i] !== '!') starts.push(args[i++]!);
  if (starts.length === 0) starts.push('.');
  let maxdepth = Infinity;
  let mindepth = 0;
  let depthFirst = false;
  let hasAction = false;
  const now = ctx.now();
  const mtimeOf = (e: Entry): number => fs.mtime(e.abs);
  const content = (e: Entry): string => (e.type === 'f' ? (fs.tryRead(e.abs) ?? '') : '');
  const need = (pred: string): string => {
    const v = args[i++];
    if (v === undefined) throw new FindError(`find: missing argument to \`${pred}'`);
    return v;
  };
  const primary = (): Node => {
    const tok = args[i++];
    if (tok === undefined) throw new FindError('find: expected an expression');
    if (tok === '(') {
      const e = orExpr();
      if (args[i++] !== ')') throw new FindError("find: invalid expression; I was expecting to find a ')' somewhere but did not see one.");
      return e;
    }
    if (tok === '!' || tok === '-not') return { op: 'not', expr: primary() };
    if (GLOBAL.has(tok)) {
      if (tok === '-maxdepth' || tok === '-mindepth') {
        const v = need(tok);
        if (!/^\d+$/.test(v)) throw new FindError(`find: Expected a positive decimal integer argument to ${tok}, but got ‘${v}’`);
        if (tok === '-maxdepth') maxdepth = Number(v);
        else mindepth = Number(v);
      } else if (tok === '-depth' || tok === '-d') depthFirst = true;
      return { op: 'test', name: tok, test: () => true };
    }
    const test = (fn: (e: Entry) => boolean): Node => ({ op: 'test', name: tok, test: fn });
    switch (tok) {
      case '-name':
      case '-iname': {
        const re = segmentRegExp(tok === '-iname' ? need(tok).toLowerCase() : need(tok));
        return test((e) => {
          const base = e.path === '/' ? '/' : (e.path.replace(/\/+$/, '').split('/').pop() ?? e.path);
          return re.test(tok === '-iname' ? base.toLowerCase() : base);
        });
      }
      case '-path':
      case '-wholename':
      case '-ipath': {
        const re = segmentRegExp(tok === '-ipath' ? need(tok).toLowerCase() : need(tok));
        return test((e) => re.test(tok === '-ipath' ? e.path.toLowerCase() : e.path));
      }
      case '-type': {
        const t = need(tok);
        if (!/^[fdlbcps](,[fdlbcps])*$/.test(t)) throw new FindError(`find: Unknown argument to -type: ${t}`);
        const set = t.split(',');
        return test((e) => set.includes(e.type));
      }
      case '-newer': {
        const ref = need(tok);
        const abs = resolvePath(ctx.cwd, ref);
        if (!fs.exists(abs)) throw new FindError(`find: ‘${ref}’: No such file or directory`);
        const t = fs.mtime(abs);
        return test((e) => mtimeOf(e) > t);
      }
      case '-mtime': {
        const spec = need(tok);
        return test((e) => compareNum(spec, Math.floor((now - mtimeOf(e)) / 86_400_000), tok));
      }
      case '-mmin': {
        const spec = need(tok);
        return test((e) => compareNum(spec, Math.ceil((now - mtimeOf(e)) / 60_000), tok));
      }
      case '-size': {
        const spec = need(tok);
        return test((e) => sizeTest(spec, e.type === 'f' ? Buffer.byteLength(content(e)) : 4096));
      }
      case '-empty':
        return test((e) => (e.type === 'd' ? fs.list(e.abs).length === 0 : e.type === 'f' && content(e) === ''));
      case '-perm': {
        const p = parsePerm(need(tok));
        return test((e) => {
          const mode = e.type === 'd' ? 0o755 : e.type === 'l' ? 0o777 : (fs.stat(e.abs)?.mode ?? 0o644) & 0o7777;
          return p.kind === 'exact' ? mode === p.mode : p.kind === 'all' ? (mode & p.mode) === p.mode : p.mode === 0 || (mode & p.mode) !== 0;
        });
      }
      case '-user':
      case '-group': {
        const who = need(tok);
        return test(() => who === 'root' || who === '0');
      }
      case '-true':
        return test(() => true);
      case '-false':
        return test(() => false);
      case '-print':
      case '-print0':
      case '-delete':
      case '-prune':
      case '-quit':
        hasAction ||= tok !== '-prune';
        if (tok === '-delete') depthFirst = true;
        return { op: 'action', name: tok, args: [] };
      case '-exec':
      case '-execdir':
      case '-ok': {
        hasAction = true;
        const cmd: string[] = [];
        for (;;) {
          const a = args[i++];
          if (a === undefined) throw new FindError(`find: missing argument to \`${tok}'`);
          if (a === ';') return { op: 'action', name: tok, args: cmd };
          if (a === '+' && cmd[cmd.length - 1] === '{}') return { op: 'action', name: tok, args: cmd.slice(0, -1), batch: true };
          cmd.push(a);
        }
      }
      default:
        if (tok.startsWith('-')) throw new FindError(ACTIONS.has(tok) ? `find: ${tok} is not supported by this simulator` : `find: unknown predicate \`${tok}'`);
        throw new FindError(`find: paths must precede expression: \`${tok}'`);
    }
  };
  const andExpr = (): Node => {
    let left = primary();
    while (i < args.length && args[i] !== '-o' && args[i] !== '-or' && args[i] !== ')') {
      if (args[i] === '-a' || args[i] === '-and') i++;
      left = { op: 'and', left, right: primary() };
    }
    return left;
  };
  const orExpr = (): Node => {
    let left = andExpr();
    while (args[i] === '-o' || args[i] === '-or') {
      i++;
      left = { op: 'or', left, right: andExpr() };
    }
    return left;
  };
  let expr: Node;
  try {
    expr = i < args.length ? orExpr() : { op: 'test', name: '-true', test: () => true };
    if (i < args.length) throw new FindError(args[i] === ')' ? "find: invalid expression; you have too many ')'" : `find: paths must precede expression: \`${args[i]}'`);
  } catch (e) {
    if (!(e instanceof FindError)) throw e;
    if (bb) {
      const bad = /^find: (?:unknown predicate `|paths must precede expression: `)(.*)'$/.exec(e.message);
      if (bad) return busyboxUsageError('find', 1, `find: unrecognized: ${bad[1]}`);
      const rule = BB_WORDS.map(([re, f]) => [e.message.match(re), f] as const).find(([m]) => m);
      out.err(rule ? rule[1](rule[0]!) : e.message);
      return out.result();
    }
    out.err(e.message);
    return out.result();
  }
  if (!hasAction) expr = { op: 'and', left: expr, right: { op: 'action', name: '-print', args: [] } };

  const batches = new Map<Node, string[]>();
  const deletions: Entry[] = [];
  let quit = false;
  let pruned = false;
  const exec = shellExtras(ctx).exec;
  const run = async (argv: string[]): Promise<boolean> => {
    if (!exec) return false;
    const r = await exec(argv, '');
    out.out(r.stdout);
    if (r.stderr) out.err(r.stderr.replace(/\n$/, ''), out.exitCode);
    // busybox: the child's exec failure is its own message, and find's status stays 0
    if (r.notFound) out.err(bb ? `find: ${argv[0]}: No such file or directory` : `find: ‘${argv[0]}’: No such file or directory`, bb ? out.exitCode : 1);
    return r.exitCode === 0;
  };
  const evalNode = async (n: Node, e: Entry): Promise<boolean> => {
    switch (n.op) {
      case 'and':
        return (await evalNode(n.left, e)) && evalNode(n.right, e);
      case 'or':
        return (await evalNode(n.left, e)) || evalNode(n.right, e);
      case 'not':
        return !(await evalNode(n.expr, e));
      case 'test':
        return n.test(e);
      case 'action':
        switch (n.name) {
          case '-print':
            out.out(`${e.path}\n`);
            return true;
          case '-print0':
            out.out(`${e.path}\0`);
            return true;
          case '-delete':
            deletions.push(e);
            return true;
          case '-prune':
            pruned = true;
            return true;
          case '-quit':
            quit = true;
            throw new QuitSignal();
          default: {
            if (n.batch) {
              (batches.get(n) ?? batches.set(n, []).get(n)!).push(e.path);
              return true;
            }
            return run(n.args.map((a) => a.split('{}').join(e.path)));
          }
        }
    }
  };
  const evaluate = async (e: Entry): Promise<void> => {
    try {
      await evalNode(expr, e);
    } catch (err) {
      if (!(err instanceof QuitSignal)) throw err;
    }
  };
  const typeOf = (abs: string): Entry['type'] | undefined => (fs.isLink(abs) ? 'l' : fs.isDir(abs) ? 'd' : fs.exists(abs) ? 'f' : undefined);
  const visit = async (path: string, abs: string, depth: number): Promise<void> => {
    if (quit) return;
    shellExtras(ctx).budget?.step();
    const type = typeOf(abs);
    if (!type) return;
    const e: Entry = { path, abs, depth, type };
    pruned = false;
    if (!depthFirst && depth >= mindepth) await evaluate(e);
    if (type === 'd' && depth < maxdepth && !(pruned && !depthFirst)) {
      for (const name of fs.list(abs)) await visit(`${path.endsWith('/') ? path : `${path}/`}${name}`, abs === '/' ? `/${name}` : `${abs}/${name}`, depth + 1);
    }
    if (depthFirst && depth >= mindepth && !quit) await evaluate(e);
  };
  for (const s of starts) {
    const abs = resolvePath(ctx.cwd, s);
    if (!fs.exists(abs) && !fs.isLink(abs)) {
      out.err(bb ? `find: ${s}: No such file or directory` : `find: ‘${s}’: No such file or directory`);
      continue;
    }
    await visit(s, abs, 0);
    if (quit) break;
  }
  for (const [n, paths] of batches) if (paths.length) await run([...(n.op === 'action' ? n.args : []), ...paths]);
  for (const e of deletions) {
    try {
      if (e.type === 'd') {
        if (fs.list(e.abs).length) {
          out.err(`find: cannot delete ‘${e.path}’: Directory not empty`);
          continue;
        }
        fs.removeTree(e.abs);
      } else fs.remove(e.abs);
    } catch {
      out.err(`find: cannot delete ‘${e.path}’: Permission denied`);
    }
  }
  return out.result();
};
