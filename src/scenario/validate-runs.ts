/**
 * The runs `cka-lab validate` proves a task instance with (the reference solution, each
 * alternative, each near-miss mutation), each from the state setup left, run as a prefix tree:
 * lines that several runs start with alike run once, and the runs part at a copy of the state
 * there (copier). Over the library about one line in ten is such a shared prefix (an `ssh` and
 * `sudo -i` before the fix, the solution a mutation `after: solution` continues, an alternative
 * that differs from the solution only in its last line).
 *
 * Exact because a copy is: a copy of a session (scenario/session.ts copier) goes on as its
 * original would, which is what `after: solution` always relied on, so a line run once before
 * the runs part says what it would have said in each of them. The one thing a copy cannot carry
 * is a background job list paused in a sleep (Session.jobClock: a list's continuation lives in
 * memory only); an instance whose lines could start a background job (BACKGROUND) is proven as
 * validate always proved it, each run from its own copy of the setup's state.
 */
import type { Session } from '../shell/session.js';
import type { Instance } from './instance.js';
import { copier } from './session.js';
import { grade, type GradeReport } from './grade.js';
import { recordAnswer } from './answers.js';
import { flushAll } from '../sim/runtime/processes.js';
import type { Pod } from '../sim/api/types.js';

/** One line's result as validate reads it (an `answer` line's is empty and succeeds). */
export interface LineResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** One run: its lines from the state setup left, what its failing lines are reported as (none for a mutation), the checks it grades. */
export interface RunSpec {
  kind: 'solution' | 'alternative' | 'mutation';
  name: string;
  lines: readonly string[];
  /** The prefix of a failing line's problem (`solution (seed 2)` comes from `solution`); none: not reported. */
  what?: string;
  /** A mutation's checks that must fail: the only ones graded. */
  fails?: readonly string[];
  /** A mutation `after: solution`: how many of its first lines are the solution's. */
  solved?: number;
}

/** How a run ended: its lines' results (up to one that threw), then its grade or what threw. */
export interface RunEnd {
  lines: LineResult[];
  report?: GradeReport;
  error?: unknown;
}

/** The runs of an instance in the order validate reports them: solution, alternatives, mutations. */
export function runsOf(inst: Instance): RunSpec[] {
  const r = inst.resolved;
  return [
    { kind: 'solution', name: 'solution', lines: r.solution, what: 'solution' },
    ...r.alternatives.map((a): RunSpec => ({ kind: 'alternative', name: a.name, lines: a.run, what: `alternative ${a.name}` })),
    // a mutation `after: solution` continues the solved state: the solution's lines, then its own
    ...r.mutations.map((m): RunSpec => ({ kind: 'mutation', name: m.id, fails: m.fails, ...(m.after === 'solution' ? { lines: [...r.solution, ...m.run], solved: r.solution.length } : { lines: m.run }) })),
  ];
}

/**
 * A `&` that may put a list in the background (not `&&`, `>&`, `&>`, `|&`): conservative, as a line
 * that only quotes one (`echo 'a & b'`) is proven unshared too, which costs time and nothing else.
 */
const BACKGROUND = /(^|[^&>|])&(?![&>])/;

/** Whether the runs' lines may share their prefixes: none of them could leave a job list paused. */
export function shareable(runs: readonly RunSpec[]): boolean {
  return !runs.some((r) => r.lines.some((l) => BACKGROUND.test(l)));
}

/** A node of the prefix tree: the state after the lines on its path. */
interface Node {
  /** The line that leads here from the parent (none at the root). */
  line?: string;
  children: Map<string, Node>;
  /**
   * The solved state's copy a mutation `after: solution` starts from (no line leads here): a copy
   * as restored (without what Cluster.carried takes over), as validate always made
   * it, where a run that goes on past a parting takes over what a restore starts afresh.
   */
  reset?: true;
  /** Runs whose lines end here, by index. */
  ends: number[];
  result?: LineResult;
  error?: unknown;
}

/**
 * The runs' prefix tree. Unshared, each run has a path of its own, but a mutation `after: solution`
 * still continues the solution's (`solved`: how many of its lines are the solution's).
 */
function treeOf(runs: readonly RunSpec[], shared: boolean): Node {
  const root: Node = { children: new Map(), ends: [] };
  runs.forEach((run, k) => {
    let n = root;
    for (const [i, line] of run.lines.entries()) {
      if (i === run.solved) n = child(n, SOLVED, { reset: true, children: new Map(), ends: [] });
      n = child(n, shared ? line : `${i < (run.solved ?? 0) ? 0 : k}\u0000${line}`, { line, children: new Map(), ends: [] });
    }
    if (run.lines.length === run.solved) n = child(n, SOLVED, { reset: true, children: new Map(), ends: [] });
    n.ends.push(k);
  });
  return root;
}

/** The key of a solved state's `reset` child (no line is this). */
const SOLVED = '\u0001solved';

function child(n: Node, key: string, make: Node): Node {
  const c = n.children.get(key);
  if (c) return c;
  n.children.set(key, make);
  return make;
}

const ANSWER = /^answer\s+(\S[\s\S]*)$/;

/**
 * One line as the learner types it. `answer TEXT` is a meta command of the practice and exam prompt
 * (ui/practice.ts, ui/exam.ts), not a shell command: a solution, alternative or mutation that types it
 * records the answer as that prompt does, so `answer` checks can be proven both ways (typed or file).
 */
export async function runLine(session: Session, line: string): Promise<LineResult> {
  const typed = ANSWER.exec(line.trim());
  if (!typed) return session.exec(line);
  recordAnswer(session, typed[1]!);
  return { exitCode: 0, stdout: '', stderr: '' };
}

export interface ProveOptions {
  /** Called with each run's session after its `wait`, before it is graded (tests compare the states). */
  observe?: (run: number, session: Session) => void;
}

/**
 * Grade `s0` untouched (in place) and prove every run from the state it had before: each run's
 * lines, then `wait` of simulated time, then its grade (in place; a mutation's only of the checks it
 * names). What a run's line or grade throws is its end (RunEnd.error); what the untouched grade
 * throws is thrown.
 */
export async function proveRuns(inst: Instance, s0: Session, runs: readonly RunSpec[], wait: number, opts: ProveOptions = {}): Promise<{ untouched: GradeReport; ends: RunEnd[] }> {
  const shared = shareable(runs);
  const root = treeOf(runs, shared);
  const ends: RunEnd[] = runs.map(() => ({ lines: [] }));
  // the untouched grade may settle s0 in place: every branch from the root starts from a copy
  const branches = root.ends.length + root.children.size;
  const take = branches > 0 ? copier(s0, true, branches) : undefined;
  const untouched = await grade(inst, s0, { inPlace: true });
  if (take) await walk(root, undefined, take, [], { shared, inst, runs, ends, wait, opts });
  return { untouched, ends };
}

interface Walk {
  shared: boolean;
  inst: Instance;
  runs: readonly RunSpec[];
  ends: RunEnd[];
  wait: number;
  opts: ProveOptions;
}

/**
 * The runs below `node`, whose state is `session` (or, when it is undefined, each branch's copy
 * from `take`: the root's). `path`: the results of the lines on the way here. A node with one
 * branch goes on in the same session; with more, each but the last takes a copy that goes on as
 * the session would (Cluster.carried: what a restore starts afresh) and the last the session
 * itself; the solved state's `reset` child takes a copy as restored, as validate always made it.
 */
async function walk(node: Node, session: Session | undefined, take: (() => Session) | undefined, path: LineResult[], w: Walk): Promise<void> {
  const kids = [...node.children.values()];
  const count = node.ends.length + kids.length;
  // the branch that goes on in the session itself: the last that is not a reset
  let live = -1;
  if (session) for (let i = count - 1; i >= 0 && live < 0; i--) if (i < node.ends.length || !kids[i - node.ends.length]!.reset) live = i;
  // a paused job list would live on in one branch only (no line of the runs could start one: shareable)
  if (session && count > 1 && w.shared && session.jobClock.next() !== undefined) throw new Error(`validate: a job list is paused where runs part, after \`${node.line}\``);
  const copies = session ? count - (live < 0 ? 0 : 1) : 0;
  // containers' output up to now, as each branch's next line would apply it (scenario/session.ts
  // setupSession): flushed once here, not again in every copy from the same checkpoints. Only where
  // every branch runs a shell line next: a run that ends here is graded as it stands, and a
  // mutation's copy of the solved state starts as validate always made it
  if (copies > 0 && node.ends.length === 0 && kids.every((k) => !k.reset && !ANSWER.test(k.line!.trim()))) flushAll(session!.cluster, session!.cluster.store.list<Pod>('Pod'));
  const copy = copies > 0 ? copier(session!, true, copies) : undefined;
  const carried = copy ? session!.cluster.carried() : undefined;
  const branch = (i: number): Session => {
    if (!session) return take!();
    if (i === live) return session;
    const s = copy!();
    if (i < node.ends.length || !kids[i - node.ends.length]!.reset) s.cluster.adoptCarried(carried!);
    return s;
  };
  for (const [i, k] of node.ends.entries()) await finish(k, () => branch(i), path, w);
  for (const [j, kid] of kids.entries()) {
    let s: Session;
    try {
      s = branch(node.ends.length + j);
      if (!kid.reset) kid.result = await runLine(s, kid.line!);
    } catch (e) {
      kid.error = e;
      for (const k of endsBelow(kid)) w.ends[k] = { lines: [...path], error: e };
      continue;
    }
    await walk(kid, s, undefined, kid.reset ? path : [...path, kid.result!], w);
  }
}

/** A run whose lines all ran: `wait`, then its grade. */
async function finish(k: number, next: () => Session, path: LineResult[], w: Walk): Promise<void> {
  const run = w.runs[k]!;
  try {
    const s = next();
    s.cluster.advance(w.wait);
    w.opts.observe?.(k, s);
    // only what validate asks of a near miss: the checks it names fail
    const report = await grade(w.inst, s, { inPlace: true, ...(run.fails ? { only: new Set(run.fails) } : {}) });
    w.ends[k] = { lines: path, report };
  } catch (e) {
    w.ends[k] = { lines: path, error: e };
  }
}

function endsBelow(n: Node): number[] {
  return [...n.ends, ...[...n.children.values()].flatMap(endsBelow)];
}
